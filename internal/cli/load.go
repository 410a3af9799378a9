package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/spf13/pflag"
)

// loaded is a compiled program with its source, for messages with carets.
// A Go package (go, not nil) has one source a file.
type loaded struct {
	path string
	src  []byte
	prog *lang.Program
	go_  *gofront.Package
}

// srcOf is the source a position of the program lies in.
func (l *loaded) srcOf(p lang.Pos) []byte {
	if l.go_ != nil {
		return l.go_.Files[p.File]
	}
	return l.src
}

// load reads and compiles a program: a .blk file, or Go code (a
// directory, a dir/... pattern or a .go file; docs/go.md). Diagnostics
// are printed to stderr (or as JSON to stdout) and reported as a
// bad-input exit.
func (e *env) load(path string, asJSON bool) (*loaded, error) {
	if gofront.IsGo(path) {
		return e.loadGo(path, asJSON)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("%v", unwrapPathError(err))
	}
	prog, errs := lang.Compile(path, src)
	if errs != nil {
		if asJSON {
			writeJSON(e.stdout, diagnosticsJSON(path, errs))
		} else {
			fmt.Fprint(e.stderr, errs.FormatMax(src, lang.MaxShown))
			fmt.Fprintf(e.stderr, "%d error%s\n", len(errs), plural(len(errs)))
		}
		return nil, reported
	}
	return &loaded{path: path, src: src, prog: prog}, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

type diagJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

func diagnosticsJSON(path string, errs lang.ErrorList) any {
	out := struct {
		File   string     `json:"file"`
		Errors []diagJSON `json:"errors"`
	}{File: path}
	for _, e := range errs {
		out.Errors = append(out.Errors, diagJSON{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg})
	}
	return out
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// defineFlag declares -D NAME=VALUE, shared by every command that runs a
// program.
func defineFlag(f *pflag.FlagSet, defs *[]string) {
	f.StringArrayVarP(defs, "define", "D", nil, "set a param or a global's initial value: NAME=VALUE (repeatable)")
}

// parseDefines turns -D NAME=VALUE flags into a map. Values are integers or
// true/false. A name given twice is refused rather than the last one taken.
func parseDefines(defs []string) (map[string]int64, error) {
	out := map[string]int64{}
	given := map[string]string{}
	for _, d := range defs {
		name, val, ok := strings.Cut(d, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, badInput("-D %q: want NAME=VALUE", d)
		}
		val = strings.TrimSpace(val)
		var v int64
		switch val {
		case "true":
			v = 1
		case "false":
			v = 0
		default:
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return nil, badInput("-D %s: %q is not an integer (or true/false)", name, val)
			}
			v = n
		}
		if first, ok := given[name]; ok {
			return nil, badInput("-D %s is set twice (-D %s and -D %s): give it once", name, first, d)
		}
		given[name] = d
		out[name] = v
	}
	return out, nil
}

// loadMachine loads a program and instantiates it with -D definitions,
// as the commands that run programs do.
func (e *env) loadMachine(path string, defs []string, asJSON bool) (*loaded, *interp.Machine, error) {
	l, err := e.load(path, asJSON)
	if err != nil {
		return nil, nil, err
	}
	m, le, err := l.instantiate(defs)
	if le != nil { // shown as the compile errors are
		errs := lang.ErrorList{le}
		if asJSON {
			writeJSON(e.stdout, diagnosticsJSON(path, errs))
		} else {
			fmt.Fprint(e.stderr, errs.Format(l.srcOf(le.Pos)))
		}
		return nil, nil, reported
	}
	if err != nil {
		return nil, nil, err
	}
	return l, m, nil
}

// machine instantiates a loaded program with -D values. A problem at those
// values located in the program (an array too large, say) is a bad-input
// exit whose message shows the source line.
func (l *loaded) machine(defs []string) (*interp.Machine, error) {
	m, le, err := l.instantiate(defs)
	if le != nil {
		return nil, &exitError{code: ExitBadInput, err: located{le, l.srcOf(le.Pos)}}
	}
	return m, err
}

// instantiate is machine, with a problem located in the program apart.
func (l *loaded) instantiate(defs []string) (*interp.Machine, *lang.Error, error) {
	set, err := parseDefines(defs)
	if err != nil {
		return nil, nil, err
	}
	m, err := interp.New(l.prog, set)
	var le *lang.Error
	if errors.As(err, &le) {
		return nil, le, nil
	}
	if err != nil {
		return nil, nil, badInput("%v", err)
	}
	return m, nil, nil
}

// located is a source problem with the source, to print with its line.
type located struct {
	e   *lang.Error
	src []byte
}

func (x located) Error() string { return strings.TrimSuffix(lang.ErrorList{x.e}.Format(x.src), "\n") }

// caret renders one located message like a diagnostic, with the source line.
func (l *loaded) caret(p lang.Pos, msg string) string {
	return lang.ErrorList{{Pos: p, Msg: msg}}.Format(l.srcOf(p))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// exprText renders a constraint for people: in Go syntax over the Go
// names for Go code (gofront's GoText), else as its canonical text.
func (l *loaded) exprText(e *ic.Expr) string {
	if l.go_ != nil {
		return l.go_.GoText(e)
	}
	return e.String()
}

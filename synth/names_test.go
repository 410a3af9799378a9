package synth

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/z3"
	"github.com/icgen/icgen/interp"
)

// identifierShapes are names a program may use that the SMT-LIB side
// could take for something else: SMT-LIB's reserved words, the names of
// theory symbols (some Z3's own), names like those icgen generates (the
// loop functions' parts, the exports' define-funs), and plain shapes.
var identifierShapes = []string{
	"_", "as", "BINARY", "DECIMAL", "exists", "HEXADECIMAL", "forall", "let", "match", "NUMERAL", "par", "STRING", "lambda",
	"and", "or", "not", "xor", "ite", "div", "mod", "abs", "select", "store", "distinct", "rem", "pi", "e", "euler",
	"to_int", "to_real", "is_int", "Int", "Bool", "Real", "Array", "const", "map", "default", "ext", "push", "pop",
	"F", "no_overflow", "invariants", "ok", "noovf", "spawns", "loop", "ic_p_q_1", "b0", "K",
	"_x", "x_", "__", "X9", "a_b_c", strings.Repeat("long", 25),
}

// renaming replaces whole-word occurrences of a name, but for the parts
// of generated function names (loop:..., ...?ok).
func renaming(name, with string) func(string) string {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_?])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_:])`)
	return func(s string) string {
		for {
			t := re.ReplaceAllString(s, "${1}"+with+"${2}")
			if t == s {
				return s
			}
			s = t
		}
	}
}

// TestIdentifierShapes: a program whose variable is named by any of
// identifierShapes gets the ICs of the same program with the name x
// (same statuses and exactness, and constraint texts made of the same
// tokens: the canonical order of terms follows names), every constraint's
// SMT-LIB form loads in Z3, and cdpor with those ICs reaches dfs's final
// states. One program names a global, the other a local and a param
// written by an in-block loop.
func TestIdentifierShapes(t *testing.T) {
	t.Parallel()
	programs := []string{
		`global int NAME = -2, z = -2;
proc p() { NAME = NAME + 1; }
proc q() { if (z >= 0) { z = NAME; } }
proc r() { NAME = NAME + 1; z = z + 1; }
init { spawn p(); spawn q(); spawn r(); }
`,
		`global int g = 0, h = 1;
proc p(int NAME) {
  int t = 0;
  while (t < NAME) { t = t + 1; g = g + h; }
  yield;
  h = NAME + t;
}
proc r() { h = 2; }
init { spawn p(2); spawn p(3); spawn r(); }
`,
	}
	for i, tmpl := range programs {
		control := synthText(t, strings.ReplaceAll(tmpl, "NAME", "x"))
		for _, name := range identifierShapes {
			t.Run(fmt.Sprintf("%d/%s", i, name), func(t *testing.T) {
				t.Parallel()
				src := strings.ReplaceAll(tmpl, "NAME", name)
				got := renaming(name, "x")(synthText(t, src))
				if tokens(got) != tokens(control) {
					t.Errorf("ICs differ from the program naming it x:\n%s\nwant\n%s", tokens(got), tokens(control))
				}
			})
		}
	}
}

// tokens sorts the tokens of each line.
func tokens(text string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		f := strings.FieldsFunc(l, func(r rune) bool { return strings.ContainsRune(" (),{}", r) })
		sort.Strings(f)
		lines = append(lines, strings.Join(f, " "))
	}
	return strings.Join(lines, "\n")
}

// synthText synthesizes the ICs of a program, checks that each constraint
// and guard loads in Z3 and that cdpor agrees with dfs, and returns the
// pairs as text.
func synthText(t *testing.T, src string) string {
	t.Helper()
	p := testprog.Named(t, "names.blk", src)
	f, _, err := Run(context.Background(), p, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	x, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	load := func(e *ic.Expr) {
		t.Helper()
		text := strings.Join(e.Declarations(), "\n") + "\n(assert " + ic.SMTLIB(e) + ")\n"
		if _, err := x.Parse(text); err != nil {
			t.Errorf("%s does not load: %v\n%s", e, err, text)
			x.ClearErr()
		}
	}
	var b strings.Builder
	for _, pr := range f.Pairs {
		var cs []string
		for _, c := range pr.Constraints {
			load(c.Expr)
			cs = append(cs, c.Text)
		}
		if pr.NoOverflow != nil {
			load(pr.NoOverflow)
		}
		fmt.Fprintf(&b, "I(%s, %s') = {%s} %s exact=%v\n", pr.A, pr.B, strings.Join(cs, " , "), pr.Status, pr.Exact)
	}
	m, err := interp.New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	oracle, _ := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.DFS})
	cd, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.CDPOR, ICs: f})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := cd.Agrees(oracle); !ok {
		t.Errorf("cdpor differs from dfs: %s", why)
	}
	return b.String()
}

package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/icgen/icgen/internal/golden"
)

// TestDiagnostics compiles every malformed program in ../testdata/bad and
// compares all its diagnostics, with source lines and carets, with the
// NAME.errors golden beside it (go test -update rewrites them).
func TestDiagnostics(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bad/*.blk")
	if len(files) < 20 {
		t.Fatalf("%d malformed programs, want at least 20", len(files))
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p, errs := Compile(name, src)
			if p != nil || len(errs) == 0 {
				t.Fatal("compiled without errors")
			}
			for i, e := range errs {
				if e.Pos.File != name {
					t.Errorf("error %q names file %q", e.Msg, e.Pos.File)
				}
				if i > 0 && !posLess(errs[i-1].Pos, e.Pos) {
					t.Errorf("errors not sorted: %v before %v", errs[i-1].Pos, e.Pos)
				}
			}
			out := errs.Format(src)
			if err := checkFormat(errs, src, out); err != "" {
				t.Error(err)
			}
			golden.File(t, strings.TrimSuffix(file, ".blk")+".errors", out)
		})
	}
}

func posLess(a, b Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col <= b.Col
}

// checkFormat checks the shape of ErrorList.Format output: for every error
// its "file:line:col: msg" line, the source line, and a caret line whose
// caret sits under column Col (in runes, tabs kept). It also checks that
// Offset, Line and Col of each position agree. It returns "" when all is
// well.
func checkFormat(errs ErrorList, src []byte, out string) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3*len(errs) {
		return "want 3 lines per error (message, source, caret), got:\n" + out
	}
	for i, e := range errs {
		msg, text, caret := lines[3*i], lines[3*i+1], lines[3*i+2]
		if msg != e.Error() {
			return "message line " + msg + ", want " + e.Error()
		}
		line, ok := sourceLine(src, e.Pos.Line)
		if !ok || text != "    "+line {
			return "source line " + text + " for " + e.Error()
		}
		pad, ok := strings.CutSuffix(strings.TrimPrefix(caret, "    "), "^")
		if !ok || strings.Trim(pad, " \t") != "" || utf8.RuneCountInString(pad) != e.Pos.Col-1 {
			return "bad caret line for " + e.Error() + ":\n" + caret
		}
		if e.Pos.Col-1 > utf8.RuneCountInString(line) {
			return "caret past the end of the line for " + e.Error()
		}
		if utf8.Valid(src) && e.Pos.Offset >= 0 && e.Pos.Offset <= len(src) {
			if p := advancePos(Pos{File: e.Pos.File, Line: 1, Col: 1}, src[:e.Pos.Offset]); p != e.Pos {
				return "position " + e.Pos.String() + " does not match its offset (" + p.String() + ") for " + e.Error()
			}
		}
	}
	return ""
}

// TestFormat checks the caret rendering on its own: tabs are kept, columns
// count runes, a column just past the end of the line is fine, and an error
// without a source line prints no excerpt.
func TestFormat(t *testing.T) {
	t.Parallel()
	src := []byte("a\tb = 1;\n/* é */ x\n\n")
	cases := []struct {
		name string
		pos  Pos
		want string
	}{
		{"first column", Pos{File: "f", Line: 1, Col: 1}, "f:1:1: m\n    a\tb = 1;\n    ^\n"},
		{"after a tab", Pos{File: "f", Line: 1, Col: 3}, "f:1:3: m\n    a\tb = 1;\n     \t^\n"},
		{"after a multibyte rune", Pos{File: "f", Line: 2, Col: 9}, "f:2:9: m\n    /* é */ x\n            ^\n"},
		{"end of line", Pos{File: "f", Line: 2, Col: 10}, "f:2:10: m\n    /* é */ x\n             ^\n"},
		{"empty line", Pos{File: "f", Line: 3, Col: 1}, "f:3:1: m\n    \n    ^\n"},
		{"line past the end", Pos{File: "f", Line: 9, Col: 1}, "f:9:1: m\n"},
		{"no position", Pos{}, "0:0: m\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := (ErrorList{{Pos: tc.pos, Msg: "m"}}).Format(src); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestSortDedup: ErrorList.Sort orders by position then message and drops
// exact duplicates.
func TestSortDedup(t *testing.T) {
	t.Parallel()
	at := func(l, c int, m string) *Error { return &Error{Pos: Pos{File: "f", Line: l, Col: c}, Msg: m} }
	l := ErrorList{at(2, 1, "b"), at(1, 5, "z"), at(2, 1, "a"), at(1, 5, "z"), at(1, 2, "y")}
	l.Sort()
	want := "f:1:2: y\nf:1:5: z\nf:2:1: a\nf:2:1: b"
	if got := l.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSyntaxMessage: participle's "expected" grammar fragments become the
// tokens that could come next, in words.
func TestSyntaxMessage(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`unexpected token "}" (expected ";")`, `unexpected "}" (expected ";")`},
		{`unexpected token "<EOF>" (expected <ident> "(" (PFormal ("," PFormal)*)? ")" PBlock)`, `unexpected end of file (expected name)`},
		{`unexpected token "{" (expected ")" PBlock)`, `unexpected "{" (expected ")")`},
		{`unexpected token ")" (expected (PFormal ("," PFormal)*)? ")" PBlock)`, `unexpected ")" (expected parameter or ")")`},
		{`unexpected token "x" (expected ("int" | "bool") PGlobalVar)`, `unexpected "x" (expected "int" or "bool")`},
		{`unexpected token ";" (expected PUnary)`, `unexpected ";" (expected expression)`},
		{`unexpected token "3" (expected <string>)`, `unexpected "3" (expected string)`},
		{`unexpected token "}" (expected (PLocal | PIf | PSimple) ";")`, `unexpected "}" (expected statement)`},
		{`unexpected token "x"`, `unexpected "x"`},
		{`unexpected token "x" (expected ~"y")`, `unexpected "x" (expected ~"y")`},
	}
	for _, tc := range cases {
		if got := syntaxMessage(tc.in); got != tc.want {
			t.Errorf("syntaxMessage(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

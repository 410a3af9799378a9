package lang

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
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

// checkFormat checks ErrorList.Format output against wantExcerpt, a slow
// and simple rendering of the same rules, and checks that Offset, Line and
// Col of each position agree and that no column lies past the end of its
// line. It returns "" when all is well.
func checkFormat(errs ErrorList, src []byte, out string) string {
	lines := strings.Split(string(src), "\n")
	cols := map[int][]string{} // line -> its columns
	for _, e := range errs {
		if _, ok := cols[e.Pos.Line]; !ok {
			cols[e.Pos.Line] = columns(sourceLine(lines, e.Pos.Line))
		}
	}
	rest := out
	for _, e := range errs {
		want := e.Error() + "\n"
		if e.Pos.Line >= 1 && e.Pos.Line <= len(lines) {
			want += wantExcerpt(cols[e.Pos.Line], e.Pos)
		}
		if !strings.HasPrefix(rest, want) {
			got, _, _ := strings.Cut(rest, "\n"+errs[len(errs)-1].Pos.File)
			return "Format printed\n" + got + "\nwant\n" + want
		}
		rest = rest[len(want):]
		if e.Pos.Col-1 > len(cols[e.Pos.Line]) {
			return "caret past the end of the line for " + e.Error()
		}
		if utf8.Valid(src) && e.Pos.Offset >= 0 && e.Pos.Offset <= len(src) {
			if p := advancePos(Pos{File: e.Pos.File, Line: 1, Col: 1}, src[:e.Pos.Offset]); p != e.Pos {
				return "position " + e.Pos.String() + " does not match its offset (" + p.String() + ") for " + e.Error()
			}
		}
	}
	if rest != "" {
		return "Format printed more than the errors:\n" + rest
	}
	return ""
}

// sourceLine returns line n (1-based) of a source split at newlines,
// without its trailing carriage returns.
func sourceLine(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}

// columns cuts a line into columns as the lexer counts them: a column
// starts at each byte that is not a UTF-8 continuation byte; continuation
// bytes that start the line belong to the first column.
func columns(line string) []string {
	var cols []string
	leading := true // cols holds only leading continuation bytes
	for i := 0; i < len(line); i++ {
		cont := line[i]&0xC0 == 0x80
		switch {
		case len(cols) == 0:
			cols = append(cols, line[i:i+1])
		case cont || leading:
			cols[len(cols)-1] += line[i : i+1]
		default:
			cols = append(cols, line[i:i+1])
		}
		leading = leading && cont
	}
	return cols
}

// wantExcerpt is the excerpt Format prints for p, whose line has the
// given columns: the line, or a window of
// excerptWidth columns with the caret column at most half a width from
// its start when the line is longer, "..." marking each cut; then the
// caret under column p.Col, tabs kept.
func wantExcerpt(cols []string, p Pos) string {
	if p.Col < 1 {
		return ""
	}
	from, to := 0, len(cols)
	if len(cols) > excerptWidth {
		from = min(max(0, p.Col-1-excerptWidth/2), len(cols))
		to = min(len(cols), from+excerptWidth)
	}
	text, caret := "    ", "    "
	if from > 0 {
		text += "..."
		caret += "   "
	}
	for _, c := range cols[from:to] {
		text += shown(c)
	}
	if to < len(cols) {
		text += "..."
	}
	for k := from; k < p.Col-1; k++ {
		if k < len(cols) && cols[k] == "\t" {
			caret += "\t"
		} else {
			caret += " "
		}
	}
	return text + "\n" + caret + "^\n"
}

// shown is how one column appears in an excerpt.
func shown(col string) string {
	r, n := utf8.DecodeRuneInString(col)
	switch {
	case !utf8.ValidString(col) || n != len(col):
		return "\uFFFD"
	case r == '\t':
		return "\t"
	case r < 0x20:
		return string(rune(0x2400 + r))
	case r == 0x7f:
		return "\u2421"
	case !unicode.IsGraphic(r):
		return "\uFFFD"
	}
	return col
}

// TestFormat checks the caret rendering on its own: tabs are kept, columns
// count runes, a column just past the end of the line is fine, an error
// without a source line prints no excerpt, long lines are cut around the
// caret, and invisible bytes are shown one visible character each.
func TestFormat(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789", 30) // 300 columns
	src := []byte("a\tb = 1;\n/* é */ x\n\n" + long + "\nx\x1b[31m\x7f\r\ny \xff\xe4\xb8 z\u202e!\r\n\x80\x80q\n")
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
		{"long line, start", Pos{File: "f", Line: 4, Col: 3},
			"f:4:3: m\n    " + long[:120] + "...\n      ^\n"},
		{"long line, middle", Pos{File: "f", Line: 4, Col: 151},
			"f:4:151: m\n    ..." + long[90:210] + "...\n       " + strings.Repeat(" ", 60) + "^\n"},
		{"long line, end", Pos{File: "f", Line: 4, Col: 301},
			"f:4:301: m\n    ..." + long[240:] + "\n       " + strings.Repeat(" ", 60) + "^\n"},
		{"control characters", Pos{File: "f", Line: 5, Col: 6},
			"f:5:6: m\n    x\u241b[31m\u2421\n         ^\n"},
		{"invalid UTF-8 and a bidi override", Pos{File: "f", Line: 6, Col: 6},
			"f:6:6: m\n    y \uFFFD\uFFFD z\uFFFD!\n         ^\n"},
		// The lexer counts no column for continuation bytes: "\x80\x80q"
		// is one column.
		{"leading continuation bytes", Pos{File: "f", Line: 7, Col: 1},
			"f:7:1: m\n    \uFFFD\n    ^\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := ErrorList{{Pos: tc.pos, Msg: "m"}}
			if got := l.Format(src); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			if msg := checkFormat(l, src, l.Format(src)); msg != "" && tc.pos.IsValid() {
				t.Error(msg)
			}
		})
	}
}

// TestFormatMax: past max errors, one line says how many were left out.
func TestFormatMax(t *testing.T) {
	t.Parallel()
	src := []byte("abc\n")
	var l ErrorList
	for c := 1; c <= 4; c++ {
		l = append(l, &Error{Pos: Pos{File: "f", Line: 1, Col: c}, Msg: "m"})
	}
	one := func(c int) string {
		return "f:1:" + string(rune('0'+c)) + ": m\n    abc\n    " + strings.Repeat(" ", c-1) + "^\n"
	}
	cases := []struct {
		max  int
		want string
	}{
		{4, one(1) + one(2) + one(3) + one(4)},
		{9, one(1) + one(2) + one(3) + one(4)},
		{3, one(1) + one(2) + one(3) + "... and 1 more error\n"},
		{1, one(1) + "... and 3 more errors\n"},
		{0, "... and 4 more errors\n"},
		{-1, "... and 4 more errors\n"},
	}
	for _, tc := range cases {
		if got := l.FormatMax(src, tc.max); got != tc.want {
			t.Errorf("FormatMax(%d) =\n%s\nwant\n%s", tc.max, got, tc.want)
		}
	}
	if got, want := l.Format(src), l.FormatMax(src, len(l)); got != want {
		t.Errorf("Format =\n%s\nwant every error:\n%s", got, want)
	}
}

// TestFormatGarbage formats the diagnostics of large garbage inputs: every
// excerpt matches the slow rendering, and the output stays within a fixed
// size per error however long the lines are.
func TestFormatGarbage(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 1<<16)
	for i := range random {
		random[i] = byte(r.IntN(256))
	}
	oneLine := bytes.Repeat([]byte("x = $ ; "), 1<<13) // 8192 errors on one line
	for _, tc := range []struct {
		name string
		src  []byte
	}{{"random bytes", random}, {"one long line", oneLine}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, errs := Compile("g.blk", tc.src)
			if p != nil || len(errs) < 100 {
				t.Fatalf("%d errors, want at least 100", len(errs))
			}
			out := errs.Format(tc.src)
			if msg := checkFormat(errs, tc.src, out); msg != "" {
				t.Fatal(msg)
			}
			// The message (under 100 bytes here), an excerpt of at most
			// excerptWidth columns plus two "...", each column at most 4
			// bytes, and a caret line as long.
			perError := 100 + 2*(4+4*(excerptWidth+6)+1)
			if len(out) > perError*len(errs) {
				t.Errorf("%d bytes for %d errors, want at most %d per error", len(out), len(errs), perError)
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

// BenchmarkFormat formats the diagnostics of 1 MB of random bytes (about
// 200,000 errors), all of them and the first MaxShown.
func BenchmarkFormat(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	src := make([]byte, 1<<20)
	for i := range src {
		src[i] = byte(r.IntN(256))
	}
	_, errs := Compile("g.blk", src)
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			_ = errs.Format(src)
		}
	})
	b.Run("max", func(b *testing.B) {
		for b.Loop() {
			_ = errs.FormatMax(src, MaxShown)
		}
	})
}

package lang

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestRecoverSyntax compares syntax recovery with the simple method it
// replaces, over mutations of the testdata programs: blank the broken
// declaration and parse the whole file again, once per error. Both must
// report the same errors, unless a declaration keyword sits inside a
// broken declaration at top level ("global int x = 1 + init;"): then the
// simple method reported a second, spurious error where the next
// declaration starts, and skipped that declaration; recovery goes on at
// the next declaration instead.
func TestRecoverSyntax(t *testing.T) {
	t.Parallel()
	var progs [][]byte
	for _, pattern := range []string{"../testdata/*.blk", "../testdata/bad/*.blk"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(scan(f, src).errs) == 0 {
				progs = append(progs, src)
			}
		}
	}
	pieces := []string{";", "}", "{", "(", ")", "=", "+", "x", "1", "int", "if", "proc", "global", "init", "func", "param", "yield;", "\n", " "}
	r := rand.New(rand.NewPCG(5, 6))
	compared, skipped, several := 0, 0, 0
	for i := 0; i < 600; i++ {
		// Several programs in one file, so that recovery crosses windows.
		var src []byte
		for k := 1 + r.IntN(6); k > 0; k-- {
			src = append(src, progs[r.IntN(len(progs))]...)
		}
		for k := 1 + r.IntN(4); k > 0; k-- {
			at := r.IntN(len(src) + 1)
			switch r.IntN(3) {
			case 0: // delete a few bytes
				src = append(src[:at], src[min(len(src), at+1+r.IntN(8)):]...)
			default: // insert a piece
				src = append(src[:at], append([]byte(pieces[r.IntN(len(pieces))]), src[at:]...)...)
			}
		}
		if sr := scan("m.blk", src); len(sr.errs) > 0 || topKeywordInside(src, sr.starts) {
			skipped++
			continue
		}
		_, got := parse("m.blk", src)
		_, want := parseByReparsing("m.blk", src)
		if len(want) > 1 {
			several++
		}
		if got.Error() != want.Error() {
			t.Fatalf("source:\n%s\nerrors:\n%s\nwant:\n%s", src, got.Error(), want.Error())
		}
		compared++
	}
	t.Logf("%d mutants compared (%d with several errors), %d skipped", compared, several, skipped)
	if compared < 400 || several < 150 {
		t.Errorf("only %d mutants compared, %d with several errors (%d skipped)", compared, several, skipped)
	}
}

// TestRecoverSyntaxCases: one error per broken declaration, the others
// parsed, including when a declaration keyword sits inside a broken
// declaration and across windows of many declarations.
func TestRecoverSyntaxCases(t *testing.T) {
	t.Parallel()
	many := strings.Repeat("proc ok() { x = 1; }\n", 300)
	cases := []struct{ name, src, want string }{
		{"keyword inside a declaration",
			"global int x = 1 + init;\nproc p() { x = 2; }\nproc q() { x = ; }\n",
			"k.blk:1:20: syntax error: unexpected \"init\" (expected expression)\n" +
				"k.blk:3:16: syntax error: unexpected \";\" (expected expression)"},
		{"keyword as a name",
			"param init = 1;\nproc p() { x = ; }\n",
			"k.blk:1:7: syntax error: init is a keyword and cannot be used as a name\n" +
				"k.blk:2:16: syntax error: unexpected \";\" (expected expression)"},
		{"two on one line", "proc p() { x = ; } proc q() { y + ; } proc r() { }",
			"k.blk:1:16: syntax error: unexpected \";\" (expected expression)\n" +
				"k.blk:1:35: syntax error: unexpected \";\" (expected expression)"},
		{"far apart", "proc p() { x = ; }\n" + many + "proc q() { y + ; }\n" + many + "proc r(",
			"k.blk:1:16: syntax error: unexpected \";\" (expected expression)\n" +
				"k.blk:302:16: syntax error: unexpected \";\" (expected expression)\n" +
				"k.blk:603:8: syntax error: unexpected end of file (expected \")\")"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, errs := parse("k.blk", []byte(tc.src))
			if got := errs.Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if _, old := parseByReparsing("k.blk", []byte(tc.src)); !strings.Contains(tc.name, "inside") && old.Error() != tc.want {
				t.Errorf("the former recovery reports\n%s", old.Error())
			}
		})
	}
}

// topKeywordInside reports whether a declaration start found by scan lies
// inside a declaration: the text before it does not end with ";" or with
// the "}" of a body.
func topKeywordInside(src []byte, starts []int) bool {
	for _, s := range starts {
		before := bytes.TrimRight(stripComments(src[:s]), " \t\r\n")
		if len(before) == 0 {
			continue
		}
		switch before[len(before)-1] {
		case ';':
		case '}':
			// A body ends a declaration; an initializer list
			// ("= {1, 2}") does not.
			if initializerList(before) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// initializerList reports whether the '}' that src ends with closes a
// global's initializer list: its '{' follows an '='.
func initializerList(src []byte) bool {
	depth := 0
	for i := len(src) - 1; i >= 0; i-- {
		switch src[i] {
		case '}':
			depth++
		case '{':
			if depth--; depth == 0 {
				prev := bytes.TrimRight(src[:i], " \t\r\n")
				return len(prev) > 0 && prev[len(prev)-1] == '='
			}
		}
	}
	return false
}

// stripComments blanks the comments of src (not inside strings: good
// enough for the mutants above, whose strings hold no comment markers).
func stripComments(src []byte) []byte {
	out := append([]byte(nil), src...)
	for i := 0; i+1 < len(out); i++ {
		switch {
		case out[i] == '/' && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case out[i] == '/' && out[i+1] == '*':
			j := bytes.Index(out[i+2:], []byte("*/"))
			end := len(out)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			for ; i < end; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
		}
	}
	return out
}

// parseByReparsing is the former recovery: after each error, blank the
// declaration holding it and parse the whole file again.
func parseByReparsing(file string, src []byte) (*pFile, ErrorList) {
	sr := scan(file, src)
	if len(sr.errs) > 0 {
		return nil, sr.errs
	}
	work := append([]byte(nil), src...)
	var errs ErrorList
	for tries := 0; tries < 1000; tries++ {
		pf, err := parser.ParseBytes(file, work)
		if err == nil {
			if len(errs) > 0 {
				return nil, errs
			}
			return pf, nil
		}
		var pe interface {
			Position() lexer.Position
			Message() string
		}
		if !errors.As(err, &pe) {
			return nil, append(errs, errSyntax(Pos{File: file, Line: 1, Col: 1}, err.Error()))
		}
		p := fromLexer(pe.Position())
		if p.Line == 0 || strings.HasPrefix(pe.Message(), `unexpected token "<EOF>"`) {
			// Point just past the last token, on a line the user can see,
			// rather than at the blank end of the file.
			p = endPos(file, bytes.TrimRight(work, " \t\r\n"))
		}
		p.File = file
		kw, isKw := keywordAsName(pe.Message())
		if isKw {
			errs = append(errs, errKeyword(p, kw))
		} else {
			errs = append(errs, errSyntax(p, syntaxMessage(pe.Message())))
		}
		lo, hi := oldChunkAround(sr.starts, len(work), p.Offset)
		if isKw && lo == p.Offset && lo > 0 {
			// A declaration keyword used as a name ("param init = 1;") looks
			// like the start of a declaration: blank the one it is part of.
			lo, _ = oldChunkAround(sr.starts, len(work), p.Offset-1)
		}
		if !blank(work, lo, hi) {
			return nil, errs
		}
	}
	return nil, errs
}
func oldChunkAround(starts []int, n, off int) (int, int) {
	lo, hi := 0, n
	for _, s := range starts {
		if s <= off {
			lo = s
		} else {
			hi = s
			break
		}
	}
	return lo, hi
}

// blank overwrites src[lo:hi] with spaces, keeping newlines so positions
// elsewhere stay valid. It reports whether anything changed.
func blank(src []byte, lo, hi int) bool {
	changed := false
	for i := lo; i < hi; i++ {
		if src[i] != '\n' && src[i] != ' ' {
			src[i] = ' '
			changed = true
		}
	}
	return changed
}

// BenchmarkRecoverSyntax parses 64 KB of broken declarations, one syntax
// error each (about 2,300 errors).
func BenchmarkRecoverSyntax(b *testing.B) {
	var src []byte
	for i := 0; len(src) < 64<<10; i++ {
		src = append(src, "proc p() { x = = 1; }\nglobal int a = ;\n"...)
	}
	for b.Loop() {
		_, _ = Compile("b.blk", src)
	}
}

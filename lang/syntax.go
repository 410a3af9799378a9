package lang

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// This file holds parsing and syntax-error recovery: one error per broken
// declaration, each message written from participle's error. The
// "expected ..." lists are read from participle's own error text (its EBNF
// of what it expected, see firstExpected), so they depend on that wording:
// TestSyntaxMessage and the .errors files of testdata/bad (TestDiagnostics)
// show any change of it.

// parse reports lexical errors first; otherwise it parses the file and, on
// a syntax error, goes on with [recoverSyntax] to find the others.
func parse(file string, src []byte) (*pFile, ErrorList) {
	sr := scan(file, src)
	if len(sr.errs) > 0 {
		return nil, sr.errs
	}
	pf, err := parser.ParseBytes(file, src)
	if err == nil {
		return pf, nil
	}
	return nil, recoverSyntax(file, src, sr.starts, err)
}

// minWindow is the size in bytes of the first window parsed after a
// syntax error (see recoverSyntax): small, so that a file with many broken
// declarations parses each of them about once.
const minWindow = 1

// recoverSyntax reports one syntax error per broken declaration, given the
// error of the parse of the whole file. A broken declaration runs from the
// last start of a top-level declaration (as scan found them) at or before
// the error to the next one; parsing goes on after it, so each broken
// declaration gets its own error.
//
// Each parse covers a window of declarations, so recovery takes time
// linear in the size of the file rather than one parse of the rest of the
// file per error: the window starts at minWindow bytes, ends at a
// declaration start, doubles each time it parses without error, and
// widens when it cut a declaration short (an error at its end).
// Declarations end with ";" or "}", so a window that parses has ended its
// last declaration where the file does, and an error before the end of a
// window is the error a parse of the whole rest would report.
func recoverSyntax(file string, src []byte, starts []int, err error) ErrorList {
	var errs ErrorList
	base := 0                              // the window is src[base:end]
	at := Pos{File: file, Line: 1, Col: 1} // the position of base
	end := len(src)
	width := minWindow
	moveBase := func(off int) {
		at = advancePos(at, src[base:off])
		base = off
	}
	// windowEnd is the first declaration start at or after off, or the
	// end of the file.
	windowEnd := func(off int) int {
		if k := sort.SearchInts(starts, off); k < len(starts) {
			return starts[k]
		}
		return len(src)
	}
	for {
		if err == nil {
			if end == len(src) {
				return errs
			}
			moveBase(end)
			width *= 2
		} else {
			var pe interface {
				Position() lexer.Position
				Message() string
			}
			if !errors.As(err, &pe) {
				return append(errs, errSyntax(at, err.Error()))
			}
			p := fromLexer(pe.Position())
			if p.Line > 0 {
				p.Col = byteColumn(src[base:], p.Offset, p.Col)
			}
			atEnd := p.Line == 0 || strings.HasPrefix(pe.Message(), `unexpected token "<EOF>"`)
			if atEnd && end < len(src) {
				// The window cut a declaration short: widen it.
				width *= 2
				end = windowEnd(max(end+1, base+width))
				_, err = parser.ParseBytes(file, src[base:end])
				continue
			}
			if atEnd {
				// Point just past the last token, on a line the user can see,
				// rather than at the blank end of the file.
				p = endPos(file, bytes.TrimRight(src[base:], " \t\r\n"))
			}
			if p.Line == 1 {
				p.Col += at.Col - 1
			}
			p.Line += at.Line - 1
			p.Offset += base
			p.File = file
			kw, isKw := keywordAsName(pe.Message())
			if isKw {
				errs = append(errs, errKeyword(p, kw))
			} else {
				errs = append(errs, errSyntax(p, syntaxMessage(pe.Message())))
			}
			// Go on after the declaration holding the error. A declaration
			// keyword used as a name ("param init = 1;") starts a chunk of
			// its own, which is skipped with it.
			_, hi := chunkAround(starts, len(src), p.Offset)
			moveBase(max(hi, base+1))
			width = minWindow
		}
		end = windowEnd(base + width)
		_, err = parser.ParseBytes(file, src[base:end])
	}
}

// keywordAsName recognizes a keyword found where a name was expected.
func keywordAsName(m string) (string, bool) {
	var kw string
	if _, err := fmt.Sscanf(m, "unexpected token %q", &kw); err != nil {
		return "", false
	}
	i := strings.Index(m, "(expected ")
	if i < 0 {
		return "", false
	}
	exp := m[i+len("(expected "):]
	isKw := false
	for _, k := range keywords {
		isKw = isKw || k == kw
	}
	return kw, isKw && (strings.HasPrefix(exp, "<ident>") || strings.HasPrefix(exp, "PGlobalVar") || strings.HasPrefix(exp, "PLocalVar") || strings.HasPrefix(exp, "PFormal"))
}

var keywords = []string{"param", "global", "proc", "func", "init", "invariant", "commute", "when", "int", "bool", "if", "else", "while", "spawn", "assert", "yield", "await", "return", "true", "false"}

// syntaxMessage rewrites participle's wording into ours. Participle says
// what it expected as the rest of the grammar sequence that failed, e.g.
// `<ident> "(" (PFormal ("," PFormal)*)? ")" PBlock`; only the tokens that
// could come next matter to the user ("expected name").
func syntaxMessage(m string) string {
	m = strings.Replace(m, `unexpected token "<EOF>"`, "unexpected end of file", 1)
	m = strings.Replace(m, "unexpected token ", "unexpected ", 1)
	if i := strings.Index(m, " (expected "); i >= 0 && strings.HasSuffix(m, ")") {
		if first, ok := firstExpected(m[i+len(" (expected ") : len(m)-1]); ok {
			return m[:i] + " (expected " + first + ")"
		}
	}
	return grammarNames.Replace(m)
}

// firstExpected returns the tokens that may start the EBNF sequence exp,
// in words: `"}"`, `name or ")"`. It fails on what it does not understand.
func firstExpected(exp string) (string, bool) {
	var toks []string
	for i := 0; i < len(exp); {
		switch c := exp[i]; {
		case c == ' ':
			i++
		case c == '"':
			j := i + 1
			for j < len(exp) && exp[j] != '"' {
				if exp[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(exp) {
				return "", false
			}
			toks = append(toks, exp[i:j+1])
			i = j + 1
		case c == '<':
			j := strings.IndexByte(exp[i:], '>')
			if j < 0 {
				return "", false
			}
			toks = append(toks, exp[i:i+j+1])
			i += j + 1
		case strings.IndexByte("()|?*+!", c) >= 0:
			toks = append(toks, exp[i:i+1])
			i++
		case isIdentStart(c):
			j := i
			for j < len(exp) && isIdentChar(exp[j]) {
				j++
			}
			toks = append(toks, exp[i:j])
			i = j
		default:
			return "", false
		}
	}
	k := 0
	first, _, ok := firstAlt(toks, &k)
	if !ok || k != len(toks) || len(first) == 0 {
		return "", false
	}
	var words []string
	seen := map[string]bool{}
	for _, t := range first {
		switch {
		case t == "<ident>":
			t = "name"
		case t == "<int>":
			t = "integer"
		case t == "<string>":
			t = "string"
		case t[0] != '"':
			t = grammarNames.Replace(t)
		}
		if !seen[t] {
			seen[t] = true
			words = append(words, t)
		}
	}
	if len(words) == 1 {
		return words[0], true
	}
	if seen["statement"] { // any of the statement keywords, or a name
		return "statement", true
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1], true
}

// firstAlt parses alternatives "a | b" from toks[*k:] up to ")" or the end,
// returning the tokens that may come first and whether the whole may be empty.
func firstAlt(toks []string, k *int) (first []string, empty, ok bool) {
	for {
		f, e, ok := firstSeq(toks, k)
		if !ok {
			return nil, false, false
		}
		first, empty = append(first, f...), empty || e
		if *k < len(toks) && toks[*k] == "|" {
			*k++
			continue
		}
		return first, empty, true
	}
}

// firstSeq parses a sequence of (possibly repeated or optional) elements.
func firstSeq(toks []string, k *int) (first []string, empty, ok bool) {
	empty = true
	for *k < len(toks) && toks[*k] != "|" && toks[*k] != ")" {
		var f []string
		var e bool
		switch t := toks[*k]; {
		case t == "(":
			*k++
			if f, e, ok = firstAlt(toks, k); !ok || *k >= len(toks) || toks[*k] != ")" {
				return nil, false, false
			}
			*k++
		case strings.ContainsAny(t[:1], "?*+!"):
			return nil, false, false
		default:
			f = []string{t}
			*k++
		}
		if *k < len(toks) && (toks[*k] == "?" || toks[*k] == "*") {
			e = true
			*k++
		} else if *k < len(toks) && (toks[*k] == "+" || toks[*k] == "!") {
			*k++
		}
		if empty {
			first = append(first, f...)
		}
		empty = empty && e
	}
	return first, empty, true
}

// grammarNames turns the parse tree's type names, which participle puts in
// "expected ..." lists, into words a user knows.
var grammarNames = strings.NewReplacer(
	"PBlockID", "block id", "PBlockAt", "label or line", "PInvariant", `"invariant"`, "PCommute", `"commute"`,
	"PBlock", `"{"`, "PExpr", "expression", "PUnary", "expression", "PPrimary", "expression",
	"PFormal", "parameter", "PStmt", "statement", "PDecl", "declaration", "PArgs", `"("`,
	"PInit2", "initializer", "PList", `"{"`, "PLocalVar", "name", "PGlobalVar", "name",
	"PBinTail", "operator", "PSimple", "statement", "PIf", `"if"`, "PParam", `"param"`,
	"PGlobal", `"global"`, "PProc", `"proc"`, "PFunc", `"func"`, "PInit", `"init"`,
	"PLocal", "declaration", "PWhile", `"while"`, "PSpawn", `"spawn"`, "PAssert", `"assert"`,
	"PYield", `"yield"`, "PAwait", `"await"`, "PReturn", `"return"`,
)

// endPos is the position just past the end of src (columns count runes).
func endPos(file string, src []byte) Pos {
	return advancePos(Pos{File: file, Line: 1, Col: 1}, src)
}

func fromLexer(p lexer.Position) Pos {
	return Pos{File: p.Filename, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

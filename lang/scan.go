package lang

import "sort"

// A small hand scanner that finds lexical problems with good messages and
// splits a file into top-level declarations, so that a syntax error in one
// declaration does not hide the errors of the others.

// topKeywords start a top-level declaration.
var topKeywords = map[string]bool{"param": true, "global": true, "proc": true, "func": true, "init": true, "invariant": true, "commute": true}

// scanResult holds the lexical errors and the start offsets of top-level
// declarations of a source.
type scanResult struct {
	errs   ErrorList
	starts []int
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }

const opChars = "=!<>&|+-*/%(){}[];,:@'"

func scan(file string, src []byte) scanResult {
	var r scanResult
	line, col := 1, 1
	pos := func(off int) Pos { return Pos{File: file, Offset: off, Line: line, Col: col} }
	depth := 0
	i := 0
	advance := func(n int) {
		for k := 0; k < n && i < len(src); k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else if src[i]&0xC0 != 0x80 {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			advance(1)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				advance(1)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			p := pos(i)
			advance(2)
			closed := false
			for i < len(src) {
				if src[i] == '*' && i+1 < len(src) && src[i+1] == '/' {
					advance(2)
					closed = true
					break
				}
				advance(1)
			}
			if !closed {
				r.errs = append(r.errs, errLexical(p, "comment not terminated"))
			}
		case c == '"':
			p := pos(i)
			advance(1)
			closed := false
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
					advance(2)
					continue
				}
				if src[i] == '"' {
					advance(1)
					closed = true
					break
				}
				advance(1)
			}
			if !closed {
				r.errs = append(r.errs, errLexical(p, "string literal not terminated"))
			}
		case isIdentStart(c):
			start := i
			for i < len(src) && isIdentChar(src[i]) {
				advance(1)
			}
			if depth == 0 && topKeywords[string(src[start:i])] {
				r.starts = append(r.starts, start)
			}
		case '0' <= c && c <= '9':
			for i < len(src) && isIdentChar(src[i]) {
				advance(1)
			}
		case c == '{':
			depth++
			advance(1)
		case c == '}':
			if depth > 0 {
				depth--
			}
			advance(1)
		case c == '&' || c == '|':
			if i+1 < len(src) && src[i+1] == c {
				advance(2)
			} else {
				r.errs = append(r.errs, errLexical(pos(i), "invalid character '"+string(c)+"' (did you mean '"+string(c)+string(c)+"'?)"))
				advance(1)
			}
		case containsByte(opChars, c):
			advance(1)
		default:
			p := pos(i)
			n := 1
			for n < 4 && i+n < len(src) && src[i+n]&0xC0 == 0x80 {
				n++
			}
			r.errs = append(r.errs, errLexical(p, "invalid character "+quoteChar(src[i:i+n])))
			advance(n)
		}
	}
	return r
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func quoteChar(b []byte) string {
	if len(b) == 1 && (b[0] < 0x20 || b[0] >= 0x7f) {
		return "0x" + string("0123456789abcdef"[b[0]>>4]) + string("0123456789abcdef"[b[0]&15])
	}
	return "'" + string(b) + "'"
}

// chunkAround returns the byte range of the top-level declaration holding
// offset off: from the last declaration start at or before off to the next
// start (or the end of the source).
func chunkAround(starts []int, n, off int) (int, int) {
	k := sort.SearchInts(starts, off+1) // starts[:k] are <= off
	lo, hi := 0, n
	if k > 0 {
		lo = starts[k-1]
	}
	if k < len(starts) {
		hi = starts[k]
	}
	return lo, hi
}

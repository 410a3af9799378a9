package lang

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// runes (UTF-8 characters), as the lexer does; Offset counts bytes. The zero
// Pos means "no position".
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// String renders the position as file:line:col.
func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Error is one problem found in a program's source. Problems in the input are
// results of [Compile], not failures of the tool.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of source problems, sorted by position by [ErrorList.Sort].
type ErrorList []*Error

func (l ErrorList) Len() int { return len(l) }

// Sort orders the list by position, then message, and removes exact duplicates.
func (l *ErrorList) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i].Pos, s[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return s[i].Msg < s[j].Msg
	})
	out := s[:0]
	for i, e := range s {
		if i > 0 && e.Pos == s[i-1].Pos && e.Msg == s[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Error joins the messages without source excerpts.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// MaxShown is how many errors icgen prints as text ([ErrorList.FormatMax]):
// past the first hundred, more carets rarely help, and a file of garbage
// would otherwise print many times its own size.
const MaxShown = 100

// excerptWidth is how many columns of a source line an excerpt shows at
// most: a longer line is cut to a window around the caret, marked "...".
const excerptWidth = 120

// Format renders every error as "file:line:col: msg", followed by the
// source line and a caret under the column. Its time is linear in the size
// of src plus the number of errors: line starts are indexed once, and an
// excerpt shows at most excerptWidth columns of its line, "..." marking
// what is cut. Control characters and invalid UTF-8 in an excerpt are
// shown as one visible character each (U+2400 control pictures, U+FFFD),
// so the caret stays under its column and the terminal is left alone.
func (l ErrorList) Format(src []byte) string { return l.FormatMax(src, len(l)) }

// FormatMax renders the first max errors as [ErrorList.Format] does and,
// when the list is longer, a last line saying how many were left out:
// "... and 7 more errors".
func (l ErrorList) FormatMax(src []byte, max int) string {
	if max < 0 {
		max = 0
	}
	shown := l
	if len(shown) > max {
		shown = shown[:max]
	}
	var b strings.Builder
	x := excerpter{src: src}
	for _, e := range shown {
		b.WriteString(e.Error())
		b.WriteByte('\n')
		x.write(&b, e.Pos)
	}
	if n := len(l) - len(shown); n > 0 {
		fmt.Fprintf(&b, "... and %d more error%s\n", n, plural(n))
	}
	return b.String()
}

// excerpter renders source lines with carets. Columns are counted as the
// lexer counts them: one per byte that is not a UTF-8 continuation byte.
type excerpter struct {
	src    []byte
	starts []int // byte offset of each line's start, indexed on first use
	// The last column located, to walk on from when the next one is
	// further on the same line (errors come sorted by position).
	line, col, off int
}

// bounds returns the byte range of line n (1-based) without its newline
// and trailing carriage returns.
func (x *excerpter) bounds(n int) (lo, hi int, ok bool) {
	if x.starts == nil {
		x.starts = append(x.starts, 0)
		for i, c := range x.src {
			if c == '\n' {
				x.starts = append(x.starts, i+1)
			}
		}
	}
	if n < 1 || n > len(x.starts) {
		return 0, 0, false
	}
	lo, hi = x.starts[n-1], len(x.src)
	if n < len(x.starts) {
		hi = x.starts[n] - 1
	}
	for hi > lo && x.src[hi-1] == '\r' {
		hi--
	}
	return lo, hi, true
}

func isCont(c byte) bool { return c&0xC0 == 0x80 }

// next returns the end of the column starting at byte i (i < hi): its
// first byte and the continuation bytes after it. Continuation bytes at
// the start of a line belong to the first column, as the lexer counts.
func (x *excerpter) next(i, hi int) int {
	for i < hi && isCont(x.src[i]) {
		i++
	}
	if i < hi {
		i++
	}
	for i < hi && isCont(x.src[i]) {
		i++
	}
	return i
}

// walk moves from byte i, at column col, n columns on without passing hi;
// it returns the byte offset and column reached.
func (x *excerpter) walk(i, col, n, hi int) (int, int) {
	for ; n > 0 && i < hi; n-- {
		i = x.next(i, hi)
		col++
	}
	return i, col
}

// locate returns the byte offset of column col of line (bounds lo, hi) and
// the column it is at: col itself, or one past the last column of a line
// that ends before col.
func (x *excerpter) locate(line, col, lo, hi int) (int, int) {
	i, c := lo, 1
	if x.line == line && x.col <= col {
		i, c = x.off, x.col
	}
	i, c = x.walk(i, c, col-c, hi)
	x.line, x.col, x.off = line, c, i
	return i, c
}

// write renders the excerpt of p: its source line (or the window of it
// around p) and a caret line. It writes nothing when p has no source line.
func (x *excerpter) write(b *strings.Builder, p Pos) {
	lo, hi, ok := x.bounds(p.Line)
	if !ok || p.Col < 1 {
		return
	}
	from, fromCol, to := lo, 1, hi
	if end, _ := x.walk(lo, 1, excerptWidth, hi); end < hi {
		// Too long to show whole: a window with the caret near its middle.
		fromCol = p.Col - excerptWidth/2
		if fromCol < 1 {
			fromCol = 1
		}
		from, fromCol = x.locate(p.Line, fromCol, lo, hi)
		to, _ = x.walk(from, fromCol, excerptWidth, hi)
	}
	b.WriteString("    ")
	if fromCol > 1 {
		b.WriteString("...")
	}
	for i := from; i < to; {
		j := x.next(i, to)
		b.WriteRune(visible(x.src[i:j]))
		i = j
	}
	if to < hi {
		b.WriteString("...")
	}
	b.WriteString("\n    ")
	if fromCol > 1 {
		b.WriteString("   ")
	}
	c := fromCol
	for i := from; i < to && c < p.Col; c++ {
		j := x.next(i, to)
		if j == i+1 && x.src[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i = j
	}
	for ; c < p.Col; c++ {
		b.WriteByte(' ')
	}
	b.WriteString("^\n")
}

// visible returns how one column of source is shown: its character when it
// is printable (or a tab), a control picture for a control character, and
// U+FFFD for invalid UTF-8 or another invisible character.
func visible(col []byte) rune {
	r, n := utf8.DecodeRune(col)
	switch {
	case n != len(col) || r == utf8.RuneError && n <= 1:
		return utf8.RuneError
	case r == '\t':
		return r
	case r < 0x20:
		return 0x2400 + r
	case r == 0x7f:
		return 0x2421
	case !unicode.IsGraphic(r):
		return utf8.RuneError
	}
	return r
}

// The constructors below are the only places messages are written: one per
// kind of problem, so a message reads the same wherever it is reported.

func errAt(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

func errSyntax(p Pos, msg string) *Error  { return errAt(p, "syntax error: %s", msg) }
func errLexical(p Pos, msg string) *Error { return errAt(p, "%s", msg) }
func errRedeclared(p Pos, name string, prev Pos) *Error {
	return errAt(p, "%s redeclared (previous declaration at %d:%d)", name, prev.Line, prev.Col)
}
func errUndeclared(p Pos, name string) *Error { return errAt(p, "undeclared name %s", name) }
func errNotKind(p Pos, name, is, want string) *Error {
	return errAt(p, "%s is %s, not %s", name, is, want)
}
func errOperand(p Pos, op string, want, got Type) *Error {
	return errAt(p, "operator %s needs %s operands, got %s", op, want, got)
}
func errUnaryOperand(p Pos, op string, want, got Type) *Error {
	return errAt(p, "operator %s needs %s operand, got %s", op, article(want.String()), got)
}
func errIndexType(p Pos, got Type) *Error { return errAt(p, "array index must be int, got %s", got) }
func errKeyword(p Pos, kw string) *Error {
	return errAt(p, "syntax error: %s is a keyword and cannot be used as a name", kw)
}
func errMismatch(p Pos, op string, x, y Type) *Error {
	return errAt(p, "operator %s applied to mismatched types %s and %s", op, x, y)
}
func errCondition(p Pos, what string, got Type) *Error {
	return errAt(p, "%s condition must be bool, got %s", what, got)
}
func errAssignType(p Pos, name string, want, got Type) *Error {
	return errAt(p, "cannot assign %s to %s (of type %s)", got, name, want)
}
func errNotAssignable(p Pos, what string) *Error { return errAt(p, "cannot assign to %s", what) }
func errArity(p Pos, what, name string, want, got int) *Error {
	return errAt(p, "%s %s expects %d argument%s, got %d", what, name, want, plural(want), got)
}
func errArgType(p Pos, i int, name string, want, got Type) *Error {
	return errAt(p, "argument %d of %s must be %s, got %s", i, name, want, got)
}
func errNotAllowed(p Pos, stmt, where string) *Error {
	return errAt(p, "%s is not allowed in %s", stmt, where)
}
func errReturnValue(p Pos, fn string) *Error {
	return errAt(p, "%s returns no value, but return has one", fn)
}
func errReturnMissingValue(p Pos, fn string, t Type) *Error {
	return errAt(p, "%s must return %s value", fn, article(t.String()))
}
func errMissingReturn(p Pos, fn string) *Error {
	return errAt(p, "missing return at end of func %s", fn)
}
func errRecursion(p Pos, cycle string) *Error {
	return errAt(p, "recursive calls are not allowed: %s", cycle)
}
func errVoidValue(p Pos, fn string) *Error {
	return errAt(p, "func %s returns no value and cannot be used in an expression", fn)
}
func errExprStmt(p Pos) *Error {
	return errAt(p, "expression is not a statement (only calls can stand alone)")
}
func errIntRange(p Pos, lit string) *Error {
	return errAt(p, "integer literal %s does not fit in 64 bits", lit)
}
func errNotConstant(p Pos, what string) *Error {
	return errAt(p, "%s must be a constant expression of literals and params", what)
}
func errArraySize(p Pos, name string) *Error {
	return errAt(p, "size of array %s must be a positive integer literal or a param", name)
}
func errInitLen(p Pos, name string, size int64, got int) *Error {
	return errAt(p, "array %s has %d element%s but %d initializer%s", name, size, plural(int(size)), got, plural(got))
}
func errInvariantUnbounded(p Pos, name string) *Error {
	return errAt(p, "an invariant cannot read the unbounded array %s", name)
}
func errUnboundedInit(p Pos, name string) *Error {
	return errAt(p, "unbounded array %s takes no initializer: its elements start at 0", name)
}
func errInitList(p Pos, name string) *Error {
	return errAt(p, "%s is not an array: a list initializer needs an array", name)
}
func errArrayType(p Pos, name string, t Type) *Error {
	return errAt(p, "array %s must have element type int, not %s", name, t)
}
func errDuplicateInit(p Pos, prev Pos) *Error {
	return errAt(p, "init redeclared (previous init at %d:%d)", prev.Line, prev.Col)
}
func errLabelRedeclared(p Pos, label string, prev Pos) *Error {
	return errAt(p, "label %s redeclared (previous label at %d:%d)", label, prev.Line, prev.Col)
}
func errReturnType(p Pos, fn string, want, got Type) *Error {
	return errAt(p, "cannot return %s from %s (result type %s)", got, fn, want)
}
func errLabel(p Pos, label string) *Error {
	return errAt(p, "label %s: only yield and await statements can be labeled", label)
}
func errArrayValue(p Pos, name string) *Error {
	return errAt(p, "array %s must be indexed", name)
}
func errParamValue(p Pos, name string) *Error {
	return errAt(p, "param %s must be an integer literal (optionally negative)", name)
}

func errUnknownBlock(p Pos, id string, procBlocks []string) *Error {
	if procBlocks == nil {
		return errAt(p, "unknown block %s (no proc %s)", id, id[:strings.IndexAny(id+"@", "@")])
	}
	return errAt(p, "unknown block %s (the blocks of %s are %s)", id, procBlocks[0], strings.Join(procBlocks, ", "))
}
func errNotLive(p Pos, name, block string) *Error {
	return errAt(p, "%s is not live at the start of block %s (a commute condition reads only live locals)", name, block)
}
func errPrimeOutside(p Pos, name string) *Error {
	return errAt(p, "%s': primed names are only allowed in commute conditions", name)
}
func errPrimeShared(p Pos, name string) *Error {
	return errAt(p, "%s': only locals can be primed (globals and params are shared by both processes)", name)
}

// article prefixes a word with "a" or "an".
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

package lang

import (
	"fmt"
	"sort"
	"strings"
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

// Format renders every error as "file:line:col: msg", followed by the source
// line and a caret under the column.
func (l ErrorList) Format(src []byte) string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error())
		b.WriteByte('\n')
		if line, ok := sourceLine(src, e.Pos.Line); ok && e.Pos.Col > 0 {
			b.WriteString("    ")
			b.WriteString(line)
			b.WriteString("\n    ")
			b.WriteString(caretPad(line, e.Pos.Col))
			b.WriteString("^\n")
		}
	}
	return b.String()
}

// sourceLine returns line n (1-based) of src without its newline.
func sourceLine(src []byte, n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	lines := strings.Split(string(src), "\n")
	if n > len(lines) {
		return "", false
	}
	return strings.TrimRight(lines[n-1], "\r"), true
}

// caretPad returns the whitespace that puts a caret under (rune) column col
// of line, keeping tabs so the caret lines up in a terminal.
func caretPad(line string, col int) string {
	var b strings.Builder
	n := 0
	for _, r := range line {
		if n >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		n++
	}
	if n < col-1 {
		b.WriteString(strings.Repeat(" ", col-1-n))
	}
	return b.String()
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

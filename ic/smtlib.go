package ic

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var simpleSymbol = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// reserved are the names that cannot be written as simple symbols: the
// reserved words of SMT-LIB 2.6 (Sec. 3.1) and the names of the theory
// symbols the encoding itself uses. Quoted (|as|) they are plain symbols.
// Other theory names (abs, rem, pi) may be declared as constants; Z3
// resolves them to the declaration (a test checks every kind of name).
var reserved = map[string]bool{
	"!": true, "_": true, "as": true, "BINARY": true, "DECIMAL": true, "exists": true, "HEXADECIMAL": true,
	"forall": true, "let": true, "match": true, "NUMERAL": true, "par": true, "STRING": true, "lambda": true,
	"true": true, "false": true, "and": true, "or": true, "not": true, "xor": true, "ite": true, "div": true,
	"mod": true, "abs": true, "select": true, "store": true, "distinct": true,
}

// Symbol renders a name as an SMT-LIB2 symbol (SymbolName), quoted when
// needed: the second process's local v is |v'|.
func Symbol(name string) string {
	name = SymbolName(name)
	if simpleSymbol.MatchString(name) && !reserved[name] {
		return name
	}
	return "|" + name + "|"
}

// SymbolName is the SMT-LIB2 symbol that stands for a name, unquoted: the
// name itself, except for as and _, which Z3 refuses to declare even
// quoted: they become as! and _! (no program identifier, and no name
// icgen generates, contains '!'). Code that makes solver constants by name
// must use it.
func SymbolName(name string) string {
	if name == "as" || name == "_" {
		return name + "!"
	}
	return name
}

func smtInt(v int64) string {
	if v < 0 {
		if v == -1<<63 {
			return "(- 9223372036854775808)"
		}
		return "(- " + strconv.FormatInt(-v, 10) + ")"
	}
	return strconv.FormatInt(v, 10)
}

// SMTLIB renders the expression as an SMT-LIB2 term. Truncated / and %
// are encoded over div (Euclidean), as the synthesizer does.
func SMTLIB(e *Expr) string {
	var b strings.Builder
	e.smt(&b)
	return b.String()
}

// DivX and DivY name the operands of a truncated division or remainder
// bound by a let in SMT-LIB text (here and in package encode): with a
// space, which no program identifier has (printed quoted). The let binds
// in parallel, so nested lets of the same names read their operands in
// the enclosing scope.
const DivX, DivY = "div x", "div y"

// atomic reports whether e prints as one token: a literal or a name.
func (e *Expr) atomic() bool {
	switch e.Op {
	case "int", "true", "false", "global", "local", "param", "ref":
		return true
	}
	return false
}

func (e *Expr) name() string {
	if e.Op == "local" {
		return e.Name + strings.Repeat("'", e.Event)
	}
	return e.Name
}

func (e *Expr) smt(b *strings.Builder) {
	app := func(head string, args ...*Expr) {
		b.WriteString("(" + head)
		for _, a := range args {
			b.WriteByte(' ')
			a.smt(b)
		}
		b.WriteByte(')')
	}
	switch e.Op {
	case "int":
		b.WriteString(smtInt(*e.Value))
	case "true", "false":
		b.WriteString(e.Op)
	case "global", "local", "param", "ref":
		b.WriteString(Symbol(e.name()))
	case "let":
		// One let a level: the definitions that read only earlier
		// levels' are bound together (SMT-LIB's let binds in parallel).
		level := map[string]int{}
		var levels [][]Def
		for _, d := range e.Defs {
			l := 0
			d.Expr.walk(func(x *Expr) {
				if x.Op == "ref" {
					if k, ok := level[x.Name]; ok {
						l = max(l, k+1)
					}
				}
			})
			level[d.Name] = l
			if l == len(levels) {
				levels = append(levels, nil)
			}
			levels[l] = append(levels[l], d)
		}
		for _, ds := range levels {
			b.WriteString("(let (")
			for i, d := range ds {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString("(" + Symbol(d.Name) + " ")
				d.Expr.smt(b)
				b.WriteByte(')')
			}
			b.WriteString(") ")
		}
		e.Args[0].smt(b)
		b.WriteString(strings.Repeat(")", len(levels)))
	case "select":
		b.WriteString("(select " + Symbol(e.Name) + " ")
		e.Args[0].smt(b)
		b.WriteByte(')')
	case "apply":
		if len(e.Args) == 0 {
			b.WriteString(Symbol(e.Name))
		} else {
			app(Symbol(e.Name), e.Args...)
		}
	case "!":
		app("not", e.Args...)
	case "&&":
		app("and", e.Args...)
	case "||":
		app("or", e.Args...)
	case "==":
		app("=", e.Args...)
	case "!=":
		app("distinct", e.Args...)
	case "/", "%":
		x, y := e.Args[0], e.Args[1]
		// Compound operands are bound once by a let (see DivX): the
		// encoding mentions x three or four times, and nested remainders
		// printed it 4^depth times.
		let := !x.atomic() || !y.atomic()
		if let {
			b.WriteString("(let ((" + Symbol(DivX) + " ")
			x.smt(b)
			b.WriteString(") (" + Symbol(DivY) + " ")
			y.smt(b)
			b.WriteString(")) ")
			x, y = &Expr{Op: "global", Name: DivX}, &Expr{Op: "global", Name: DivY}
		}
		tdiv := &Expr{Op: "ite", Args: []*Expr{
			{Op: ">=", Args: []*Expr{x, Int(0)}},
			{Op: "div", Args: []*Expr{x, y}},
			{Op: "-", Args: []*Expr{{Op: "div", Args: []*Expr{{Op: "-", Args: []*Expr{x}}, y}}}},
		}}
		if e.Op == "/" {
			tdiv.smt(b)
		} else {
			(&Expr{Op: "-", Args: []*Expr{x, {Op: "*", Args: []*Expr{y, tdiv}}}}).smt(b)
		}
		if let {
			b.WriteByte(')')
		}
	default: // + - * div mod < <= > >= ite
		app(e.Op, e.Args...)
	}
}

func sortName(s string) string {
	switch s {
	case "bool":
		return "Bool"
	case "array":
		return "(Array Int Int)"
	}
	return "Int"
}

// Declarations returns the SMT-LIB2 declarations of the names an
// expression uses, sorted.
func (e *Expr) Declarations() []string {
	decl := map[string]string{}
	e.walk(func(x *Expr) {
		switch x.Op {
		case "global", "local", "param":
			decl[x.name()] = fmt.Sprintf("(declare-const %s %s)", Symbol(x.name()), sortName(x.Sort))
		case "select":
			decl[x.Name] = fmt.Sprintf("(declare-const %s (Array Int Int))", Symbol(x.Name))
		case "apply":
			doms := make([]string, len(x.Args))
			for i, a := range x.Args {
				doms[i] = sortName(a.resultSort())
			}
			decl["@"+x.Name] = fmt.Sprintf("(declare-fun %s (%s) %s)", Symbol(x.Name), strings.Join(doms, " "), sortName(x.Sort))
		}
	})
	out := make([]string, 0, len(decl))
	for _, d := range decl {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// resultSort is the sort of an expression's value: "bool", "array" or "" (int).
func (e *Expr) resultSort() string {
	switch e.Op {
	case "global", "local", "param", "apply", "ref":
		return e.Sort
	case "let":
		return e.Args[0].resultSort()
	case "true", "false", "!", "&&", "||", "<", "<=", ">", ">=", "==", "!=":
		return "bool"
	case "ite":
		return e.Args[1].resultSort()
	}
	return ""
}

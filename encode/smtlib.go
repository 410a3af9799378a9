package encode

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Decls lists what a set of terms mentions: input symbols and
// uninterpreted functions, each sorted by name.
type Decls struct {
	Syms []*ts.Sym
	Fns  []*ts.Fn
}

// Symbol renders a name as an SMT-LIB2 symbol, quoted when needed (v' is
// |v'|); the IC file uses the same rule.
func Symbol(name string) string { return ic.Symbol(name) }

// DeclareConst is the declare-const command of a symbol.
func DeclareConst(s *ts.Sym) string {
	return fmt.Sprintf("(declare-const %s %s)", Symbol(s.Name), SortName(s.Sort))
}

// SortName is the SMT-LIB2 name of a sort.
func SortName(s ts.Sort) string {
	switch s {
	case ts.SortBool:
		return "Bool"
	case ts.SortArray:
		return "(Array Int Int)"
	}
	return "Int"
}

// Declarations renders declare-const / declare-fun commands.
func (d Decls) Declarations() string {
	var b strings.Builder
	for _, s := range d.Syms {
		b.WriteString(DeclareConst(s) + "\n")
	}
	for _, f := range d.Fns {
		doms := make([]string, len(f.Ins))
		for i, v := range f.Ins {
			doms[i] = SortName(ts.SortOf(v.Type))
		}
		fmt.Fprintf(&b, "(declare-fun %s (%s) %s)\n", Symbol(f.Name), strings.Join(doms, " "), SortName(f.Sort))
	}
	return b.String()
}

// SMT renders term r of g as one SMT-LIB2 expression written as a tree:
// no definitions, so that it stands alone in any query (GraphSMT names
// shared subterms by definitions of the graph instead).
func SMT(g *ts.Graph, r ts.Ref) string {
	var b strings.Builder
	writeSMT(&b, g, r)
	return b.String()
}

func intLit(v int64) string {
	if v < 0 {
		if v == -1<<63 {
			return "(- 9223372036854775808)"
		}
		return "(- " + strconv.FormatInt(-v, 10) + ")"
	}
	return strconv.FormatInt(v, 10)
}

var smtOp = map[lang.Op]string{
	lang.OpAdd: "+", lang.OpSub: "-", lang.OpMul: "*", lang.OpLt: "<", lang.OpLe: "<=", lang.OpGt: ">",
	lang.OpGe: ">=", lang.OpEq: "=", lang.OpAnd: "and", lang.OpOr: "or",
}

func writeSMT(b *strings.Builder, g *ts.Graph, r ts.Ref) {
	args := g.Args(r)
	app := func(head string) {
		b.WriteString("(" + head)
		for _, a := range args {
			b.WriteByte(' ')
			writeSMT(b, g, a)
		}
		b.WriteByte(')')
	}
	switch g.Kind(r) {
	case ts.KConst:
		if g.Sort(r) == ts.SortBool {
			b.WriteString(strconv.FormatBool(g.Val(r) != 0))
		} else {
			b.WriteString(intLit(g.Val(r)))
		}
	case ts.KSym:
		b.WriteString(Symbol(g.Sym(r).Name))
	case ts.KOp:
		switch op := g.Op(r); {
		case op == lang.OpNot:
			app("not")
		case op == lang.OpNeg:
			app("-")
		case op == lang.OpNe:
			app("distinct")
		default:
			app(smtOp[op])
		}
	case ts.KIte:
		app("ite")
	case ts.KSelect:
		app("select")
	case ts.KStore:
		app("store")
	case ts.KApply:
		if len(args) == 0 {
			b.WriteString(Symbol(g.Fn(r).Name))
		} else {
			app(Symbol(g.Fn(r).Name))
		}
	case ts.KDiv:
		truncLet(b, g, args[0], args[1], truncDivText(divX, divY))
	case ts.KMod:
		// a - b * (a / b), with truncated division
		truncLet(b, g, args[0], args[1], "(- "+divX+" (* "+divY+" "+truncDivText(divX, divY)+"))")
	default:
		b.WriteString("?")
	}
}

// divX and divY name the operands of a truncated division or remainder
// inside its let, as the IC file's SMT-LIB forms do (see ic.DivX). Each is
// bound once, so the text stays linear in the term's size where the
// division's encoding mentions them three or four times (nested
// remainders printed their operands 4^depth times).
var divX, divY = Symbol(ic.DivX), Symbol(ic.DivY)

// truncLet writes (let ((divX x) (divY y)) body). The let binds in
// parallel: x and y are read in the enclosing scope, so nested lets of the
// same names shadow correctly.
func truncLet(b *strings.Builder, g *ts.Graph, x, y ts.Ref, body string) {
	b.WriteString("(let ((" + divX + " ")
	writeSMT(b, g, x)
	b.WriteString(") (" + divY + " ")
	writeSMT(b, g, y)
	b.WriteString(")) " + body + ")")
}

// Benchmark renders F(a,b) as an SMT-LIB2 benchmark: declarations, F and
// the overflow guard as define-funs, and an assertion of F. The defined
// names, |F(a,b)|, |no_overflow(a,b)| and |invariants()|, hold characters
// no program identifier has, so they never clash with a declared one.
func (f *Formula) Benchmark() string {
	var b strings.Builder
	fmt.Fprintf(&b, "; F(%s, %s): the states where %s and %s commute\n", f.A.ID, f.B.ID, f.A.ID, f.B.ID)
	fmt.Fprintf(&b, "; locals of %s's process are named as in the program, those of %s's process primed\n", f.A.ID, f.B.ID)
	if f.Unknown != "" {
		fmt.Fprintf(&b, "; unknown: %s (F is false)\n", f.Unknown)
	}
	fmt.Fprintf(&b, "; exact: %v\n", f.Exact)
	for _, r := range f.Inexact {
		fmt.Fprintf(&b, "; inexact: %s\n", r)
	}
	b.WriteString("; integer division and remainder truncate toward zero (encoded over div)\n")
	b.WriteString("(set-logic ALL)\n")
	var assume string
	g := f.Graph
	roots := []ts.Ref{f.F, f.NoOverflow, f.Assume}
	b.WriteString(CollectGraph(g, roots...).Declarations())
	defs, exprs := GraphSMT(g, roots...)
	b.WriteString(defs)
	fText, noOvf := exprs[0], exprs[1]
	if !g.IsTrue(f.Assume) {
		assume = exprs[2]
	}
	name := Symbol(fmt.Sprintf("F(%s,%s)", f.A.ID, f.B.ID))
	fmt.Fprintf(&b, "(define-fun %s () Bool %s)\n", name, fText)
	fmt.Fprintf(&b, "(define-fun %s () Bool %s)\n", Symbol(fmt.Sprintf("no_overflow(%s,%s)", f.A.ID, f.B.ID)), noOvf)
	if assume != "" {
		b.WriteString("; the program's invariants: F is meant where they hold\n")
		fmt.Fprintf(&b, "(define-fun %s () Bool %s)\n", Symbol("invariants()"), assume)
		fmt.Fprintf(&b, "(assert %s)\n", Symbol("invariants()"))
	}
	fmt.Fprintf(&b, "(assert %s)\n(check-sat)\n", name)
	return b.String()
}

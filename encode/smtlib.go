package encode

import (
	"fmt"
	"sort"
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

// Collect gathers the declarations of terms.
func Collect(terms ...*ts.Term) Decls {
	syms := map[string]*ts.Sym{}
	fns := map[string]*ts.Fn{}
	for _, t := range terms {
		ts.Walk(t, func(u *ts.Term) {
			switch u.Kind {
			case ts.KSym:
				syms[u.Sym.Name] = u.Sym
			case ts.KApply:
				fns[u.Fn.Name] = u.Fn
			}
		})
	}
	var d Decls
	for _, s := range syms {
		d.Syms = append(d.Syms, s)
	}
	for _, f := range fns {
		d.Fns = append(d.Fns, f)
	}
	sort.Slice(d.Syms, func(i, j int) bool { return d.Syms[i].Name < d.Syms[j].Name })
	sort.Slice(d.Fns, func(i, j int) bool { return d.Fns[i].Name < d.Fns[j].Name })
	return d
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

// SMT renders a term as an SMT-LIB2 expression.
func SMT(t *ts.Term) string {
	var b strings.Builder
	writeSMT(&b, t)
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

func writeSMT(b *strings.Builder, t *ts.Term) {
	app := func(head string, args ...*ts.Term) {
		b.WriteString("(" + head)
		for _, a := range args {
			b.WriteByte(' ')
			writeSMT(b, a)
		}
		b.WriteByte(')')
	}
	switch t.Kind {
	case ts.KConst:
		if t.Sort == ts.SortBool {
			b.WriteString(strconv.FormatBool(t.Val != 0))
		} else {
			b.WriteString(intLit(t.Val))
		}
	case ts.KSym:
		b.WriteString(Symbol(t.Sym.Name))
	case ts.KOp:
		switch {
		case t.Op == lang.OpNot:
			app("not", t.Args...)
		case t.Op == lang.OpNeg:
			app("-", t.Args...)
		case t.Op == lang.OpNe:
			app("distinct", t.Args...)
		default:
			app(smtOp[t.Op], t.Args...)
		}
	case ts.KIte:
		app("ite", t.Args...)
	case ts.KSelect:
		app("select", t.Args...)
	case ts.KStore:
		app("store", t.Args...)
	case ts.KApply:
		if len(t.Args) == 0 {
			b.WriteString(Symbol(t.Fn.Name))
		} else {
			app(Symbol(t.Fn.Name), t.Args...)
		}
	case ts.KDiv:
		truncLet(b, t.Args[0], t.Args[1], truncDivText(divX, divY))
	case ts.KMod:
		// a - b * (a / b), with truncated division
		truncLet(b, t.Args[0], t.Args[1], "(- "+divX+" (* "+divY+" "+truncDivText(divX, divY)+"))")
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
func truncLet(b *strings.Builder, x, y *ts.Term, body string) {
	b.WriteString("(let ((" + divX + " ")
	writeSMT(b, x)
	b.WriteString(") (" + divY + " ")
	writeSMT(b, y)
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

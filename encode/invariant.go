package encode

import (
	"math"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Cond translates a condition of the language (an invariant, or the
// condition of a commute declaration) into a term over the input symbols:
// globals, params, and the locals of the first process (v) and of the
// second (v', lang.VarRef.Second). swap exchanges the two processes (the
// condition of "commute q, p" read as a constraint of the pair (p, q)).
// The term is the condition's value over mathematical integers; where the
// interpreter would raise an error it is unspecified.
func Cond(e lang.Expr, syms *ts.Symbols, swap bool) *ts.Term {
	c := &cond{syms: syms, swap: swap}
	return c.expr(e)
}

// cond translates one expression; def collects what must hold for the
// interpreter to evaluate it without error (no division by zero, indices
// in bounds, with && and || short-circuiting), arith the arithmetic
// results it computes, each of which must fit in int64.
type cond struct {
	syms  *ts.Symbols
	swap  bool
	def   []*ts.Term
	arith []*ts.Term
}

func (c *cond) expr(e lang.Expr) *ts.Term {
	switch e := e.(type) {
	case *lang.IntLit:
		return ts.Int(e.Val)
	case *lang.BoolLit:
		return ts.Bool(e.Val)
	case *lang.ParamRef:
		return ts.SymTerm(c.syms.Param(e.Param))
	case *lang.VarRef:
		if e.Var.Kind == lang.Global {
			return ts.SymTerm(c.syms.Global(e.Var))
		}
		ev := 0
		if e.Second != c.swap {
			ev = 1
		}
		return ts.SymTerm(c.syms.Local(e.Var, ev))
	case *lang.IndexExpr:
		i := c.expr(e.Index)
		size := ts.Int(1)
		switch s := e.Array.Size.(type) {
		case *lang.IntLit:
			size = ts.Int(s.Val)
		case *lang.ParamRef:
			size = ts.SymTerm(c.syms.Param(s.Param))
		}
		if !e.Array.Unbounded() {
			c.def = append(c.def, ts.Binary(lang.OpLe, ts.Int(0), i), ts.Binary(lang.OpLt, i, size))
		}
		return ts.Select(ts.SymTerm(c.syms.Global(e.Array)), i)
	case *lang.UnaryExpr:
		x := c.expr(e.X)
		v := ts.Unary(e.Op, x)
		if e.Op == lang.OpNeg {
			c.arith = append(c.arith, v)
		}
		return v
	case *lang.BinaryExpr:
		return c.binary(e)
	}
	// Calls cannot appear in invariants or commute conditions (lang).
	panic("encode: unexpected expression in a condition")
}

func (c *cond) binary(e *lang.BinaryExpr) *ts.Term {
	x := c.expr(e.X)
	if e.Op == lang.OpAnd || e.Op == lang.OpOr {
		// The right side is evaluated only where the left does not decide.
		outer := c.def
		c.def = nil
		y := c.expr(e.Y)
		decided := ts.Unary(lang.OpNot, x)
		if e.Op == lang.OpOr {
			decided = x
		}
		c.def = append(outer, ts.Or(decided, ts.And(c.def...)))
		if e.Op == lang.OpAnd {
			return ts.And(x, y)
		}
		return ts.Or(x, y)
	}
	y := c.expr(e.Y)
	switch e.Op {
	case lang.OpDiv, lang.OpMod:
		c.def = append(c.def, ts.Binary(lang.OpNe, y, ts.Int(0)))
		if e.Op == lang.OpMod {
			return ts.Mod(x, y)
		}
		v := ts.Div(x, y)
		c.arith = append(c.arith, v)
		return v
	case lang.OpAdd, lang.OpSub, lang.OpMul:
		v := ts.Binary(e.Op, x, y)
		c.arith = append(c.arith, v)
		return v
	}
	return ts.Binary(e.Op, x, y)
}

// invariant is an invariant as terms: holds is true exactly where the
// interpreter evaluates it to true, but for int64 overflow, which inRange
// excludes. reads are the globals it reads: the interpreter evaluates it
// after every event that writes one of them.
type invariant struct {
	holds   *ts.Term
	inRange *ts.Term
	reads   []*lang.Var
}

// checkedAfter reports whether the interpreter evaluates the invariant
// after an event that writes the globals written (in declaration order).
func (inv invariant) checkedAfter(written []*lang.Var) bool {
	for _, w := range written {
		for _, r := range inv.reads {
			if w == r {
				return true
			}
		}
	}
	return false
}

func invariants(invs []*lang.Invariant, syms *ts.Symbols) []invariant {
	out := make([]invariant, len(invs))
	for i, inv := range invs {
		c := &cond{syms: syms}
		v := c.expr(inv.Cond)
		out[i].holds = ts.And(append(c.def, v)...)
		var guards []*ts.Term
		for _, a := range c.arith {
			guards = append(guards, ts.Binary(lang.OpLe, ts.Int(math.MinInt64), a), ts.Binary(lang.OpLe, a, ts.Int(math.MaxInt64)))
		}
		out[i].inRange = ts.And(guards...)
		out[i].reads = inv.Reads
	}
	return out
}

// after substitutes the final globals of transition t for the globals of
// term x: x's value in the state t leads to.
func after(x *ts.Term, t *treeTransition, syms *ts.Symbols) *ts.Term {
	return ts.Subst(x, func(s *ts.Sym) *ts.Term {
		if s.Kind == ts.SymGlobal {
			return t.Global(s.Var, syms)
		}
		return nil
	})
}

// preserved is the condition that every invariant holds after each path
// of each system (where the path is taken), and the guard that its
// evaluation there does not overflow. Given the invariants in the start
// state, an invariant whose value a path does not change holds after it;
// the interpreter still evaluates it there when the path writes a global
// it reads (`g = g;`), and that evaluation, over int64, is the one in the
// start state, which may overflow where the invariant holds over
// mathematical integers: the guard asks that it does not.
func preserved(invs []invariant, syms *ts.Symbols, systems ...*ts.System) (holds, inRange *ts.Term) {
	var hs, gs []*ts.Term
	for _, s := range systems {
		for _, t := range trees(s) {
			notTaken := ts.Unary(lang.OpNot, t.Cond)
			for _, inv := range invs {
				h := after(inv.holds, t, syms)
				if h.Equal(inv.holds) {
					if !inv.checkedAfter(t.Written) {
						continue
					}
				} else {
					hs = append(hs, ts.Or(notTaken, h))
				}
				if g := after(inv.inRange, t, syms); !g.IsTrue() {
					gs = append(gs, ts.Or(notTaken, g))
				}
			}
		}
	}
	return ts.And(hs...), ts.And(gs...)
}

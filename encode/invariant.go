package encode

import (
	"math"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Cond translates a condition of the language (an invariant, or the
// condition of a commute declaration) into a term of g over the input
// symbols: globals, params, and the locals of the first process (v) and of
// the second (v', lang.VarRef.Second). swap exchanges the two processes
// (the condition of "commute q, p" read as a constraint of the pair (p,
// q)). The term is the condition's value over mathematical integers; where
// the interpreter would raise an error it is unspecified.
func Cond(g *ts.Graph, e lang.Expr, syms *ts.Symbols, swap bool) ts.Ref {
	c := &cond{g: g, syms: syms, swap: swap}
	return c.expr(e)
}

// cond translates one expression; def collects what must hold for the
// interpreter to evaluate it without error (no division by zero, indices
// in bounds, with && and || short-circuiting), arith the arithmetic
// results it computes, each of which must fit in int64.
type cond struct {
	g     *ts.Graph
	syms  *ts.Symbols
	swap  bool
	def   []ts.Ref
	arith []ts.Ref
}

func (c *cond) expr(e lang.Expr) ts.Ref {
	g := c.g
	switch e := e.(type) {
	case *lang.IntLit:
		return g.Int(e.Val)
	case *lang.BoolLit:
		return g.Bool(e.Val)
	case *lang.ParamRef:
		return g.SymRef(c.syms.Param(e.Param))
	case *lang.VarRef:
		if e.Var.Kind == lang.Global {
			return g.SymRef(c.syms.Global(e.Var))
		}
		ev := 0
		if e.Second != c.swap {
			ev = 1
		}
		return g.SymRef(c.syms.Local(e.Var, ev))
	case *lang.IndexExpr:
		i := c.expr(e.Index)
		var size ts.Ref
		switch s := e.Array.Size.(type) {
		case *lang.IntLit:
			size = g.Int(s.Val)
		case *lang.ParamRef:
			size = g.SymRef(c.syms.Param(s.Param))
		default:
			size = g.Int(1)
		}
		if !e.Array.Unbounded() {
			c.def = append(c.def, g.Binary(lang.OpLe, g.Int(0), i), g.Binary(lang.OpLt, i, size))
		}
		return g.Select(g.SymRef(c.syms.Global(e.Array)), i)
	case *lang.UnaryExpr:
		x := c.expr(e.X)
		v := g.Unary(e.Op, x)
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

func (c *cond) binary(e *lang.BinaryExpr) ts.Ref {
	g := c.g
	x := c.expr(e.X)
	if e.Op == lang.OpAnd || e.Op == lang.OpOr {
		// The right side is evaluated only where the left does not decide.
		outer := c.def
		c.def = nil
		y := c.expr(e.Y)
		decided := g.Not(x)
		if e.Op == lang.OpOr {
			decided = x
		}
		c.def = append(outer, g.Or(decided, g.And(c.def...)))
		if e.Op == lang.OpAnd {
			return g.And(x, y)
		}
		return g.Or(x, y)
	}
	y := c.expr(e.Y)
	switch e.Op {
	case lang.OpDiv, lang.OpMod:
		c.def = append(c.def, g.Binary(lang.OpNe, y, g.Int(0)))
		if e.Op == lang.OpMod {
			return g.Mod(x, y)
		}
		v := g.Div(x, y)
		c.arith = append(c.arith, v)
		return v
	case lang.OpAdd, lang.OpSub, lang.OpMul:
		v := g.Binary(e.Op, x, y)
		c.arith = append(c.arith, v)
		return v
	}
	return g.Binary(e.Op, x, y)
}

// invariant is an invariant as terms of a graph: holds is true exactly
// where the interpreter evaluates it to true, but for int64 overflow, which
// inRange excludes. reads are the globals it reads: the interpreter
// evaluates it after every event that writes one of them.
type invariant struct {
	holds   ts.Ref
	inRange ts.Ref
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

func invariants(g *ts.Graph, invs []*lang.Invariant, syms *ts.Symbols) []invariant {
	out := make([]invariant, len(invs))
	for i, inv := range invs {
		c := &cond{g: g, syms: syms}
		v := c.expr(inv.Cond)
		out[i].holds = g.And(append(c.def, v)...)
		var guards []ts.Ref
		for _, a := range c.arith {
			guards = append(guards, g.Binary(lang.OpLe, g.Int(math.MinInt64), a), g.Binary(lang.OpLe, a, g.Int(math.MaxInt64)))
		}
		out[i].inRange = g.And(guards...)
		out[i].reads = inv.Reads
	}
	return out
}

// after substitutes the final globals of transition t for the globals of
// term x: x's value in the state t leads to. memo holds the results for t.
func after(g *ts.Graph, x ts.Ref, t *ts.Transition, syms *ts.Symbols, memo map[ts.Ref]ts.Ref) ts.Ref {
	return g.Subst(x, func(s *ts.Sym) (ts.Ref, bool) {
		if s.Kind == ts.SymGlobal {
			return t.Global(g, s.Var, syms), true
		}
		return 0, false
	}, memo)
}

// preserved is the condition that every invariant holds after each path
// of each system (where the path is taken), and the guard that its
// evaluation there does not overflow. Given the invariants in the start
// state, an invariant whose value a path does not change holds after it;
// the interpreter still evaluates it there when the path writes a global
// it reads (`g = g;`), and that evaluation, over int64, is the one in the
// start state, which may overflow where the invariant holds over
// mathematical integers: the guard asks that it does not. The systems'
// terms and the invariants' are of one graph.
func preserved(invs []invariant, syms *ts.Symbols, systems ...*ts.System) (holds, inRange ts.Ref) {
	g := systems[0].G
	var hs, gs []ts.Ref
	for _, s := range systems {
		for _, t := range s.Transitions {
			notTaken := g.Not(t.Cond)
			memo := map[ts.Ref]ts.Ref{}
			for _, inv := range invs {
				h := after(g, inv.holds, t, syms, memo)
				if h == inv.holds {
					if !inv.checkedAfter(t.Written) {
						continue
					}
				} else {
					hs = append(hs, g.Or(notTaken, h))
				}
				if r := after(g, inv.inRange, t, syms, memo); !g.IsTrue(r) {
					gs = append(gs, g.Or(notTaken, r))
				}
			}
		}
	}
	return g.And(hs...), g.And(gs...)
}

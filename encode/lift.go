package encode

import (
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// MaxLift bounds the terms one atom may grow into when its ites are lifted
// out; past it the atom keeps its ites.
const MaxLift = 256

// lifter rewrites atoms (comparisons) whose operands hold ite terms into
// boolean combinations of the ite conditions and of comparisons without
// ites: ite(c, 0, 1) == 1 becomes !c. The literals a cover picks from
// are then the branch conditions and plain comparisons.
type lifter struct {
	g    *ts.Graph
	memo map[ts.Ref]ts.Ref
}

func newLifter(g *ts.Graph) *lifter { return &lifter{g: g, memo: map[ts.Ref]ts.Ref{}} }

func (l *lifter) lift(r ts.Ref) ts.Ref {
	if v, ok := l.memo[r]; ok {
		return v
	}
	g := l.g
	var out ts.Ref
	switch {
	case g.Kind(r) == ts.KConst || g.Kind(r) == ts.KSym:
		out = r
	case g.Kind(r) == ts.KOp && (g.Op(r) == lang.OpAnd || g.Op(r) == lang.OpOr || g.Op(r) == lang.OpNot):
		args := g.Args(r)
		nargs := make([]ts.Ref, len(args))
		for i, a := range args {
			nargs[i] = l.lift(a)
		}
		out = g.Rebuild(r, nargs)
	case g.Kind(r) == ts.KOp && (g.Op(r) == lang.OpEq || g.Op(r) == lang.OpNe) && g.Sort(g.Args(r)[0]) == ts.SortBool:
		// b == c over booleans is (b && c) || (!b && !c): the literals are
		// then b's and c's atoms, not the equality.
		x, y := l.lift(g.Args(r)[0]), l.lift(g.Args(r)[1])
		out = g.Or(g.And(x, y), g.And(g.Not(x), g.Not(y)))
		if g.Op(r) == lang.OpNe {
			out = g.Not(out)
		}
	default:
		out = l.atom(r, MaxLift)
	}
	l.memo[r] = out
	return out
}

// atom lifts the ites out of one atom within a budget of case splits.
func (l *lifter) atom(r ts.Ref, budget int) ts.Ref {
	g := l.g
	c, ok := l.firstIte(r, map[ts.Ref]bool{})
	if !ok || budget <= 1 {
		return r
	}
	yes := l.cofactor(r, c, true, map[ts.Ref]ts.Ref{})
	no := l.cofactor(r, c, false, map[ts.Ref]ts.Ref{})
	lc := l.lift(c)
	ly := l.atomOrLift(yes, budget/2)
	ln := l.atomOrLift(no, budget/2)
	return g.Or(g.And(lc, ly), g.And(g.Not(lc), ln))
}

func (l *lifter) atomOrLift(r ts.Ref, budget int) ts.Ref {
	g := l.g
	if g.Kind(r) == ts.KOp && (g.Op(r) == lang.OpAnd || g.Op(r) == lang.OpOr || g.Op(r) == lang.OpNot) || g.Kind(r) == ts.KConst {
		return l.lift(r)
	}
	return l.atom(r, budget)
}

// firstIte finds the condition of an ite among the non-boolean subterms
// of r.
func (l *lifter) firstIte(r ts.Ref, seen map[ts.Ref]bool) (ts.Ref, bool) {
	g := l.g
	if seen[r] {
		return 0, false
	}
	seen[r] = true
	for _, a := range g.Args(r) {
		if g.Sort(a) == ts.SortBool {
			continue
		}
		if g.Kind(a) == ts.KIte {
			return g.Args(a)[0], true
		}
		if c, ok := l.firstIte(a, seen); ok {
			return c, true
		}
	}
	return 0, false
}

// cofactor replaces the ites over condition c in the non-boolean
// subterms of r by their branch for c = val.
func (l *lifter) cofactor(r, c ts.Ref, val bool, memo map[ts.Ref]ts.Ref) ts.Ref {
	if v, ok := memo[r]; ok {
		return v
	}
	g := l.g
	out := r
	if g.Kind(r) == ts.KIte && g.Args(r)[0] == c {
		branch := g.Args(r)[2]
		if val {
			branch = g.Args(r)[1]
		}
		out = l.cofactor(branch, c, val, memo)
	} else if args := g.Args(r); len(args) > 0 {
		nargs := make([]ts.Ref, len(args))
		changed := false
		for i, a := range args {
			nargs[i] = a
			if g.Sort(a) != ts.SortBool || g.Kind(r) == ts.KIte && i > 0 {
				nargs[i] = l.cofactor(a, c, val, memo)
			}
			changed = changed || nargs[i] != a
		}
		if changed {
			out = g.Rebuild(r, nargs)
		}
	}
	memo[r] = out
	return out
}

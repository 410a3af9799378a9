package encode

import (
	"fmt"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
	"github.com/icgen/icgen/uf"
)

// Encoding selects how F(a,b) is built.
type Encoding uint8

// Encodings: Merged (the default) builds F as one equality of the two
// orders' merged final states, linear in the size of the blocks; Paths is
// the CDPOR paper's Def. 5, a disjunction over pairs of paths, exponential
// in the number of branches, kept for comparison.
const (
	Merged Encoding = iota
	Paths
)

func (e Encoding) String() string { return [...]string{"merged", "paths"}[e] }

// ParseEncoding reads an encoding name.
func ParseEncoding(s string) (Encoding, error) {
	switch s {
	case "merged":
		return Merged, nil
	case "paths":
		return Paths, nil
	}
	return 0, fmt.Errorf("unknown encoding %q (want merged or paths)", s)
}

// Build builds F(a,b) with the given encoding. The merged encoding falls
// back to the path encoding for what it does not model (see [PairMerged]).
func Build(enc Encoding, a, b *lang.Block, syms *ts.Symbols, invs ...*lang.Invariant) *Formula {
	if enc == Paths {
		return Pair(a, b, syms, invs...)
	}
	return PairMerged(a, b, syms, invs...)
}

// MaxSpawnConds bounds the distinct spawn conditions of one proc the
// merged encoding compares exactly (2^n cases); past it the pair falls
// back to the path encoding.
const MaxSpawnConds = 6

// PairMerged builds F(a,b) from the merged systems of the two orders
// (package ts, [ts.MergeBlock]): F is both orders' OK condition (enabled,
// no runtime error) and the equality of their final states (DESIGN
// decision 4: globals, the next point and live locals of each process, the
// spawned processes as multisets, the counts of failed asserts). Its terms
// live in the formula's Graph; F, NoOverflow, Assume and Swapped are nil
// and the Ref fields hold them instead.
//
// What it does not model falls back to [Pair] (the result then is the
// path encoding's, Fallback says why): blocks holding a loop with an
// interleaving point that may go round within the block, processes spawned
// by an abstracted loop, and more spawns of one proc, or more distinct
// conditions under which they happen, than are compared exactly.
func PairMerged(a, b *lang.Block, syms *ts.Symbols, invs ...*lang.Invariant) *Formula {
	g := ts.NewGraph()
	ma, mb := ts.MergeBlock(a, 0, syms, g), ts.MergeBlock(b, 1, syms, g)
	ab, ba := ts.ComposeMerged(ma, mb, syms), ts.ComposeMerged(mb, ma, syms)
	fallback := func(why string) *Formula {
		f := Pair(a, b, syms, invs...)
		f.Fallback = why
		return f
	}
	for _, m := range []*ts.Merged{ab, ba} {
		if m.Unknown != "" {
			return fallback(m.Unknown)
		}
	}
	f := &Formula{A: a, B: b, Exact: true, Graph: g, Merged: [2]*ts.Merged{ab, ba}}
	f.Inexact = mergeUnique(append([]string(nil), ab.Abstracted...), ba.Abstracted)
	same, why := sameState(g, ab, ba, syms, false)
	if why != "" {
		return fallback(why)
	}
	f.F = g.And(ab.OK, ba.OK, same)
	f.Swapped = g.False()
	if a.Proc == b.Proc {
		sw, why := sameState(g, ab, ba, syms, true)
		if why != "" {
			return fallback(why)
		}
		f.Swapped = g.And(ab.OK, ba.OK, sw)
	}
	guards := []ts.Ref{g.Implies(ab.OK, ab.NoOverflow), g.Implies(ba.OK, ba.NoOverflow)}
	f.Assume = g.True()
	if len(invs) > 0 && !g.IsFalse(f.F) {
		var assume, holds []ts.Ref
		for _, in := range invariants(invs, syms) {
			h, r := g.FromTerm(in.holds), g.FromTerm(in.inRange)
			assume = append(assume, h)
			for _, m := range []*ts.Merged{ma, mb, ab} {
				memo := map[ts.Ref]ts.Ref{}
				bind := func(s *ts.Sym) (ts.Ref, bool) {
					if s.Kind == ts.SymGlobal {
						return m.Global(s.Var, syms), true
					}
					return 0, false
				}
				after := g.Subst(h, bind, memo)
				if after == h {
					// Unchanged, so it holds; the interpreter evaluates it
					// again where the block writes a global it reads (see
					// preserved), and there it must not overflow.
					var ws []ts.Ref
					for _, v := range in.reads {
						if w, ok := m.Written[v]; ok {
							ws = append(ws, w)
						}
					}
					if len(ws) > 0 && !g.IsTrue(r) {
						guards = append(guards, g.Implies(g.And(m.OK, g.Or(ws...)), r))
					}
					continue
				}
				holds = append(holds, g.Implies(m.OK, after))
				if rr := g.Subst(r, bind, memo); !g.IsTrue(rr) {
					guards = append(guards, g.Implies(m.OK, rr))
				}
			}
		}
		f.Assume = g.And(assume...)
		if len(holds) > 0 {
			f.Kept, f.Bare = true, f.F
		}
		f.F = g.And(f.F, g.And(holds...))
		f.Swapped = g.And(f.Swapped, g.And(holds...))
	}
	// The guard keeps its ites: a value merged at a join is one ite term,
	// which an interval holds whole (IntervalGuard), where the lifted atoms
	// split into cases that three-valued logic cannot join again; and
	// lifting it took most of a pair's time where it reads a value merged
	// at many joins; an exact guard is written with its ites too.
	f.NoOverflow = g.And(guards...)
	l := newLifter(g)
	f.F, f.Swapped, f.Assume = l.lift(f.F), l.lift(f.Swapped), l.lift(f.Assume)
	if f.Kept {
		f.Bare = l.lift(f.Bare)
	}
	if g.Over {
		return fallback(fmt.Sprintf("more than %d terms", g.Limit))
	}
	f.Exact = len(f.Inexact) == 0
	return f
}

// sameState is the condition under which ab and ba end in the same state
// (with swap: the same once the two processes are exchanged; both blocks
// belong to one proc). A non-empty reason means it cannot be written
// exactly here.
func sameState(g *ts.Graph, ab, ba *ts.Merged, syms *ts.Symbols, swap bool) (ts.Ref, string) {
	other := func(e int) int {
		if swap {
			return 1 - e
		}
		return e
	}
	var eqs []ts.Ref
	written := map[*lang.Var]ts.Ref{}
	for _, m := range []*ts.Merged{ab, ba} {
		for v := range m.Globals {
			written[v] = 0
		}
	}
	for _, v := range ts.SortedVars(written) {
		eqs = append(eqs, g.Binary(lang.OpEq, ab.Global(v, syms), ba.Global(v, syms)))
	}
	for e := 0; e < 2; e++ {
		o := other(e)
		eqs = append(eqs, g.Binary(lang.OpEq, ab.Next[e], ba.Next[o]))
		for _, pt := range ab.Exits[e] {
			if pt == nil {
				continue
			}
			var live []ts.Ref
			for _, v := range pt.Live {
				live = append(live, g.Binary(lang.OpEq, ab.Local(e, v, syms), ba.Local(o, v, syms)))
			}
			eqs = append(eqs, g.Implies(g.Binary(lang.OpEq, ab.Next[e], g.Int(ts.PointCode(pt))), g.And(live...)))
		}
	}
	offs := map[int]bool{}
	for _, m := range []*ts.Merged{ab, ba} {
		for k := range m.Violations {
			offs[k] = true
		}
	}
	for k := range offs {
		_ = k
	}
	for _, k := range sortedOffsets(offs) {
		eqs = append(eqs, g.Binary(lang.OpEq, ab.Violation(k), ba.Violation(k)))
	}
	sp, why := spawnsEqual(g, ab.Spawns, ba.Spawns)
	if why != "" {
		return 0, why
	}
	eqs = append(eqs, sp)
	return g.And(eqs...), ""
}

func sortedOffsets(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// spawnsEqual is the condition under which the processes spawned by the
// two orders are equal multisets modulo naming: per proc, a case split on
// which spawn conditions hold, and in each case the bijections between the
// spawns present (as package uf does for one pair of paths).
func spawnsEqual(g *ts.Graph, xs, ys []*ts.CondSpawn) (ts.Ref, string) {
	var procs []*lang.Proc
	byProc := map[*lang.Proc][2][]*ts.CondSpawn{}
	for side, ss := range [][]*ts.CondSpawn{xs, ys} {
		for _, s := range ss {
			if s.Proc == nil {
				return 0, "processes spawned inside a loop"
			}
			if g.IsFalse(s.Cond) {
				continue
			}
			e, ok := byProc[s.Proc]
			if !ok {
				procs = append(procs, s.Proc)
			}
			e[side] = append(e[side], s)
			byProc[s.Proc] = e
		}
	}
	var conj []ts.Ref
	for _, p := range procs {
		sides := byProc[p]
		var conds []ts.Ref
		idx := map[ts.Ref]int{}
		for _, ss := range sides {
			for _, s := range ss {
				if _, ok := idx[s.Cond]; !ok && !g.IsTrue(s.Cond) {
					idx[s.Cond] = len(conds)
					conds = append(conds, s.Cond)
				}
			}
		}
		if len(conds) > MaxSpawnConds {
			return 0, fmt.Sprintf("more than %d conditions under which %s is spawned", MaxSpawnConds, p.Name)
		}
		var cases []ts.Ref
		for mask := 0; mask < 1<<len(conds); mask++ {
			present := func(s *ts.CondSpawn) bool {
				return g.IsTrue(s.Cond) || mask&(1<<idx[s.Cond]) != 0
			}
			var px, py []*ts.CondSpawn
			for _, s := range sides[0] {
				if present(s) {
					px = append(px, s)
				}
			}
			for _, s := range sides[1] {
				if present(s) {
					py = append(py, s)
				}
			}
			if len(px) != len(py) {
				continue
			}
			if len(px) > uf.MaxExact {
				return 0, fmt.Sprintf("more than %d spawns of %s", uf.MaxExact, p.Name)
			}
			lits := make([]ts.Ref, len(conds))
			for i, c := range conds {
				if mask&(1<<i) != 0 {
					lits[i] = c
				} else {
					lits[i] = g.Not(c)
				}
			}
			cases = append(cases, g.And(g.And(lits...), bijections(g, p, px, py)))
		}
		conj = append(conj, g.Or(cases...))
	}
	return g.And(conj...), ""
}

// bijections is OR over permutations pi of AND_k args(xs[k]) == args(ys[pi(k)]),
// over the parameters live at the proc's entry.
func bijections(g *ts.Graph, p *lang.Proc, xs, ys []*ts.CondSpawn) ts.Ref {
	live := map[*lang.Var]bool{}
	for _, v := range p.Points[0].Live {
		live[v] = true
	}
	n := len(xs)
	perm := make([]int, n)
	used := make([]bool, n)
	var alts []ts.Ref
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			var eqs []ts.Ref
			for i := 0; i < n; i++ {
				for j, prm := range p.Params {
					if live[prm] {
						eqs = append(eqs, g.Binary(lang.OpEq, xs[i].Args[j], ys[perm[i]].Args[j]))
					}
				}
			}
			alts = append(alts, g.And(eqs...))
			return
		}
		for j := 0; j < n; j++ {
			if !used[j] {
				used[j], perm[k] = true, j
				rec(k + 1)
				used[j] = false
			}
		}
	}
	rec(0)
	return g.Or(alts...)
}

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

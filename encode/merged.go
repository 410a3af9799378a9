package encode

import (
	"fmt"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// PairMerged builds F(a,b) from the merged systems of the two orders
// (package ts, [ts.MergeBlock]): F is both orders' OK condition (enabled,
// no runtime error) and the equality of their final states (DESIGN
// decision 4: globals, the next point and live locals of each process, the
// spawned processes as multisets, the counts of failed asserts), built in
// the formula's Graph.
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
		for _, in := range invariants(g, invs, syms) {
			h, r := in.holds, in.inRange
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

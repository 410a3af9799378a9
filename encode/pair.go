package encode

import (
	"fmt"
	"maps"
	"sort"
	"strconv"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Formula is F(a,b): the states where running a then b and b then a are
// both possible, error-free and end in the same state (DESIGN decision 4:
// globals, the live locals and next points of both processes, the spawned
// processes modulo naming, the recorded violations).
//
// Its conditions are terms of one hash-consed graph (Graph), whichever
// encoding built them: F, NoOverflow, Assume, Swapped and Bare.
type Formula struct {
	A, B *lang.Block
	// Graph holds the formula's terms.
	Graph *ts.Graph
	// F is over the input symbols: globals, params, the locals of the first
	// process (v) and of the second (v'), and uninterpreted functions.
	F ts.Ref
	// NoOverflow holds where neither order overflows int64 on the path it
	// takes, nor in the invariants' evaluations after each block (see
	// Pair). A constraint C proven to imply F guarantees commutation in the
	// states where C and NoOverflow hold.
	NoOverflow ts.Ref
	// Exact is true when F holds exactly where the pair commutes: nothing
	// was abstracted and every spawn comparison was exact.
	Exact bool
	// Inexact lists why F is only sufficient.
	Inexact []string
	// Unknown says why no formula could be built (F is then false).
	Unknown string
	// Assume is the conjunction of the program's invariants in the start
	// state (true without invariants): F is only required where it holds,
	// and a constraint C is proven by showing Assume & C & !F unsat.
	Assume ts.Ref
	// Swapped holds where the two orders end in states that are equal once
	// the two processes are exchanged: the first's place, locals and
	// process id taken by the second. It is false unless both blocks
	// belong to one proc. Such states are equal modulo process naming
	// (DESIGN decision 4), which is how runtimes compare states, yet F
	// does not hold there: F is exact only if Swapped implies F, which a
	// solver must decide (synth does).
	Swapped ts.Ref
	// Kept is set when F asks both orders to keep the program's invariants
	// (some block of the pair writes what one reads); Bare is then F
	// without that: where the orders end alike, invariants kept or not.
	// Two orders that break an invariant alike commute, yet F does not
	// hold there: F is exact only if Bare implies F, which a solver must
	// decide (synth does). Bare means nothing when Kept is unset.
	Kept bool
	Bare ts.Ref

	// The systems of the two orders, T(a.b) and T(b.a): path systems (AB,
	// BA) for the path encoding, merged systems (Merged) for the merged
	// one; the other pair is nil.
	AB, BA *ts.System
	Merged [2]*ts.Merged
	// Fallback says why the merged encoding was asked for and the path
	// encoding used instead (empty otherwise).
	Fallback string
	enc      Encoding
}

// Trivial is 1 when F is the constant true, -1 when it is false, 0
// otherwise.
func (f *Formula) Trivial() int {
	switch {
	case f.Graph.IsTrue(f.F):
		return 1
	case f.Graph.IsFalse(f.F):
		return -1
	}
	return 0
}

// NoOverflowTrue reports whether the overflow guard is the constant true
// (neither order can overflow).
func (f *Formula) NoOverflowTrue() bool { return f.Graph.IsTrue(f.NoOverflow) }

// Encoding is the encoding the formula was built with.
func (f *Formula) Encoding() Encoding { return f.enc }

// Fns are the uninterpreted functions the systems of the two orders use,
// by name.
func (f *Formula) Fns() map[string]*ts.Fn {
	used := map[string]*ts.Fn{}
	for _, m := range f.Merged {
		if m != nil {
			maps.Copy(used, m.Fns)
		}
	}
	for _, s := range []*ts.System{f.AB, f.BA} {
		if s == nil {
			continue
		}
		for _, t := range s.Transitions {
			maps.Copy(used, t.Fns)
		}
	}
	return used
}

// Runs is the condition, a term of the formula's graph, under which order
// e (0: a.b, 1: b.a) runs to its end without a runtime error or an
// overflow.
func (f *Formula) Runs(e int) ts.Ref {
	if m := f.Merged[e]; m != nil {
		return f.Graph.And(m.OK, m.NoOverflow)
	}
	s := []*ts.System{f.AB, f.BA}[e]
	return f.Graph.Import(s.G, Runs(s))
}

// Runs is the condition, a term of the system's graph, under which a path
// system runs to completion without a runtime error (overflow included):
// one of its paths is taken and does not overflow.
func Runs(s *ts.System) ts.Ref {
	g := s.G
	var ds []ts.Ref
	for _, t := range s.Transitions {
		ds = append(ds, g.And(t.Cond, t.NoOverflow))
	}
	return g.Or(ds...)
}

// pathTerms are the path encoding's conditions as terms of the systems'
// graph, before they go into the formula's own.
type pathTerms struct {
	f, noOverflow, assume, swapped, bare ts.Ref
}

// graphOf copies the path encoding's terms, of graph pg, into a graph of
// the formula's own: pg also holds every path's terms, most of which F
// does not keep.
func (f *Formula) graphOf(pg *ts.Graph, t pathTerms) *Formula {
	g := ts.NewGraph()
	f.Graph = g
	f.F, f.NoOverflow, f.Assume, f.Swapped = g.Import(pg, t.f), g.Import(pg, t.noOverflow), g.Import(pg, t.assume), g.Import(pg, t.swapped)
	f.Bare = f.F
	if f.Kept {
		f.Bare = g.Import(pg, t.bare)
	}
	return f
}

// Pair builds F(a,b) for block a run by one process and block b by another
// (a may equal b: two processes running the same block).
//
// Under invariants (a program's Invariants), F is meant for the states
// where they hold (Formula.Assume), and it also requires that both orders
// keep them: each invariant holds after a, after b and after a.b (b.a ends
// in the same state), so that neither order records an invariant
// violation the other does not (the interpreter checks an invariant after
// every event that writes a location it reads). Their evaluation there
// must not overflow: NoOverflow says so after each such event, the value
// changed or not (g = g; testdata/regress/invariant-rewrite.blk).
func Pair(a, b *lang.Block, syms *ts.Symbols, invs ...*lang.Invariant) *Formula {
	pg := ts.NewGraph()
	pg.Limit = 0
	ta, tb := ts.Block(a, 0, syms, pg), ts.Block(b, 1, syms, pg)
	// The two orders are composed side by side and only as far as the
	// bound on pairs of paths: a self-pair of a block of 744 paths took
	// over 12 GB composing both orders whole before the bound was checked.
	ab, ba, fits := ts.ComposeBoth(ta, tb, syms, MaxPathPairs)
	f := &Formula{A: a, B: b, AB: ab, BA: ba, Exact: true, enc: Paths}
	none := pathTerms{f: pg.False(), noOverflow: pg.True(), assume: pg.True(), swapped: pg.False()}
	tooBig := func(why string) *Formula {
		f.Kept, f.Unknown, f.Exact = false, "the formula is too large: "+why, false
		return f.graphOf(pg, none)
	}
	if !fits {
		return tooBig(ab.Unknown)
	}
	for _, s := range []*ts.System{ab, ba} {
		if s.Unknown != "" {
			f.Unknown, f.Exact = s.Unknown, false
			return f.graphOf(pg, none)
		}
	}
	size := 0
	text := map[ts.Ref]int{}
	f.Inexact = append(f.Inexact, ab.Abstracted...)
	f.Inexact = mergeUnique(f.Inexact, ba.Abstracted)
	spawnInexact := false
	var disj, swapped []ts.Ref
	for _, ti := range ab.Transitions {
		for _, tj := range ba.Transitions {
			d, exact := sameOutcome(pg, ti, tj, syms, false)
			if !exact {
				spawnInexact = true
			}
			if !pg.IsFalse(d) {
				c := pg.And(ti.Cond, tj.Cond, d)
				if size += pg.TextLen(c, text); size > MaxFormula {
					return tooBig(fmt.Sprintf("more than %d characters", MaxFormula))
				}
				disj = append(disj, c)
			}
			if a.Proc != b.Proc {
				continue
			}
			if d, _ := sameOutcome(pg, ti, tj, syms, true); !pg.IsFalse(d) {
				c := pg.And(ti.Cond, tj.Cond, d)
				if size += pg.TextLen(c, text); size > MaxFormula {
					return tooBig(fmt.Sprintf("more than %d characters", MaxFormula))
				}
				swapped = append(swapped, c)
			}
		}
	}
	if spawnInexact {
		f.Inexact = append(f.Inexact, "spawned processes compared syntactically (more than "+strconv.Itoa(MaxExactSpawns)+" of one proc, or spawned inside a loop)")
	}
	t := pathTerms{f: pg.Or(disj...), assume: pg.True(), swapped: pg.Or(swapped...)}
	var guards []ts.Ref
	for _, s := range []*ts.System{ab, ba} {
		for _, t := range s.Transitions {
			if !pg.IsTrue(t.NoOverflow) {
				guards = append(guards, pg.Or(pg.Not(t.Cond), t.NoOverflow))
			}
		}
	}
	if len(invs) > 0 && !pg.IsFalse(t.f) {
		in := invariants(pg, invs, syms)
		var assume []ts.Ref
		for _, inv := range in {
			assume = append(assume, inv.holds)
		}
		t.assume = pg.And(assume...)
		holds, inRange := preserved(in, syms, ta, tb, ab)
		if !pg.IsTrue(holds) {
			f.Kept, t.bare = true, t.f
		}
		t.f = pg.And(t.f, holds)
		t.swapped = pg.And(t.swapped, holds)
		guards = append(guards, inRange)
	}
	t.noOverflow = pg.And(guards...)
	f.Exact = len(f.Inexact) == 0
	if f.graphOf(pg, t); f.Graph.Over {
		return tooBig(fmt.Sprintf("more than %d terms", f.Graph.Limit))
	}
	return f
}

// Bounds on the formula of a pair; beyond them the pair is unknown (no
// constraint: sound) instead of exhausting memory. The terms are a graph,
// yet the paths' conditions are a disjunction over pairs of paths, each
// written out in F's text: thousands of paths on each side make F large.
const (
	MaxPathPairs = 1 << 18  // paths of T(a.b) times paths of T(b.a), and of either alone
	MaxFormula   = 16 << 20 // characters of F's text, its terms written as trees (ts.Graph.TextLen)
)

// sameOutcome is the condition, a term of g, under which transition ti of
// T(a.b) and tj of T(b.a) end in the same state, and whether it is exact.
// With swap, the state tj ends in is taken with its two processes
// exchanged (the blocks must belong to one proc).
func sameOutcome(g *ts.Graph, ti, tj *ts.Transition, syms *ts.Symbols, swap bool) (ts.Ref, bool) {
	other := func(e int) int {
		if swap {
			return 1 - e
		}
		return e
	}
	for e := 0; e < 2; e++ {
		if ti.Next[e] != tj.Next[other(e)] || ti.Ends[e] != tj.Ends[other(e)] {
			return g.False(), true
		}
	}
	if !samePositions(ti.Violations, tj.Violations) {
		return g.False(), true
	}
	var eqs []ts.Ref
	written := map[*lang.Var]bool{}
	var vars []*lang.Var
	for _, t := range []*ts.Transition{ti, tj} {
		for _, as := range t.Globals {
			if !written[as.Var] {
				written[as.Var] = true
				vars = append(vars, as.Var)
			}
		}
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Index < vars[j].Index })
	for _, v := range vars {
		eqs = append(eqs, equal(g, ti.Global(g, v, syms), tj.Global(g, v, syms)))
	}
	for e := 0; e < 2; e++ {
		for k, as := range ti.Locals[e] {
			eqs = append(eqs, g.Binary(lang.OpEq, as.Value, tj.Locals[other(e)][k].Value))
		}
	}
	sp, exact := pathSpawnsEqual(g, ti.Spawns, tj.Spawns)
	eqs = append(eqs, sp)
	return g.And(eqs...), exact
}

func samePositions(a, b []lang.Pos) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Offset != b[i].Offset {
			return false
		}
	}
	return true
}

func mergeUnique(a, b []string) []string {
	seen := map[string]bool{}
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			seen[s] = true
			a = append(a, s)
		}
	}
	return a
}

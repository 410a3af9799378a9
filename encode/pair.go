package encode

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
	"github.com/icgen/icgen/uf"
)

// Formula is F(a,b): the states where running a then b and b then a are
// both possible, error-free and end in the same state (DESIGN decision 4:
// globals, the live locals and next points of both processes, the spawned
// processes modulo naming, the recorded violations).
type Formula struct {
	A, B   *lang.Block
	AB, BA *ts.System
	// F is over the input symbols: globals, params, the locals of the first
	// process (v) and of the second (v'), and uninterpreted functions.
	F *ts.Term
	// NoOverflow holds where neither order overflows int64 on the path it
	// takes, nor in the invariants' evaluations after each block (see
	// Pair). A constraint C proven to imply F guarantees commutation in the
	// states where C and NoOverflow hold.
	NoOverflow *ts.Term
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
	Assume *ts.Term
	// Swapped holds where the two orders end in states that are equal once
	// the two processes are exchanged: the first's place, locals and
	// process id taken by the second. It is false unless both blocks
	// belong to one proc. Such states are equal modulo process naming
	// (DESIGN decision 4), which is how runtimes compare states, yet F
	// does not hold there: F is exact only if Swapped implies F, which a
	// solver must decide (synth does).
	Swapped *ts.Term
	// Kept is set when F asks both orders to keep the program's invariants
	// (some block of the pair writes what one reads); Bare is F without
	// that: where the orders end alike, invariants kept or not. Two orders
	// that break an invariant alike commute, yet F does not hold there: F
	// is exact only if Bare implies F, which a solver must decide (synth
	// does).
	Kept bool
	Bare *ts.Term

	// The merged encoding ([PairMerged]) leaves F, NoOverflow, Assume,
	// Swapped and Bare nil and holds them as terms of Graph: FR,
	// NoOverflowR, AssumeR, SwappedR and BareR. Merged are its systems
	// T(a.b) and T(b.a).
	Graph                                     *ts.Graph
	Merged                                    [2]*ts.Merged
	FR, NoOverflowR, AssumeR, SwappedR, BareR ts.Ref
	// Fallback says why the merged encoding was asked for and the path
	// encoding used instead (empty otherwise).
	Fallback string
}

// IsMerged reports whether the formula is held in a graph (the merged
// encoding) rather than as tree terms.
func (f *Formula) IsMerged() bool { return f.Graph != nil }

// Trivial is 1 when F is the constant true, -1 when it is false, 0
// otherwise.
func (f *Formula) Trivial() int {
	switch {
	case f.IsMerged() && f.Graph.IsTrue(f.FR), !f.IsMerged() && f.F.IsTrue():
		return 1
	case f.IsMerged() && f.Graph.IsFalse(f.FR), !f.IsMerged() && f.F.IsFalse():
		return -1
	}
	return 0
}

// NoOverflowTrue reports whether the overflow guard is the constant true
// (neither order can overflow).
func (f *Formula) NoOverflowTrue() bool {
	if f.IsMerged() {
		return f.Graph.IsTrue(f.NoOverflowR)
	}
	return f.NoOverflow.IsTrue()
}

// Encoding is the encoding the formula was built with.
func (f *Formula) Encoding() Encoding {
	if f.IsMerged() {
		return Merged
	}
	return Paths
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
	ta, tb := ts.Block(a, 0, syms), ts.Block(b, 1, syms)
	// The two orders are composed side by side and only as far as the
	// bound on pairs of paths: a self-pair of a block of 744 paths took
	// over 12 GB composing both orders whole before the bound was checked.
	ab, ba, fits := ts.ComposeBoth(ta, tb, syms, MaxPathPairs)
	f := &Formula{A: a, B: b, AB: ab, BA: ba, F: ts.False, NoOverflow: ts.True, Exact: true, Assume: ts.True, Swapped: ts.False}
	tooBig := func(why string) *Formula {
		f.F, f.NoOverflow, f.Assume, f.Swapped, f.Bare, f.Kept = ts.False, ts.True, ts.True, ts.False, nil, false
		f.Unknown, f.Exact = "the formula is too large: "+why, false
		return f
	}
	if !fits {
		return tooBig(ab.Unknown)
	}
	for _, s := range []*ts.System{ab, ba} {
		if s.Unknown != "" {
			f.Unknown, f.Exact = s.Unknown, false
			return f
		}
	}
	size := 0
	f.Inexact = append(f.Inexact, ab.Abstracted...)
	f.Inexact = mergeUnique(f.Inexact, ba.Abstracted)
	spawnInexact := false
	var disj, swapped []*ts.Term
	for _, ti := range ab.Transitions {
		for _, tj := range ba.Transitions {
			d, exact := sameOutcome(ti, tj, syms, false)
			if !exact {
				spawnInexact = true
			}
			if !d.IsFalse() {
				c := ts.And(ti.Cond, tj.Cond, d)
				if size += len(c.Key()); size > MaxFormula {
					return tooBig(fmt.Sprintf("more than %d characters", MaxFormula))
				}
				disj = append(disj, c)
			}
			if a.Proc != b.Proc {
				continue
			}
			if d, _ := sameOutcome(ti, tj, syms, true); !d.IsFalse() {
				c := ts.And(ti.Cond, tj.Cond, d)
				if size += len(c.Key()); size > MaxFormula {
					return tooBig(fmt.Sprintf("more than %d characters", MaxFormula))
				}
				swapped = append(swapped, c)
			}
		}
	}
	if spawnInexact {
		f.Inexact = append(f.Inexact, "spawned processes compared syntactically (more than "+strconv.Itoa(uf.MaxExact)+" of one proc, or spawned inside a loop)")
	}
	f.F, f.Swapped = ts.Or(disj...), ts.Or(swapped...)
	var guards []*ts.Term
	for _, s := range []*ts.System{ab, ba} {
		for _, t := range s.Transitions {
			if !t.NoOverflow.IsTrue() {
				guards = append(guards, ts.Or(ts.Unary(lang.OpNot, t.Cond), t.NoOverflow))
			}
		}
	}
	if len(invs) > 0 && !f.F.IsFalse() {
		in := invariants(invs, syms)
		var assume []*ts.Term
		for _, inv := range in {
			assume = append(assume, inv.holds)
		}
		f.Assume = ts.And(assume...)
		holds, inRange := preserved(in, syms, ta, tb, ab)
		if !holds.IsTrue() {
			f.Kept, f.Bare = true, f.F
		}
		f.F = ts.And(f.F, holds)
		f.Swapped = ts.And(f.Swapped, holds)
		guards = append(guards, inRange)
	}
	var ok1, ok2, ok3, ok4 bool
	ok5 := true
	if f.Kept {
		f.Bare, ok5 = elimArrays(f.Bare, MaxFormula)
	}
	f.F, ok1 = elimArrays(f.F, MaxFormula)
	f.NoOverflow, ok2 = elimArrays(ts.And(guards...), MaxFormula)
	f.Assume, ok3 = elimArrays(f.Assume, MaxFormula)
	f.Swapped, ok4 = elimArrays(f.Swapped, MaxFormula)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return tooBig(fmt.Sprintf("more than %d characters of terms built to eliminate arrays", MaxFormula))
	}
	f.Exact = len(f.Inexact) == 0
	return f
}

// Bounds on the formula of a pair; beyond them the pair is unknown (no
// constraint: sound) instead of exhausting memory. Symbolic terms are
// trees printed in full, so a block that reuses a value many times, or
// thousands of paths on each side, can make F exponentially large.
const (
	MaxPathPairs = 1 << 18  // paths of T(a.b) times paths of T(b.a), and of either alone
	MaxFormula   = 16 << 20 // characters of F's text (and of the terms built from it to eliminate arrays)
)

// sameOutcome is the condition under which transition ti of T(a.b) and tj of
// T(b.a) end in the same state, and whether it is exact. With swap, the
// state tj ends in is taken with its two processes exchanged (the blocks
// must belong to one proc).
func sameOutcome(ti, tj *ts.Transition, syms *ts.Symbols, swap bool) (*ts.Term, bool) {
	other := func(e int) int {
		if swap {
			return 1 - e
		}
		return e
	}
	for e := 0; e < 2; e++ {
		if ti.Next[e] != tj.Next[other(e)] || ti.Ends[e] != tj.Ends[other(e)] {
			return ts.False, true
		}
	}
	if !samePositions(ti.Violations, tj.Violations) {
		return ts.False, true
	}
	var eqs []*ts.Term
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
	for _, g := range vars {
		eqs = append(eqs, ts.Binary(lang.OpEq, ti.Global(g, syms), tj.Global(g, syms)))
	}
	for e := 0; e < 2; e++ {
		for k, as := range ti.Locals[e] {
			eqs = append(eqs, ts.Binary(lang.OpEq, as.Value, tj.Locals[other(e)][k].Value))
		}
	}
	sp, exact := uf.Spawns(ti.Spawns, tj.Spawns)
	eqs = append(eqs, sp)
	return ts.And(eqs...), exact
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

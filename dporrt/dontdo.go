package dporrt

import (
	"slices"

	"github.com/icgen/icgen/interp"
)

// This file holds what the context-sensitive check changes in the optimal
// loop: Optimal Context-Sensitive DPOR (Albert, García de la Banda,
// Gómez-Zamalloa, Isabel, Stuckey, ISSTA'19, Alg. 1) and, with observers,
// Alg. 2 of the same paper.
//
// A race e ⋖ e' of a maximal sequence E is reversed as odpor (or odpor-ob)
// reverses it, by inserting a sequence v into wut(E'), E' = pre(E, e).
// Besides, when running the reversed race from s[E'] ends in the state the
// explored order reached (line 38), that reversed run goes into the
// don't-do set of E': a sequence that starts that way is not explored to
// its end. Don't-do sequences are inherited as the sleep sequences of
// csdpor are (lines 29-30: childSleep), past events independent of them
// only (and, for codpor, past events a constraint shows uniformly
// independent of them: uniformCovers), not as u.v past p from u.p.v
// (Alg. 2, line 62: see childSleep); where one has shrunk
// to a single process, that process is covered: not explored, but its
// event still runs to have its races reversed (lines 17-19 and 25-26:
// forcedRaces). The don't-do sets are the byState sleepers of the levels.
// docs/algorithms.md says where and why this departs from the paper.
//
// With observers (Alg. 2), for a race of two writes dependent only because
// a later event observes the second, the don't-do entry is the reversed
// run up to the last observer, followed by the other observers, when each
// observer sees the same in both orders (line 73): its "effect", what it
// leaves that any later event can see, is the same.
//
// The states the checks compare are reached by running from the snapshot
// of s[E'] (see detour): both the explored order and the reversed one are
// run again there, so no state is kept per level beyond that snapshot; a
// check costs the events between e and e' (or the last observer) twice.
// Those runs are not counted as states, and record no findings: a run
// that ends where an explored one does has recorded the same violations
// (they are part of the state compared), and an observer's failed asserts
// are part of its effect.

// addCover puts seq into the don't-do set of level i (a sleep sequence by
// state; modObs: its run ends where an explored one does only modulo
// observability), and keeps the sum of the don't-do sets along the
// sequence.
func (x *explorer) addCover(i int, seq []*event, modObs bool) {
	f := x.levels[i]
	// The events of a sequence of processes from a state are determined:
	// an entry with the same processes is the same entry.
	for _, sl := range f.sleep {
		if sl.byState && sl.modObs == modObs && samePIDs(sl.seq, seq) {
			return
		}
	}
	f.sleep = append(f.sleep, sleeper{seq: seq, byState: true, modObs: modObs})
	f.dnd++
	x.noteDnD(1)
}

// samePIDs reports whether two sequences are of the same processes, in
// the same order.
func samePIDs(a, b []*event) bool {
	return slices.EqualFunc(a, b, func(x, y *event) bool { return x.pid == y.pid })
}

// noteDnD adds d to the sum of the don't-do set sizes along the current
// sequence, and keeps its maximum (the ISSTA'19 paper's MD).
func (x *explorer) noteDnD(d int) {
	x.dndSum += d
	x.res.MaxDnD = max(x.res.MaxDnD, x.dndSum)
}

// wakeOne puts into f's wakeup tree, when a covered process skipped there
// left it empty, the first process enabled at f that is neither asleep,
// covered nor done there: the level goes on as a level with an empty tree
// starts (ISSTA'19 Alg. 1, line 21), and race detection below it puts in
// whatever else the level needs. The skipped subtree is not explored, so
// the races it would have reversed here are unknown; without a process to
// go on with, a level whose tree holds only a covered process explores
// nothing else (see dporrt/testdata/regress/cs-lone-covered.blk). Exploring
// every such process instead, as the source loop does, makes odpor-cs-ob
// explore more complete traces than odpor-ob (see
// dporrt/testdata/regress/cs-wake-all.blk).
//
// Nothing is put in when a process asleep at f can never be woken (see
// asleepForGood): every run from f then either runs its event, and an
// equivalent one was explored where it ran first, or ends in a runtime
// error before it does, and that order is the reversal of the error's race
// with that event, found where it ran (an error is dependent on every
// event). A run started there can only end sleep-set blocked, with nothing
// to reverse that the sleeper's own runs do not (see
// dporrt/testdata/regress/cs-wake-never.blk, without awaits, and
// cs-wake-blocked.blk, with them).
func (x *explorer) wakeOne(f *level) {
	if !f.wut.empty() || x.asleepForGood(f) {
		return
	}
	for n := x.enabled.first(); n != nil; n = n.next[0] {
		if !f.asleep(n.pid) && !f.done.has(n.pid) {
			f.wut.insert([]*event{x.nextEvent(n.pid)})
			return
		}
	}
}

// asleepForGood reports whether a process asleep at f (explored there or
// above, not a don't-do entry) has a next event that no event can wake: it
// is enabled, spawns nothing, raises no runtime error, and its locations
// meet no block's of the program in a write (by the blocks' static sets,
// which name every location any of their runs may touch). Such an event is
// independent of every event but an erroring one, and stays enabled.
func (x *explorer) asleepForGood(f *level) bool {
	for _, sl := range f.sleep {
		if sl.byState || len(sl.seq) != 1 {
			continue
		}
		i := x.procIndex(sl.seq[0].pid)
		if i < 0 || !x.isEnabled(i) {
			continue
		}
		p := x.st.Procs[i]
		if len(p.Point.Block.Spawns) > 0 {
			continue
		}
		r, w := x.sets(p)
		if !x.meetsNoBlock(r, w) || x.fails(sl.seq[0].pid) {
			continue
		}
		return true
	}
	return false
}

// meetsNoBlock reports whether locations read r and written w meet no
// block's static sets in a write: no block writes what r or w name, nor
// reads what w names.
func (x *explorer) meetsNoBlock(r, w []interp.Loc) bool {
	for _, b := range x.m.Prog.Blocks {
		br, bw := x.staticSets(b)
		if x.intersect(r, bw) || x.intersect(w, bw) || x.intersect(w, br) {
			return false
		}
	}
	return true
}

// fails runs the next event of process pid, not as a state, and reports
// whether it raised a runtime error; the sequence and state are left as
// they were.
func (x *explorer) fails(pid interp.PID) bool {
	ev, _ := x.step(pid, false)
	x.st.Undo(ev.mark)
	x.seq = x.seq[:len(x.seq)-1]
	return ev.err != nil
}

// covered reports whether process pid is covered at f: a don't-do
// sequence of f has shrunk to its next event alone.
func (f *level) covered(pid interp.PID) bool {
	for _, sl := range f.sleep {
		if sl.byState && len(sl.seq) == 1 && sl.seq[0].pid == pid {
			return true
		}
	}
	return false
}

// uniformCovers returns, for codpor and codpor-ob, the processes q asleep
// or covered at f (alone in their sequence) whose next event is dependent
// on p's, but whose pair with p has a constraint that holds uniformly in
// the current state X (U⇒, as judge has it): they stay covered at X.p, as
// cdpor keeps them asleep (the CAV'18 paper's Alg. 1, line 17). The two
// orders of p and q are then one trace to codpor: a race of the two that
// the constraint shows uniformly independent is no race and no
// happens-before edge, so X.p.q.w and X.q.p.w have the same races, and
// the runs the cover skips reverse nothing X.q's do not. Commuting in X
// only is no reason: the runs a cover carried that way skips have races
// that nothing else reverses (see dporrt/testdata/regress/cs-carry-lost.blk
// and docs/algorithms.md). These are the sleepers of uniformSleepers that
// are dependent on p and have no floating writer (see floatingBefore), and
// what X.p inherits of the longer don't-do sequences that start with such a
// q (uniformPassOver).
func (x *explorer) uniformCovers(f *level, pid interp.PID) []sleeper {
	var p *event
	var out []sleeper
	for _, sl := range x.uniformSleepers(f, pid) {
		if sl.modObs || slices.ContainsFunc(out, func(o sleeper) bool { return o.seq[0].pid == sl.seq[0].pid }) {
			continue
		}
		if p == nil {
			p = x.nextEvent(pid)
		}
		if q := sl.seq[0]; x.dependent(p, q) && !x.floatingBefore(p, q) {
			out = append(out, sleeper{seq: sl.seq, byState: true})
		}
	}
	return append(out, x.uniformPassOver(f, pid)...)
}

// uniformPassOver returns, for codpor and codpor-ob, the don't-do
// sequences q.u of f, longer than q, that X.p inherits whole, p = pid: q's
// event is dependent on p's, a constraint of their pair holds uniformly in
// the current state X (U⇒, with no floating writer, as uniformCovers
// asks), and p has no event in u and is independent of every event of u.
// X.p.q.u and X.q.u.p then end in the same state, and to codpor the two
// orders of p and q are one trace (see uniformCovers). A single q is
// uniformCovers'; an independent q, childSleep's. A sequence that holds
// p's event is not inherited without it, for the reason childSleep gives.
// Only icCheck calls it (through uniformCovers): it reads x.ics.
func (x *explorer) uniformPassOver(f *level, pid interp.PID) []sleeper {
	var p *event
	var out []sleeper
	for _, sl := range f.sleep {
		if !sl.byState || sl.modObs || len(sl.seq) < 2 || sl.seq[0].pid == pid {
			continue
		}
		if p == nil {
			p = x.nextEvent(pid)
		}
		q, u := sl.seq[0], sl.seq[1:]
		if !x.dependent(p, q) || slices.ContainsFunc(u, func(e *event) bool { return x.dependent(p, e) }) {
			continue // p's own event in u is dependent on it too
		}
		if _, uniform := x.icHolds(pid, p.block, q.pid, q.block); uniform && !x.floatingBefore(p, q) {
			out = append(out, sleeper{seq: sl.seq, byState: true})
		}
	}
	return out
}

// floatingBefore is floatingWriter for the race p's next event p would
// have with q's, q right after p: an event of the sequence that would not
// happen before q there may write a global a constraint of their pair
// reads, and judge would then not find the race uniform. An event happens
// before q when it is, or happens before, an event that q or p (which q is
// dependent on) is dependent on.
func (x *explorer) floatingBefore(p, q *event) bool {
	read := x.constraintLocs(x.ics.pair(p.block, q.block).pr)
	if len(read) == 0 {
		return false
	}
	for j, ev := range x.seq {
		if !x.intersect(writesOf(ev), read) {
			continue
		}
		before := false
		for m := len(x.seq) - 1; m >= j && !before; m-- {
			if x.dependent(x.seq[m], p) || x.dependent(x.seq[m], q) {
				before = m == j || hb(ev, x.seq[m])
			}
		}
		if !before {
			return true
		}
	}
	return false
}

// addSleepers appends to sleep the entries of more it does not hold yet
// (the same processes, both by state or both not).
func addSleepers(sleep, more []sleeper) []sleeper {
	for _, m := range more {
		if !slices.ContainsFunc(sleep, func(s sleeper) bool { return s.byState == m.byState && samePIDs(s.seq, m.seq) }) {
			sleep = append(sleep, m)
		}
	}
	return sleep
}

// coveredStop handles a level where every enabled process is asleep and
// some are covered by a don't-do sequence (ISSTA'19 Alg. 1, lines 17-19):
// nothing is explored from it, and the races of each covered process's
// event are reversed. It reports false, doing nothing, when no enabled
// process is covered (the level is sleep-set blocked).
//
// The races of E itself are detected first, except with observers and
// ObserveFinal. There the virtual last event would observe, at E, the
// writes that no covered process's event overwrites: E is no run's end
// (every run through it goes on with an enabled process), and the races
// it observes there are observed in no run. RaceDetection(E.p), which
// follows for every covered p, finds E's races in a sequence where p's
// event has run (ISSTA'19 Alg. 2, lines 49-51, runs only that). Detected on
// E too, they make odpor-cs-ob explore more complete traces than odpor-ob
// with --observe-final, against the registry's bound (see
// dporrt/testdata/regress/cs-ob-final-bound.blk and cs-ob-stop-final.blk).
func (x *explorer) coveredStop(f *level) bool {
	var covered []interp.PID
	for n := x.enabled.first(); n != nil; n = n.next[0] {
		if f.covered(n.pid) {
			covered = append(covered, n.pid)
		}
	}
	if len(covered) == 0 {
		return false
	}
	x.res.Covered++
	x.treeKind(f.node, NodeCovered)
	if !x.finder.observesFinal(x) {
		x.detectRaces()
	}
	for _, pid := range covered {
		if x.stopped {
			return true
		}
		x.forcedRaces(pid)
	}
	return true
}

// forcedRaces is RaceDetection(E.p) for a process p covered at level f
// (ISSTA'19 Alg. 1, lines 18-19 and 26): p's event is not explored from
// here (its run ends where an explored run does), but the races it has
// with the sequence must still be reversed, and those of the sequence not
// reversed yet. The event runs for that, is not counted as a state, and is
// undone. It cannot raise a runtime error (the check that made its
// don't-do sequence ran it without one, and it was inherited only past
// events independent of it); if it did, it would be handled as an explored
// error.
func (x *explorer) forcedRaces(pid interp.PID) {
	ev, spawned := x.step(pid, false)
	k := len(x.seq) - 1
	x.scanOptimal(k)
	if ev.err != nil {
		x.errorEnd(-1, ev)
		x.detectRaces()
		x.errorWakeups(k)
	} else {
		x.blockedRaces(k, spawned, x.reverseNow)
		x.detectRaces()
	}
	x.st.Undo(ev.mark)
	x.seq = x.seq[:k]
	x.raced = min(x.raced, k)
	x.dropLooks()
}

// reverseCS reverses the race of e = seq[i] with e' = seq[k] as odpor
// does, inserting v = notdep(e, E).ê' into wut(E') unless it is redundant
// there, and adds to dnd(E') the reversed run when it ends where the
// explored order does (ISSTA'19 Alg. 1, lines 36-42; see sameEnd). A race
// that cannot be reversed (e' would not be enabled) needs neither.
//
// v is odpor's, not the paper's ance(e, e', E).ê'.I_fut (Sec. 3.2): the
// paper's shape explores the same complete traces in more states
// (QS(8): 2822 against 486), and with observers more traces than odpor-ob
// (see docs/notes/2026-11-context-sensitive.md). The check does not depend
// on v: it runs the events up to e' in the reversed order.
func (x *explorer) reverseCS(i, k int) {
	x.reverseCSTail(i, []int{k})
}

// reverseCSTail is reverseCS with the events at tail (tail[0] = k) where
// v has ê' alone: a race of two writes only the virtual last event of
// ObserveFinal observes is reversed as e', e and the events after e that
// happen after it (see observedTail), and checked as reverseCS checks it.
func (x *explorer) reverseCSTail(i int, tail []int) {
	k := tail[0]
	if !x.reversible(i, k) {
		x.unreversible(i, k)
		return
	}
	nd := x.notdep(i, k)
	pos := append(slices.Clone(nd), k)
	if !x.lostEdge(i, k) { // codpor-ob: see coverCS
		x.coverSame(i, k, pos)
	} else {
		x.coverBefore(i, k)
	}
	x.insertWUT(i, x.sequenceAt(append(nd, tail...), i, k))
}

// coverSame is the check of line 38 for a reversible race, v's events at
// pos: the reversed run goes into dnd(E') when it ends where the explored
// order does (see sameEnd).
func (x *explorer) coverSame(i, k int, pos []int) {
	if alt := x.sameEnd(i, k, pos); alt != nil {
		x.addCover(i, x.sequenceAt(alt, i, k), false)
	}
}

// coverCS is odpor-cs's check (coverSame) for a reversible race codpor
// reverses (called from reverse): a reversal whose run ends where the
// explored one does goes into the don't-do set, where the race would be
// one without codpor's uniform races too. It is not made when an event
// from e to e' lost a predecessor to a uniform race (event.dropped): such
// a race, or its suc(e, E), may exist only because uniform independence
// took a happens-before edge away, and its entry would cover runs that the
// explored branch, with another prefix, does not stand for (see
// testdata/regress/codpor-cs-check.blk). There the check of coverBefore is
// made instead.
func (x *explorer) coverCS(i, k int) {
	if !x.lostEdge(i, k) {
		x.coverSame(i, k, append(x.notdep(i, k), k))
		return
	}
	x.coverBefore(i, k)
}

// coverBefore is the check of context-sensitive DPOR as CAV'17 makes it,
// and cdpor's sleep sequences (see stateCover), for the race of
// e = seq[i] with e' = seq[k] where an event from e to e' lost a
// predecessor to a uniform race (see coverCS): û.ê'.ê, û the events
// between them that happen before e', goes into dnd(E') when its run from
// s[E'] ends where e.û.e' does, neither raising a runtime error. The
// entry stops at the race's own events: it holds none of the events
// after e that happen after it (suc(e, E)), which odpor-cs's holds and
// whose inheritance covers runs the explored branch does not stand for (see
// testdata/regress/codpor-cs-check.blk). That this entry is safe over a
// lost edge is not shown: the differential tests and their soaks back it,
// as they back cdpor's. The runs are not counted as states. Without it,
// codpor makes no check over a lost edge, and explores more complete traces
// than odpor-cs on some programs (see
// docs/notes/2026-12-01-codpor-bounds.md, "Why codpor is not bound by cdpor
// or odpor-cs").
func (x *explorer) coverBefore(i, k int) {
	u := x.before(i, k)
	if x.seq[i].err != nil || x.seq[k].err != nil || slices.ContainsFunc(u, func(j int) bool { return x.seq[j].err != nil }) {
		return
	}
	alt := append(append(slices.Clone(u), k), i)
	a, b := x.pidsAt(append(append([]int{i}, u...), k)), x.pidsAt(alt)
	same := false
	x.detour(i, false, func() { same = x.sameRuns(a, b) })
	if same {
		x.addCover(i, x.sequenceAt(alt, i, k), false)
	}
}

// lostEdge reports whether an event after e = seq[i], up to seq[last],
// lost a predecessor to a uniform race (see coverCS): the checks of
// codpor and codpor-ob are not made over such events.
func (x *explorer) lostEdge(i, last int) bool {
	for j := i + 1; j <= last; j++ {
		if x.seq[j].dropped {
			return true
		}
	}
	return false
}

// pidsAt returns the processes of the events at the positions pos.
func (x *explorer) pidsAt(pos []int) []interp.PID {
	out := make([]interp.PID, len(pos))
	for a, j := range pos {
		out[a] = x.seq[j].pid
	}
	return out
}

// sequenceAt returns the events at the positions pos as entries of a
// wakeup tree or don't-do sequence: as they ran (each with its sets under
// the dependency, a failed compare-and-swap's without the write it did not
// make), but for the race's own events, the positions i and k, which are
// copies with the sets they have wherever they run (see reverse).
func (x *explorer) sequenceAt(pos []int, i, k int) []*event {
	v := make([]*event, len(pos))
	for a, j := range pos {
		v[a] = x.seq[j]
		if j == i || j == k {
			v[a] = x.staticEvent(x.seq[j])
			v[a].err = x.seq[j].err
		}
	}
	return v
}

// notdep returns the positions of notdep(e, E) for e = seq[i], the race
// being with seq[k]: the events after e that do not happen after it,
// but seq[k] and the virtual ones.
func (x *explorer) notdep(i, k int) []int {
	var out []int
	for j := i + 1; j < len(x.seq); j++ {
		if j != k && !x.seq[j].virtual && !hb(x.seq[i], x.seq[j]) {
			out = append(out, j)
		}
	}
	return out
}

// sameEnd is the check of ISSTA'19 Alg. 1, line 38, for the race of
// e = seq[i] with e' = seq[k], v being the positions of the events of the
// reversal: it runs (v.suc(e, E))≤e' from s[E'], the events of v up to e'
// then e and the events after it that happen after it, and, when that
// ends in s[pre+(E, e')], the state after e', returns the positions of the
// events it ran, in the order it ran them (nil otherwise). Both runs must
// execute the same events, so every event between e and e' must be in v
// or happen after e; neither run may raise a runtime error.
//
// That sequence, not v.ê as the paper writes, is what goes into the
// don't-do set: its end is the state compared. v.ê stops short of the
// events of suc(e, E), and would prune runs where something else comes
// before them, whose states nobody compared (dporrt/testdata/regress/cs-suc.blk).
func (x *explorer) sameEnd(i, k int, v []int) []int {
	e := x.seq[i]
	if e.err != nil || x.seq[k].err != nil {
		return nil
	}
	in := make(map[int]bool, len(v))
	var alt []int
	for _, j := range v {
		in[j] = true
		if j <= k {
			alt = append(alt, j)
		}
	}
	alt = append(alt, i)
	for j := i + 1; j < k; j++ {
		if in[j] {
			continue
		}
		if !hb(e, x.seq[j]) {
			return nil
		}
		alt = append(alt, j)
	}
	orig := make([]interp.PID, 0, k-i+1)
	for j := i; j <= k; j++ {
		orig = append(orig, x.seq[j].pid)
	}
	altPIDs := x.pidsAt(alt)
	same := false
	x.detour(i, false, func() { same = x.sameRuns(orig, altPIDs) })
	if !same {
		return nil
	}
	return alt
}

// sameRuns reports whether running the next events of the processes a in
// order, and of b in order, from the current state end in the same state,
// neither run disabled nor raising a runtime error. The state is left as
// it was. The ends are compared by hash first, and copied only to confirm
// equal hashes.
func (x *explorer) sameRuns(a, b []interp.PID) bool {
	mark := x.st.Mark()
	defer x.st.Undo(mark)
	if !x.runClean(a) {
		return false
	}
	h := x.st.Hash()
	x.st.Undo(mark)
	if !x.runClean(b) || x.st.Hash() != h {
		return false
	}
	x.want = x.st.CloneInto(x.want)
	x.st.Undo(mark)
	return x.runClean(a) && x.st.Equal(x.want)
}

// reverseObservedCS reverses the race of two writes e = seq[i] and
// e' = seq[k] that are dependent only because a later event observes e”s
// write (ISSTA'19 Alg. 2, lines 69-81). v is odpor-ob's,
// notdep(e, E).ê'.ê.notobs.ô (see observedTail), and goes into wut(E')
// unless redundant; the reversed run goes into dnd(E') when every observer
// sees the same in it as in E (line 73; see sameObservations), or, when
// that check does not apply, when it ends in the same state (line 77).
// The refined check does not apply where the observers are not
// independent of each other (Def. 2.1 wants them to be), nor with
// ObserveFinal: the virtual last event observes every value that reaches
// the end, and a run that the check would cover can leave e's value there
// where E did not leave e”s (dporrt/testdata/regress/cs-ob-final.blk).
// Nor where E is not maximal (see maximal) and a process may still read
// what e writes (see laterMayRead): the observers of e' are then those of
// E only, and an event still to come may observe it too.
func (x *explorer) reverseObservedCS(i, k int) {
	tail, o := x.observedTail(i, k)
	if o < 0 { // no observer that is an event
		x.reverseCSTail(i, tail)
		return
	}
	if !x.reversible(i, k) {
		x.unreversible(i, k)
		return
	}
	nd := x.notdep(i, k)
	pos := append(slices.Clone(nd), tail...)
	obs := x.observersOf(i, k)
	related := x.opts.ObserveFinal || !x.maximal() && x.laterMayRead(i)
	for a, o := range obs {
		for _, b := range obs[a+1:] {
			related = related || hb(x.seq[o], x.seq[b])
		}
	}
	var alt []int
	modObs := !related
	switch {
	case x.lostEdge(i, tail[len(tail)-1]):
		// codpor-ob: no check over an event that lost a predecessor to
		// a uniform race (see coverCS).
	case modObs:
		o := tail[len(tail)-1]
		var others []int // the observers v does not hold
		for _, b := range obs {
			if !slices.Contains(pos, b) {
				others = append(others, b)
			}
		}
		alt = x.sameObservations(i, o, pos, others, obs)
	default:
		alt = x.sameEnd(i, k, append(nd, k))
	}
	if alt != nil {
		x.addCover(i, x.sequenceAt(alt, i, k), modObs)
	}
	x.insertWUT(i, x.sequenceAt(pos, i, k))
}

// maximal reports whether the sequence is maximal: its last event raised
// a runtime error, or no process is enabled after it. The races of a
// sequence that is not maximal are reversed too: those of a covered
// process's event, which is not explored (forcedRaces, ISSTA'19 Alg. 1,
// lines 18-19 and 26, Alg. 2, lines 51 and 58), of a level where every
// enabled process is asleep or covered (coveredStop), and of a
// sleep-set-blocked one. Its observers are the events it holds, and the
// check modulo observability (ISSTA'19 Alg. 2, line 73), which asks the
// same effect of every observer of the race, holds of a complete
// sequence only (the paper's Lemma 4.3): an event still to come may
// observe e' too, where it sees something else (see
// dporrt/testdata/regress/cs-ob-later-observer.blk). On a sequence that is
// not maximal the state check of line 77 is made instead (sameEnd), whose
// entry holds whatever comes after it.
func (x *explorer) maximal() bool {
	if n := len(x.seq); n > 0 && x.seq[n-1].err != nil {
		return true
	}
	for i, p := range x.st.Procs {
		if !p.Done && x.st.Enabled(i) {
			return false
		}
	}
	return true
}

// laterMayRead reports whether a process that has not ended may still
// read a global that e = seq[i] writes, or an invariant read it after a
// later event: by the syntactic reads of the blocks it may still run and
// of the processes it may spawn (Machine.ReadsLater). Where none may, the
// observers of a race of e in a sequence that is not maximal are those it
// holds, as in a maximal one. In testdata/bench/fra.blk (FR-a) the
// writers left after the reader read nothing, and odpor-cs-ob explores
// one trace at every N, as the ISSTA'19 paper's Table 1 has it (4, 15
// and 46 at N = 3, 4, 5 with the state check on every sequence that is
// not maximal).
func (x *explorer) laterMayRead(i int) bool {
	bits := make([]uint64, (len(x.m.Prog.Globals)+63)/64)
	x.m.MarkVars(x.seq[i].writes, bits)
	for _, p := range x.st.Procs {
		if !p.Done && x.m.ReadsLater(p.Point.Block, bits) {
			return true
		}
	}
	return false
}

// observersOf returns the positions of the events that observe e”s write,
// e' = seq[k], of a global e = seq[i] writes too (see observe), in order.
func (x *explorer) observersOf(i, k int) []int {
	e := x.seq[i]
	var obs []int
	for j := k + 1; j < len(x.seq); j++ {
		for _, r := range x.seq[j].readFrom {
			if r.writer == k && x.touches(e.writes, r.global) {
				obs = append(obs, j)
				break
			}
		}
	}
	return obs
}

// sameObservations is the check of ISSTA'19 Alg. 2, line 73: from s[E'],
// it runs E's events up to the last observer o and the reversed sequence
// (the events of v up to o, then the other observers) and, when every
// observer has the same effect in both (see effect), returns the positions
// of the reversed sequence's events in the order it ran them: the
// don't-do entry (v.(ô_s \ ô) in the paper, but for the events of v after
// o, which that run did not execute; see sameEnd).
func (x *explorer) sameObservations(i, o int, v, others, obs []int) []int {
	for _, j := range append(slices.Clone(v), others...) {
		if j <= o && x.seq[j].err != nil {
			return nil
		}
	}
	var orig, alt []interp.PID
	for j := i; j <= o; j++ {
		orig = append(orig, x.seq[j].pid)
	}
	var altAt []int // the positions in E of alt's events
	for _, j := range v {
		if j <= o {
			alt = append(alt, x.seq[j].pid)
			altAt = append(altAt, j)
		}
	}
	for _, j := range others {
		alt = append(alt, x.seq[j].pid)
		altAt = append(altAt, j)
	}
	want := map[int][]int64{}
	same := false
	x.detour(i, false, func() {
		mark := x.st.Mark()
		if !x.runEffects(orig, func(a int) {
			if slices.Contains(obs, i+a) {
				want[i+a] = x.effect()
			}
		}) {
			return
		}
		x.st.Undo(mark)
		seen, differ := 0, false
		ok := x.runEffects(alt, func(a int) {
			if at := altAt[a]; slices.Contains(obs, at) {
				seen++
				differ = differ || !slices.Equal(want[at], x.effect())
			}
		})
		same = ok && !differ && seen == len(obs)
	})
	if !same {
		return nil
	}
	return altAt
}

// runClean runs the next events of the processes pids in order; false
// when one does not exist, is not enabled or raises a runtime error.
func (x *explorer) runClean(pids []interp.PID) bool {
	return x.runEffects(pids, func(int) {})
}

// runEffects runs the next events of the processes pids in order, calling
// after(a) after the a-th (x.scratch holds its event); false when one does
// not exist, is not enabled or raises a runtime error. The events are not
// added to the sequence: the caller undoes them.
func (x *explorer) runEffects(pids []interp.PID, after func(a int)) bool {
	for a, pid := range pids {
		p := x.procIndex(pid)
		if p < 0 || !x.st.Enabled(p) {
			return false
		}
		if x.st.StepInto(p, &x.scratch); x.scratch.Err != nil {
			return false
		}
		after(a)
	}
	return true
}

// effect is what the event just run leaves that a later event can see
// (equivalence modulo observability, ISSTA'19 Sec. 4.1, for our blocks):
// its process's next point and live locals (or that it ended), the values
// it wrote where it wrote them, the processes it spawned (proc, point,
// live locals), and the sites of the asserts that failed in it. Two runs
// of an observer with the same effect are told apart by nothing that
// follows: the values it read matter only through what it did with them.
func (x *explorer) effect() []int64 {
	ev := &x.scratch
	out := []int64{}
	proc := func(p *interp.Process) {
		out = append(out, int64(p.Proc.Index), int64(p.PointIndex()))
		if p.Point != nil {
			for _, v := range p.Point.Live {
				out = append(out, p.Locals[v.Index])
			}
		}
	}
	proc(x.st.Procs[ev.Proc])
	out = append(out, int64(len(ev.Writes)))
	for _, l := range ev.Writes {
		out = append(out, int64(l), x.st.Value(l))
	}
	out = append(out, int64(len(ev.Spawned)))
	for _, c := range ev.Spawned {
		proc(x.st.Procs[c])
	}
	out = append(out, int64(len(ev.Violations)))
	for _, v := range ev.Violations {
		out = append(out, int64(v.Pos.Line), int64(v.Pos.Col))
	}
	return out
}

package dporrt

import "github.com/icgen/icgen/interp"
import "slices"

// This file holds the optimal loop: Optimal DPOR with wakeup trees
// (Abdulla, Aronis, Jonsson, Sagonas, POPL'14 / JACM'17 Alg. 2; the black
// code of ISSTA'19 Alg. 1). Each level keeps a wakeup tree of sequences
// still to explore from it and a sleep set; races are detected once a
// sequence is maximal, each reversed by inserting into the wakeup tree of
// the level before its first event the sequence that reverses it, unless a
// process asleep there is a weak initial of it (it would repeat an explored
// Mazurkiewicz trace).

// wut is a wakeup tree of events, keyed by process.
type wut = wakeupTree[*event, interp.PID]

// newWUT returns an empty wakeup tree. With observers, its weak initials
// are the observer dependency's of the sequence inserted (see
// observedWI): a reversal equivalent under observers to a branch the tree
// holds goes into that branch. The trees of the algorithms with don't-do
// sets keep what each branch took in, so that a covered branch can be
// skipped without losing it (see wakeupTree.skippable).
//
// With observers, a leaf does not cover a longer sequence inserted through
// it: the rest becomes its branch (wakeupTree.extend). A leaf covers it in
// Optimal DPOR because the leaf's subtree finds the rest by race detection.
// With observers that subtree checks its reversals against the processes
// done at the levels above it (redundantObserved), and a process done there
// may be the one whose subtree made the reversal the leaf took in: each
// counts on the other, and neither makes it (see
// dporrt/testdata/regress/ob-leaf.blk).
func (x *explorer) newWUT() *wut {
	t := x.plainWUT()
	x.finder.wut(x, t)
	t.keep = x.check.covers()
	return t
}

// firstAwake returns the first process awake at level f, to start its
// wakeup tree with. Where none is, the level ends: stopped by a covered
// process (see coveredStop), or sleep-set blocked, which a dependency that
// does not change with the state never is (ODPOR's optimality) but awaits
// can be; either way the races of the sequence are reversed.
func (x *explorer) firstAwake(f *level) (interp.PID, bool) {
	if pid, ok := x.awake(f); ok {
		return pid, true
	}
	if x.coveredStop(f) {
		return interp.PID{}, false
	}
	x.res.Blocked++
	x.treeKind(f.node, NodeBlocked)
	x.detectRaces()
	return interp.PID{}, false
}

// skips reports whether the optimal loop skips the branch of process pid
// of f's wakeup tree: a don't-do sequence covers pid, and the branch is
// skippable; took is what the branch took in (see wakeupTree.skippable).
func (f *level) skips(pid interp.PID) (took [][]*event, ok bool) {
	took, ok = f.wut.skippable(pid)
	return took, ok && f.covered(pid)
}

// plainWUT returns an empty wakeup tree of the plain dependency.
func (x *explorer) plainWUT() *wut {
	t := newWakeupTree(func(e *event) interp.PID { return e.pid }, x.dependent)
	t.ghost = func(e *event) bool { return e.blocked }
	return t
}

// optimal explores from the current level, depth.
func (x *explorer) optimal(depth int) {
	f, complete := x.arrive(depth)
	if complete {
		x.detectRaces()
		return
	}
	if f.node >= 0 {
		defer x.treeLeave(f.node, f, x.enabled.pids())
	}
	if f.wut == nil || f.wut.empty() {
		// Nothing to follow: start with the first process awake.
		pid, ok := x.firstAwake(f)
		if !ok {
			return
		}
		f.wut = x.newWUT()
		f.wut.insert([]*event{x.nextEvent(pid)})
	}
	explored, took := 0, 0
	defer func() {
		if explored > 0 && took == 0 {
			x.treeKind(f.node, NodeCovered) // every branch was covered
		}
	}()
	for !x.stopped {
		first, ok := f.wut.leftmost()
		if !ok && explored == 0 {
			// Every sequence the tree held was unrunnable (see below):
			// start with the first process awake, as with an empty tree,
			// or end the level as it does where none is. Returning
			// without it, a level whose only awake process was covered
			// reversed neither its own races nor the covered process's
			// (testdata/regress/unrunnable-covered.blk).
			pid, awake := x.firstAwake(f)
			if !awake {
				return
			}
			f.wut.insert([]*event{x.nextEvent(pid)})
			continue
		}
		if !ok {
			if x.forceCovered(f) {
				continue
			}
			return
		}
		pid := first.pid
		if i := x.procIndex(pid); i < 0 || !x.isEnabled(i) {
			// A sequence the tree holds cannot start here: the checks
			// that keep the tree's sequences executable missed one.
			f.wut.remove(pid)
			continue
		}
		if x.bounded() {
			x.treeKind(f.node, NodeCut)
			return
		}
		if took, ok := f.skips(pid); ok {
			// Covered by a don't-do sequence: not explored, but its
			// races are reversed (ISSTA'19 Alg. 1, lines 25-26). The
			// whole branch goes, as line 33 has it: the sequence that
			// made it starts with pid's event, and the cover stands for
			// every run that does.
			explored++
			x.res.Covered++
			// Once a level: from the same sequence the same races are
			// reversed, and two covered processes whose races each put the
			// other back into this tree would be skipped in turn for ever
			// (see testdata/regress/codpor-forced-loop.blk).
			if !f.forced.has(pid) {
				f.forced.add(pid)
				x.forcedRaces(pid)
			}
			f.wut.remove(pid)
			// The sequences it took in are inserted again, and pid is not
			// put asleep: they are reversals race detection found missing,
			// pid a weak initial of each, so pid asleep would take each for
			// explored (see dporrt/testdata/regress/cs-took-asleep.blk).
			// Nor is it put asleep where the branch took in nothing: its
			// cover keeps it from being explored here, but asleep it would
			// also make redundant a later reversal that pid is a weak
			// initial of, one whose run the cover does not stand for (see
			// dporrt/testdata/regress/ob-covered-asleep.blk).
			for _, v := range took {
				f.wut.insert(v)
			}
			// The races its subtree would have reversed here are
			// unknown: where nothing else is left, another process
			// starts the level again (see wakeOne).
			x.wakeOne(f)
			continue
		}
		sub := f.wut.subtree(pid)
		explored++
		kept := x.check.keptCovers(x, f, pid)
		took++
		ev, spawned, node := x.take(f, pid)
		f.wut.setFirst(pid, ev) // races inserted here now meet it as it ran
		x.scanOptimal(len(x.seq) - 1)
		if ev.err != nil {
			x.errorEnd(node, ev)
			x.detectRaces()
			x.errorWakeups(len(x.seq) - 1)
		} else {
			x.blockedRaces(len(x.seq)-1, spawned, x.reverseNow)
			child := x.enter(addSleepers(x.childSleep(f, ev), kept), ev, spawned)
			child.node, child.wut = node, sub
			x.optimal(depth + 1)
			x.leave()
		}
		x.st.Undo(ev.mark)
		x.seq = x.seq[:len(x.seq)-1]
		x.raced = min(x.raced, len(x.seq))
		x.dropLooks()
		f.sleep = append(f.sleep, sleeper{seq: []*event{ev}})
		x.finder.explored(f, ev)
		f.wut.remove(pid)
	}
}

// scanOptimal computes the vector clock of the event at position k and
// notes its races, to be reversed once the sequence is maximal (see
// detectRaces). With observers the races wait for the observers (see
// observedRaces), codpor-ob's uniform races left out of the clock here
// too (see dropUniform); with independence constraints (codpor) each race
// is judged now, as cdpor does: one a constraint shows uniformly
// independent is no race and no happens-before edge, and the sequences
// that cover a reversal go into the don't-do set where it would start.
func (x *explorer) scanOptimal(k int) { x.finder.scan(x, k) }

// recordRace notes the race of seq[i] with seq[k] on seq[k]: it is
// reversed once the sequence is maximal (see detectRaces).
func (x *explorer) recordRace(i, k int) bool {
	x.seq[k].races = append(x.seq[k].races, i)
	return false
}

// judgeRace is recordRace for codpor: the check judges the race first (a
// runtime error has no constraint and no state to compare: recorded as it
// is). It reports whether the race is uniform, which takes e out of
// e”s predecessors.
func (x *explorer) judgeRace(i, k int) bool {
	if x.outOfTime() {
		return false
	}
	if x.seq[k].err != nil {
		return x.recordRace(i, k)
	}
	v := x.check.judge(x, i, k)
	for _, c := range v.covers {
		x.addCover(i, c, false)
	}
	if v.uniform {
		x.seq[k].dropped = true
		return true
	}
	return x.recordRace(i, k)
}

// detectRaces reverses the races of the maximal sequence (POPL'14 Alg. 2,
// lines 3-6): for each race e ⋖ e', the sequence v = notdep(e, E).ê' goes
// into wut(pre(E, e)) unless it is redundant there. A race whose second
// event was in the sequence at the last maximal sequence is left out: the
// events up to e' and their happens-before are the same, and it was
// reversed then (its v differed only after ê', which a wakeup tree leaf
// leaves free). Without this, every trace would pay for the races of its
// whole prefix again.
func (x *explorer) detectRaces() { x.finder.detect(x) }

// plainRaces is detectRaces by the plain dependency.
func (x *explorer) plainRaces() {
	x.reverseLooks()
	from := x.raced
	x.raced = len(x.seq)
	for k := from; k < len(x.seq); k++ {
		ev := x.seq[k]
		for _, i := range ev.races {
			if x.outOfTime() {
				return
			}
			x.check.reverse(x, i, k)
		}
	}
}

// reverseNow reverses the race of seq[i] with the virtual event seq[k] of a
// blocked process (see blockedRaces) at once, over the sequence as it is:
// the virtual event is not part of the maximal sequence. Where the race
// cannot be reversed (the process would be blocked before e too), e is not
// taken as a predecessor of the virtual event, so that the scan goes on to
// the events before it: one of them is the write that blocked it, which a
// later write of the guard by the same process, taken as a predecessor,
// would hide (see testdata/regress/blocked-hidden.blk).
func (x *explorer) reverseNow(i, k int) bool {
	return !x.reverse(i, []int{k})
}

// reverse inserts into wut(E'), E' = pre(E, e), the sequence v that
// reverses the race of e = seq[i] with e' = seq[k], tail[0]: the events
// after e that do not happen after it (notdep(e, E)), then the processes
// of the events at tail (e' alone, or more for a race with observers: see
// observedRaces); unless e' cannot
// run there (the race is not reversible) or v is redundant: a process
// asleep at E' is a weak initial of v (POPL'14 Alg. 2, line 5). It
// reports false when the race is not reversible.
//
// v's last event is taken with the sets it has after e (staticEvent): it
// has not run where v puts it, but its sets depend only on its block and
// its process's locals, which e does not change (the other events of v
// run as they did: they do not depend on e).
//
// codpor orders v otherwise, when e”s process existed before e: the
// events of notdep(e, E) before e' that e' happens after (û), then e',
// then the rest of notdep(e, E) in E's order. Each event moved behind e'
// does not happen before it and is independent of it, so v reaches the
// same states; events of a process that may be asleep where v runs
// stay before e' where they lead to it by the plain dependency (see
// plainBefore). The wakeup tree then starts the reversal with the race's
// own events where E's order would first explore every event after e
// (DBP(8): 2044 states against 537k; cdpor, whose source sets pick an
// initial of û.e', 1275). Where e”s process was spawned after e, it may
// not exist at s[E'.û] (PS: a put forwards only when another put has
// run), and E's order is kept (PS(11): 6581 states against 48096). With
// awaits E's order is kept too: the virtual event of a blocked process
// takes as predecessors only the events that ran while it was enabled (see
// scan), so an event that does not happen before it may still be what its
// reversal needs first (see testdata/regress/blocked-writes.blk and
// blocked-kept.blk). Last, E's order is kept where no event after e lost a
// predecessor to a uniform race (see lostEdge): happens-before after e is
// then odpor-cs's, and so is v (codpor-ob: odpor-cs-ob's). Without
// constraints that hold uniformly, codpor then explores what odpor-cs does.
func (x *explorer) reverse(i int, tail []int) bool {
	k := tail[0]
	// codpor and codpor-ob put e' right after the events before it that
	// it happens after (see above); the others keep E's order, e' last.
	early := x.check.early(x, i, tail)
	if !x.reversible(i, k) {
		x.unreversible(i, k)
		return false
	}
	v := x.reversal(i, tail, early) // its failing events judged (failsWhere)
	x.check.reversed(x, i, tail)
	x.insertJudged(i, v)
	return true
}

// insertWUT inserts v into the wakeup tree of level i, once its failing
// events are judged where v runs (failsWhere), unless it is redundant
// there: a process asleep at level i is a weak initial of it.
func (x *explorer) insertWUT(i int, v []*event) {
	x.failsWhere(i, v)
	x.insertJudged(i, v)
}

// insertJudged is insertWUT for a v whose failing events are judged.
func (x *explorer) insertJudged(i int, v []*event) {
	f := x.levels[i]
	if x.redundant(f, v) {
		return
	}
	if f.wut == nil {
		f.wut = x.newWUT()
	}
	f.wut.insert(v)
}

// reversal returns the sequence v of reverse: the events after e = seq[i]
// that do not happen after it, then the events at tail, in E's order; or,
// early, e' first of them but for the events before it that it happens
// after (see reverse). Its failing events are judged where it runs
// (failsWhere).
func (x *explorer) reversal(i int, tail []int, early bool) []*event {
	if !early {
		v := x.ordered(i, tail, nil)
		x.failsWhere(i, v)
		return v
	}
	// The processes that may be asleep where v's events run depend on
	// where v goes in the tree, which depends on v and on which of its
	// events fail there (a failing event is dependent on every event):
	// grown until v's path adds none.
	asleep := x.maySleep(i)
	for {
		v := x.ordered(i, tail, x.plainBefore(i, tail[0], asleep))
		x.failsWhere(i, v)
		grew := false
		if f := x.levels[i]; f.wut != nil {
			for _, p := range f.wut.leftOf(v) {
				if !asleep[p] {
					asleep[p], grew = true, true
				}
			}
		}
		if !grew {
			return v
		}
	}
}

// ordered builds reversal's v: E's order, or, with before (early), the
// events it marks first, then the tail, then the rest.
func (x *explorer) ordered(i int, tail []int, before []bool) []*event {
	e, k := x.seq[i], tail[0]
	early := before != nil
	v := make([]*event, 0, len(x.seq)-i)
	first := func(j int) bool { return !early || j < k && before[j] }
	for j := i + 1; j < len(x.seq); j++ {
		if j != k && !x.seq[j].virtual && !hb(e, x.seq[j]) && first(j) {
			v = append(v, x.seq[j])
		}
	}
	for _, j := range tail {
		last := x.staticEvent(x.seq[j])
		last.err = x.seq[j].err // an error is dependent on everything
		v = append(v, last)
	}
	if early {
		for j := i + 1; j < len(x.seq); j++ {
			if j != k && !x.seq[j].virtual && !hb(e, x.seq[j]) && !first(j) {
				v = append(v, x.seq[j])
			}
		}
	}
	return v
}

// plainBefore marks the events between e = seq[i] and e' = seq[k] that
// the early order of reverse keeps before e': those that happen before e',
// and those of a process in asleep (which may be asleep where the
// reversal's events run: see maySleep and reversal) that lead to e' by the
// dependency the wakeup trees and sleep sets use, a race a constraint
// showed uniformly independent counting as dependent. With happens-before
// alone, an event whose edge to e' was dropped goes after e' in the
// reversal, and the sleep sets, which know no constraint, keep its process
// asleep where the reversal wants it run: the order that runs it after e'
// is then never explored (see testdata/regress/codpor-plain-before.blk).
// Only a process asleep there can be kept from running so, and the plain
// dependency of the others costs: kept for every event, DBP(12) took 352k
// states with --assume-no-overflow and codpor-ob did not finish it within
// 60 s (40,956 states, 1.6 s, this way). Not carrying past e' a sleeper
// that the wakeup tree runs below it would also reach that order, but costs
// traces where uniform races are many (see
// docs/notes/2026-11-uniformity-overflow.md).
func (x *explorer) plainBefore(i, k int, asleep map[interp.PID]bool) []bool {
	before := make([]bool, k+1)
	before[k] = true
	for j := k - 1; j > i; j-- {
		a := x.seq[j]
		if a.virtual || hb(x.seq[i], a) {
			continue
		}
		for m := j + 1; m <= k && !before[j]; m++ {
			b := x.seq[m]
			before[j] = before[m] && (hb(a, b) || a.pid == b.pid || asleep[a.pid] && x.dependent(a, b))
		}
	}
	return before
}

// maySleep returns the processes that may be asleep at level i when a
// sequence inserted into its wakeup tree now is explored, wherever it goes
// in the tree: those asleep there now, e's (its branch is under way), and
// the first of every branch the tree holds (a sequence inserted later goes
// to the right of them, or below one). Where it goes below one, the
// branches left of its path further down are explored first, and their
// processes sleep there too: reversal adds them (wakeupTree.leftOf), for
// the path the sequence takes. Counting every process of the tree instead
// took DBP(12) back to over 249k states with codpor-ob cut at 60 s.
func (x *explorer) maySleep(i int) map[interp.PID]bool {
	f := x.levels[i]
	out := map[interp.PID]bool{x.seq[i].pid: true}
	for _, sl := range f.sleep {
		if len(sl.seq) == 1 {
			out[sl.seq[0].pid] = true
		}
	}
	if f.wut != nil {
		for _, ev := range f.wut.firsts() {
			out[ev.pid] = true
		}
	}
	return out
}

// failsWhere settles, for each event of v (to run from level i), whether
// it raises a runtime error, and what a compare-and-swap writes, where v
// puts it, by running v from
// s[seq[:i]]: an error makes an event dependent on every event (it ends
// the execution), but the same block run elsewhere may fail where it did
// not, or not where it did. The events of v are the same events wherever
// v runs from there (execution is deterministic), so this decides it.
//   - One that failed where it ran may not fail here; then its block's
//     syntactic sets are its dependency. Taken as failing, it makes a
//     process asleep at level i no weak initial of v, so v is inserted, and
//     where v runs without the error that process stays asleep to the end:
//     a sleep-set-blocked trace (see
//     docs/notes/2026-11-dependencies-awaits-observers.md, "The two
//     dependencies").
//   - One that ran without error may fail here: the race's own events are
//     moved where they have not run. Taken as not failing, it can leave a
//     process done at a prefix of level i, independent of it, a weak
//     initial of v, and v is dropped as redundant, though the explored
//     trace of that process runs an event v's error leaves undone (see
//     dporrt/testdata/regress/ob-moved-error.blk).
//   - A compare-and-swap (see restrictWrites) may fail where v puts it and
//     not where it ran, or the other way: it takes the writes it makes
//     there. With the sets it had where it ran, or its potential writes,
//     the wakeup tree holds an event other than the one that runs, and the
//     weak initials judged by it drop reversals that the run needs (see
//     dporrt/testdata/regress/cas-wakeup-sets.blk and
//     cas-wakeup-class.blk).
//
// An error found is always kept; one that does not recur is cleared only
// when v runs to its end (a v that cannot run as a whole keeps its
// errors).
func (x *explorer) failsWhere(i int, v []*event) {
	var ran []*event // the events of v as they run where v puts them
	x.detour(i, false, func() {
		for _, ev := range v {
			if p := x.procIndex(ev.pid); p < 0 || !x.st.Enabled(p) {
				return
			}
			r, _ := x.step(ev.pid, false)
			ran = append(ran, r)
			if r.err != nil {
				return
			}
		}
	})
	whole := len(ran) == len(v)
	for a, r := range ran {
		err := r.err
		fails := (err != nil) != (v[a].err != nil) && (err != nil || whole)
		// A compare-and-swap may fail where v puts it and not where it
		// ran, or the other way: it takes the writes it makes there (see
		// restrictWrites), as the event that runs there will have them.
		cas := err == nil && v[a].err == nil && !slices.Equal(r.writes, v[a].writes)
		if !fails && !cas {
			continue
		}
		// v's entries are copies (see sequenceAt and reverse); one
		// shared with the sequence is not changed.
		c := *v[a]
		if fails {
			c.err = err
		}
		if cas {
			c.reads, c.writes, c.sets = r.reads, r.writes, r.sets
		}
		v[a] = &c
	}
}

// redundant reports whether a process asleep at level f is a weak initial
// of v: then exploring v from f repeats an explored trace. With observers,
// so is v when a process done at a level up to f is a weak initial under
// the observer dependency (see redundantObserved).
func (x *explorer) redundant(f *level, v []*event) bool {
	if x.finder.redundant(x, f, v) {
		return true
	}
	if len(f.sleep) == 0 {
		return false
	}
	t := x.plainWUT()
	for _, sl := range f.sleep {
		if sl.byState {
			continue // a don't-do sequence: its first process is not asleep
		}
		if _, ok := t.weakInitial(sl.seq[0], v); ok {
			return true
		}
	}
	return false
}

// reversible reports whether e' = seq[k] can run before e = seq[i]: in
// s[E'.û] (û the events between them that happen before e'), its process
// exists and is enabled. Without an await guard, or when e writes nothing
// the guard reads, it is enabled there as it was after e (or, for the
// virtual event of a blocked process, as it is now) and no run is needed.
// For the virtual event of a blocked process, û is every event after e
// that does not happen after it, as the reversal puts them before e': its
// predecessors leave out the events that ran while it was blocked (see
// scan), and one of those may be what enables it: run with its predecessors
// alone, the guard can stay false where the reversal finds it true (see
// dporrt/testdata/regress/blocked-enabler.blk, and blocked-cells.blk, where
// array cells make the enabling write independent of e).
func (x *explorer) reversible(i, k int) bool {
	e, n := x.seq[i], x.seq[k]
	if n.block.Point.Guard == nil {
		return true
	}
	if !n.virtual && !x.intersect(e.writes, x.guardReads(n)) {
		return true
	}
	if n.virtual {
		return x.enabledAfter(i, x.notdepPIDs(i, k), n.pid)
	}
	return x.enabledAfter(i, x.between(i, k), n.pid)
}

// enabledAfter reports whether process pid exists and is enabled after the
// next events of the processes u run from s[seq[:i]], in order (false if
// one of them cannot run). The state is left as it was.
func (x *explorer) enabledAfter(i int, u []interp.PID, pid interp.PID) bool {
	ok := false
	x.detour(i, false, func() {
		if _, ran := x.steps(u); !ran {
			return
		}
		p := x.procIndex(pid)
		ok = p >= 0 && x.st.Enabled(p)
	})
	return ok
}

// notdepPIDs returns the processes of notdep(e, E), e = seq[i], the race
// being with seq[k], in order.
func (x *explorer) notdepPIDs(i, k int) []interp.PID { return x.pidsAt(x.notdep(i, k)) }

// disabler returns, for the algorithms with observers (see unreversible),
// for a race of e = seq[i] with e' = seq[k] that cannot
// be reversed because e' is not enabled before e (its await guard is
// false in s[E'.û]), the position of the latest event before e that
// writes what the guard reads and before which e' can run (after the
// events of notdep(w, E), as the reversal runs them): the race that
// must be reversed instead, e' going before the write that disabled it
// (-1 if there is none). Reversed with e alone, the race is dropped, and no
// other race puts e' before the write that disabled it (see
// dporrt/testdata/regress/await-disabler.blk). Not for the virtual event of
// a blocked process, which reverseNow handles.
// The latest such write only, as race reversal takes the latest race;
// whether that always suffices is not shown (the differential tests,
// with cut-down programs, found no case that needs more).
//
// A write w that an earlier event of e”s process happens after is passed
// over: that event is not in notdep(w, E), so the reversal would name e'
// where its process's next event is that earlier one, and the wakeup tree
// would get a branch of that process whose event is e”s block, with weak
// initials judged against that block's sets (see
// dporrt/testdata/regress/disabler-own.blk and TestClassesCovered).
func (x *explorer) disabler(i, k int) int {
	n := x.seq[k]
	if n.virtual || n.block.Point.Guard == nil {
		return -1
	}
	reads := x.guardReads(n)
	prev := -1 // the last event of e''s process before e'
	for j := k - 1; j >= 0 && prev < 0; j-- {
		if x.seq[j].pid == n.pid {
			prev = j
		}
	}
	for j := i - 1; j >= 0; j-- {
		e := x.seq[j]
		if e.pid == n.pid {
			continue // e' runs after it in the reversal too
		}
		if prev > j && hb(e, x.seq[prev]) {
			continue // e''s process reaches e' only after w
		}
		if x.intersect(e.writes, reads) && x.enabledAfter(j, x.notdepPIDs(j, k), n.pid) {
			return j
		}
	}
	return -1
}

// reverseDisabler inserts, where the race of seq[i] with seq[k] cannot be
// reversed, the reversal of the race of e' = seq[k] with the write that
// disabled it (see disabler): notdep(e, E).ê' into wut(pre(E, e)), e the
// disabling write, unless redundant there.
func (x *explorer) reverseDisabler(i, k int) {
	if j := x.disabler(i, k); j >= 0 {
		x.insertWUT(j, x.sequenceAt(append(x.notdep(j, k), k), j, k))
	}
}

// unreversible handles a race of e = seq[i] with e' = seq[k] that cannot
// be reversed: e' is not enabled after notdep(e, E) run from pre(E, e).
// The look of e”s process at its guard goes before e instead (see
// reversePoll). With observers, a race of a real event still goes to the
// write that disabled it (see disabler): the algorithms with observers
// keep no looks (see blockedRaces), and preserve final states and
// violations, not Mazurkiewicz classes.
func (x *explorer) unreversible(i, k int) {
	if x.finder.toDisabler(x, k) {
		x.reverseDisabler(i, k)
		return
	}
	x.reversePoll(i, k)
}

// reversePoll handles a race of e = seq[i] with the virtual event of a
// blocked process (seq[k]) that cannot be reversed: the process is still
// blocked after notdep(e, E) run from pre(E, e). Its failed look at the
// guard is then put before e instead: notdep(e, E).poll goes into
// wut(pre(E, e)), poll being the virtual event, which reads what the block
// reads and writes nothing. Where the process waits then, its guard reads
// the writes before e that e kept from being its race, and their
// reversals (of the blocked process's virtual event there) are what put
// it before every write that blocks it. Dropped, no reversal puts the
// process before two independent writes that each block it (see
// dporrt/testdata/regress/await-two-disablers.blk and
// await-poll-chain.blk).
// The poll is a ghost of the wakeup tree (wakeupTree.ghost): it stands for
// no step, takes part in weak initials, and is not stored; the node of the
// event before it stays open to what is inserted through it.
func (x *explorer) reversePoll(i, k int) {
	x.pollPast(i, x.seq[k], x.notdep(i, k), k)
}

// pollPast is reversePoll for the race of e = seq[i] with n, the events
// of notdep(e, E) at pos; n is seq[k], or a look's event (k = -1).
func (x *explorer) pollPast(i int, n *event, pos []int, k int) {
	if len(pos) == 0 {
		return
	}
	if v, ok := x.pastWriters(i, n, pos, k); ok {
		x.insertWUT(i, v)
		return
	}
	if !x.writtenBefore(i, n, pos) {
		return
	}
	x.insertWUT(i, append(x.sequenceAt(pos, i, k), x.poll(n)))
}

// writtenBefore reports whether an event before e = seq[i], or at pos,
// of another process than n's writes what n's block reads: the races a
// poll placed after them can have. Without any, the poll has none, and
// the run it starts orders the events as an explored one does: in
// testdata/bench/lw.blk, where main waits for one done flag after the
// other, every writer's last block raced with main's wait for its flag,
// and each poll put main's wait before it, blocked there for nothing
// (N = 5: 562 sleep-set-blocked traces for 120 complete, 4,688 events
// against 2,011).
func (x *explorer) writtenBefore(i int, n *event, pos []int) bool {
	writes := func(a *event) bool { return a.pid != n.pid && !a.virtual && x.intersect(a.writes, n.reads) }
	for _, a := range x.seq[:i] {
		if writes(a) {
			return true
		}
	}
	return slices.ContainsFunc(pos, func(j int) bool { return writes(x.seq[j]) })
}

// pastWriters returns, for reversePoll, the reversal that runs the blocked
// process's event n before e = seq[i] and before every other write of
// what its block reads in notdep(e, E) (pos), with the events that happen
// after those writes: the rest of notdep(e, E), then n's block, where n is
// enabled after them. It is the end of the chain of reversals the poll
// starts, where no write that notdep(e, E) holds is needed to enable n:
// taken at once, it spares the traces that end with n blocked on the way
// (with g = h = k = 1 and three processes clearing one each before
// await(g > 0 && h > 0 && k > 0), odpor explored 6 sleep-set-blocked
// traces with the poll alone, none this way). ok is false where n is not
// enabled there or an event of n's process is among those left out.
func (x *explorer) pastWriters(i int, n *event, pos []int, k int) ([]*event, bool) {
	var keep []int
	var out []*event // the writes left out and the events after them
	for _, j := range pos {
		a := x.seq[j]
		late := slices.ContainsFunc(out, func(w *event) bool { return hb(w, a) })
		if !late && (a.pid == n.pid || !x.intersect(a.writes, n.reads)) {
			keep = append(keep, j)
			continue
		}
		if a.pid == n.pid {
			return nil, false
		}
		out = append(out, a)
	}
	if len(out) == 0 || !x.enabledAfter(i, x.pidsAt(keep), n.pid) {
		return nil, false
	}
	return append(x.sequenceAt(keep, i, k), x.staticEvent(n)), true
}

// guardReads are the locations the await guard of ev's block may read: the
// block's static reads (they include the guard's).
func (x *explorer) guardReads(ev *event) []interp.Loc {
	r, _ := x.staticSets(ev.block)
	return r
}

// nextEvent is the next event of process pid as a wakeup tree node before
// it runs: its block, with its sets (see explorer.sets).
func (x *explorer) nextEvent(pid interp.PID) *event {
	i := x.procIndex(pid)
	p := x.st.Procs[i]
	r, w := x.sets(p)
	return &event{proc: i, pid: pid, block: p.Point.Block, reads: r, writes: w}
}

// errorWakeups handles a runtime error, the event e at position k, taken
// at level k: it disables every other process enabled there, so each one's
// next event races with it. The reversal is that process, then e's
// process again (the sequence v.ê, as for an observed race): the error
// ends an execution, so a process independent of the other one cannot
// stand in for it in a sequence that reaches the error without it (the
// copy of e keeps its error, which is dependent on every event). It goes
// into level k's wakeup tree unless redundant (see insertWUT).
func (x *explorer) errorWakeups(k int) {
	e := x.seq[k]
	again := x.staticEvent(e)
	again.err = e.err
	var others []interp.PID
	for n := x.enabled.first(); n != nil; n = n.next[0] {
		if n.pid != e.pid {
			others = append(others, n.pid)
		}
	}
	slices.SortFunc(others, interp.PID.Compare)
	for _, pid := range others {
		x.insertWUT(k, []*event{x.nextEvent(pid), again})
	}
}

// forceCovered runs forcedRaces (RaceDetection(E.p)) for each process
// covered at f that was neither explored nor forced there, once f's
// wakeup tree is done; it reports whether the tree took in a sequence.
// ISSTA'19 Alg. 1 does so only where every enabled process is covered
// (lines 17-19, coveredStop) or a branch of the tree is (lines 25-26); a
// covered process that no race put into the tree had its races reversed
// by no one. For odpor-cs-ob and codpor-ob with ObserveFinal: a race of two
// writes that only the virtual last event observes can exist only in the
// runs a cover skips, and its reversal can be the only way to a final state
// (see dporrt/testdata/regress/ob-cover-error.blk). Without ObserveFinal
// the observers are real events, which a cover's run does not hold either,
// and forcing the covered processes there makes odpor-cs-ob explore more
// traces than odpor-ob (see dporrt/testdata/regress/cs-wake-all.blk).
func (x *explorer) forceCovered(f *level) bool {
	if !x.finder.observesFinal(x) || !x.check.covers() {
		return false
	}
	var covered []interp.PID
	for n := x.enabled.first(); n != nil; n = n.next[0] {
		if f.covered(n.pid) && !f.done.has(n.pid) && !f.forced.has(n.pid) {
			covered = append(covered, n.pid)
		}
	}
	for _, pid := range covered {
		if x.stopped {
			break
		}
		f.forced.add(pid)
		x.forcedRaces(pid)
	}
	return f.wut != nil && !f.wut.empty()
}

// look is the virtual event of a process blocked at an await, made at a
// level (see blockedRaces): the process's look at its guard there, which
// fails. The optimal loop keeps it while the sequence holds that level.
type look struct {
	at int    // the level: the look stands before seq[at]
	ev *event // the virtual event
	// races are the positions of the earlier events in a race with it,
	// each reversed once, when a sequence that holds it is maximal (see
	// reverseLooks): the first reversed of them are.
	races    []int
	reversed int
}

// dropLooks forgets the looks of the levels the sequence no longer holds.
func (x *explorer) dropLooks() {
	n := len(x.looks)
	for n > 0 && x.looks[n-1].at > len(x.seq) {
		n--
	}
	clear(x.looks[n:])
	x.looks = x.looks[:n]
}

// reverseLooks reverses the races of the looks the sequence holds that
// are not reversed yet, once it is maximal, as detectRaces reverses those
// of its events: with the events of the whole sequence that do not happen
// after the race's first event.
func (x *explorer) reverseLooks() {
	for _, l := range x.looks {
		for _, i := range l.races[l.reversed:] {
			x.reverseBlocked(l, i)
		}
		l.reversed = len(l.races)
	}
}

// reverseBlocked reverses the race of e = seq[i] with look l (see
// blockedRaces): the events after e that happen after neither e nor the
// look, then the look's process's block, into wut(pre(E, e)); or, where
// the process would still be blocked there, its poll (see reversePoll).
// The events after the look count as they do for a race of two events,
// whose reversal holds every event of the maximal sequence that does not
// happen after the first: reversed at once, with the sequence up to the
// look, the reversal can be a sequence that a process asleep there is a
// weak initial of, though in the run it stands for that process comes after
// a write it depends on (see dporrt/testdata/regress/look-maximal.blk).
func (x *explorer) reverseBlocked(l *look, i int) {
	e := x.seq[i]
	var pos, before []int
	var deps []int // the events from the look's level on that are dependent on it
	for j := i + 1; j < len(x.seq); j++ {
		after := false // seq[j] happens after the look: it or an event of deps before it depends on it
		if j >= l.at && x.dependent(l.ev, x.seq[j]) {
			deps, after = append(deps, j), true
		}
		if after || x.seq[j].virtual || hb(e, x.seq[j]) {
			continue
		}
		if slices.ContainsFunc(deps, func(u int) bool { return hb(x.seq[u], x.seq[j]) }) {
			continue
		}
		pos = append(pos, j)
		if j < l.at {
			before = append(before, j)
		}
	}
	if !x.enabledAfter(i, x.pidsAt(before), l.ev.pid) {
		x.pollPast(i, l.ev, pos, -1)
		return
	}
	last := x.staticEvent(l.ev)
	x.insertWUT(i, append(x.sequenceAt(pos, i, -1), last))
}

// poll returns the ghost of a blocked process's event for a wakeup tree:
// its look at its guard, which reads what its block reads and writes
// nothing (see reversePoll and wakeupTree.ghost). The event is a look's
// virtual one or a real await block whose race cannot be reversed (see
// unreversible); the ghost is marked blocked either way, which is what
// makes it one. Copied from a real block unmarked, the poll would be stored
// in the tree as a step its process cannot take where it stands and, a weak
// initial of every later reversal independent of the guard's reads, take
// them in before it is dropped as unrunnable (see
// dporrt/testdata/regress/poll-real-block.blk).
func (x *explorer) poll(ev *event) *event {
	p := *ev
	p.writes, p.races, p.clock = nil, nil, vclock{}
	p.blocked = true
	return &p
}

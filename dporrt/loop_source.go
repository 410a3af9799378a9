package dporrt

import (
	"slices"

	"github.com/icgen/icgen/interp"
)

// This file holds the source loop (Source-DPOR, POPL'14 / JACM'17 Alg. 1,
// with CAV'18 Alg. 1's additions): back (source) sets, sleep sets and
// sleep sequences, and where the verdict of a race check goes.

// level is what the explorer keeps for one prefix E (depth = len(E)). The
// processes enabled at E are not stored per level: see enabledAt.
type level struct {
	// back is the back (source) set: processes to explore from E, in
	// order. allAwake and allEnabled stand for every process enabled at E
	// (and awake when the level was entered, for allAwake), after the
	// listed ones, in id order: dfs explores every process, and a runtime
	// error disables every other one (see errorRaces); listing them would
	// take memory in proportion to the processes at every level.
	back       []interp.PID
	allAwake   bool
	allEnabled bool
	cursor     interp.PID // the last process allAwake or allEnabled gave (see next)
	cursorSet  bool
	asleep0    int    // len(sleep) when the level was entered
	depth      int    // len(E)
	done       pidBag // explored from E
	// doneEv are the events explored from E whose subtrees are done
	// (the optimal loop with observers; see redundantObserved).
	doneEv []*event
	// sleep holds sequences of events not to explore from E: a single
	// process asleep, or (csdpor, cdpor) a sequence whose run from E ends
	// where an explored one does (Alg. 1, lines 12 and 14).
	sleep []sleeper
	node  int // its node in the recorded tree (-1: none)
	// shared is the node of the shared upper tree the level is (nil: the
	// level is the explorer's own; see share.go). Its list is the back
	// set: back, allAwake and allEnabled are not used. resume is where a
	// level published while the loop was on it goes on (see publish).
	shared *sharedNode
	resume int
	// wut is the wakeup tree of sequences to explore from E (the optimal
	// loop).
	wut *wut
	// snap is a copy of the state at this level, for the detours of
	// csdpor and cdpor (see detour); nil until a race needs it.
	snap     *interp.State
	snapSize int
	dnd      int // the byState sequences of sleep
	// forced holds the covered processes whose races the optimal loop
	// reversed here when it skipped their branches (see optimal).
	forced pidBag
	// skipped lists the processes covered here that a reversal chose to
	// start with since the loop last looked (csdpor; see updateBack).
	skipped []interp.PID
	// changed lists the processes whose enabledness the event into E
	// changed (their enHist entries at this level).
	changed []int
}

// sleeper is an entry of a sleep set: a sequence of events not to explore.
// byState marks the sequences a context-sensitive check put there (and their
// tails): their runs end in the same state as an explored run, which is not
// an equivalent trace, so they stand for no race detection of their own.
type sleeper struct {
	seq     []*event
	byState bool
	// modObs: a byState sequence whose run ends where an explored run
	// does only modulo observability (odpor-cs-ob): an event that would
	// observe the race it reverses is not covered by it.
	modObs bool
}

// asleep reports whether process pid is asleep at the level.
func (f *level) asleep(pid interp.PID) bool { return asleepIn(f.sleep, pid) }

func asleepIn(sleep []sleeper, pid interp.PID) bool {
	for _, x := range sleep {
		if len(x.seq) == 1 && x.seq[0].pid == pid {
			return true
		}
	}
	return false
}

// inBack reports whether process pid (index proc) is in f's back set.
func (x *explorer) inBack(f *level, pid interp.PID, proc int) bool {
	if f.shared != nil {
		return slices.Contains(f.shared.pids(), pid)
	}
	if slices.Contains(f.back, pid) {
		return true
	}
	if !f.allAwake && !f.allEnabled || !x.enabledAt(proc, f.depth) {
		return false
	}
	return f.allEnabled || !asleepIn(f.sleep[:f.asleep0], pid)
}

// next returns the first process of f's back set that is neither done nor
// asleep (false when none is). The processes allAwake and allEnabled stand
// for come in id order, so the search goes on from the last one they gave:
// one skipped (done or asleep) stays so. The enabled processes are those of
// f, the level the exploration is at.
func (x *explorer) next(f *level) (interp.PID, bool) {
	for _, p := range f.back {
		if !f.done.has(p) && !f.asleep(p) {
			return p, true
		}
	}
	if !f.allAwake && !f.allEnabled {
		return interp.PID{}, false
	}
	n := x.enabled.first()
	if f.cursorSet {
		n = x.enabled.after(f.cursor)
	}
	for ; n != nil; n = n.next[0] {
		f.cursor, f.cursorSet = n.pid, true
		if !f.done.has(n.pid) && !f.asleep(n.pid) {
			return n.pid, true
		}
	}
	return interp.PID{}, false
}

// awake returns the process with the smallest id among those enabled at
// the current level and not asleep in f; false when there is none.
func (x *explorer) awake(f *level) (interp.PID, bool) {
	for n := x.enabled.first(); n != nil; n = n.next[0] {
		if !f.asleep(n.pid) {
			return n.pid, true
		}
	}
	return interp.PID{}, false
}

// source explores from the current level, depth, with back sets and sleep
// sets (Source-DPOR; CAV'18 Alg. 1).
func (x *explorer) source(depth int) {
	f, complete := x.arrive(depth)
	if complete {
		return
	}
	if f.node >= 0 {
		defer x.treeLeave(f.node, f, x.enabled.pids())
	}
	// csdpor forces the races of a covered process where it is not
	// explored (see sourceCoveredStop, forceSkipped); cdpor reverses the
	// races of every covered process on entering a level, and explores
	// every process awake there.
	forced := x.check.forcesSkipped()
	byState := false
	for _, sl := range f.sleep {
		if sl.byState && len(sl.seq) == 1 {
			byState = true
			if !forced {
				x.sleeperRaces(sl.seq[0])
			}
		}
	}
	first, ok := x.awake(f)
	if !ok {
		if forced && x.sourceCoveredStop(f) {
			return
		}
		x.res.Blocked++
		x.treeKind(f.node, NodeBlocked)
		return
	}
	f.asleep0 = len(f.sleep)
	if byState && !forced {
		// A process asleep by a context-sensitive check was not
		// explored here, so the races its subtree would have reversed
		// here are unknown: explore every other process.
		f.allAwake = true
	} else {
		f.back = []interp.PID{first}
	}
	for {
		if w := x.worker; w != nil && w.tree != nil {
			if f.shared == nil && w.tree.publishes(w) {
				x.publish()
			}
			if f.shared != nil { // published: the rest is shared
				x.sharedLoop(depth, f.resume, nil)
				return
			}
		}
		x.forceSkipped(f)
		pid, found := x.next(f)
		if !found {
			return
		}
		if x.bounded() {
			x.treeKind(f.node, NodeCut)
			return
		}
		kept := x.check.keptAsleep(x, f, pid)
		ev, spawned, node := x.take(f, pid)
		if ev.err != nil {
			x.errorEnd(node, ev)
			x.errorRaces(f, len(x.seq)-1)
		} else {
			x.races(len(x.seq) - 1)
			x.blockedRaces(len(x.seq)-1, spawned, x.race)
			child := x.enter(append(x.childSleep(f, ev), kept...), ev, spawned)
			child.node = node
			x.source(depth + 1)
			x.leave()
		}
		x.st.Undo(ev.mark)
		x.seq = x.seq[:len(x.seq)-1]
		f.sleep = append(f.sleep, sleeper{seq: []*event{ev}})
		if x.stopped {
			return
		}
	}
}

// childSleep is sleep(E.p) for the event ev of p (Alg. 1, lines 15-16):
// the sequences of sleep(E) whose events are all independent of ev, and the
// tails of the sequences that start with p.
//
// A don't-do sequence u.p.v is not inherited as u.v, though ev is
// independent of every event of u (ISSTA'19 Alg. 2, line 62; E.p.u.v and
// E.u.p.v end in the same state). The runs u.v would cover at E.p have
// races of their own, and their reversals, inserted above E.p, are what
// E.p's siblings need; the runs u.p.v stands for, explored elsewhere, make
// those reversals where p ran before u (see
// dporrt/testdata/regress/cs-pass-over.blk).
func (x *explorer) childSleep(f *level, ev *event) []sleeper {
	var out []sleeper
	for _, sl := range f.sleep {
		if sl.seq[0].pid == ev.pid {
			if len(sl.seq) > 1 {
				out = append(out, sleeper{seq: sl.seq[1:], byState: true, modObs: sl.modObs})
			}
			continue
		}
		if !slices.ContainsFunc(sl.seq, func(e *event) bool { return x.dependent(ev, e) }) {
			out = append(out, sl)
		}
	}
	return out
}

// blockedRaces handles the processes blocked at an await after the event
// at position k, which spawned the processes spawned. A blocked process's
// next event is not in the sequence, so its races with the events that
// keep its guard false would go unseen, and the orders where it ran before
// them would be missed. Each gets a virtual event reading what its guard
// reads, whose races reverse as usual. This is done in every state, not
// only where a trace ends: a later write of the guard (one that enables
// it, say) hides the earlier races behind happens-before. A blocked process
// needs a new look only when it has just blocked (its own event or the
// last one disabled it), the last event wrote its guard, or the last event
// touched what its block may touch: a reversal of its races puts the last
// event before the block, whose event may depend on it (see wokenBy).
// Otherwise its races, and their reversals, are those of the state before.
// Those are among the processes the event affected (see State.affected) or
// touched (State.touching), so no other is looked at.
func (x *explorer) blockedRaces(k int, spawned []int, race func(i, k int) bool) {
	last := x.seq[k]
	x.touched = x.st.Touching(last.reads, last.writes, x.touched[:0])
	slices.Sort(x.touched)
	x.blocked = x.st.Affected(last.proc, spawned, last.writes, x.blocked[:0])
	x.blocked = append(x.blocked, x.touched...)
	slices.Sort(x.blocked)
	cands := slices.Compact(x.blocked)
	for _, i := range cands {
		p := x.st.Procs[i]
		if p.Done || x.st.Enabled(i) {
			continue
		}
		ev := &event{proc: i, pid: p.ID, block: p.Point.Block, virtual: true, blocked: true}
		r, w := x.sets(p)
		ev.reads, ev.sets = r, &[2][]interp.Loc{r, w}
		if _, touched := slices.BinarySearch(x.touched, i); !touched && last.proc != i && !x.enabledAt(i, k) && !x.dependent(last, ev) {
			continue
		}
		x.seq = append(x.seq, ev)
		n := len(x.seq) - 1
		if x.loop.keepsLooks(x) {
			// The optimal loop keeps the look, and reverses its races
			// once the sequence is maximal (see reverseLooks).
			l := &look{at: n, ev: ev}
			x.scan(n, func(j, n int) bool {
				l.races = append(l.races, j)
				return !x.reversible(j, n)
			})
			x.looks = append(x.looks, l)
		} else {
			x.scan(n, race)
		}
		x.seq = x.seq[:n]
	}
}

// errorRaces handles a runtime error, the event at position k, taken at
// level f. The error ends the execution, so it races with the events before
// it (it depends on all of them) and with the next event of every other
// process enabled where it ran, which it disables: those processes join
// f's back set (all of them: allEnabled), as the reversal of those races
// would put them there. Their own races with earlier events are found when
// they run from f.
func (x *explorer) errorRaces(f *level, k int) {
	x.races(k)
	if f.shared != nil {
		x.addEnabled(f)
		return
	}
	f.allEnabled = true
}

// sleeperRaces reverses the races of the next event of a process asleep by
// a context-sensitive check (ISSTA'19, Alg. 1, lines 17-19 and 25-26): the
// event is not explored here, and the races it has with the sequence must
// still be reversed. The event is virtual: recorded where the check ran,
// in a state that differs from the current one only by independent events.
func (x *explorer) sleeperRaces(q *event) {
	i := x.procIndex(q.pid)
	if i < 0 {
		return
	}
	ev := &event{proc: i, pid: q.pid, block: q.block, reads: q.reads, writes: q.writes, spawn: q.spawn, virtual: true}
	x.seq = append(x.seq, ev)
	k := len(x.seq) - 1
	x.races(k)
	x.seq = x.seq[:k]
}

// race handles the race of e = seq[i] with n = seq[k] for the source loop
// and reports whether the two were shown independent uniformly, which
// takes e out of n's predecessors. The algorithm's check judges it (a
// runtime error has no constraint with anything and no state to compare:
// its races are reversed); the sequences that cover the reversal go into
// sleep(E') as sleep sequences (CAV'18 Alg. 1, lines 12 and 14), and
// unless the race is uniform a process that starts the reversal goes into
// the back set of E' (line 9).
func (x *explorer) race(i, k int) bool {
	if x.outOfTime() {
		return false // the exploration is cut: its back sets no longer matter
	}
	var v verdict
	if x.seq[k].err == nil {
		v = x.check.judge(x, i, k)
	}
	for _, c := range v.covers {
		x.addCover(i, c, false)
	}
	if !v.uniform {
		x.updateBack(i, k)
	}
	return v.uniform
}

// updateBack adds to back(pre(E, e)) a process that starts v =
// notdep(e, E).n, unless one is there already: the initials of v are the
// processes whose first event in v has no predecessor in v, and that are
// not asleep at pre(E, e) with an event that one of v's events before it
// would wake (see wokenBy).
func (x *explorer) updateBack(i, k int) {
	e := x.seq[i]
	var v []*event
	for j := i + 1; j < k; j++ {
		if !hb(e, x.seq[j]) {
			v = append(v, x.seq[j])
		}
	}
	v = append(v, x.seq[k])
	f := x.levels[i]
	var initials []*event
	seen := map[interp.PID]bool{}
	for a, ev := range v {
		if seen[ev.pid] {
			continue
		}
		seen[ev.pid] = true
		first := true
		for _, w := range v[:a] {
			// The last event, n, runs here before e: a compare-and-swap
			// that failed after e may write here, so it is judged with
			// the writes it may make (see restrictWrites).
			if hb(w, ev) || a == len(v)-1 && !ev.virtual && ev.sets != nil && x.dependent(w, x.staticEvent(ev)) {
				first = false
				break
			}
		}
		if first && x.wokenBy(i, ev.pid, v[:a]) {
			first = false
		}
		if first {
			initials = append(initials, ev)
		}
	}
	for _, q := range initials {
		if x.inBack(f, q.pid, q.proc) {
			return
		}
	}
	// Only a process enabled at pre(E, e) can start the reversed order.
	slices.SortFunc(initials, func(a, b *event) int { return a.pid.Compare(b.pid) })
	var covered *event
	for _, q := range initials {
		if !x.enabledAt(q.proc, i) {
			continue
		}
		if x.check.forcesSkipped() && x.coveredOnly(f, q.pid) {
			if covered == nil {
				covered = q
			}
			continue
		}
		if f.shared != nil {
			x.addBack(f, q.pid, initials)
			return
		}
		f.back = append(f.back, q.pid)
		return
	}
	if covered != nil {
		// Every initial that can start v here is covered: v's runs end
		// where explored ones do, but the races the subtree of the
		// covered process would have reversed are unknown: its own are
		// reversed when the loop at f next looks (forceSkipped), and
		// every other process awake at f is explored.
		f.back = append(f.back, covered.pid)
		f.allAwake = true
		f.skipped = append(f.skipped, covered.pid)
	}
}

// wokenBy reports whether process pid is asleep at f only with events that
// are dependent on one of before, the events v puts ahead of pid's in a
// reversal from f: then pid is not an initial of v, whatever the
// happens-before of the explored sequence says.
//
// A process asleep at f stands for the explored sequences from f that
// start with its event there (the sleeper's), so it covers v only when
// that event commutes to the front of v. The events of v but the last run
// from f as they ran in the sequence (they do not depend on e); the last
// one, n, ran after e, or not at all (the virtual event of a blocked
// process, which reads the guard only), and from f it may touch other
// locations. With n's sets from the sequence, a reversal where n comes
// after an event its block depends on would be taken to start with n, and
// where n's process is asleep nothing would be explored (see
// testdata/regress/asleep-blocked.blk and blocked-writes.blk).
//
// With independence constraints, a sleeper is not woken by an event a
// constraint of their pair shows uniformly independent of it at f (U⇒:
// they commute wherever they meet from there), as cdpor's happens-before
// does not order them either.
func (x *explorer) wokenBy(i int, pid interp.PID, before []*event) bool {
	f := x.levels[i]
	asleep := false
	for _, sl := range f.sleep {
		if len(sl.seq) != 1 || sl.seq[0].pid != pid {
			continue
		}
		asleep = true
		if !slices.ContainsFunc(before, func(w *event) bool { return x.dependent(w, sl.seq[0]) && !x.check.uniformAt(x, i, w, sl.seq[0]) }) {
			return false
		}
	}
	return asleep
}

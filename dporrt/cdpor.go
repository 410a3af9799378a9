package dporrt

import (
	"slices"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
)

// This file holds what csdpor and cdpor add to sdpor (CAV'18 Alg. 1, lines
// 9-14 and 17): sleep sequences for races whose reversal ends in the same
// state, and independence constraints checked in the state where a race
// would be reversed, under the transitive-uniformity condition U⇒ (Def. 4)
// that makes using them in the back sets and sleep sets sound.

// icCheck evaluates the constraints of the pair of blocks of events a and b
// in the current state, a's process being the first of the pair. holds:
// some constraint (with the pair's
// overflow guard) holds; uniform: some holding constraint reads no global
// that the other enabled processes' blocks, or anything they lead to, may
// write (U⇒).
func (x *explorer) icCheck(aPID PID, aBlock string, bPID PID, bBlock string) (holds, uniform bool) {
	pr, swapped := x.opts.ICs.Pair(aBlock, bBlock)
	return x.pairCheck(pr, swapped, aPID, bPID)
}

// pairCheck is icCheck for the pair pr of the IC file, swapped when the
// file stores it as (b, a).
func (x *explorer) pairCheck(pr *ic.Pair, swapped bool, aPID, bPID PID) (holds, uniform bool) {
	if pr == nil || len(pr.Constraints) == 0 {
		return false, false
	}
	ai, bi := x.procIndex(aPID), x.procIndex(bPID)
	if ai < 0 || bi < 0 {
		return false, false
	}
	env := &ICEnv{S: x.st, First: x.st.Procs[ai], Second: x.st.Procs[bi], Funcs: x.funcs}
	if swapped { // the file stores the pair as (bBlock, aBlock)
		env.First, env.Second = env.Second, env.First
	}
	// The overflow guard, often far larger than the constraints, is
	// evaluated once a constraint holds.
	guard := func() bool {
		if pr.NoOverflow == nil {
			return true
		}
		ok, err := pr.NoOverflow.Holds(env)
		return err == nil && ok
	}
	// touched: a global of the constraint is in W of a block another
	// enabled process stands at. The blocks are looked at, not every
	// process (see State.anyEnabled).
	touched := func(globals []string) bool {
		if len(globals) == 0 {
			return false
		}
		return x.st.anyEnabled(func(b *lang.Block) bool {
			w := x.w[b.ID]
			for _, g := range globals {
				if w[g] {
					return true
				}
			}
			return false
		}, ai, bi)
	}
	for _, c := range pr.Constraints {
		if ok, err := c.Expr.Holds(env); err != nil || !ok {
			continue
		}
		if !holds && !guard() {
			return false, false
		}
		holds = true
		if !touched(c.Globals) {
			return true, true
		}
	}
	return holds, false
}

// constrainedRace handles the race of e = seq[i] with n = seq[k] (Alg. 1,
// lines 9-14). In s[E'.û], where E' = pre(E, e) and û are the events
// between e and n that happen before n, a constraint of I(ē, n̄) that holds
// means û.n.e ends where e.û.n does: û.n.e goes into sleep(E') (lines
// 11-12). When no constraint holds and the pair is not exact, the states are
// compared as csdpor does (line 14). Unless a constraint holds uniformly
// (U⇒), the race is reversed through the back set as in sdpor (line 9). It
// reports whether e and n were shown independent uniformly. The check runs
// on the snapshot of s[E'] (see detour); the current state is untouched.
func (x *explorer) constrainedRace(i, k int) bool {
	e, n := x.seq[i], x.seq[k]
	pr, swapped := x.opts.ICs.Pair(e.block.ID, n.block.ID)
	if pr == nil || len(pr.Constraints) == 0 {
		if (pr == nil || !pr.Exact) && !n.virtual {
			x.contextSensitive(i, k)
		}
		x.updateBack(i, k)
		return false
	}
	if x.localsUniform(i, pr, swapped, e, n) {
		return true
	}
	u := x.between(i, k)
	var holds, uniform bool
	x.detour(i, false, func() {
		alt, ok := x.steps(u)
		if !ok || x.procIndex(n.pid) < 0 {
			// û or n cannot run at s[E'.û]: an event of û, shown
			// uniformly independent of e (equal ends modulo process
			// naming), spawned or enabled them only after e. Nothing
			// can be checked there; the race is reversed, as n's
			// process may exist without e in another order.
			return
		}
		holds, uniform = x.pairCheck(pr, swapped, e.pid, n.pid)
		if holds && !uniform && !n.virtual {
			// A uniform race gets no back-set entry, so nothing starts
			// the reversed order here and its sleep sequence would only
			// cost: a state where it shrinks to one process asleep has
			// every other process explored (see explore).
			// cdpor's dependency is the blocks' syntactic one: the events
			// of n and e in the reversed order are known without running
			// them.
			x.levels[i].sleep = append(x.levels[i].sleep, sleeper{seq: append(alt, x.staticEvent(n), x.staticEvent(e)), byState: true})
		}
	})
	if !holds && !pr.Exact && !n.virtual {
		x.contextSensitive(i, k)
	}
	if !uniform {
		x.updateBack(i, k)
	}
	return uniform
}

// guardReadsGlobals reports whether pr's overflow guard reads a global
// (then it does not hold in a localsEnv); computed once per pair.
func (x *explorer) guardReadsGlobals(pr *ic.Pair) bool {
	r, ok := x.guardGlobals[pr]
	if !ok {
		r = pr.NoOverflow != nil && len(pr.NoOverflow.Globals()) > 0
		if x.guardGlobals == nil {
			x.guardGlobals = map[*ic.Pair]bool{}
		}
		x.guardGlobals[pr] = r
	}
	return r
}

// preProcess is ev's process with the locals it had before ev: recorded
// when ev ran, or the current ones for a virtual event (never executed).
func (x *explorer) preProcess(ev *event) *Process {
	pi := x.procIndex(ev.pid)
	if pi < 0 {
		return nil
	}
	p := x.st.Procs[pi]
	if ev.virtual {
		return p
	}
	if ev.pre == nil && len(p.Proc.Locals) > 0 {
		return nil
	}
	return &Process{ID: p.ID, Proc: p.Proc, Locals: ev.pre}
}

// localsEnv is an ICEnv without globals and functions: a constraint that
// reads one does not hold in it.
type localsEnv struct{ ICEnv }

func (localsEnv) Global(string) (int64, bool)             { return 0, false }
func (localsEnv) Element(string, int64) (int64, bool)     { return 0, false }
func (localsEnv) Apply(string, []*ic.Expr) (int64, error) { return 0, ic.ErrUnavailable }

// steps runs the next events of the processes pids in order; false when
// one of them does not exist or is not enabled where it should run.
func (x *explorer) steps(pids []PID) ([]*event, bool) {
	var evs []*event
	for _, pid := range pids {
		if p := x.procIndex(pid); p < 0 || !x.st.Enabled(p) {
			return evs, false
		}
		ev, _ := x.step(pid, false)
		evs = append(evs, ev)
	}
	return evs, true
}

// localsUniform reports whether a constraint of I(ē, n̄) that reads no
// global holds, with its pair's overflow guard, on the locals e's and n's
// processes had before them; e = seq[i]. Those are the locals they have in
// s[E'.û] (a process's locals change only with its own events, and n's
// earlier events are in E'.û), and a constraint reading no global holds in
// every state with them: uniformly, with no need to go to s[E'.û] (see
// detour). n's process must have been created before e: one created by an
// event of û might not be in s[E'.û] (see constrainedRace).
func (x *explorer) localsUniform(i int, pr *ic.Pair, swapped bool, e, n *event) bool {
	if b, ok := x.born[n.pid]; ok && b > i {
		return false
	}
	if x.guardReadsGlobals(pr) {
		return false
	}
	first, second := x.preProcess(e), x.preProcess(n)
	if first == nil || second == nil {
		return false
	}
	if swapped {
		first, second = second, first
	}
	env := localsEnv{ICEnv{S: x.st, First: first, Second: second, Funcs: x.funcs}}
	if pr.NoOverflow != nil {
		if ok, err := pr.NoOverflow.Holds(env); err != nil || !ok {
			return false
		}
	}
	for _, c := range pr.Constraints {
		if len(c.Globals) > 0 {
			continue
		}
		if ok, err := c.Expr.Holds(env); err == nil && ok {
			return true
		}
	}
	return false
}

// staticEvent is a copy of ev with its block's syntactic sets, as an entry
// of a sleep sequence: only its process, block and sets are used there.
func (x *explorer) staticEvent(ev *event) *event {
	r, w := x.staticSets(ev.block)
	return &event{proc: ev.proc, pid: ev.pid, block: ev.block, reads: r, writes: w, spawn: ev.spawn}
}

// contextSensitive is updateSleepCS (CAV'17; Alg. 1, line 14): for the race
// of e = seq[i] with n = seq[k], it runs e.û.n and the reversed û.n.e from
// E' = pre(E, e) and, when both end in the same state modulo process
// naming, puts û.n.e in sleep(E'). The reversed run's events count as
// states, as in the papers; the other run repeats explored events and does
// not.
func (x *explorer) contextSensitive(i, k int) {
	e, n := x.seq[i], x.seq[k]
	u := x.between(i, k)
	x.detour(i, true, func() { x.reversed(i, e, n, u) })
}

// reversed is contextSensitive's work on the snapshot of s[E'].
func (x *explorer) reversed(i int, e, n *event, u []PID) {
	mark := x.st.Mark()
	for _, pid := range append(append([]PID{e.pid}, u...), n.pid) {
		if ev, _ := x.step(pid, false); ev.err != nil {
			return
		}
	}
	orig := x.st.Clone()
	x.st.Undo(mark)
	x.seq = x.seq[:i]
	var alt []*event
	for _, pid := range append(append(slices.Clone(u), n.pid), e.pid) {
		p := x.procIndex(pid)
		if p < 0 || !x.st.Enabled(p) {
			return
		}
		ev, _ := x.step(pid, true)
		if ev.err != nil {
			return
		}
		alt = append(alt, ev)
	}
	if x.st.Equal(orig) {
		x.levels[i].sleep = append(x.levels[i].sleep, sleeper{seq: alt, byState: true})
	}
}

// between returns û for the race of seq[i] with seq[k]: the processes of
// the events between them that happen before seq[k], in order.
func (x *explorer) between(i, k int) []PID {
	var u []PID
	for j := i + 1; j < k; j++ {
		if hb(x.seq[j], x.seq[k]) {
			u = append(u, x.seq[j].pid)
		}
	}
	return u
}

// detour runs f with the explorer moved to E' = seq[:i], on a snapshot of
// s[E'] kept at level i, and moves it back: f may step and change the
// state, which is then rolled back. The snapshot is taken the first time a
// race at level i needs it (by undoing to E', cloning and replaying the
// suffix) and serves every later race at that level; it lives as long as
// the level. Apart from taking the snapshot, the current state is not
// changed, so no replay is needed per race, and the cost of a race no
// longer grows with its distance. Snapshots take at most maxSnapBytes
// together: past that, f runs on the current state undone to E', and the
// suffix is replayed after it.
//
// With prefix, f's events follow a copy of E' in the sequence, as a
// finding's schedule needs; without, they start an empty sequence (f must
// not look at E'), which saves copying E' for every race.
func (x *explorer) detour(i int, prefix bool, f func()) {
	lv := x.levels[i]
	var suffix []*event
	st, seq := x.st, x.seq
	if lv.snap == nil {
		suffix = slices.Clone(x.seq[i:])
		x.st.Undo(x.seq[i].mark)
		if size := x.st.size(); x.snapBytes+size <= x.snapLimit {
			lv.snap, lv.snapSize = x.st.Clone(), size
			x.snapBytes += size
			x.restore(i, suffix)
			suffix = nil
		}
	}
	if suffix == nil {
		x.st = lv.snap
	}
	if prefix {
		x.seq = seq[:i:i] // appends go to a fresh array
	} else {
		x.seq = x.spare[:0]
	}
	mark := x.st.Mark()
	x.detouring = true
	f()
	x.detouring = false
	x.st.Undo(mark)
	if !prefix {
		clear(x.seq)
		x.spare = x.seq[:0]
	}
	x.st, x.seq = st, seq
	if suffix != nil {
		x.restore(i, suffix)
	}
}

// dropSnap frees the snapshot of a level that is left.
func (x *explorer) dropSnap(lv *level) {
	if lv.snap != nil {
		x.snapBytes -= lv.snapSize
		lv.snap, lv.snapSize = nil, 0
	}
}

// restore brings the state back to the sequence prefix..suffix after a
// detour from position i (execution is deterministic: same events, same
// undo marks).
//
// The events themselves are kept: re-running them changes the state the
// same way and leaves the same undo marks, so their sets and vector clocks
// stay right and need no recomputing.
func (x *explorer) restore(i int, suffix []*event) {
	x.st.Undo(suffix[0].mark)
	x.seq = x.seq[:i]
	for _, old := range suffix {
		if !old.virtual { // a virtual event was never executed
			x.st.StepInto(old.proc, &x.scratch)
		}
		x.seq = append(x.seq, old)
	}
}

// uniformSleepers returns the single processes asleep at f that stay asleep
// after p runs because their independence with p holds uniformly in the
// current state (Alg. 1, line 17).
func (x *explorer) uniformSleepers(f *level, pid PID) []sleeper {
	if x.opts.Algo != CDPOR || x.opts.ICs == nil {
		return nil
	}
	pi := x.procIndex(pid)
	if pi < 0 {
		return nil
	}
	nBlock := x.st.Procs[pi].Point.Block.ID
	if len(f.sleep) == 0 {
		return nil
	}
	var out []sleeper
	for _, sl := range f.sleep {
		if len(sl.seq) != 1 || sl.seq[0].pid == pid {
			continue
		}
		m := sl.seq[0]
		if _, uniform := x.icCheck(pid, nBlock, m.pid, m.block.ID); uniform {
			out = append(out, sl)
		}
	}
	return out
}

package dporrt

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
)

// Algorithm names an exploration algorithm.
type Algorithm string

// The algorithms behind Explore.
const (
	DFS    Algorithm = "dfs"    // every interleaving: the oracle
	SDPOR  Algorithm = "sdpor"  // Source-DPOR with source sets and sleep sets
	CSDPOR Algorithm = "csdpor" // SDPOR with context-sensitive sleep sequences (CAV'17)
	CDPOR  Algorithm = "cdpor"  // SDPOR with independence constraints (CAV'18 Alg. 1)
)

// Algorithms lists the algorithms Explore knows, in a stable order.
var Algorithms = []Algorithm{DFS, SDPOR, CSDPOR, CDPOR}

// DepMode chooses how dependency between events is decided.
type DepMode int

// Dynamic uses the locations events really read and wrote (array elements
// apart); Static uses the blocks' syntactic sets, as the papers' tools do.
const (
	Dynamic DepMode = iota
	Static
)

func (d DepMode) String() string {
	if d == Static {
		return "static"
	}
	return "dynamic"
}

// Options configure an exploration.
type Options struct {
	Algo            Algorithm
	Dep             DepMode
	MaxTraces       int           // stop after this many complete traces (0: no bound)
	MaxStates       int           // stop after this many events (0: no bound)
	Timeout         time.Duration // stop after this long (0: no bound)
	StopOnViolation bool          // stop at the first violation or runtime error
	// ICs are the independence constraints cdpor uses; the file must be the
	// program's (same hash). Without ICs cdpor behaves as sdpor.
	ICs *ic.File
	// Progress, when set, is called every so many events with the counts so far.
	Progress func(Stats)
	// Tree, when set, records the explored execution tree into it.
	Tree *Tree
	_    struct{}
}

// Stats are the counts of an exploration.
type Stats struct {
	Traces  int // complete traces (no process enabled, or a runtime error)
	Blocked int // sleep-set-blocked traces
	States  int // events executed (the papers' S, root excluded)
	Elapsed time.Duration
}

// Finding is a violation or runtime error with a schedule that reaches it.
type Finding struct {
	Violation *Violation
	Error     *RuntimeError
	Schedule  Schedule
}

// Result is the outcome of an exploration.
type Result struct {
	Stats
	Finals   []*State  // distinct final states modulo process naming, in discovery order
	Findings []Finding // distinct violations and runtime errors (by site), first schedule found
	Dep      DepMode   // the dependency used (cdpor always uses Static)
	Cut      bool      // a bound stopped the exploration: it is not exhaustive
	CutBy    string
}

// Agrees reports whether two explorations reached the same final states
// (modulo process naming) and the same findings (by site); when not, it
// says how they differ. Differential tests compare every algorithm with dfs
// this way.
func (r *Result) Agrees(o *Result) (bool, string) {
	missing := func(a, b *Result) int {
		n := 0
		for _, s := range a.Finals {
			if !slices.ContainsFunc(b.Finals, s.Equal) {
				n++
			}
		}
		return n
	}
	if m1, m2 := missing(r, o), missing(o, r); m1 > 0 || m2 > 0 {
		return false, fmt.Sprintf("%d of %d final states not reached by the other, %d of its %d not reached by this one", m1, len(r.Finals), m2, len(o.Finals))
	}
	s1, s2 := r.findingSites(), o.findingSites()
	if !slices.Equal(s1, s2) {
		return false, fmt.Sprintf("findings %v vs %v", s1, s2)
	}
	return true, ""
}

// findingSites lists the findings by kind and site, sorted.
func (r *Result) findingSites() []string {
	var out []string
	for _, f := range r.Findings {
		if f.Violation != nil {
			out = append(out, "violation "+f.Violation.Pos.String())
		} else {
			out = append(out, "error "+f.Error.Pos.String()+" "+f.Error.Msg)
		}
	}
	sort.Strings(out)
	return out
}

// event is one executed event of the current sequence.
type event struct {
	proc   int // index in State.Procs
	pid    string
	block  *lang.Block
	reads  []Loc
	writes []Loc
	spawn  []string // ids of the processes it created
	mark   int
	clock  []int // vector clock: per process index, the number of its events that happen-before (or are) this one
	seq    int   // position of this event among its process's events (1-based)
	err    *RuntimeError
	// pre holds its process's locals before it ran (cdpor only).
	pre []int64
	// virtual marks the pending event of a process blocked at the end of a
	// trace: never executed, so its races only update back sets.
	virtual bool
}

// level is what the explorer keeps for one prefix E (depth = len(E)).
type level struct {
	enabled map[string]bool // processes enabled at E
	back    []string        // processes to explore from E (source set)
	done    map[string]bool // explored from E
	// sleep holds sequences of events not to explore from E: a single
	// process asleep, or (csdpor, cdpor) a sequence whose run from E ends
	// where an explored one does (Alg. 1, lines 12 and 14).
	sleep []sleeper
	node  int // its node in the recorded tree (-1: none)
	// snap is a copy of the state at this level, for the detours of
	// csdpor and cdpor (see detour); nil until a race needs it.
	snap *State
}

// sleeper is an entry of a sleep set: a sequence of events not to explore.
// byState marks the sequences a context-sensitive check put there (and their
// tails): their runs end in the same state as an explored run, which is not
// an equivalent trace, so they stand for no race detection of their own.
type sleeper struct {
	seq     []*event
	byState bool
}

// asleep reports whether process pid is asleep at the level.
func (f *level) asleep(pid string) bool {
	for _, x := range f.sleep {
		if len(x.seq) == 1 && x.seq[0].pid == pid {
			return true
		}
	}
	return false
}

type explorer struct {
	m            *Machine
	opts         Options
	st           *State
	seq          []*event
	levels       []*level
	res          *Result
	finals       map[uint64][]*State
	sites        map[string]bool
	start        time.Time
	stopped      bool
	scratch      Event
	guardGlobals map[*ic.Pair]bool          // see guardReadsGlobals
	born         map[string]int             // per process id, the position of the event that created it
	spare        []*event                   // the sequence of detours that need no prefix
	w            map[string]map[string]bool // W(b) by block id (cdpor)
	// detouring is set while a detour runs on a level's snapshot.
	detouring bool
	funcs     map[string]ic.Function
}

// Explore explores the program's interleavings from its initial state with
// the chosen algorithm. Every algorithm reaches the same final states and
// violations as DFS; they differ in how many traces they execute.
func Explore(m *Machine, opts Options) (*Result, error) {
	if opts.Algo == "" {
		opts.Algo = SDPOR
	}
	if opts.Algo == CDPOR {
		// U⇒ needs a dependency that holds in every state: dynamic read
		// sets are themselves conditional (a branch not taken reads less).
		opts.Dep = Static
	}
	if !slices.Contains(Algorithms, opts.Algo) {
		return nil, fmt.Errorf("unknown algorithm %q", opts.Algo)
	}
	st, rerr := m.Initial()
	x := &explorer{m: m, opts: opts, st: st, res: &Result{Dep: opts.Dep}, finals: map[uint64][]*State{}, sites: map[string]bool{}, born: map[string]int{}, start: time.Now()}
	if opts.ICs != nil {
		if opts.ICs.Hash != m.Prog.Hash {
			return nil, fmt.Errorf("the IC file was made for another program (hash %.12s, the program's is %.12s)", opts.ICs.Hash, m.Prog.Hash)
		}
		x.w, x.funcs = map[string]map[string]bool{}, map[string]ic.Function{}
		for _, b := range opts.ICs.Blocks {
			x.w[b.ID] = map[string]bool{}
			for _, g := range b.W {
				x.w[b.ID][g] = true
			}
		}
		for _, f := range opts.ICs.Functions {
			x.funcs[f.Name] = f
		}
	}
	for _, v := range st.Violations { // asserts or invariants that failed in init
		v := v
		x.finding(Finding{Violation: &v, Schedule: Schedule{}})
	}
	if rerr != nil {
		x.finding(Finding{Error: rerr})
		x.final()
		return x.res, nil
	}
	x.levels = []*level{x.newLevel(nil)}
	x.levels[0].node = x.treeNode(-1, Step{})
	x.explore(0)
	x.res.Elapsed = time.Since(x.start)
	return x.res, nil
}

func (x *explorer) newLevel(sleep []sleeper) *level {
	f := &level{enabled: map[string]bool{}, done: map[string]bool{}, sleep: sleep}
	for _, i := range x.st.EnabledProcs(nil) {
		f.enabled[x.st.Procs[i].Key()] = true
	}
	return f
}

func (x *explorer) bounded() bool {
	if x.stopped {
		return true
	}
	o := x.opts
	switch {
	case o.MaxTraces > 0 && x.res.Traces >= o.MaxTraces:
		x.cut("max traces")
	case o.MaxStates > 0 && x.res.States >= o.MaxStates:
		x.cut("max states")
	case x.timeUp():
		x.cut("timeout")
	}
	return x.stopped
}

// timeUp reports whether the time bound has passed. It is checked before
// every explored event and every race (a race of csdpor or cdpor can take
// long on deep sequences); without a bound it costs one comparison.
func (x *explorer) timeUp() bool {
	return x.opts.Timeout > 0 && time.Since(x.start) > x.opts.Timeout
}

func (x *explorer) cut(why string) {
	x.stopped, x.res.Cut, x.res.CutBy = true, true, why
}

// procIndex finds a process by id in the current state.
func (x *explorer) procIndex(pid string) int { return x.st.find(pid) }

func (x *explorer) explore(depth int) {
	f := x.levels[depth]
	var enabled []string
	for pid := range f.enabled {
		enabled = append(enabled, pid)
	}
	if len(enabled) == 0 {
		x.res.Traces++
		x.final()
		x.treeKind(f.node, NodeComplete)
		return
	}
	sort.Slice(enabled, func(i, j int) bool { return pidLess(enabled[i], enabled[j]) })
	defer x.treeLeave(f.node, f, enabled)
	awake := slices.DeleteFunc(slices.Clone(enabled), f.asleep)
	byState := false
	for _, sl := range f.sleep {
		if sl.byState && len(sl.seq) == 1 {
			byState = true
			x.sleeperRaces(sl.seq[0])
		}
	}
	if len(awake) == 0 {
		x.res.Blocked++
		x.treeKind(f.node, NodeBlocked)
		return
	}
	if x.opts.Algo == DFS || byState {
		// A process asleep by a context-sensitive check was not explored
		// here, so the races its subtree would have reversed here are
		// unknown: explore every other process.
		f.back = awake
	} else {
		f.back = []string{awake[0]}
	}
	for {
		pid := ""
		for _, p := range f.back {
			if !f.done[p] && !f.asleep(p) {
				pid = p
				break
			}
		}
		if pid == "" {
			return
		}
		if x.bounded() {
			x.treeKind(f.node, NodeCut)
			return
		}
		kept := x.uniformSleepers(f, pid)
		ev := x.step(pid, true)
		f.done[pid] = true
		node := -1
		if f.node >= 0 {
			node = x.treeNode(f.node, x.stepOf(ev))
		}
		if ev.err != nil {
			x.treeKind(node, NodeError)
			x.res.Traces++
			x.finding(Finding{Error: ev.err, Schedule: x.schedule()})
			x.final()
			if x.opts.Algo != DFS {
				x.errorRaces(f, len(x.seq)-1)
			}
		} else {
			if x.opts.Algo != DFS {
				x.races(len(x.seq) - 1)
				x.blockedRaces(len(x.seq) - 1)
			}
			x.levels = append(x.levels, x.newLevel(append(x.childSleep(f, ev), kept...)))
			x.levels[depth+1].node = node
			x.explore(depth + 1)
			x.levels = x.levels[:depth+1]
		}
		x.st.Undo(ev.mark)
		x.seq = x.seq[:len(x.seq)-1]
		if x.opts.Algo != DFS {
			f.sleep = append(f.sleep, sleeper{seq: []*event{ev}})
		}
		if x.stopped {
			return
		}
	}
}

// childSleep is sleep(E.p) for the event ev of p (Alg. 1, lines 15-16):
// the sequences of sleep(E) whose events are all independent of ev, and the
// tails of the sequences that start with p.
func (x *explorer) childSleep(f *level, ev *event) []sleeper {
	var out []sleeper
	for _, sl := range f.sleep {
		if sl.seq[0].pid == ev.pid {
			if len(sl.seq) > 1 {
				out = append(out, sleeper{seq: sl.seq[1:], byState: true})
			}
			continue
		}
		indep := true
		for _, e := range sl.seq {
			if x.dependent(ev, e) {
				indep = false
				break
			}
		}
		if indep {
			out = append(out, sl)
		}
	}
	return out
}

// step executes the next block of process pid and appends the event;
// record counts it as a state and records its findings (replays do not).
// The event's vector clock is computed when its races are (see races).
func (x *explorer) step(pid string, record bool) *event {
	i := x.procIndex(pid)
	mark := x.st.Mark()
	viol := len(x.st.Violations)
	withICs := x.opts.Algo == CDPOR && x.opts.ICs != nil && !x.detouring
	var pre []int64
	if withICs { // for localsUniform
		pre = slices.Clone(x.st.Procs[i].Locals)
	}
	x.st.StepInto(i, &x.scratch)
	e := &x.scratch
	ev := &event{proc: i, pid: pid, block: e.Block, mark: mark, err: e.Err, pre: pre}
	if x.opts.Dep == Static {
		ev.reads, ev.writes = x.staticSets(e.Block)
	} else {
		ev.reads, ev.writes = slices.Clone(e.Reads), slices.Clone(e.Writes)
	}
	for _, c := range e.Spawned {
		ev.spawn = append(ev.spawn, x.st.Procs[c].Key())
		if withICs {
			x.born[x.st.Procs[c].Key()] = len(x.seq)
		}
	}
	x.seq = append(x.seq, ev)
	if !record {
		return ev
	}
	x.res.States++
	if x.opts.Progress != nil && x.res.States%100000 == 0 {
		x.res.Elapsed = time.Since(x.start)
		x.opts.Progress(x.res.Stats)
	}
	for _, v := range x.st.Violations[viol:] {
		v := v
		x.finding(Finding{Violation: &v, Schedule: x.schedule()})
	}
	return ev
}

// staticSets returns the locations of the globals a block may read and write.
func (x *explorer) staticSets(b *lang.Block) (reads, writes []Loc) {
	locs := func(vs []*lang.Var) []Loc {
		var out []Loc
		for _, v := range vs {
			if v.Kind != lang.Global {
				continue
			}
			first, n := x.m.GlobalLocs(v)
			for k := 0; k < n; k++ {
				out = append(out, first+Loc(k))
			}
		}
		return out
	}
	return locs(b.Reads), locs(b.Writes)
}

func (x *explorer) schedule() Schedule {
	s := make(Schedule, len(x.seq))
	for i, ev := range x.seq {
		s[i] = x.stepOf(ev)
	}
	return s
}

// stepOf is the step of an event of the sequence.
func (x *explorer) stepOf(ev *event) Step {
	p := x.st.Procs[ev.proc]
	return Step{PID: p.ID, Name: p.Name(), Block: ev.block.ID}
}

func (x *explorer) finding(f Finding) {
	var key string
	switch {
	case f.Violation != nil:
		key = "v" + f.Violation.Pos.String()
	case f.Error != nil:
		key = "e" + f.Error.Pos.String() + f.Error.Msg
	}
	if x.sites[key] {
		return
	}
	x.sites[key] = true
	x.res.Findings = append(x.res.Findings, f)
	if x.opts.StopOnViolation {
		x.cut("violation")
	}
}

// final records the current state as a final state if it is new.
func (x *explorer) final() {
	h := x.st.Hash()
	for _, s := range x.finals[h] {
		if s.Equal(x.st) {
			return
		}
	}
	c := x.st.Clone()
	x.finals[h] = append(x.finals[h], c)
	x.res.Finals = append(x.res.Finals, c)
}

// dependent reports whether two events conflict: same process, one creates
// the other's process, one writes a location the other reads or writes, or
// one is a runtime error. An error ends the execution: the state it leaves
// depends on every event before it, and it disables every other process.
func (x *explorer) dependent(a, b *event) bool {
	if a.pid == b.pid || a.err != nil || b.err != nil {
		return true
	}
	if slices.Contains(a.spawn, b.pid) || slices.Contains(b.spawn, a.pid) {
		return true
	}
	return intersect(a.writes, b.writes) || intersect(a.writes, b.reads) || intersect(a.reads, b.writes)
}

// intersect reports whether two sorted location lists share an element.
func intersect(a, b []Loc) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// clock computes the vector clock of the event at position k from its
// direct predecessors: the previous event of its process, the event that
// created its process, and every earlier dependent event. races does the
// same while it finds the races, leaving out the events it proves
// uniformly independent; clock is for an event whose races are not wanted
// (the tests use it on dfs's events).
func (x *explorer) clock(k int) { x.scan(k, false) }

// scan visits the events before position k, latest first, and builds the
// vector clock of n = seq[k] from its direct predecessors. An event already
// covered by the clock built so far happens before a later predecessor: it
// adds nothing to the clock and, when dependent on n, is not in a race
// with it (some event between them is after it and before n). A dependent
// event of another process not covered is in a race with n; with race set,
// the race is handled (see race) and, when it is shown uniformly
// independent, the event is left out of the clock, so earlier races are
// judged on the relation without it.
//
// While the scan runs, n's clock holds the predecessors seen so far, which
// is exact for every event after the one being looked at: what race needs
// to compare the events between e and n with n. n's own rank (n.seq) is set
// at the end, so hb(n, ·) must not be asked during the scan.
func (x *explorer) scan(k int, race bool) {
	n := x.seq[k]
	c := make([]int, len(x.st.Procs))
	n.clock = c
	for i := k - 1; i >= 0; i-- {
		e := x.seq[i]
		if c[e.proc] >= e.seq {
			continue
		}
		pred := e.proc == n.proc || slices.Contains(e.spawn, n.pid)
		if !pred {
			if !x.dependent(e, n) {
				continue
			}
			if race && !x.stopped && x.race(i, k) {
				continue // uniformly independent: not a predecessor
			}
		}
		for p, v := range e.clock {
			if v > c[p] {
				c[p] = v
			}
		}
	}
	c[n.proc]++
	n.seq = c[n.proc]
}

// hb reports whether a happens-before b (a earlier in the sequence).
func hb(a, b *event) bool { return a.proc < len(b.clock) && b.clock[a.proc] >= a.seq }

// blockedRaces handles the processes blocked at an await after the event
// at position k. A blocked process's next event is not in the sequence, so
// its races with the events that keep its guard false would go unseen, and
// the orders where it ran before them would be missed. Each gets a virtual
// event reading what its guard reads, whose races reverse as usual. This is
// done in every state, not only where a trace ends: a later write of the
// guard (one that enables it, say) hides the earlier races behind
// happens-before. A blocked process needs a new look only when it has just
// blocked (its own event or the last one disabled it) or the last event
// wrote its guard; otherwise its races are those of the state before.
func (x *explorer) blockedRaces(k int) {
	last := x.seq[k]
	for _, i := range x.st.Blocked() {
		p := x.st.Procs[i]
		ev := &event{proc: i, pid: p.Key(), block: p.Point.Block, virtual: true}
		if x.opts.Dep == Static {
			ev.reads, _ = x.staticSets(p.Point.Block)
		} else {
			ev.reads = x.st.GuardReads(i)
		}
		if last.proc != i && !x.levels[k].enabled[ev.pid] && !x.dependent(last, ev) {
			continue
		}
		x.seq = append(x.seq, ev)
		n := len(x.seq) - 1
		x.races(n)
		x.seq = x.seq[:n]
	}
}

// errorRaces handles a runtime error, the event at position k, taken at
// level f. The error ends the execution, so it races with the events before
// it (it depends on all of them) and with the next event of every other
// process enabled where it ran, which it disables: those processes join
// f's back set, as the reversal of those races would put them there. Their
// own races with earlier events are found when they run from f.
func (x *explorer) errorRaces(f *level, k int) {
	x.races(k)
	var others []string
	for pid := range f.enabled {
		if pid != x.seq[k].pid && !slices.Contains(f.back, pid) {
			others = append(others, pid)
		}
	}
	sort.Slice(others, func(a, b int) bool { return pidLess(others[a], others[b]) })
	f.back = append(f.back, others...)
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

// races finds the reversible races of the event at position k with earlier
// events and updates the source sets (the black code of Alg. 1); it also
// computes the event's vector clock (see scan).
func (x *explorer) races(k int) { x.scan(k, true) }

// race handles the race of e = seq[i] with n = seq[k] and reports whether
// the two were shown independent uniformly (cdpor only), which takes e out
// of n's predecessors.
func (x *explorer) race(i, k int) bool {
	if x.timeUp() {
		x.cut("timeout")
		return false // the exploration is cut: its back sets no longer matter
	}
	n := x.seq[k]
	switch {
	case n.err != nil:
		// An error has no constraint with anything and no state to
		// compare: reverse the race.
		x.updateBack(i, k)
	case x.opts.Algo == CDPOR && x.opts.ICs != nil:
		return x.constrainedRace(i, k)
	case x.opts.Algo == CSDPOR && !n.virtual:
		x.contextSensitive(i, k)
		x.updateBack(i, k)
	default:
		x.updateBack(i, k)
	}
	return false
}

// updateBack adds to back(pre(E, e)) a process that starts v =
// notdep(e, E).n, unless one is there already: the initials of v are the
// processes whose first event in v has no predecessor in v.
func (x *explorer) updateBack(i, k int) {
	e := x.seq[i]
	var v []*event
	for j := i + 1; j < k; j++ {
		if !hb(e, x.seq[j]) {
			v = append(v, x.seq[j])
		}
	}
	v = append(v, x.seq[k])
	var initials []string
	seen := map[string]bool{}
	for a, ev := range v {
		if seen[ev.pid] {
			continue
		}
		seen[ev.pid] = true
		first := true
		for _, w := range v[:a] {
			if hb(w, ev) {
				first = false
				break
			}
		}
		if first {
			initials = append(initials, ev.pid)
		}
	}
	f := x.levels[i]
	for _, q := range initials {
		if slices.Contains(f.back, q) {
			return
		}
	}
	// Only a process enabled at pre(E, e) can start the reversed order.
	sort.Slice(initials, func(a, b int) bool { return pidLess(initials[a], initials[b]) })
	for _, q := range initials {
		if f.enabled[q] {
			f.back = append(f.back, q)
			return
		}
	}
}

// pidLess orders process ids numerically, component by component.
func pidLess(a, b string) bool {
	return parsePID(a).Compare(parsePID(b)) < 0
}

func parsePID(s string) PID {
	var p PID
	n := int32(0)
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			p = append(p, n)
			n = 0
			continue
		}
		n = n*10 + int32(s[i]-'0')
	}
	return append(p, n)
}

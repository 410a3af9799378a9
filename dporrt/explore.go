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
	MaxDepth        int           // stop when one sequence reaches this many events (0: DefaultMaxDepth)
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

// Finding is a violation or runtime error, by site: a failed assert or a
// broken invariant at one position, or a runtime error of one kind at one
// position, whatever its operand values. Violation or Error is the first
// occurrence found, and Schedule reaches it (icgen run --replay).
type Finding struct {
	Violation *Violation
	Error     *RuntimeError
	Schedule  Schedule
	Count     int // the explored events that raised it, in every trace
}

// Result is the outcome of an exploration.
type Result struct {
	Stats
	// Finals are the distinct final states modulo process naming, in
	// discovery order, as long as they fit in MaxFinalBytes; FinalCount
	// counts them all (those not kept by their hash only).
	Finals     []*State
	FinalCount int
	Findings   []Finding // violations and runtime errors by site, in discovery order
	Dep        DepMode   // the dependency used (cdpor always uses Static)
	Cut        bool      // a bound stopped the exploration: it is not exhaustive
	CutBy      string
}

// MaxFinalBytes bounds the memory the final states kept in Result.Finals
// take; the final states found past it are told apart by their hash and
// counted in Result.FinalCount, not kept.
const MaxFinalBytes = 256 << 20

// maxSnapBytes bounds the memory of the state snapshots csdpor and cdpor
// keep along the sequence (see detour); past it, a race's state is reached
// by undoing and replaying instead.
const maxSnapBytes = 256 << 20

// DefaultMaxDepth bounds the events of one explored sequence when
// Options.MaxDepth is 0: a program whose executions do not end (a process
// that spawns copies of itself forever) is cut there, with some hundreds of
// MiB in use, rather than using up the memory and the stack.
const DefaultMaxDepth = 100_000

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
	if r.FinalCount != o.FinalCount {
		return false, fmt.Sprintf("%d final states vs %d", r.FinalCount, o.FinalCount)
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
		out = append(out, findingKey(f).String())
	}
	sort.Strings(out)
	return out
}

// siteKey is what makes two findings the same: kind and position. A
// runtime error's kind is its message without the operand values.
type siteKey struct {
	pos  lang.Pos
	kind string
}

func (k siteKey) String() string { return k.pos.String() + " " + k.kind }

func findingKey(f Finding) siteKey {
	if f.Violation != nil {
		return siteKey{f.Violation.Pos, "violation"}
	}
	return siteKey{f.Error.Pos, "runtime error: " + f.Error.Kind.String()}
}

// event is one executed event of the current sequence.
type event struct {
	proc   int // index in State.Procs
	pid    PID
	block  *lang.Block
	reads  []Loc
	writes []Loc
	spawn  []PID // ids of the processes it created
	mark   int
	clock  vclock // per process index, the number of its events that happen-before (or are) this one
	seq    int32  // position of this event among its process's events (1-based)
	err    *RuntimeError
	// pre holds its process's locals before it ran (cdpor only).
	pre []int64
	// virtual marks the pending event of a process blocked at the end of a
	// trace: never executed, so its races only update back sets.
	virtual bool
}

// level is what the explorer keeps for one prefix E (depth = len(E)). The
// processes enabled at E are not stored per level: see enabledAt.
type level struct {
	// back is the back (source) set: processes to explore from E, in
	// order. allAwake and allEnabled stand for every process enabled at E
	// (and awake when the level was entered, for allAwake), after the
	// listed ones, in id order: dfs explores every process, and a runtime
	// error disables every other one (see errorRaces); listing them would
	// take memory in proportion to the processes at every level.
	back       []PID
	allAwake   bool
	allEnabled bool
	cursor     PID // the last process allAwake or allEnabled gave (see next)
	cursorSet  bool
	asleep0    int    // len(sleep) when the level was entered
	depth      int    // len(E)
	done       pidBag // explored from E
	// sleep holds sequences of events not to explore from E: a single
	// process asleep, or (csdpor, cdpor) a sequence whose run from E ends
	// where an explored one does (Alg. 1, lines 12 and 14).
	sleep []sleeper
	node  int // its node in the recorded tree (-1: none)
	// snap is a copy of the state at this level, for the detours of
	// csdpor and cdpor (see detour); nil until a race needs it.
	snap     *State
	snapSize int
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
}

// asleep reports whether process pid is asleep at the level.
func (f *level) asleep(pid PID) bool { return asleepIn(f.sleep, pid) }

func asleepIn(sleep []sleeper, pid PID) bool {
	for _, x := range sleep {
		if len(x.seq) == 1 && x.seq[0].pid == pid {
			return true
		}
	}
	return false
}

// inBack reports whether process pid (index proc) is in f's back set.
func (x *explorer) inBack(f *level, pid PID, proc int) bool {
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
func (x *explorer) next(f *level) (PID, bool) {
	for _, p := range f.back {
		if !f.done.has(p) && !f.asleep(p) {
			return p, true
		}
	}
	if !f.allAwake && !f.allEnabled {
		return PID{}, false
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
	return PID{}, false
}

// enChange records that a process became enabled (on) or not at a level.
type enChange struct {
	level int
	on    bool
}

type explorer struct {
	m            *Machine
	opts         Options
	st           *State
	seq          []*event
	levels       []*level
	res          *Result
	finals       map[uint64][]*State
	finalBytes   int
	sites        map[siteKey]int // index in res.Findings
	start        time.Time
	stopped      bool
	scratch      Event
	guardGlobals map[*ic.Pair]bool          // see guardReadsGlobals
	born         map[PID]int                // per process id, the position of the event that created it
	spare        []*event                   // the sequence of detours that need no prefix
	w            map[string]map[string]bool // W(b) by block id (cdpor)
	// detouring is set while a detour runs on a level's snapshot.
	detouring bool
	funcs     map[string]ic.Function
	// The processes enabled at the current end of the sequence, ordered by
	// id, and for each process (by index) the levels of the sequence where
	// it became enabled or not: enabledAt answers for any level from them,
	// and an event changes them only for the processes it affected.
	enabled   pidSet
	enHist    [][]enChange
	affected  []int // scratch of enter
	blocked   []int // scratch of blockedRaces
	snapBytes int
	static    map[*lang.Block][2][]Loc // staticSets, by block
	maxDepth  int
	onLevel   func(x *explorer, depth int) // see explore
	// The bounds on kept final states and snapshots: MaxFinalBytes and
	// maxSnapBytes (tests lower them to exercise what happens past them).
	finalLimit, snapLimit int
}

func newExplorer(m *Machine, opts Options) *explorer {
	x := &explorer{m: m, opts: opts, res: &Result{Dep: opts.Dep}, finals: map[uint64][]*State{}, sites: map[siteKey]int{}, born: map[PID]int{}, start: time.Now()}
	x.maxDepth = opts.MaxDepth
	if x.maxDepth <= 0 {
		x.maxDepth = DefaultMaxDepth
	}
	x.finalLimit, x.snapLimit = MaxFinalBytes, maxSnapBytes
	return x
}

// Explore explores the program's interleavings from its initial state with
// the chosen algorithm. Every algorithm reaches the same final states and
// violations as DFS; they differ in how many traces they execute.
//
// Memory: the explorer keeps the sequence it is exploring (at most
// MaxStates or MaxDepth events, with their levels' source and sleep sets),
// the final states (at most MaxFinalBytes of them), one finding per site,
// and state snapshots for csdpor and cdpor (at most 256 MiB); an event
// adds memory in proportion to its own work, not to the number of
// processes.
func Explore(m *Machine, opts Options) (*Result, error) { return explore(m, opts, nil) }

// explore is Explore; onLevel, when set, is called at every level the
// exploration enters (tests check the explorer's incremental state there).
func explore(m *Machine, opts Options, onLevel func(x *explorer, depth int)) (*Result, error) {
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
	x := newExplorer(m, opts)
	x.st, x.onLevel = st, onLevel
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
		x.finding(Finding{Violation: &v}, func() Schedule { return Schedule{} })
	}
	if rerr != nil {
		x.finding(Finding{Error: rerr}, func() Schedule { return Schedule{} })
		x.final()
		return x.res, nil
	}
	root := &level{}
	for _, i := range st.EnabledProcs(nil) {
		x.setEnabled(i, true, 0)
	}
	x.levels = []*level{root}
	root.node = x.treeNode(-1, Step{})
	x.explore(0)
	x.res.Elapsed = time.Since(x.start)
	return x.res, nil
}

// setEnabled records that process i is enabled (on) or not from level on.
func (x *explorer) setEnabled(i int, on bool, level int) {
	for len(x.enHist) <= i {
		x.enHist = append(x.enHist, nil)
	}
	x.enHist[i] = append(x.enHist[i], enChange{level, on})
	pid := x.st.Procs[i].ID
	if on {
		x.enabled.insert(pid, i)
	} else {
		x.enabled.remove(pid)
	}
}

// isEnabled reports whether process i is enabled at the current end of the
// sequence.
func (x *explorer) isEnabled(i int) bool {
	if i >= len(x.enHist) {
		return false
	}
	h := x.enHist[i]
	return len(h) > 0 && h[len(h)-1].on
}

// enabledAt reports whether process i (an index along the current
// sequence) was enabled at level k: the last change at or before k says.
// A process created after k has no change there.
func (x *explorer) enabledAt(i, k int) bool {
	if i >= len(x.enHist) {
		return false
	}
	h := x.enHist[i]
	j := sort.Search(len(h), func(j int) bool { return h[j].level > k }) - 1
	return j >= 0 && h[j].on
}

// enter pushes the level reached by the event ev at the end of the
// sequence: the processes it affected (see State.affected) that changed
// enabledness are recorded at it.
func (x *explorer) enter(sleep []sleeper, ev *event, spawned []int) *level {
	d := len(x.levels)
	f := &level{sleep: sleep, node: -1, depth: d}
	x.affected = x.st.affected(ev.proc, spawned, ev.writes, x.affected[:0])
	for _, i := range x.affected {
		if on := x.st.Enabled(i); on != x.isEnabled(i) {
			x.setEnabled(i, on, d)
			f.changed = append(f.changed, i)
		}
	}
	x.levels = append(x.levels, f)
	return f
}

// leave pops the last level, undoing its enabledness changes. The state
// must still be the one at that level (before the Undo of its event).
func (x *explorer) leave() {
	d := len(x.levels) - 1
	f := x.levels[d]
	for k := len(f.changed) - 1; k >= 0; k-- {
		i := f.changed[k]
		x.enHist[i] = x.enHist[i][:len(x.enHist[i])-1]
		if x.isEnabled(i) {
			x.enabled.insert(x.st.Procs[i].ID, i)
		} else {
			x.enabled.remove(x.st.Procs[i].ID)
		}
	}
	x.dropSnap(f)
	x.levels = x.levels[:d]
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
	case len(x.seq) >= x.maxDepth:
		x.cut(fmt.Sprintf("a sequence reached %d events", x.maxDepth))
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
func (x *explorer) procIndex(pid PID) int { return x.st.Find(pid) }

// awake returns the process with the smallest id among those enabled at
// the current level and not asleep in f; false when there is none.
func (x *explorer) awake(f *level) (PID, bool) {
	for n := x.enabled.first(); n != nil; n = n.next[0] {
		if !f.asleep(n.pid) {
			return n.pid, true
		}
	}
	return PID{}, false
}

func (x *explorer) explore(depth int) {
	f := x.levels[depth]
	if x.onLevel != nil {
		x.onLevel(x, depth)
	}
	if x.enabled.n == 0 {
		x.res.Traces++
		x.final()
		x.treeKind(f.node, NodeComplete)
		return
	}
	if f.node >= 0 {
		defer x.treeLeave(f.node, f, x.enabled.pids())
	}
	byState := false
	for _, sl := range f.sleep {
		if sl.byState && len(sl.seq) == 1 {
			byState = true
			x.sleeperRaces(sl.seq[0])
		}
	}
	first, ok := x.awake(f)
	if !ok {
		x.res.Blocked++
		x.treeKind(f.node, NodeBlocked)
		return
	}
	f.asleep0 = len(f.sleep)
	if x.opts.Algo == DFS || byState {
		// A process asleep by a context-sensitive check was not
		// explored here, so the races its subtree would have reversed
		// here are unknown: explore every other process.
		f.allAwake = true
	} else {
		f.back = []PID{first}
	}
	for {
		pid, found := x.next(f)
		if !found {
			return
		}
		if x.bounded() {
			x.treeKind(f.node, NodeCut)
			return
		}
		kept := x.uniformSleepers(f, pid)
		ev, spawned := x.step(pid, true)
		f.done.add(pid)
		node := -1
		if f.node >= 0 {
			node = x.treeNode(f.node, x.stepOf(ev))
		}
		if ev.err != nil {
			x.treeKind(node, NodeError)
			x.res.Traces++
			x.finding(Finding{Error: ev.err}, x.schedule)
			x.final()
			if x.opts.Algo != DFS {
				x.errorRaces(f, len(x.seq)-1)
			}
		} else {
			if x.opts.Algo != DFS {
				x.races(len(x.seq) - 1)
				x.blockedRaces(len(x.seq)-1, spawned)
			}
			child := x.enter(append(x.childSleep(f, ev), kept...), ev, spawned)
			child.node = node
			x.explore(depth + 1)
			x.leave()
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
// It also returns the indices of the processes the event spawned (valid
// until the next step). The event's vector clock is computed when its
// races are (see races).
func (x *explorer) step(pid PID, record bool) (*event, []int) {
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
		id := x.st.Procs[c].ID
		ev.spawn = append(ev.spawn, id)
		if withICs {
			x.born[id] = len(x.seq)
		}
	}
	x.seq = append(x.seq, ev)
	spawned := slices.Clone(e.Spawned)
	if !record {
		return ev, spawned
	}
	x.res.States++
	if x.opts.Progress != nil && x.res.States%100000 == 0 {
		x.res.Elapsed = time.Since(x.start)
		x.opts.Progress(x.res.Stats)
	}
	for _, v := range x.st.Violations[viol:] {
		v := v
		x.finding(Finding{Violation: &v}, x.schedule)
	}
	return ev, spawned
}

// staticSets returns the global locations a block may read and write, as
// the static dependency sees them: one location (the first) per global,
// arrays whole, which intersect exactly when the globals do. They are
// computed once per block and shared: callers must not change them.
func (x *explorer) staticSets(b *lang.Block) (reads, writes []Loc) {
	if s, ok := x.static[b]; ok {
		return s[0], s[1]
	}
	locs := func(vs []*lang.Var) []Loc {
		var out []Loc
		for _, v := range vs {
			if v.Kind == lang.Global {
				first, _ := x.m.GlobalLocs(v)
				out = append(out, first)
			}
		}
		slices.Sort(out)
		return out
	}
	reads, writes = locs(b.Reads), locs(b.Writes)
	if x.static == nil {
		x.static = map[*lang.Block][2][]Loc{}
	}
	x.static[b] = [2][]Loc{reads, writes}
	return reads, writes
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

// finding records a violation or runtime error: a new finding with the
// schedule sched gives, or one more occurrence of the finding at its site.
func (x *explorer) finding(f Finding, sched func() Schedule) {
	key := findingKey(f)
	if k, ok := x.sites[key]; ok {
		x.res.Findings[k].Count++
		return
	}
	f.Schedule, f.Count = sched(), 1
	x.sites[key] = len(x.res.Findings)
	x.res.Findings = append(x.res.Findings, f)
	if x.opts.StopOnViolation {
		x.cut("violation")
	}
}

// final records the current state as a final state if it is new: kept
// while the kept ones take at most MaxFinalBytes, else counted by hash.
func (x *explorer) final() {
	h := x.st.Hash()
	kept := x.finals[h]
	for _, s := range kept {
		if s == nil || s.Equal(x.st) {
			return // nil: a final state with this hash, not kept
		}
	}
	x.res.FinalCount++
	if size := x.st.size(); x.finalBytes+size <= x.finalLimit {
		c := x.st.Clone()
		x.finalBytes += size
		x.finals[h] = append(kept, c)
		x.res.Finals = append(x.res.Finals, c)
	} else {
		x.finals[h] = append(kept, nil)
	}
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
//
// The scan stops where n's clock covers every event left: the clock counts
// the events it covers, and those after the position looked at are
// counted as they are passed (a predecessor's clock covers only earlier
// events), so the rest are covered when the difference is their number.
func (x *explorer) scan(k int, race bool) {
	n := x.seq[k]
	n.clock = vclock{}
	after := int64(0) // covered events after position i
	for i := k - 1; i >= 0; i-- {
		if n.clock.total()-after == int64(i+1) {
			break // events 0..i are all covered
		}
		e := x.seq[i]
		if n.clock.get(e.proc) >= e.seq {
			after++
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
		n.clock = join(n.clock, e.clock)
		after++
	}
	n.seq = n.clock.get(n.proc) + 1
	n.clock = n.clock.set(n.proc, n.seq)
}

// hb reports whether a happens-before b (a earlier in the sequence).
func hb(a, b *event) bool { return b.clock.get(a.proc) >= a.seq }

// blockedRaces handles the processes blocked at an await after the event
// at position k, which spawned the processes spawned. A blocked process's
// next event is not in the sequence, so its races with the events that
// keep its guard false would go unseen, and the orders where it ran before
// them would be missed. Each gets a virtual event reading what its guard
// reads, whose races reverse as usual. This is done in every state, not
// only where a trace ends: a later write of the guard (one that enables
// it, say) hides the earlier races behind happens-before. A blocked process
// needs a new look only when it has just blocked (its own event or the
// last one disabled it) or the last event wrote its guard; otherwise its
// races are those of the state before. Those are among the processes the
// event affected (see State.affected), so no other is looked at.
func (x *explorer) blockedRaces(k int, spawned []int) {
	last := x.seq[k]
	x.blocked = x.st.affected(last.proc, spawned, last.writes, x.blocked[:0])
	slices.Sort(x.blocked)
	cands := slices.Compact(x.blocked)
	for _, i := range cands {
		p := x.st.Procs[i]
		if p.Done || x.st.Enabled(i) {
			continue
		}
		ev := &event{proc: i, pid: p.ID, block: p.Point.Block, virtual: true}
		if x.opts.Dep == Static {
			ev.reads, _ = x.staticSets(p.Point.Block)
		} else {
			ev.reads = x.st.GuardReads(i)
		}
		if last.proc != i && !x.enabledAt(i, k) && !x.dependent(last, ev) {
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
// f's back set (all of them: allEnabled), as the reversal of those races
// would put them there. Their own races with earlier events are found when
// they run from f.
func (x *explorer) errorRaces(f *level, k int) {
	x.races(k)
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
	var initials []*event
	seen := map[PID]bool{}
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
			initials = append(initials, ev)
		}
	}
	f := x.levels[i]
	for _, q := range initials {
		if x.inBack(f, q.pid, q.proc) {
			return
		}
	}
	// Only a process enabled at pre(E, e) can start the reversed order.
	slices.SortFunc(initials, func(a, b *event) int { return a.pid.Compare(b.pid) })
	for _, q := range initials {
		if x.enabledAt(q.proc, i) {
			f.back = append(f.back, q.pid)
			return
		}
	}
}

package dporrt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// This file holds what every exploration loop shares: options and
// results, the events of the explored sequence, stepping, findings, final
// states, bounds, and which processes are enabled at each level.

// DepMode chooses how dependency between events is decided.
type DepMode int

// Locals, the default, gives an event what its block can touch when run by
// its process with the locals the process has at the event's start,
// whatever the globals hold (see localSets); Static the blocks' syntactic
// sets, with the cells of fixed indices apart (see eventSets), as the
// papers' tools do. Both give an event the same sets in every state, and
// every algorithm takes either.
const (
	Locals DepMode = iota
	Static
)

func (d DepMode) String() string {
	if d == Static {
		return "static"
	}
	return "locals"
}

// ParseDep reads a dependency's name: locals or static, and dynamic, the
// name locals had before, for locals.
func ParseDep(name string) (DepMode, error) {
	switch name {
	case "locals", "dynamic":
		return Locals, nil
	case "static":
		return Static, nil
	}
	return Locals, fmt.Errorf("unknown dependency %q (known: locals, static)", name)
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
	// Progress, when set, is called every so many events (10,000) with the
	// counts so far and an estimate of the part done (Stats.Estimate).
	Progress func(Stats)
	// Tree, when set, records the explored execution tree into it.
	Tree *Tree
	// ObserveFinal, for the algorithms with observers, adds at the end of
	// every trace a virtual event that reads every global: the final values
	// are then observed, and the final states are preserved as well as the
	// violations (see Info.Observers).
	ObserveFinal bool
	// WholeArrays makes the static dependency take every array as one
	// location, as the papers' tools do, where it otherwise tells apart the
	// cells blocks index at fixed indices (see eventSets).
	WholeArrays bool
	// AssumeNoOverflow makes the uniformity check U⇒ of cdpor, codpor and
	// codpor-ob take a pair's overflow guard as holding wherever its
	// constraint does, as over mathematical integers (the CAV'18 paper's
	// setting): it then asks only of the constraint's globals that no other
	// process may write them. Counters shared by many processes (Fib, QS,
	// MS, Pi, PS, Reg) need it for the paper's reductions, but a run may miss
	// an overflow: testdata/regress/guard-float.blk. By default U⇒ asks it
	// of the guard's globals too (see guardGlobals), unless
	// Machine.OverflowFree proves that no run of the program overflows:
	// then the runs compute over mathematical integers, where a constraint
	// alone shows its pair commuting, and this rule is taken without the
	// option.
	AssumeNoOverflow bool
	// Workers, above 1, splits the exploration among that many workers
	// (goroutines), for the algorithms whose row says Parallel: see
	// split.go and share.go for what the split keeps and what it changes.
	Workers int
	// cellList, when positive, replaces maxCellList (the tests lower it,
	// so that small arrays stand whole by their interp.WholeLoc).
	cellList int
	// eagerPublish makes the workers of a shared split publish their
	// levels whenever no entry is left, not only when one waits (the
	// tests use it to publish often; see publish).
	eagerPublish bool
	_            struct{}
}

// Stats are the counts of an exploration.
type Stats struct {
	Traces  int // complete traces (no process enabled, or a runtime error)
	Blocked int // sleep-set-blocked traces
	States  int // events executed (the papers' S, root excluded)
	// Covered counts the sequences a don't-do sequence stopped (odpor-cs,
	// odpor-cs-ob): every process enabled there asleep, some of them
	// because running it ends where an explored run does.
	Covered int
	// Longest is the number of events of the longest explored sequence
	// (the ISSTA'19 paper's MS, the states stored, is Longest+1);
	// MaxDnD the largest sum of the don't-do set sizes along a sequence
	// (its MD): what the context-sensitive algorithms keep.
	Longest int
	MaxDnD  int
	Elapsed time.Duration
	// Estimate is, in the Stats passed to Options.Progress, an estimate
	// of the fraction of the exploration done, in [0, 1]: see estimate.go
	// for how it is made and why it may go down. Zero in a Result.
	Estimate float64
}

// Finding is a violation or runtime error, by site: a failed assert or a
// broken invariant at one position, or a runtime error of one kind at one
// position, whatever its operand values. Violation or Error is the first
// occurrence found, and Schedule reaches it (icgen run --replay).
type Finding struct {
	Violation *interp.Violation
	Error     *interp.RuntimeError
	Schedule  interp.Schedule
	Count     int // the explored events that raised it, in every trace
}

// Result is the outcome of an exploration.
type Result struct {
	Stats
	// Finals are the distinct final states modulo process naming, in
	// discovery order, as long as they fit in MaxFinalBytes; FinalCount
	// counts them all (those not kept by their hash only).
	Finals     []*interp.State
	FinalCount int
	Findings   []Finding // violations and runtime errors by site, in discovery order
	Dep        DepMode   // the dependency used
	Cut        bool      // a bound stopped the exploration: it is not exhaustive
	// CutBy names what stopped it: "max traces", "max states", "a
	// sequence reached N events", "timeout" (Options.Timeout or the
	// context's deadline), "canceled" (the context) or "violation"
	// (Options.StopOnViolation).
	CutBy string
	// Split, with Options.Workers above 1, says how the exploration was
	// split among the workers.
	Split *Split
}

// MaxFinalBytes bounds the memory the final states kept in Result.Finals
// take, each counted for its processes and the pages of its store written
// since the initial state (see State.size); the final states found past it
// are told apart by their hash and counted in Result.FinalCount, not kept.
const MaxFinalBytes = 256 << 20

// maxSnapBytes bounds the memory of the state snapshots csdpor and cdpor
// keep along the sequence (see detour); past it, a race's state is reached
// by undoing and replaying instead.
const maxSnapBytes = 256 << 20

// DefaultMaxDepth bounds the events of one explored sequence when
// Options.MaxDepth is 0: a program whose executions do not end (a process
// that spawns copies of itself forever) is cut there, with some hundreds of
// MiB in use, rather than using up the memory and the stack. icgen run
// bounds one run there by default too.
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
	return r.AgreesOnFindings(o)
}

// AgreesOnFindings reports whether two explorations found the same
// violations and runtime errors (by site); when not, it says how they
// differ. An algorithm with observers promises this much (and Agrees with
// Options.ObserveFinal).
func (r *Result) AgreesOnFindings(o *Result) (bool, string) {
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
	pid    interp.PID
	block  *lang.Block
	reads  []interp.Loc
	writes []interp.Loc
	spawn  []interp.PID // ids of the processes it created
	mark   int
	clock  vclock // per process index, the number of its events that happen-before (or are) this one
	seq    int32  // position of this event among its process's events (1-based)
	err    *interp.RuntimeError
	// pre holds its process's locals before it ran (with constraints:
	// raceCheck.needsOrigins).
	pre []int64
	// virtual marks the pending event of a process blocked at the end of a
	// trace: never executed, so its races only update back sets.
	virtual bool
	// blocked marks the virtual event of a process blocked at an await
	// (see blockedRaces and scan).
	blocked bool
	// races are the positions of the events in a race with this one (the
	// optimal loop reverses them once the sequence is maximal).
	races []int
	// observed are the locations this event wrote that a later event of
	// the maximal sequence reads from it (with observers; see observe).
	// wrote are the locations it really wrote, when its sets are the
	// static ones (with observers: what overwrites a value in the maximal
	// sequence, see observe; not in a reordered one, see overwrites).
	observed []interp.Loc
	wrote    []interp.Loc
	readFrom []observation // the writes it observes (with observers)
	id       uint64        // unique in the exploration
	// dropped: a race of an earlier event with this one was found
	// uniformly independent (codpor, codpor-ob), and that event is not
	// among its predecessors (see coverCS).
	dropped bool
	handled []uint64   // the races with this second event reversed (with observers: see raceFingerprint)
	judged  []judgment // codpor-ob's verdicts on its races (see uniformRace)
	// sets are the read and write sets the event has wherever it runs,
	// where its own are fewer: a blocked process's virtual event, whose
	// reads are only its guard's, and a compare-and-swap that failed (see
	// restrictWrites and staticEvent).
	sets *[2][]interp.Loc
}

// enChange records that a process became enabled (on) or not at a level.
type enChange struct {
	level int
	on    bool
}

type explorer struct {
	m          *interp.Machine
	opts       Options
	st         *interp.State
	seq        []*event
	levels     []*level
	res        *Result
	finals     map[uint64][]*interp.State
	finalBytes int
	sites      map[siteKey]int // index in res.Findings
	start      time.Time
	ctx        context.Context // Explore's
	done       <-chan struct{} // ctx.Done()
	stopped    bool
	scratch    interp.Event
	loop       loop               // its loop
	finder     raceFinder         // how the optimal loop finds races
	raced      int                // the events before it had their races reversed (see detectRaces)
	observing  bool               // dependent uses observers (see dependentObserved)
	check      raceCheck          // what the algorithm does with a race besides reversing it (noCheck: nothing)
	ics        *icIndex           // the IC file, when the check uses one
	born       map[interp.PID]int // per process id, the position of the event that created it (with ics)
	spare      []*event           // the sequence of detours that need no prefix
	want       *interp.State      // scratch of sameRuns
	freeSnaps  []freeSnap         // dropped snapshots, whose memory the next ones reuse (see dropSnap)
	freeBytes  int                // their sizes
	// detouring is set while a detour runs on a level's snapshot.
	detouring bool
	// The processes enabled at the current end of the sequence, ordered by
	// id, and for each process (by index) the levels of the sequence where
	// it became enabled or not: enabledAt answers for any level from them,
	// and an event changes them only for the processes it affected.
	enabled  pidSet
	enHist   [][]enChange
	affected []int // scratch of enter
	// looks are the virtual events of blocked processes the optimal loop
	// keeps while the sequence holds their level (see reverseLooks).
	looks     []*look
	blocked   []int // scratch of blockedRaces
	touched   []int // scratch of blockedRaces
	snapBytes int
	static    map[*lang.Block][3][]interp.Loc // blockSets, by block
	guards    map[*lang.Block][]interp.Loc    // guardLocs, by block
	cellEval  *interp.IndexEval               // evaluates fixed indices (see eventSets)
	cellKey   []interp.Loc                    // scratch of eventSets
	cellCache map[uint64][]cellSets           // eventSets' sets, by block and cells
	cells     []bool                          // the arrays whose cells the dependency tells apart, by lang.Var.Index (nil: none)
	// localCache holds localSets' sets, by a hash of block and locals.
	localCache map[uint64][]localSetsEntry
	maxDepth   int
	onLevel    func(x *explorer, depth int) // see explore
	entries    []int                        // per level, the states when it was entered (see estimate)
	// The bounds on kept final states and snapshots: MaxFinalBytes and
	// maxSnapBytes (tests lower them to exercise what happens past them).
	finalLimit, snapLimit int
	dndSum                int // the don't-do sequences of the levels of the sequence (see noteDnD)
	// blocking: some block of the program has an await guard. codpor and
	// codpor-ob then keep E's order in their reversals (see reverse).
	blocking bool
	events   uint64 // events stepped, for their ids
	// spareEvents and spareLevels are events and levels a loop gave back
	// (recycle) for step and enter to use again.
	spareEvents []*event
	spareLevels []*level
	// worker is the explorer's part of an exploration split among workers
	// (nil: none; see split.go).
	worker *worker
}

func newExplorer(m *interp.Machine, opts Options) *explorer {
	x := &explorer{m: m, opts: opts, res: &Result{Dep: opts.Dep}, finals: map[uint64][]*interp.State{}, sites: map[siteKey]int{}, born: map[interp.PID]int{}, start: time.Now()}
	// The parts of dfs, until assemble gives those of the algorithm.
	x.loop, x.check, x.finder = dfsLoop{}, noCheck{}, plainFinder{}
	x.maxDepth = opts.MaxDepth
	if x.maxDepth <= 0 {
		x.maxDepth = DefaultMaxDepth
	}
	x.finalLimit, x.snapLimit = MaxFinalBytes, maxSnapBytes
	if !opts.WholeArrays {
		// With the locals dependency an event's cells are those its
		// locals decide (see localSets).
		x.cells = splitArrays(m.Prog, opts.Dep)
	}
	x.cellEval = m.IndexEval()
	return x
}

// Explore explores the program's interleavings from its initial state with
// the chosen algorithm. Every algorithm reaches the same final states and
// violations as DFS; they differ in how many traces they execute.
//
// Memory: the explorer keeps the sequence it is exploring (at most
// MaxStates or MaxDepth events, with their levels' source and sleep sets),
// the initial store, the final states (at most MaxFinalBytes of them), one
// finding per site, and state snapshots for csdpor and cdpor (at most 256
// MiB); an event adds memory in proportion to its own work, not to the
// number of processes nor to the store (a copy of a state shares its
// store's pages: see State.Clone).
//
// The exploration stops, its Result cut, when ctx is done ("timeout" past
// its deadline, "canceled" otherwise) or at a bound of opts. Options that
// do not fit the algorithm are an error (Options.Validate).
func Explore(ctx context.Context, m *interp.Machine, opts Options) (*Result, error) {
	return explore(ctx, m, opts, nil)
}

// explore is Explore; onLevel, when set, is called at every level the
// exploration enters (tests check the explorer's incremental state there).
func explore(ctx context.Context, m *interp.Machine, opts Options, onLevel func(x *explorer, depth int)) (*Result, error) {
	if opts.Algo == "" {
		opts.Algo = SDPOR
	}
	for _, g := range m.Prog.Globals {
		if g.Unbounded() {
			return nil, &lang.Error{Pos: g.Pos, Msg: fmt.Sprintf("the unbounded array %s is not supported by exploration (its accesses have no locations to compare)", g.Name)}
		}
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	info, _ := Lookup(opts.Algo)
	if opts.Workers > 1 {
		return info.split()(ctx, m, opts, info)
	}
	x, ended, err := newRun(ctx, m, opts, info, onLevel)
	if err != nil {
		return nil, err
	}
	if ended {
		return x.res, nil
	}
	x.loop.explore(x, 0)
	x.res.Elapsed = time.Since(x.start)
	return x.res, nil
}

// newRun returns an explorer at the root of the program's exploration,
// assembled for opts (valid) from the parts info names. ended: the
// initial state raised a runtime error, recorded with its final state:
// there is nothing to explore.
func newRun(ctx context.Context, m *interp.Machine, opts Options, info Info, onLevel func(x *explorer, depth int)) (x *explorer, ended bool, err error) {
	st, rerr := m.Initial()
	x = newExplorer(m, opts)
	x.ctx, x.done = ctx, ctx.Done()
	x.st, x.onLevel = st, onLevel
	if opts.Progress != nil {
		x.onLevel = recordEntries(onLevel)
	}
	if err := x.assemble(info); err != nil {
		return x, false, err
	}
	for _, v := range st.Violations { // asserts or invariants that failed in init
		v := v
		x.finding(Finding{Violation: &v}, func() interp.Schedule { return interp.Schedule{} })
	}
	if rerr != nil {
		x.finding(Finding{Error: rerr}, func() interp.Schedule { return interp.Schedule{} })
		x.final()
		return x, true, nil
	}
	root := &level{}
	for _, i := range st.EnabledProcs(nil) {
		x.setEnabled(i, true, 0)
	}
	x.levels = []*level{root}
	root.node = x.treeNode(-1, interp.Step{})
	return x, false, nil
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
	var f *level
	if n := len(x.spareLevels); n > 0 {
		f = x.spareLevels[n-1]
		x.spareLevels = x.spareLevels[:n-1]
		*f = level{sleep: sleep, node: -1, depth: d, changed: f.changed[:0]}
	} else {
		f = &level{sleep: sleep, node: -1, depth: d}
	}
	for _, sl := range sleep {
		if sl.byState {
			f.dnd++
		}
	}
	x.noteDnD(f.dnd)
	x.affected = x.st.Affected(ev.proc, spawned, ev.writes, x.affected[:0])
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
	x.dndSum -= f.dnd
	x.levels = x.levels[:d]
}

// recycle gives back an event and the level it led to (nil: none), for
// step and enter to use again. Only a loop that keeps no reference to
// either once it has left them (dfs: no races, sleep sets or wakeup
// trees) recycles them.
func (x *explorer) recycle(ev *event, f *level) {
	x.spareEvents = append(x.spareEvents, ev)
	if f != nil {
		x.spareLevels = append(x.spareLevels, f)
	}
}

func (x *explorer) bounded() bool {
	if x.stopped {
		return true
	}
	o := x.opts
	traces, states := x.res.Traces, x.res.States
	if x.worker != nil {
		traces, states = x.worker.counts(x)
	}
	switch {
	case x.worker != nil && x.worker.past():
		x.stopped = true
	case o.MaxTraces > 0 && traces >= o.MaxTraces:
		x.cut("max traces")
	case o.MaxStates > 0 && states >= o.MaxStates:
		x.cut("max states")
	case len(x.seq) >= x.maxDepth:
		x.cut(fmt.Sprintf("a sequence reached %d events", x.maxDepth))
	default:
		x.outOfTime()
	}
	return x.stopped
}

// outOfTime reports whether the time bound has passed or the context of
// Explore is done, and then cuts the exploration ("timeout" past the
// bound or the context's deadline, "canceled" otherwise). It is checked
// before every explored event and every race (a race of csdpor or cdpor
// can take long on deep sequences); without a bound or a context that can
// end it costs two comparisons.
func (x *explorer) outOfTime() bool {
	why := ""
	if x.opts.Timeout > 0 && time.Since(x.start) > x.opts.Timeout {
		why = "timeout"
	} else {
		select {
		case <-x.done:
			why = "canceled"
			if errors.Is(x.ctx.Err(), context.DeadlineExceeded) {
				why = "timeout"
			}
		default:
			return false
		}
	}
	x.cut(why)
	return true
}

func (x *explorer) cut(why string) {
	x.stopped, x.res.Cut, x.res.CutBy = true, true, why
	if x.worker != nil {
		x.worker.sh.stop(why)
	}
}

// procIndex finds a process by id in the current state.
func (x *explorer) procIndex(pid interp.PID) int { return x.st.Find(pid) }

// step executes the next block of process pid and appends the event;
// record counts it as a state and records its findings (replays do not).
// It also returns the indices of the processes the event spawned (valid
// until the next step). The event's vector clock is computed when its
// races are (see races).
func (x *explorer) step(pid interp.PID, record bool) (*event, []int) {
	i := x.procIndex(pid)
	reads, writes := x.sets(x.st.Procs[i])
	mark := x.st.Mark()
	viol := len(x.st.Violations)
	withICs := x.check.needsOrigins() && !x.detouring
	var pre []int64
	if withICs { // for localsUniform
		pre = slices.Clone(x.st.Procs[i].Locals)
	}
	x.st.StepInto(i, &x.scratch)
	e := &x.scratch
	x.events++
	var ev *event
	if n := len(x.spareEvents); n > 0 {
		ev = x.spareEvents[n-1]
		x.spareEvents = x.spareEvents[:n-1]
		*ev = event{proc: i, pid: pid, block: e.Block, mark: mark, err: e.Err, pre: pre, id: x.events, spawn: ev.spawn[:0]}
	} else {
		ev = &event{proc: i, pid: pid, block: e.Block, mark: mark, err: e.Err, pre: pre, id: x.events}
	}
	ev.reads, ev.writes = reads, writes
	if x.opts.Dep == Locals && e.Err == nil && len(writes) > 0 {
		x.restrictWrites(ev, e.Writes)
	}
	if x.finder.observes() {
		ev.wrote = slices.Clone(e.Writes)
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
	x.res.Longest = max(x.res.Longest, len(x.seq))
	if x.opts.Progress != nil && x.res.States%progressEvery == 0 {
		x.progress()
	}
	for _, v := range x.st.Violations[viol:] {
		v := v
		x.finding(Finding{Violation: &v}, x.schedule)
	}
	return ev, spawned
}

// sets returns the read and write sets of the next event of process p, as
// the dependency sees them: its block's static sets with the cells its
// fixed indices name (see eventSets), or, under the locals dependency,
// what its block can touch with p's locals (see localSets). Either depends
// on the block and p's locals alone, not on the globals. They are shared:
// callers must not change them.
func (x *explorer) sets(p *interp.Process) (reads, writes []interp.Loc) {
	if x.opts.Dep == Locals {
		return x.localSets(p.Point.Block, p.Locals)
	}
	return x.eventSets(p.Point.Block, p.Locals)
}

// restrictWrites drops from the write set of ev, an event of the sequence
// that raised no runtime error, the one location its block reads where it
// did not write it: a compare-and-swap that failed only reads. The sets ev
// has wherever it runs stay in ev.sets (see staticEvent).
//
// It applies only to an event whose sets read one location L, which they
// may write: all it does (what it writes, whether it fails) is decided by
// its process's locals and the value of L, so an event that changes what
// it does writes L, and is dependent on every event that touches L. The
// order of the events that touch L is then the same in every trace of a
// class, and changes only where the exploration reverses a race on L; an
// event moved before a write it read is the reversed event of a race, and
// every event of a reversal takes the sets it has wherever it runs. Where
// the event reads more, whether it writes L can be decided by a location
// whose writers are independent of the events that touch L, and the races
// of L's order in one trace are not those of another
// (dporrt/testdata/regress/sdpor-dynamic.blk: p0's write lands on the cell
// p3 writes only before p2 sets g1).
func (x *explorer) restrictWrites(ev *event, wrote []interp.Loc) {
	if !compareAndSwap(ev.reads, ev.writes) {
		return
	}
	l := ev.reads[0]
	at, _ := slices.BinarySearch(ev.writes, l)
	if slices.ContainsFunc(wrote, func(c interp.Loc) bool { return x.key(c) == l }) {
		return
	}
	ev.sets = &[2][]interp.Loc{ev.reads, ev.writes}
	ev.writes = slices.Delete(slices.Clone(ev.writes), at, at+1)
}

// compareAndSwap reports whether sets that read reads and write writes are
// those of a compare-and-swap: they read one location, which they may
// write (see restrictWrites).
func compareAndSwap(reads, writes []interp.Loc) bool {
	if len(reads) != 1 || reads[0] < 0 {
		return false
	}
	_, ok := slices.BinarySearch(writes, reads[0])
	return ok
}

// staticSets returns the global locations a block may read and write, as
// the static dependency sees them whatever the block's locals: one
// location per scalar, every cell of an array whose cells are told apart
// (see trackCells), the first location of any other array, which
// intersect exactly when the globals do. They are computed once per block
// and shared: callers must not change them. An event's own sets may name
// fewer cells (see eventSets).
func (x *explorer) staticSets(b *lang.Block) (reads, writes []interp.Loc) {
	s := x.blockSets(b)
	return s[0], s[1]
}

// mustWrites returns the locations of the scalar globals block b writes in
// every run that raises no runtime error (lang.Block.MustWrite), sorted.
func (x *explorer) mustWrites(b *lang.Block) []interp.Loc { return x.blockSets(b)[2] }

// blockSets computes, once per block, its static reads, writes and must
// writes (see staticSets and mustWrites).
func (x *explorer) blockSets(b *lang.Block) [3][]interp.Loc {
	if s, ok := x.static[b]; ok {
		return s
	}
	if x.static == nil {
		x.static = map[*lang.Block][3][]interp.Loc{}
	}
	s := [3][]interp.Loc{x.staticLocs(b.Reads), x.staticLocs(b.Writes), x.staticLocs(b.MustWrite)}
	x.static[b] = s
	return s
}

func (x *explorer) schedule() interp.Schedule {
	s := make(interp.Schedule, len(x.seq))
	for i, ev := range x.seq {
		s[i] = x.stepOf(ev)
	}
	return s
}

// stepOf is the step of an event of the sequence.
func (x *explorer) stepOf(ev *event) interp.Step {
	p := x.st.Procs[ev.proc]
	return interp.Step{PID: p.ID, Name: p.Name(), Block: ev.block.ID}
}

// finding records a violation or runtime error: a new finding with the
// schedule sched gives, or one more occurrence of the finding at its site.
func (x *explorer) finding(f Finding, sched func() interp.Schedule) {
	key := findingKey(f)
	if k, ok := x.sites[key]; ok {
		x.res.Findings[k].Count++
		return
	}
	f.Schedule, f.Count = sched(), 1
	x.sites[key] = len(x.res.Findings)
	x.res.Findings = append(x.res.Findings, f)
	if x.worker != nil {
		x.worker.findKey = append(x.worker.findKey, x.worker.key())
	}
	switch {
	case x.opts.StopOnViolation && x.worker != nil && x.worker.tree == nil:
		// The other workers go on with what lies before it.
		x.worker.sh.stopAt(x.worker.key())
		x.stopped, x.res.Cut, x.res.CutBy = true, true, "violation"
	case x.opts.StopOnViolation:
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
	if size := x.st.Size(); x.finalBytes+size <= x.finalLimit {
		c := x.st.Clone()
		x.finalBytes += size
		x.finals[h] = append(kept, c)
		x.res.Finals = append(x.res.Finals, c)
		if x.worker != nil {
			x.worker.finalKey = append(x.worker.finalKey, x.worker.key())
		}
	} else {
		x.finals[h] = append(kept, nil)
	}
}

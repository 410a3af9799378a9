package dporrt

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/icgen/icgen/interp"
)

// This file splits an exploration among workers (Options.Workers), for
// the algorithms whose row says FixedSplit: dfs.
//
// The levels above a split depth D form the upper tree. Every worker
// explores it whole, the same way, so every worker meets the same
// sequences at depth D, in the same order: the tasks, numbered as met. A
// worker explores a task's subtree when it claims it first, and passes
// over it otherwise; an idle worker goes on to the next task, so the
// workers stay busy until the last tasks. A task met as a different
// sequence by two workers would break that, and is an error. D is the
// shallowest depth with tasksPerWorker tasks per worker: enough that the
// last tasks to finish are small next to the whole, while the upper tree
// every worker explores stays small.
//
// Counts: every worker counts the upper tree; the result takes it once
// (from worker 0) and adds each worker's tasks. Findings keep the first
// occurrence in the order one worker meets them, and so do the final
// states: the result is the one-worker result, in every count, schedule
// and order.
//
// Bounds: MaxTraces and MaxStates are checked against the finished tasks
// and the worker's own task under way. StopOnViolation stops each worker
// at the first finding it meets, and the others at the place of the
// least such finding in the order one worker explores: before it they go
// on, so the findings are those one worker reports, with their schedules
// and counts; the other counts and the final states are those of a cut
// run.
//
// The DPOR loops do not split this way, because their upper levels
// depend on what is explored below them: the races found in a subtree add
// to the back sets of the levels above. The source loop shares those
// levels instead (share.go).

// Split describes how an exploration was split (Options.Workers): the
// split depth, the tasks met there, and what each worker explored below
// it (the upper tree, which every worker explores, is not counted there).
// With Shared (share.go), the levels above the depth are shared, the tasks
// are the entries of their back sets, and each worker's counts are all the
// states and traces it counted, the upper levels' included.
type Split struct {
	Depth   int
	Tasks   int
	Shared  bool
	Workers []WorkerStats
}

// WorkerStats are the tasks one worker claimed and the complete traces and
// states of their subtrees.
type WorkerStats struct {
	Tasks, Traces, States int
}

// maxSplitDepth bounds the split depth searched for.
const maxSplitDepth = 64

// tasksPerWorker is how many tasks per worker the split depth aims at:
// enough that the last ones to finish are small next to the whole.
const tasksPerWorker = 128

// worker is a worker's part of a split exploration.
type worker struct {
	depth  int // D
	sh     *splitShared
	index  int
	inside bool // exploring the subtree of a task it claimed
	tasks  int  // the tasks met so far: the next one's number
	cur    int  // the task explored (while inside)
	before Stats
	// own counts the worker's tasks: how many, their Traces, Blocked,
	// States and Covered, and, per finding (by index in res.Findings),
	// its occurrences.
	claimed int
	own     Stats
	ownFind []int
	// findKey and finalKey are, per finding and per kept final state,
	// where the worker first met it (see key).
	findKey  []int
	finalKey []int
	// tree is the upper tree the workers share (nil: the split is on a
	// fixed upper tree; see share.go); looked and sinceLook say when the
	// worker last looked for levels to publish (see publishes).
	tree      *sharedTree
	looked    int64
	sinceLook int
}

// key orders the places of the exploration as one worker meets them: the
// upper tree before task t is 2t, task t itself 2t+1.
func (s *worker) key() int {
	if s.inside {
		return 2*s.cur + 1
	}
	return 2 * s.tasks
}

// splitShared is what the workers of one exploration share.
type splitShared struct {
	mu       sync.Mutex
	prefixes []string // per task, its sequence of processes
	claimed  []bool
	claims   bool // false: the tasks are counted, none explored (splitDepth)
	err      error
	cancel   context.CancelFunc
	cutBy    string
	// traces and states count the finished tasks, for the bounds.
	traces, states atomic.Int64
	// violation is the least key (see worker.key) of a finding that stops
	// the exploration (Options.StopOnViolation): no worker explores past
	// it, as one worker would not.
	violation atomic.Int64
	// progress reports the workers' latest counts together.
	progress func(Stats)
	latest   []Stats
}

// newShared returns the shared state of workers that take no claims yet.
func newShared() *splitShared {
	sh := &splitShared{}
	sh.violation.Store(math.MaxInt64)
	return sh
}

// claim claims task t, met with the sequence prefix, for a worker: false
// when another worker has it (or the shared state takes no claims).
func (sh *splitShared) claim(t int, prefix string) bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if t < len(sh.prefixes) {
		if sh.prefixes[t] != prefix && sh.err == nil {
			sh.err = fmt.Errorf("the workers met different sequences as task %d (%s and %s): the upper tree depended on what was explored below it", t, sh.prefixes[t], prefix)
			sh.stopLocked("inconsistent split")
		}
		if sh.claimed[t] || !sh.claims {
			return false
		}
		sh.claimed[t] = true
		return true
	}
	sh.prefixes = append(sh.prefixes, prefix)
	sh.claimed = append(sh.claimed, sh.claims)
	return sh.claims
}

// stop ends every worker's exploration, keeping the first reason.
func (sh *splitShared) stop(why string) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.stopLocked(why)
}

func (sh *splitShared) stopLocked(why string) {
	if sh.cutBy == "" {
		sh.cutBy = why
	}
	if sh.cancel != nil {
		sh.cancel()
	}
}

// stopAt records a finding at key k that stops the exploration: the workers
// end what lies past the least such key, and go on before it.
func (sh *splitShared) stopAt(k int) {
	for {
		old := sh.violation.Load()
		if int64(k) >= old || sh.violation.CompareAndSwap(old, int64(k)) {
			break
		}
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.cutBy == "" {
		sh.cutBy = "violation"
	}
}

// past reports whether the worker is past a finding that stops the
// exploration.
func (s *worker) past() bool {
	return int64(s.key()) > s.sh.violation.Load()
}

// report passes on the counts of worker w, summed with the others' last.
func (sh *splitShared) report(w int, s Stats) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.latest[w] = s
	var sum Stats
	sum.Estimate = 1
	for _, l := range sh.latest {
		sum.Traces += l.Traces
		sum.Blocked += l.Blocked
		sum.States += l.States
		sum.Covered += l.Covered
		sum.Longest = max(sum.Longest, l.Longest)
		sum.MaxDnD = max(sum.MaxDnD, l.MaxDnD)
		sum.Elapsed = max(sum.Elapsed, l.Elapsed)
		sum.Estimate = min(sum.Estimate, l.Estimate)
	}
	sh.progress(sum)
}

// splitTask handles the level depth of a split exploration: at the split
// depth (outside a task) it explores the task there if the worker claims
// it, and reports true: the loop's call is done. Elsewhere it reports
// false.
func (x *explorer) splitTask(depth int) bool {
	s := x.worker
	if s == nil || depth != s.depth || s.inside {
		return false
	}
	t := s.tasks
	s.tasks++
	if !s.sh.claim(t, x.prefix()) || int64(2*t+1) > s.sh.violation.Load() {
		return true
	}
	s.inside, s.cur, s.before = true, t, x.res.Stats
	s.claimed++
	counts := make([]int, len(x.res.Findings))
	for k, f := range x.res.Findings {
		counts[k] = f.Count
	}
	x.loop.explore(x, depth)
	s.inside = false
	d := x.res.Stats
	addCounts(&d, s.before, -1)
	addCounts(&s.own, d, 1)
	s.sh.traces.Add(int64(d.Traces))
	s.sh.states.Add(int64(d.States))
	for len(s.ownFind) < len(x.res.Findings) {
		s.ownFind = append(s.ownFind, 0)
	}
	for k, f := range x.res.Findings {
		prev := 0
		if k < len(counts) {
			prev = counts[k]
		}
		s.ownFind[k] += f.Count - prev
	}
	return true
}

// counts returns the complete traces and the states the bounds compare:
// those of the finished tasks of every worker and of the worker's task
// under way.
func (s *worker) counts(x *explorer) (traces, states int) {
	traces, states = int(s.sh.traces.Load()), int(s.sh.states.Load())
	if s.inside {
		traces += x.res.Traces - s.before.Traces
		states += x.res.States - s.before.States
	}
	return traces, states
}

// prefix names the current sequence by its processes.
func (x *explorer) prefix() string {
	var b strings.Builder
	for i, ev := range x.seq {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ev.pid.String())
	}
	return b.String()
}

// exploreSplit is Explore on opts.Workers workers, each assembled from the
// parts info names.
func exploreSplit(ctx context.Context, m *interp.Machine, opts Options, info Info) (*Result, error) {
	start := time.Now()
	n := opts.Workers
	one := opts
	one.Workers, one.Progress = 0, nil
	depth, x0, ended, err := splitDepth(ctx, m, one, info, n)
	if err != nil {
		return nil, err
	}
	if ended {
		return x0.res, nil
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sh := newShared()
	sh.claims, sh.cancel, sh.latest = true, cancel, make([]Stats, n)
	if opts.Progress != nil {
		sh.progress = opts.Progress
	}
	ws := make([]*explorer, n)
	for w := range ws {
		wopts := one
		if opts.Progress != nil {
			wopts.Progress = func(s Stats) { sh.report(w, s) }
		}
		x, _, err := newRun(wctx, m, wopts, info, nil)
		if err != nil {
			return nil, err
		}
		x.worker = &worker{depth: depth, sh: sh, index: w}
		for range x.res.Findings { // in the initial state: before all
			x.worker.findKey = append(x.worker.findKey, -1)
		}
		ws[w] = x
	}
	var wg sync.WaitGroup
	for _, x := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.loop.explore(x, 0)
		}()
	}
	wg.Wait()
	if sh.err != nil {
		return nil, sh.err
	}
	res := mergeSplit(ws, opts)
	res.Split = &Split{Depth: depth, Tasks: len(sh.prefixes)}
	for _, x := range ws {
		o := x.worker.own
		res.Split.Workers = append(res.Split.Workers, WorkerStats{Tasks: x.worker.claimed, Traces: o.Traces, States: o.States})
	}
	if res.Cut {
		res.CutBy = sh.cutBy
		for _, x := range ws {
			if res.CutBy == "" {
				res.CutBy = x.res.CutBy // cut before the split: in the initial state
			}
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// splitDepth returns the shallowest depth with at least tasksPerWorker
// tasks per worker (or, short of that, the one with the most), counting
// the tasks of each depth by exploring the upper tree alone. ended: the
// initial state raised a runtime error; x is then that run.
func splitDepth(ctx context.Context, m *interp.Machine, opts Options, info Info, workers int) (depth int, x *explorer, ended bool, err error) {
	best, most := 1, 0
	for d := 1; d <= maxSplitDepth; d++ {
		x, ended, err := newRun(ctx, m, opts, info, nil)
		if err != nil || ended {
			return 0, x, ended, err
		}
		x.worker = &worker{depth: d, sh: newShared()}
		x.loop.explore(x, 0)
		if x.stopped {
			break
		}
		t := x.worker.tasks
		if t > most {
			best, most = d, t
		}
		if t >= tasksPerWorker*workers || t == 0 {
			break
		}
	}
	return best, nil, false, nil
}

// addCounts adds sign times b's traces, blocked traces, states and
// covered stops to a's.
func addCounts(a *Stats, b Stats, sign int) {
	a.Traces += sign * b.Traces
	a.Blocked += sign * b.Blocked
	a.States += sign * b.States
	a.Covered += sign * b.Covered
}

// mergeSplit puts the workers' results together: the upper tree's counts
// once (worker 0's), every worker's tasks, the findings by site with the
// first occurrence one worker would meet, and the distinct final states in
// the order one worker would meet them.
func mergeSplit(ws []*explorer, opts Options) *Result {
	res := &Result{Dep: opts.Dep}
	w0 := ws[0]
	res.Stats = w0.res.Stats
	addCounts(&res.Stats, w0.worker.own, -1)
	for _, x := range ws {
		addCounts(&res.Stats, x.worker.own, 1)
		res.Longest = max(res.Longest, x.res.Longest)
		res.MaxDnD = max(res.MaxDnD, x.res.MaxDnD)
		res.Cut = res.Cut || x.res.Cut
	}
	mergeFindings(res, ws, ws[0].worker.sh.violation.Load())
	mergeFinals(res, ws)
	return res
}

func mergeFindings(res *Result, ws []*explorer, stop int64) {
	// A site's first occurrence is the one with the least key; of one
	// key, the first worker's (every worker meets the upper tree's), and
	// of one worker, the first it met. Its count sums the workers'
	// tasks' and the upper tree's (worker 0's). When a finding stopped
	// the exploration (at key stop), nothing past it counts, and a
	// worker's first finding stopped it: a site's count is the one the
	// worker of its first occurrence had when it stopped.
	type site struct {
		f          Finding
		key, w, at int
		sum        int
	}
	bySite := map[siteKey]*site{}
	var order []*site
	for wi, x := range ws {
		s := x.worker
		for k, f := range x.res.Findings {
			c := f.Count // worker 0's count holds the upper tree's
			if wi > 0 {
				c = 0
				if k < len(s.ownFind) {
					c = s.ownFind[k]
				}
			}
			key := s.findKey[k]
			if int64(key) > stop {
				continue
			}
			st, ok := bySite[findingKey(f)]
			if !ok {
				st = &site{f: f, key: key, w: wi, at: k}
				bySite[findingKey(f)] = st
				order = append(order, st)
			} else if key < st.key {
				st.f, st.key, st.w, st.at = f, key, wi, k
			}
			st.sum += c
		}
	}
	slices.SortFunc(order, func(a, b *site) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.w, b.w), cmp.Compare(a.at, b.at))
	})
	for _, st := range order {
		if stop == math.MaxInt64 {
			st.f.Count = st.sum
		}
		if st.f.Count > 0 {
			res.Findings = append(res.Findings, st.f)
		}
	}
}

func mergeFinals(res *Result, ws []*explorer) {
	type final struct {
		st         *interp.State
		key, w, at int
	}
	var all []final
	for wi, x := range ws {
		for i, st := range x.res.Finals {
			all = append(all, final{st, x.worker.finalKey[i], wi, i})
		}
	}
	slices.SortFunc(all, func(a, b final) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.w, b.w), cmp.Compare(a.at, b.at))
	})
	sts := make([]*interp.State, len(all))
	for i, f := range all {
		sts[i] = f.st
	}
	keepFinals(res, ws, sts)
}

// keepFinals sets res's final states: the distinct ones of the workers'
// kept states, in the order given, while they take at most
// MaxFinalBytes; the others, and those a worker did not keep, are
// counted by hash.
func keepFinals(res *Result, ws []*explorer, ordered []*interp.State) {
	lost := map[uint64]bool{} // hashes of final states not kept
	for _, x := range ws {
		for h, kept := range x.finals {
			if slices.Contains(kept, nil) {
				lost[h] = true
			}
		}
	}
	kept := map[uint64][]*interp.State{}
	bytes := 0
	for _, st := range ordered {
		h := st.Hash()
		if slices.ContainsFunc(kept[h], st.Equal) {
			continue
		}
		if size := st.Size(); bytes+size <= MaxFinalBytes {
			bytes += size
			kept[h] = append(kept[h], st)
			res.Finals = append(res.Finals, st)
		} else {
			lost[h] = true
		}
	}
	res.FinalCount = len(res.Finals)
	for h := range lost {
		if len(kept[h]) == 0 {
			res.FinalCount++
		}
	}
}

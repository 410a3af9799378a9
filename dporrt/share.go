package dporrt

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/icgen/icgen/interp"
)

// This file splits an exploration of the source loop among workers on a
// shared upper tree (the algorithms whose row says SharedSplit: sdpor).
//
// The back set of a level depends on what is explored below it: a race
// found deep in the tree adds a process to the back set of a level near
// the root. So the levels above a depth D are shared: each is a node whose
// back set is one append-only list, which every worker reads and appends
// to. Below D, a worker explores alone, with its own levels, as one worker
// does; races it finds there that reach above D add to the shared lists.
//
// The rules that keep the exploration sound:
//
//   - One order. Every worker explores a node's list in its order, and puts
//     each entry before the one it takes into the sleep set, as one worker
//     does after exploring it. A sleep set stands for the sequences the
//     branches before explore, by the end of the exploration, whoever
//     explores them and whenever: what Source-DPOR needs is that the final
//     lists hold a process to start every reversal, and one order per list;
//     not the order in which the lists grow. Two workers that took q and r
//     in opposite orders would each leave the traces that start with both
//     to the other.
//     A runtime error's "every enabled process" (allEnabled) is appended to
//     the list, in id order, for the same reason.
//   - Claims. Each entry of a list is explored by the worker that claims it
//     first; the others step over it (its event goes into their sleep
//     sets). The sleep set of an entry is the same for every worker: it
//     comes from the lists' orders above it.
//   - Nothing lost. A worker that appends to a list is below that node, and
//     walks the rest of its list when it comes back up; so every entry is
//     claimed. A worker with nothing left waits for an entry nobody has
//     claimed, then replays the path from the root to it (stepping, not
//     counting) and goes on from there, back up to the root.
//   - Published levels. While a worker waits and no entry is left, a worker
//     below D shares its own levels down to one with an entry left to
//     explore (publish): their back sets become lists, what it explored
//     claimed. So a tree that branches below D is shared too.
//
// What is kept: the final states and the findings of one worker, and
// without awaits its complete traces (one per class of traces, as sdpor
// promises). The states, the sleep-set-blocked traces and, with awaits,
// the complete traces may differ: which process a race adds depends on
// what the list holds when it is found, and another worker's branch may
// not have added its processes yet.
//
// Memory: the shared nodes stay until the exploration ends, a few percent
// of the states (the shared levels' entries and the published ones), where
// one worker keeps only the levels of its sequence.
// Every state is counted once, by the worker that claimed the entry it is
// reached by.
//
// The optimal loop does not share this way: a race inserts a sequence into
// the wakeup tree of a level above, under a branch that one worker would
// explore after the current one; shared, that branch may be under way on
// another worker below D, in levels that worker keeps to itself.

// sharedNode is a level of the shared upper tree.
type sharedNode struct {
	parent *sharedNode
	at     int // its entry's index in the parent's list
	depth  int
	// list is the back set, append-only: a reader loads it without the
	// lock; an append copies it under the tree's lock.
	list atomic.Pointer[[]interp.PID]
	// claimed and kids are per entry, under the tree's lock: whether a
	// worker took it, and the node it leads to (once claimed and entered).
	claimed []bool
	kids    []*sharedNode
	open    bool // in sharedTree.open
}

// pids returns the node's list as it is now.
func (n *sharedNode) pids() []interp.PID {
	if p := n.list.Load(); p != nil {
		return *p
	}
	return nil
}

// sharedTree is the upper tree the workers of one exploration share.
type sharedTree struct {
	mu    sync.Mutex
	cond  *sync.Cond
	depth int // D: the levels above it are shared
	root  *sharedNode
	// open holds the nodes that may have unclaimed entries.
	open    []*sharedNode
	workers int
	idle    int
	ended   bool
	// hungry counts the workers waiting for an entry: a worker in a
	// subtree of its own then publishes its levels (see publish); with
	// eager, whenever none is left.
	hungry atomic.Int32
	eager  bool
	// waits counts the times a worker began to wait (see publishes).
	waits atomic.Int64
}

func newSharedTree(depth, workers int) *sharedTree {
	t := &sharedTree{depth: depth, workers: workers, root: &sharedNode{}}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// appendLocked adds pid at the end of n's list; the caller holds the lock.
func (t *sharedTree) appendLocked(n *sharedNode, pid interp.PID) {
	old := n.pids()
	l := make([]interp.PID, len(old)+1)
	copy(l, old)
	l[len(old)] = pid
	n.list.Store(&l)
	n.claimed = append(n.claimed, false)
	n.kids = append(n.kids, nil)
	if !n.open {
		n.open = true
		t.open = append(t.open, n)
	}
	t.cond.Broadcast()
}

// addBack appends pid to the list of the shared level f unless one of
// initials is in it by now (another worker may have added one since the
// caller looked).
func (x *explorer) addBack(f *level, pid interp.PID, initials []*event) {
	t, n := x.worker.tree, f.shared
	t.mu.Lock()
	defer t.mu.Unlock()
	l := n.pids()
	for _, q := range initials {
		if slices.Contains(l, q.pid) {
			return
		}
	}
	t.appendLocked(n, pid)
}

// addEnabled appends to the list of the shared level f, the level the
// exploration is at, every process enabled there that it does not hold, in
// id order (a runtime error's allEnabled).
func (x *explorer) addEnabled(f *level) {
	t, n := x.worker.tree, f.shared
	t.mu.Lock()
	defer t.mu.Unlock()
	for e := x.enabled.first(); e != nil; e = e.next[0] {
		if !slices.Contains(n.pids(), e.pid) {
			t.appendLocked(n, e.pid)
		}
	}
}

// claim takes entry c of n for the caller, when nobody has: it returns the
// entry's process, whether the caller has it (mine), and whether n has an
// entry c (ok).
func (t *sharedTree) claim(n *sharedNode, c int) (pid interp.PID, mine, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := n.pids()
	if c >= len(l) {
		return interp.PID{}, false, false
	}
	mine = !n.claimed[c]
	n.claimed[c] = true
	return l[c], mine, true
}

// take waits for an entry nobody has claimed, claims it and returns the
// path to it from the root: per depth, the index of the entry the path
// takes. It returns false when the exploration is over: every worker waits
// and no entry is left, or the exploration is stopped.
func (t *sharedTree) take(stop <-chan struct{}) ([]int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.idle++
	for {
		select {
		case <-stop:
			t.idle--
			return nil, false
		default:
		}
		if t.ended {
			return nil, false
		}
		if n, c := t.unclaimedLocked(); n != nil {
			t.idle--
			n.claimed[c] = true
			path := make([]int, n.depth+1)
			path[n.depth] = c
			for m := n; m.parent != nil; m = m.parent {
				path[m.parent.depth] = m.at
			}
			return path, true
		}
		if t.idle == t.workers {
			t.ended = true
			t.cond.Broadcast()
			return nil, false
		}
		t.hungry.Add(1)
		t.waits.Add(1)
		t.cond.Wait()
		t.hungry.Add(-1)
	}
}

// unclaimedLocked returns the shallowest node with an unclaimed entry
// (the first such entry), dropping from open the nodes that have none.
func (t *sharedTree) unclaimedLocked() (*sharedNode, int) {
	var best *sharedNode
	at := 0
	keep := t.open[:0]
	for _, n := range t.open {
		c := slices.Index(n.claimed, false)
		if c < 0 {
			n.open = false
			continue
		}
		keep = append(keep, n)
		if best == nil || n.depth < best.depth {
			best, at = n, c
		}
	}
	clear(t.open[len(keep):])
	t.open = keep
	return best, at
}

// wake rouses the waiting workers to see that the exploration stopped.
func (t *sharedTree) wake() {
	t.mu.Lock()
	t.cond.Broadcast()
	t.mu.Unlock()
}

// shareWork is one worker's part: it walks the shared tree from the root,
// then takes the unclaimed entries others leave until none is left.
func (x *explorer) shareWork(stop <-chan struct{}) {
	t := x.worker.tree
	var path []int
	for {
		x.levels[0].sleep = x.levels[0].sleep[:0] // each walk from the root starts afresh
		x.sharedLevel(0, path, false)
		if x.stopped {
			t.wake()
			return
		}
		var ok bool
		if path, ok = t.take(stop); !ok {
			return
		}
	}
}

// sharedLevel explores from the shared level depth. path, when not empty,
// is the way to the entry the worker claimed from take: path[0] is the
// entry to take here without a claim (the last is the claimed one). first
// says the worker reached the level by an entry it claimed: it counts the
// level's trace, and gives its list its first process.
func (x *explorer) sharedLevel(depth int, path []int, first bool) {
	f := x.levels[depth]
	n := f.shared
	if x.onLevel != nil {
		x.onLevel(x, depth)
	}
	if first {
		if x.enabled.n == 0 {
			x.res.Traces++
			x.final()
			return
		}
		p, ok := x.awake(f)
		if !ok {
			x.res.Blocked++
			return
		}
		t := x.worker.tree
		t.mu.Lock()
		if len(n.pids()) == 0 {
			t.appendLocked(n, p)
		}
		t.mu.Unlock()
	}
	f.asleep0 = len(f.sleep)
	x.sharedLoop(depth, 0, path)
}

// sharedLoop takes the entries of the shared level depth from entry from
// on (see sharedLevel for path).
func (x *explorer) sharedLoop(depth, from int, path []int) {
	f := x.levels[depth]
	n := f.shared
	for c := from; ; c++ {
		var pid interp.PID
		var mine, ok bool
		switch {
		case len(path) > 0 && path[0] == c:
			l := n.pids()
			pid, mine, ok = l[c], len(path) == 1, true
		default:
			pid, mine, ok = x.worker.tree.claim(n, c)
		}
		if !ok {
			return
		}
		if f.asleep(pid) {
			continue
		}
		if x.bounded() {
			return
		}
		var rest []int
		if len(path) > 0 && path[0] == c {
			rest = path[1:]
		}
		ev := x.sharedEntry(f, c, pid, mine, rest)
		x.st.Undo(ev.mark)
		x.seq = x.seq[:len(x.seq)-1]
		f.sleep = append(f.sleep, sleeper{seq: []*event{ev}})
		if x.stopped {
			return
		}
	}
}

// sharedEntry takes entry c (process pid) of the shared level f: it
// explores below when the worker claimed it (mine) or passes through it
// on its way to a claimed entry (path, not empty); otherwise it only steps
// it, for the sleep sets of the entries after it. It returns the event.
func (x *explorer) sharedEntry(f *level, c int, pid interp.PID, mine bool, path []int) *event {
	ev, spawned := x.step(pid, mine)
	if mine {
		x.worker.claimed++
	}
	if !mine && len(path) == 0 {
		return ev
	}
	if ev.err != nil {
		if mine {
			x.res.Traces++
			x.finding(Finding{Error: ev.err}, x.schedule)
			x.final()
		}
		x.errorRaces(f, len(x.seq)-1)
		return ev
	}
	x.races(len(x.seq) - 1)
	x.blockedRaces(len(x.seq)-1, spawned, x.race)
	child := x.enter(x.childSleep(f, ev), ev, spawned)
	t := x.worker.tree
	t.mu.Lock()
	k := f.shared.kids[c]
	if k == nil && child.depth < t.depth {
		k = &sharedNode{parent: f.shared, at: c, depth: child.depth}
		f.shared.kids[c] = k
	}
	t.mu.Unlock()
	if k != nil { // shared above D, or published (see publish)
		child.shared = k
		x.sharedLevel(child.depth, path, mine)
	} else {
		x.source(child.depth)
	}
	x.leave()
	if mine {
		x.worker.flush(x)
	}
	return ev
}

// publish shares the levels of the worker's own subtree, when another
// worker waits for an entry and none is left: from the first of its own
// levels down to the shallowest one with an entry left to explore, each
// becomes a node of the shared tree whose list is its back set, the
// entries it explored (or that are asleep) claimed by it, the entry it is
// under its own. The loops of those levels go on as shared ones (see
// source). A level whose back set stands for every awake or enabled
// process (allAwake, allEnabled) is not published, nor anything below it.
//
// One worker's levels below D are its own, so a tree that branches below
// D would leave the others idle while one explores it; publishing on
// demand gives them its entries, wherever the branching is.
func (x *explorer) publish() {
	t := x.worker.tree
	x.worker.looked, x.worker.sinceLook = t.waits.Load(), 0
	first := len(x.levels)
	for j, f := range x.levels {
		if f.shared == nil {
			first = j
			break
		}
	}
	last := -1
	for j := first; j < len(x.levels); j++ {
		f := x.levels[j]
		if f.allAwake || f.allEnabled {
			break
		}
		if slices.ContainsFunc(f.back, func(p interp.PID) bool { return !f.done.has(p) && !f.asleep(p) }) {
			last = j
			break
		}
	}
	if last < 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if n, _ := t.unclaimedLocked(); n != nil {
		return // an entry is left for the waiting workers
	}
	for j := first; j <= last; j++ {
		f, up := x.levels[j], x.levels[j-1].shared
		at := slices.Index(up.pids(), x.seq[j-1].pid)
		n := &sharedNode{parent: up, at: at, depth: j}
		l := slices.Clone(f.back)
		n.list.Store(&l)
		n.claimed = make([]bool, len(l))
		n.kids = make([]*sharedNode, len(l))
		f.resume = 0
		for i, p := range l {
			if f.done.has(p) || f.asleep(p) {
				n.claimed[i] = true
			}
			if f.done.has(p) {
				f.resume = i + 1
			}
		}
		up.kids[at] = n
		f.shared = n
		if slices.Contains(n.claimed, false) {
			n.open = true
			t.open = append(t.open, n)
		}
	}
	t.cond.Broadcast()
}

// publishes reports whether worker s should look for levels to publish
// now: while another waits, when one began to wait since its last look or
// every publishEvery loops (its back sets may have grown since).
func (t *sharedTree) publishes(s *worker) bool {
	if t.eager {
		return true
	}
	if t.hungry.Load() == 0 {
		return false
	}
	s.sinceLook++
	return t.waits.Load() != s.looked || s.sinceLook >= publishEvery
}

// publishEvery is how many loops a worker goes, while another waits,
// between two looks for levels to publish when nothing else changed.
const publishEvery = 256

// flush adds the worker's counts since the last flush to the shared ones
// the bounds compare.
func (s *worker) flush(x *explorer) {
	s.sh.traces.Add(int64(x.res.Traces - s.before.Traces))
	s.sh.states.Add(int64(x.res.States - s.before.States))
	s.before = x.res.Stats
}

// shareDepth is D for a program: half the length of its first sequence
// (the one that takes the least process id at every step), at least 1 and
// at most maxSplitDepth. The number of branches of a source-loop tree grows
// with depth: half way down, the benchmarks of 10^5 traces and more have
// hundreds to thousands of entries to claim, and the shared part is small
// (deeper costs more claims and memory: docs/notes); a tree that branches
// below D is shared by publish.
func shareDepth(ctx context.Context, m *interp.Machine, opts Options, info Info) (int, error) {
	x, ended, err := newRun(ctx, m, opts, info, nil)
	if err != nil || ended {
		return 1, err
	}
	for len(x.seq) < min(x.maxDepth, 2*maxSplitDepth) {
		e := x.enabled.first()
		if e == nil {
			break
		}
		ev, spawned := x.step(e.pid, false)
		if ev.err != nil {
			break
		}
		x.enter(nil, ev, spawned)
	}
	return max(1, min(len(x.seq)/2, maxSplitDepth)), nil
}

// exploreShared is Explore on opts.Workers workers that share the upper
// tree of the source loop.
func exploreShared(ctx context.Context, m *interp.Machine, opts Options, info Info) (*Result, error) {
	start := time.Now()
	n := opts.Workers
	one := opts
	one.Workers, one.Progress = 0, nil
	depth, err := shareDepth(ctx, m, one, info)
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sh := newShared()
	sh.cancel, sh.latest = cancel, make([]Stats, n)
	if opts.Progress != nil {
		sh.progress = opts.Progress
	}
	tree := newSharedTree(depth, n)
	tree.eager = opts.eagerPublish
	ws := make([]*explorer, n)
	for w := range ws {
		wopts := one
		if opts.Progress != nil {
			wopts.Progress = func(s Stats) {
				s.Estimate = 0 // a worker's levels say nothing of the others' work
				sh.report(w, s)
			}
		}
		x, ended, err := newRun(wctx, m, wopts, info, nil)
		if err != nil {
			return nil, err
		}
		if ended || x.enabled.n == 0 {
			// Nothing to split: the initial state ends the only trace.
			return explore(ctx, m, one, nil)
		}
		if w > 0 { // the initial state's findings are worker 0's
			x.res.Findings, x.sites = nil, map[siteKey]int{}
		}
		x.worker = &worker{depth: depth, sh: sh, index: w, inside: true, tree: tree}
		x.levels[0].shared = tree.root
		ws[w] = x
	}
	if first, ok := ws[0].awake(ws[0].levels[0]); ok {
		tree.mu.Lock()
		tree.appendLocked(tree.root, first)
		tree.mu.Unlock()
	}
	var wg sync.WaitGroup
	for _, x := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.shareWork(wctx.Done())
		}()
	}
	wg.Wait()
	res := mergeShared(ws, opts)
	res.Split = &Split{Depth: depth, Tasks: tree.entries(), Shared: true}
	for _, x := range ws {
		s := x.res.Stats
		res.Split.Workers = append(res.Split.Workers, WorkerStats{Tasks: x.worker.claimed, Traces: s.Traces, States: s.States})
	}
	if res.Cut && sh.cutBy != "" {
		res.CutBy = sh.cutBy
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// entries counts the entries of the tree's lists.
func (t *sharedTree) entries() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	var count func(n *sharedNode) int
	count = func(n *sharedNode) int {
		c := len(n.pids())
		for _, k := range n.kids {
			if k != nil {
				c += count(k)
			}
		}
		return c
	}
	return count(t.root)
}

// mergeShared puts together the results of workers that shared the upper
// tree: every state was counted once, so the counts add up; a finding's
// occurrences add up, and its schedule is the least (shortest, then first
// in order) any worker met; the final states are the distinct ones, in the
// order of their hashes.
func mergeShared(ws []*explorer, opts Options) *Result {
	res := &Result{Dep: opts.Dep}
	for _, x := range ws {
		addCounts(&res.Stats, x.res.Stats, 1)
		res.Longest = max(res.Longest, x.res.Longest)
		res.MaxDnD = max(res.MaxDnD, x.res.MaxDnD)
		if x.res.Cut {
			res.Cut, res.CutBy = true, x.res.CutBy
		}
	}
	bySite := map[siteKey]int{}
	for _, x := range ws {
		for _, f := range x.res.Findings {
			k := findingKey(f)
			i, ok := bySite[k]
			if !ok {
				bySite[k] = len(res.Findings)
				res.Findings = append(res.Findings, f)
				continue
			}
			g := &res.Findings[i]
			count := g.Count + f.Count
			if compareSchedules(f.Schedule, g.Schedule) < 0 {
				*g = f
			}
			g.Count = count
		}
	}
	slices.SortStableFunc(res.Findings, func(a, b Finding) int { return compareSchedules(a.Schedule, b.Schedule) })
	var all []*interp.State
	for _, x := range ws {
		all = append(all, x.res.Finals...)
	}
	slices.SortStableFunc(all, func(a, b *interp.State) int { return cmp.Compare(a.Hash(), b.Hash()) })
	keepFinals(res, ws, all)
	return res
}

// compareSchedules orders schedules by length, then step by step.
func compareSchedules(a, b interp.Schedule) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	for i := range a {
		if c := cmp.Or(a[i].PID.Compare(b[i].PID), cmp.Compare(a[i].Block, b[i].Block)); c != 0 {
			return c
		}
	}
	return 0
}

package dporrt

import (
	"slices"
	"time"

	"github.com/icgen/icgen/interp"
)

// This file holds the progress reports and their estimate of how much of
// the exploration is done, read off the levels of the sequence being
// explored: Knuth's estimate of the size of a backtrack tree, taken along
// the current path and corrected by the sizes of the subtrees already
// explored.
//
// At each level the explorer knows the branches it has explored and those
// still pending there: for dfs every process enabled at the level, for the
// source loop the back set's processes neither done nor asleep, for the
// optimal loop the first events of the wakeup tree's branches. It also
// knows the work (events) spent under the level so far, from the events
// counted when the level was entered. From the deepest level up, the work
// of a level's subtree is estimated as the work of its explored branches,
// plus the estimate of the current branch (the level below), plus each
// pending branch at the mean size of the explored ones (or of the current
// one when none is explored yet). The part done is the work so far over
// the root's estimate. It is exact when the subtrees of each level have
// equal sizes; with sleep sets the later branches of a level tend to be
// smaller, so it leans to the pessimistic side, and the DPOR algorithms add
// branches to a level as they find races under it, so it can go down as
// well as up: it is an estimate, never a bound.

// progressEvery is the number of explored events between two calls of
// Options.Progress.
const progressEvery = 10_000

// progress calls Options.Progress with the counts so far and the estimate.
func (x *explorer) progress() {
	x.res.Elapsed = time.Since(x.start)
	s := x.res.Stats
	s.Estimate = x.estimate(true)
	x.opts.Progress(s)
}

// recordEntries returns the level hook that records the events counted
// when each level is entered, then calls next (when set).
func recordEntries(next func(x *explorer, depth int)) func(x *explorer, depth int) {
	return func(x *explorer, depth int) {
		x.entries = append(x.entries[:depth], x.res.States)
		if next != nil {
			next(x, depth)
		}
	}
}

// estimate returns the estimated fraction of the exploration done, in
// [0, 1] (see the comment at the top of the file); 0 when the levels'
// entries were not recorded. stepping says whether an event is being
// taken from the last level (a progress report, made as an event is
// stepped, or during a race check's detour) rather than the level just
// entered.
//
// At every level but the last, the branch the sequence follows is already
// in the level's done set (the loops add it before they go deeper); at the
// last it is not while the event that leaves it is being stepped, and is
// during a detour (a race check runs after the step). A leaf has no
// branches and no work under it.
func (x *explorer) estimate(stepping bool) float64 {
	last := len(x.levels) - 1
	if len(x.entries) <= last {
		return 0
	}
	branches := x.loop.branches(x)
	states := x.res.States
	est := 0.0 // the estimated work under the level below
	for k := last; k >= 0; k-- {
		f := x.levels[k]
		explored := f.done.len()
		total := branches(f, k)
		work := float64(states - x.entries[k])
		current := k < last || stepping
		if total == 0 { // a leaf
			est = work
			continue
		}
		before := explored
		if (k < last || x.detouring) && explored > 0 {
			before-- // the current branch is done only when left
		}
		// The current branch: its work and the estimate of it.
		var curWork, curEst float64
		switch {
		case k < last:
			curWork, curEst = float64(states-x.entries[k+1])+1, est+1
		case current:
			curWork, curEst = 1, 1
		}
		done := max(work-curWork, 0)
		mean := max(curEst, 1)
		if before > 0 {
			mean = done / float64(before)
			if k == last && current {
				curEst = max(mean, 1)
			}
		}
		pending := total - before
		if current {
			pending--
		}
		est = done + curEst + float64(max(pending, 0))*mean
	}
	if est <= 0 {
		return 0
	}
	return min(max(float64(states-x.entries[0])/est, 0), 1)
}

// enabledCounts returns, for each level of the sequence, the number of
// processes enabled there, from the enabledness history.
func (x *explorer) enabledCounts() []int {
	n := make([]int, len(x.levels)+1)
	for _, h := range x.enHist {
		for _, c := range h {
			if c.level >= len(n) {
				continue
			}
			if c.on {
				n[c.level]++
			} else {
				n[c.level]--
			}
		}
	}
	for k := 1; k < len(n); k++ {
		n[k] += n[k-1]
	}
	return n
}

// pendingBack counts the processes of level f's back set (at depth k)
// neither explored nor asleep. The processes allAwake or allEnabled stand
// for are enumerated from the enabledness history, except during a detour:
// the state's process indices may then differ from the sequence's.
func (x *explorer) pendingBack(f *level, k int) int {
	left := func(p interp.PID) bool { return !f.done.has(p) && !f.asleep(p) }
	n := 0
	for _, p := range f.back {
		if left(p) {
			n++
		}
	}
	if (!f.allAwake && !f.allEnabled) || x.detouring {
		return n
	}
	for i := range x.enHist {
		if i >= len(x.st.Procs) || !x.enabledAt(i, k) {
			continue
		}
		p := x.st.Procs[i].ID
		if left(p) && !slices.Contains(f.back, p) {
			n++
		}
	}
	return n
}

// pendingWUT counts the branches of level f's wakeup tree not explored,
// but for those the loop will skip (they cost no work under f).
func (x *explorer) pendingWUT(f *level) int {
	if f.wut == nil {
		return 0
	}
	n := 0
	for _, e := range f.wut.firsts() {
		if _, skip := f.skips(e.pid); !skip && !f.done.has(e.pid) {
			n++
		}
	}
	return n
}

// len returns the number of ids in the bag.
func (b *pidBag) len() int {
	if b.m != nil {
		return len(b.m)
	}
	return len(b.list)
}

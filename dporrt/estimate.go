package dporrt

import (
	"slices"
	"time"
)

// This file holds the progress reports and their estimate of how much of
// the exploration is done, read off the levels of the sequence being
// explored (Knuth's estimate of the size of a backtrack tree, taken along
// the current path instead of random probes).
//
// At each level the explorer knows the branches it has explored and those
// still pending there: for dfs every process enabled at the level, for the
// source loop the back set's processes neither done nor asleep, for the
// optimal loop the first events of the wakeup tree's branches. Taking the
// subtrees of a level's branches as equal in size, the part of the tree to
// the left of the current path is the mixed-radix fraction
//
//	b0/n0 + b1/(n0 n1) + b2/(n0 n1 n2) + ...
//
// where n_k is the number of branches at level k and b_k those explored
// before the current one. For dfs the n_k are exact and the fraction only
// grows; its error is the imbalance of the subtrees. The DPOR algorithms
// add branches to a level as they find races under it, so their n_k only
// grow and the fraction can go down as well as up: it is an estimate,
// never a bound.

// progressEvery is the number of explored events between two calls of
// Options.Progress.
const progressEvery = 10_000

// progress calls Options.Progress with the counts so far and the estimate.
func (x *explorer) progress() {
	x.res.Elapsed = time.Since(x.start)
	s := x.res.Stats
	s.Estimate = x.estimate()
	x.opts.Progress(s)
}

// estimate returns the fraction of the exploration tree to the left of the
// current path, in [0, 1] (see the comment at the top of the file).
//
// At every level but the last, the branch the sequence follows is already
// in the level's done set (the loops add it before they go deeper); at the
// last it is not while the event that leaves it is being stepped, and is
// during a detour (a race check runs after the step). A leaf has no
// branches and adds nothing.
func (x *explorer) estimate() float64 {
	var enabled []int
	if x.info.Loop == LoopDFS {
		enabled = x.enabledCounts()
	}
	frac, weight := 0.0, 1.0
	last := len(x.levels) - 1
	for k, f := range x.levels {
		explored := f.done.len()
		var total int
		switch x.info.Loop {
		case LoopDFS:
			total = max(enabled[k], explored)
		case LoopSource:
			total = explored + x.pendingBack(f, k)
		case LoopOptimal:
			total = explored + x.pendingWUT(f)
		}
		if total == 0 {
			continue
		}
		before := explored
		if (k < last || x.detouring) && explored > 0 {
			before-- // the current branch is done only when left
		}
		before = min(before, total-1)
		frac += weight * float64(before) / float64(total)
		weight /= float64(total)
		if weight < 1e-12 {
			break // deeper levels no longer show
		}
	}
	return min(max(frac, 0), 1)
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
	left := func(p PID) bool { return !f.done.has(p) && !f.asleep(p) }
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

// pendingWUT counts the branches of level f's wakeup tree not explored.
func (x *explorer) pendingWUT(f *level) int {
	if f.wut == nil {
		return 0
	}
	n := 0
	for _, e := range f.wut.firsts() {
		if !f.done.has(e.pid) {
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

package dporrt

import "github.com/icgen/icgen/interp"

// loop is an exploration loop (Info.Loop): it explores every sequence it
// must below the current one, from a level on, and tells the estimate
// (estimate.go) how many branches a level has.
type loop interface {
	// explore explores below the sequence, whose last level is depth.
	explore(x *explorer, depth int)
	// branches returns, for the current sequence, the number of branches
	// of its level k (f): those explored and those known to come.
	branches(x *explorer) func(f *level, k int) int
	// coveredAt reports whether process pid is covered at level f (for
	// the execution tree).
	coveredAt(x *explorer, f *level, pid interp.PID) bool
	// keepsLooks reports whether the virtual events of blocked processes
	// are kept while the sequence holds their level, their races reversed
	// once it is maximal (see reverseLooks), rather than at once.
	keepsLooks(x *explorer) bool
}

// loops are the loops by Info.Loop.
var loops = [...]loop{LoopDFS: dfsLoop{}, LoopSource: sourceLoop{}, LoopOptimal: optimalLoop{}}

// dfsLoop explores every interleaving (loop_dfs.go).
type dfsLoop struct{}

func (dfsLoop) explore(x *explorer, depth int)                       { x.dfs(depth) }
func (dfsLoop) coveredAt(x *explorer, f *level, pid interp.PID) bool { return false }
func (dfsLoop) keepsLooks(*explorer) bool                            { return false }

func (dfsLoop) branches(x *explorer) func(f *level, k int) int {
	enabled := x.enabledCounts()
	return func(f *level, k int) int { return max(enabled[k], f.done.len()) }
}

// sourceLoop explores from back sets and sleep sets (loop_source.go).
type sourceLoop struct{}

func (sourceLoop) explore(x *explorer, depth int) { x.source(depth) }
func (sourceLoop) keepsLooks(*explorer) bool      { return false }

func (sourceLoop) coveredAt(x *explorer, f *level, pid interp.PID) bool {
	return x.check.forcesSkipped() && x.coveredOnly(f, pid)
}

func (sourceLoop) branches(x *explorer) func(f *level, k int) int {
	return func(f *level, k int) int { return f.done.len() + x.pendingBack(f, k) }
}

// optimalLoop explores wakeup trees (loop_optimal.go).
type optimalLoop struct{}

func (optimalLoop) explore(x *explorer, depth int) { x.optimal(depth) }

// keepsLooks: with observers the races of a look are reversed at once.
func (optimalLoop) keepsLooks(x *explorer) bool { return !x.finder.observes() }

func (optimalLoop) coveredAt(x *explorer, f *level, pid interp.PID) bool {
	return x.check.covers() && f.covered(pid)
}

func (optimalLoop) branches(x *explorer) func(f *level, k int) int {
	return func(f *level, k int) int { return f.done.len() + x.pendingWUT(f) }
}

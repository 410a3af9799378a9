package dporrt

import "github.com/icgen/icgen/interp"

// dfs explores every interleaving from the current level, depth: every
// enabled process, in id order, at every state. It is the oracle the other
// algorithms are checked against, and is kept that simple: no dependency,
// no races, no sleep sets.
func (x *explorer) dfs(depth int) {
	if x.splitTask(depth) {
		return
	}
	f, complete := x.arrive(depth)
	if complete {
		return
	}
	if f.node >= 0 {
		defer x.treeLeave(f.node, f, x.enabled.pids())
	}
	// The enabled set is restored after each child, its nodes perhaps
	// anew: the next process is looked up by id.
	for n := x.enabled.first(); n != nil; n = x.enabled.after(f.cursor) {
		if x.bounded() {
			x.treeKind(f.node, NodeCut)
			return
		}
		pid := n.pid
		f.cursor = pid
		ev, spawned, node := x.take(f, pid)
		var child *level
		if ev.err != nil {
			x.errorEnd(node, ev)
		} else {
			child = x.enter(nil, ev, spawned)
			child.node = node
			x.dfs(depth + 1)
			x.leave()
		}
		x.st.Undo(ev.mark)
		x.seq = x.seq[:len(x.seq)-1]
		x.recycle(ev, child)
		if x.stopped {
			return
		}
	}
}

// arrive is what every loop does on reaching the level depth: it returns
// the level, and whether no process is enabled there, in which case it has
// counted the complete trace and recorded its final state.
func (x *explorer) arrive(depth int) (*level, bool) {
	f := x.levels[depth]
	if x.onLevel != nil {
		x.onLevel(x, depth)
	}
	if x.enabled.n == 0 {
		x.res.Traces++
		x.final()
		x.treeKind(f.node, NodeComplete)
		return f, true
	}
	return f, false
}

// take runs the next event of process pid from level f, marks pid done
// there and records the event's tree node (-1: none).
func (x *explorer) take(f *level, pid interp.PID) (ev *event, spawned []int, node int) {
	ev, spawned = x.step(pid, true)
	f.done.add(pid)
	node = -1
	if f.node >= 0 {
		node = x.treeNode(f.node, x.stepOf(ev))
	}
	return ev, spawned, node
}

// errorEnd ends a trace at ev's runtime error: a complete trace, its
// finding and its final state.
func (x *explorer) errorEnd(node int, ev *event) {
	x.treeKind(node, NodeError)
	x.res.Traces++
	x.finding(Finding{Error: ev.err}, x.schedule)
	x.final()
}

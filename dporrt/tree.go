package dporrt

import "github.com/icgen/icgen/interp"

// NodeKind says how a node of an exploration [Tree] ends.
type NodeKind int

// The kinds of tree nodes.
const (
	NodeInner    NodeKind = iota // some process was explored from it
	NodeComplete                 // no process enabled: a complete trace ends here
	NodeBlocked                  // every enabled process asleep: a sleep-set-blocked trace
	NodeError                    // the event into it raised a runtime error
	NodeCut                      // a bound stopped the exploration here
	NodeCovered                  // every enabled process asleep or covered by a don't-do sequence, some covered (odpor-cs)
)

func (k NodeKind) String() string {
	return [...]string{"inner", "complete", "blocked", "error", "cut", "covered"}[k]
}

// Tree is the execution tree an exploration walked, as the papers draw it:
// one node per state reached by an explored event (the root is the initial
// state), an edge per event. Each node lists the processes enabled there that
// were not explored from it: asleep (in the sleep set) or pruned (not in the
// source set). Runs made only to compare states or to reach the state of a
// constraint check are not part of it. Recording stops at MaxNodes.
type Tree struct {
	Nodes     []TreeNode
	MaxNodes  int  // nodes to record at most (0: 10000)
	Truncated bool // the exploration went on past MaxNodes
	_         struct{}
}

// TreeNode is a state of the tree.
type TreeNode struct {
	Parent int         // index of the parent node; -1 for the root
	Step   interp.Step // the event from the parent (zero for the root)
	Kind   NodeKind    // how the node ends
	Asleep []string    // processes (proc#id) enabled here but asleep
	// Covered are processes enabled here and not explored because a
	// don't-do sequence covers them (odpor-cs, odpor-cs-ob): their runs
	// end where explored ones do.
	Covered []string
	Pruned  []string // processes enabled, awake and not explored from here
}

// treeNode adds a node under parent and returns its index, or -1 when the
// tree is full (or not recorded, or parent was not recorded).
func (x *explorer) treeNode(parent int, step interp.Step) int {
	t := x.opts.Tree
	if t == nil || (parent < 0 && len(t.Nodes) > 0) {
		return -1
	}
	max := t.MaxNodes
	if max == 0 {
		max = 10000
	}
	if len(t.Nodes) >= max {
		t.Truncated = true
		return -1
	}
	t.Nodes = append(t.Nodes, TreeNode{Parent: parent, Step: step})
	return len(t.Nodes) - 1
}

// treeLeave records what the exploration left unexplored at a node.
func (x *explorer) treeLeave(node int, f *level, enabled []interp.PID) {
	if node < 0 {
		return
	}
	n := &x.opts.Tree.Nodes[node]
	for _, pid := range enabled {
		if f.done.has(pid) {
			continue
		}
		name := pid.String()
		if i := x.procIndex(pid); i >= 0 {
			name = x.st.Procs[i].Name()
		}
		if x.loop.coveredAt(x, f, pid) {
			n.Covered = append(n.Covered, name)
		} else if f.asleep(pid) {
			n.Asleep = append(n.Asleep, name)
		} else {
			n.Pruned = append(n.Pruned, name)
		}
	}
}

// treeKind sets how a recorded node ends.
func (x *explorer) treeKind(node int, k NodeKind) {
	if node >= 0 {
		x.opts.Tree.Nodes[node].Kind = k
	}
}

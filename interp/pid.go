package interp

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// PID is a hierarchical process id: the spawn indices (1-based) from the
// init section down to the process. Init's spawns are 1, 2, ...; the second
// process spawned by 1.3 is 1.3.2. Ids do not depend on the interleaving.
//
// The PIDs of one [Machine] are interned: two of them are == exactly when
// they name the same process, so a PID is a map key, and a child's id is
// made in constant time and space however deep the spawn tree is (ids of
// different machines compare with Compare). The zero PID is the root, the
// parent of init's spawns; it names no process.
type PID struct{ n *pidNode }

// pidNode is the canonical node behind a PID. jump is a skew-binary jump
// pointer (an ancestor whose depth depends only on this node's depth), so
// ancestors and comparisons take O(log depth) steps. kids holds the
// children made so far by spawn index (spawns number them 1, 2, ...), far
// those far past the last one (an id written by hand, say).
type pidNode struct {
	parent, jump *pidNode
	n            int32 // spawn index among the parent's children, 1-based
	depth        int32 // number of components; the root has 0
	serial       int32 // 1, 2, ... in the order the table made them (see State.Find)
	kids         []*pidNode
	far          map[int32]*pidNode
}

// pidTable interns the PIDs of a machine. It is safe for concurrent use:
// states of one machine may run in different goroutines.
type pidTable struct {
	mu    sync.Mutex
	root  pidNode // the parent of init's spawns (its kids only are used)
	count int32   // the nodes made so far
}

// child returns the id of the n-th process (1-based) spawned by p; the
// root's children are init's spawns.
func (t *pidTable) child(p PID, n int32) PID {
	t.mu.Lock()
	defer t.mu.Unlock()
	parent := &t.root
	if p.n != nil {
		parent = p.n
	}
	if int(n) <= len(parent.kids) && parent.kids[n-1] != nil {
		return PID{parent.kids[n-1]}
	}
	if c, ok := parent.far[n]; ok {
		return PID{c}
	}
	t.count++
	c := &pidNode{parent: p.n, n: n, depth: p.depth() + 1, serial: t.count}
	if j := p.n.jumpNode(); p.depth()-j.depthOf() == j.depthOf()-j.jumpNode().depthOf() {
		c.jump = j.jumpNode()
	} else {
		c.jump = p.n
	}
	if int(n) > len(parent.kids)+64 {
		if parent.far == nil {
			parent.far = map[int32]*pidNode{}
		}
		parent.far[n] = c
		return PID{c}
	}
	for len(parent.kids) < int(n) {
		parent.kids = append(parent.kids, nil)
	}
	parent.kids[n-1] = c
	return PID{c}
}

func (n *pidNode) jumpNode() *pidNode {
	if n == nil {
		return nil
	}
	return n.jump
}

func (n *pidNode) depthOf() int32 {
	if n == nil {
		return 0
	}
	return n.depth
}

func (p PID) depth() int32 { return p.n.depthOf() }

// PID returns the machine's id with the given components (none: the root).
func (m *Machine) PID(path ...int32) PID {
	var p PID
	for _, n := range path {
		p = m.pids.child(p, n)
	}
	return p
}

// ParsePID parses an id written as by PID.String, e.g. "1.3.2".
func (m *Machine) ParsePID(s string) (PID, error) {
	var p PID
	for _, f := range strings.Split(s, ".") {
		n, err := strconv.ParseInt(f, 10, 32)
		if err != nil || n < 1 {
			return PID{}, fmt.Errorf("%q is not a process id (like 1.2.1)", s)
		}
		p = m.pids.child(p, int32(n))
	}
	return p, nil
}

// Parent returns the id of the process that spawned p (the root for init's
// spawns and for the root).
func (p PID) Parent() PID {
	if p.n == nil {
		return p
	}
	return PID{p.n.parent}
}

// Depth returns the number of components of p (0 for the root).
func (p PID) Depth() int { return int(p.depth()) }

// Last returns p's spawn index among its parent's children (0 for the root).
func (p PID) Last() int32 {
	if p.n == nil {
		return 0
	}
	return p.n.n
}

// Path returns the components of p, from init's spawn down.
func (p PID) Path() []int32 {
	out := make([]int32, p.depth())
	n := p.n
	for i := len(out) - 1; i >= 0; i-- {
		out[i], n = n.n, n.parent
	}
	return out
}

func (p PID) String() string {
	var b strings.Builder
	for i, n := range p.Path() {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.Itoa(int(n)))
	}
	return b.String()
}

// ancestor returns n's ancestor at depth d (d <= n's depth).
func ancestor(n *pidNode, d int32) *pidNode {
	for n.depthOf() > d {
		if n.jump.depthOf() >= d {
			n = n.jump
		} else {
			n = n.parent
		}
	}
	return n
}

// Compare orders ids lexicographically by their components (a parent before
// its children, children by spawn index), in O(log depth) steps for ids of
// one machine.
func (p PID) Compare(q PID) int {
	a, b := p.n, q.n
	if a == b {
		return 0
	}
	da, db := a.depthOf(), b.depthOf()
	switch {
	case da > db:
		if a = ancestor(a, db); a == b {
			return +1 // q is a prefix of p
		}
	case db > da:
		if b = ancestor(b, da); a == b {
			return -1
		}
	}
	// Same depth, different nodes: climb to the children of the common
	// ancestor. Nodes at the same depth have jump pointers to the same
	// depth, so both climb alike. Ids of different machines share no
	// node: their roots' children are compared then.
	for a.parent != b.parent {
		if a.jump != b.jump && a.jump != nil && b.jump != nil {
			a, b = a.jump, b.jump
		} else {
			a, b = a.parent, b.parent
		}
	}
	if c := cmp.Compare(a.n, b.n); c != 0 || a == b {
		return c
	}
	return slices.Compare(p.Path(), q.Path()) // ids of different machines
}

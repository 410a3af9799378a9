package dporrt

import "github.com/icgen/icgen/interp"
import "slices"

// pidSet is a set of processes ordered by id (PID.Compare), with their
// indices in the state: a skip list, so adding and removing a process takes
// O(log n) comparisons and the smallest ids come first. The explorer keeps
// the enabled processes in one.
type pidSet struct {
	head psNode
	n    int
	rng  uint64
	free [psMaxLevel + 1][]*psNode // removed nodes, by level, for reuse
}

type psNode struct {
	pid  interp.PID
	proc int
	next []*psNode
}

const psMaxLevel = 32

// pidBag is a set of ids: a slice while small (most levels explore one or
// two processes), a map past that.
type pidBag struct {
	list []interp.PID
	m    map[interp.PID]bool
}

func (b *pidBag) has(p interp.PID) bool {
	if b.m != nil {
		return b.m[p]
	}
	return slices.Contains(b.list, p)
}

func (b *pidBag) add(p interp.PID) {
	switch {
	case b.m != nil:
		b.m[p] = true
	case len(b.list) < 16:
		if !slices.Contains(b.list, p) {
			b.list = append(b.list, p)
		}
	default:
		b.m = map[interp.PID]bool{p: true}
		for _, q := range b.list {
			b.m[q] = true
		}
		b.list = nil
	}
}

// first returns the node of the smallest id, nil when the set is empty;
// node.next[0] is the next one.
func (s *pidSet) first() *psNode {
	if len(s.head.next) == 0 {
		return nil
	}
	return s.head.next[0]
}

// after returns the node of the smallest id greater than pid, nil when
// there is none.
func (s *pidSet) after(pid interp.PID) *psNode {
	if len(s.head.next) == 0 {
		return nil
	}
	var prev [psMaxLevel]*psNode
	s.find(pid, &prev)
	n := prev[0].next[0]
	if n != nil && n.pid == pid {
		n = n.next[0]
	}
	return n
}

// pids returns the ids in order.
func (s *pidSet) pids() []interp.PID {
	out := make([]interp.PID, 0, s.n)
	for n := s.first(); n != nil; n = n.next[0] {
		out = append(out, n.pid)
	}
	return out
}

// find fills prev with, at each level, the last node before pid.
func (s *pidSet) find(pid interp.PID, prev *[psMaxLevel]*psNode) {
	x := &s.head
	for l := len(s.head.next) - 1; l >= 0; l-- {
		for x.next[l] != nil && x.next[l].pid.Compare(pid) < 0 {
			x = x.next[l]
		}
		prev[l] = x
	}
}

// insert adds pid (process proc); it does nothing if pid is there.
func (s *pidSet) insert(pid interp.PID, proc int) {
	var prev [psMaxLevel]*psNode
	s.find(pid, &prev)
	if len(s.head.next) > 0 {
		if nx := prev[0].next[0]; nx != nil && nx.pid == pid {
			return
		}
	}
	// A random level, 1 with probability 1/2, 2 with 1/4, ...
	s.rng = s.rng*6364136223846793005 + 1442695040888963407
	lv := 1
	for r := s.rng >> 33; r&1 == 1 && lv < psMaxLevel; r >>= 1 {
		lv++
	}
	for len(s.head.next) < lv {
		prev[len(s.head.next)] = &s.head
		s.head.next = append(s.head.next, nil)
	}
	var n *psNode
	if f := s.free[lv]; len(f) > 0 {
		n, s.free[lv] = f[len(f)-1], f[:len(f)-1]
		n.pid, n.proc = pid, proc
	} else {
		n = &psNode{pid: pid, proc: proc, next: make([]*psNode, lv)}
	}
	for l := range lv {
		n.next[l] = prev[l].next[l]
		prev[l].next[l] = n
	}
	s.n++
}

// remove removes pid; it does nothing if pid is not there.
func (s *pidSet) remove(pid interp.PID) {
	var prev [psMaxLevel]*psNode
	s.find(pid, &prev)
	if len(s.head.next) == 0 {
		return
	}
	n := prev[0].next[0]
	if n == nil || n.pid != pid {
		return
	}
	for l := range n.next {
		prev[l].next[l] = n.next[l]
		n.next[l] = nil
	}
	s.free[len(n.next)] = append(s.free[len(n.next)], n)
	s.n--
}

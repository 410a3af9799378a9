package dporrt

import "slices"

// This file holds the wakeup tree of Optimal DPOR (Abdulla, Aronis,
// Jonsson, Sagonas, POPL'14 / JACM'17; ISSTA'19 Sec. 2.1): an ordered tree
// of sequences of events still to explore from a prefix E, built so that no
// two of its branches are equivalent. It is a pure data structure over any
// event type: the explorer says what an event's process is and when two
// events are dependent.

// wakeupTree is an ordered tree of event sequences (the root stands for the
// empty sequence). Children are ordered by insertion: the leftmost is
// explored first.
type wakeupTree[E any, K comparable] struct {
	root wuNode[E]
	proc func(E) K         // an event's process
	dep  func(a, b E) bool // the dependency the tree respects (symmetric)
	// wi, when set, decides weak initials in place of dep: for a
	// dependency that depends on the sequence (observers).
	wi func(ev E, v []E) (at int, ok bool)
	// keep makes each node remember the sequences it took in (wuNode.took),
	// for the trees of the algorithms with don't-do sets (see skippable).
	keep bool
	// extend makes a leaf that an inserted sequence reaches with events
	// left take those events as a branch below it, where a plain tree
	// lets the leaf cover the sequence (see insert).
	extend bool
	// ghost, when set, tells an event that stands for no step (the look
	// of a blocked process at its guard): last in an inserted sequence,
	// it takes part in the weak initials but is not stored, and the node
	// of the event before it is open (see wuNode.open).
	ghost func(E) bool
}

type wuNode[E any] struct {
	ev       E
	children []*wuNode[E]
	// took: with keep, the sequences the insertions that went through this
	// node (other than the one that made it) brought to it, as they stood
	// at its parent: each to run from where the parent is.
	took [][]E
	// open: a sequence that ended with a ghost ended here, so as a leaf
	// the node does not cover a longer sequence inserted through it (the
	// rest becomes its branch, as with extend). Covering, the leaf would
	// take in reversals that the look the ghost stands for is to come
	// before, and leave them to race detection below it, where a process
	// asleep there can make them redundant (see
	// dporrt/testdata/regress/poll-leaf.blk).
	open bool
}

func newWakeupTree[E any, K comparable](proc func(E) K, dep func(a, b E) bool) *wakeupTree[E, K] {
	return &wakeupTree[E, K]{proc: proc, dep: dep}
}

// empty reports whether the tree holds no sequence.
func (t *wakeupTree[E, K]) empty() bool { return len(t.root.children) == 0 }

// leftmost returns the first event of the leftmost branch; ok is false
// when the tree is empty.
func (t *wakeupTree[E, K]) leftmost() (ev E, ok bool) {
	if t.empty() {
		return ev, false
	}
	return t.root.children[0].ev, true
}

// firsts returns the first events of the branches, in order.
func (t *wakeupTree[E, K]) firsts() []E {
	out := make([]E, len(t.root.children))
	for i, c := range t.root.children {
		out[i] = c.ev
	}
	return out
}

// subtree returns the tree of the sequences w such that p.w is in t, p
// being the process of the first event of a branch (ISSTA'19
// subtree(wut, p)); empty when no branch starts with p.
func (t *wakeupTree[E, K]) subtree(p K) *wakeupTree[E, K] {
	s := newWakeupTree(t.proc, t.dep)
	s.wi, s.keep, s.extend, s.ghost = t.wi, t.keep, t.extend, t.ghost
	for _, c := range t.root.children {
		if t.proc(c.ev) == p {
			s.root.children = c.children
			break
		}
	}
	return s
}

// setFirst replaces the first event of the branch of process p by ev: the
// event as it ran, once it has (what the tree held was its prediction).
func (t *wakeupTree[E, K]) setFirst(p K, ev E) {
	for _, c := range t.root.children {
		if t.proc(c.ev) == p {
			c.ev = ev
			return
		}
	}
}

// skippable reports whether the branch of process p may be skipped
// (odpor-cs: see explorer.optimal), and returns the sequences its first
// node took in, each as it stood at the root. Optimal DPOR lets a branch
// take in an inserted sequence it is a weak initial of, counting on the
// branch's subtree to find the rest by race detection; a skipped branch
// has no subtree, so the caller inserts those sequences again. The
// sequence that made the branch is not among them: it starts with p's
// event, and the cover that skips the branch stands for every run that
// does. Without keep nothing is recorded and no branch is skippable.
func (t *wakeupTree[E, K]) skippable(p K) (took [][]E, ok bool) {
	if !t.keep {
		return nil, false
	}
	for _, c := range t.root.children {
		if t.proc(c.ev) == p {
			return c.took, true
		}
	}
	return nil, false
}

// remove removes the sequences that start with an event of process p.
func (t *wakeupTree[E, K]) remove(p K) {
	for i, c := range t.root.children {
		if t.proc(c.ev) == p {
			t.root.children = append(t.root.children[:i:i], t.root.children[i+1:]...)
			return
		}
	}
}

// sequences lists the branches, root to leaf, leftmost first (for tests
// and for printing).
func (t *wakeupTree[E, K]) sequences() [][]E {
	var out [][]E
	var walk func(n *wuNode[E], prefix []E)
	walk = func(n *wuNode[E], prefix []E) {
		for _, c := range n.children {
			seq := append(append([]E(nil), prefix...), c.ev)
			if len(c.children) == 0 {
				out = append(out, seq)
				continue
			}
			walk(c, seq)
		}
	}
	walk(&t.root, nil)
	return out
}

// insert adds the sequence v (insert_[E](v, wut(E))) unless the tree
// already holds one that covers it: starting at the root, it follows the
// leftmost child whose process is a weak initial of what remains of v
// (removing that process's first event from it); v is covered when that
// child is a leaf, or when nothing of v remains. Where no child qualifies,
// the rest of v becomes a new rightmost branch. With extend, a leaf
// reached with events of v left does not cover them: they become its
// branch. insert reports whether the tree changed.
//
// A process p is a weak initial of v (WI_[E](v)) when its first event in v
// has no happens-before predecessor in v, or when p does not occur in v and
// its event (the child's) is independent of every event of v.
func (t *wakeupTree[E, K]) insert(v []E) bool {
	n, rest := t.descend(v, func(_, next *wuNode[E], was, rest []E) {
		if t.keep && len(rest) > 0 {
			// Recorded unless it is the node's own event alone (which
			// the branch is).
			next.took = append(next.took, was)
		}
	})
	if n == nil {
		return false
	}
	ghost := len(rest) > 0 && t.isGhost(rest[len(rest)-1])
	if ghost {
		rest = rest[:len(rest)-1]
	}
	for _, ev := range rest {
		c := &wuNode[E]{ev: ev}
		n.children = append(n.children, c)
		n = c
	}
	if ghost && n != &t.root {
		n.open = true
	}
	return len(rest) > 0
}

// descend follows v down the tree as insert does, calling visit at each
// node n it passes through with the child next it goes on to, v as it
// stood at n (was) and what remains of it below next (rest). It returns the
// node the rest of v would become a new rightmost branch of, and that
// rest; n is nil where the tree covers v (a leaf reached, or nothing of v
// left). The tree is not changed.
func (t *wakeupTree[E, K]) descend(v []E, visit func(n, next *wuNode[E], was, rest []E)) (*wuNode[E], []E) {
	n := &t.root
	v = append([]E(nil), v...)
	for len(v) > 0 {
		var next *wuNode[E]
		was := v
		for _, c := range n.children {
			if at, ok := t.weakInitial(c.ev, v); ok {
				next = c
				if at >= 0 {
					if t.keep {
						v = slices.Clone(v) // insert's visit keeps was
					}
					v = slices.Delete(v, at, at+1) // descend's own copy
				}
				break
			}
		}
		if next == nil {
			return n, v
		}
		visit(n, next, was, v)
		if len(next.children) == 0 && !((t.extend || next.open) && len(v) > 0) {
			return nil, nil // a leaf: the branch through it covers v
		}
		n = next
	}
	return nil, nil
}

// isGhost reports whether ev stands for no step (see ghost).
func (t *wakeupTree[E, K]) isGhost(ev E) bool { return t.ghost != nil && t.ghost(ev) }

// leftOf returns the processes of the branches that the exploration of v,
// once inserted, finds explored before it at each node of its path: the
// children left of the one it follows, and, where it would become a new
// branch, every child of that node. They may be asleep where v's events
// run (a process explored at a node sleeps in its later siblings). Empty
// where the tree covers v.
func (t *wakeupTree[E, K]) leftOf(v []E) []K {
	var out []K
	n, rest := t.descend(v, func(n, next *wuNode[E], _, _ []E) {
		for _, c := range n.children {
			if c == next {
				break
			}
			out = append(out, t.proc(c.ev))
		}
	})
	if n == nil || len(rest) == 0 {
		return nil
	}
	for _, c := range n.children {
		out = append(out, t.proc(c.ev))
	}
	return out
}

// weakInitial reports whether the process of ev is a weak initial of v; at
// is the position in v of that process's first event, -1 when it has
// none (then ev itself is independent of all of v).
func (t *wakeupTree[E, K]) weakInitial(ev E, v []E) (at int, ok bool) {
	if t.wi != nil {
		return t.wi(ev, v)
	}
	p := t.proc(ev)
	for i, w := range v {
		if t.proc(w) != p {
			continue
		}
		return i, !t.hasPredecessor(v, i)
	}
	for _, w := range v {
		if t.dep(ev, w) {
			return -1, false
		}
	}
	return -1, true
}

// hasPredecessor reports whether v[i] has a happens-before predecessor in
// v. Happens-before is the transitive closure of the dependency, so any
// predecessor chain ends with an event v[i] depends on directly.
func (t *wakeupTree[E, K]) hasPredecessor(v []E, i int) bool {
	for j := 0; j < i; j++ {
		if t.dep(v[j], v[i]) {
			return true
		}
	}
	return false
}

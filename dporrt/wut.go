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
}

type wuNode[E any] struct {
	ev       E
	children []*wuNode[E]
	// absorbed: an insertion ended at this node, a leaf then, taking its
	// branch to stand for a sequence of its own (see insert and bare).
	absorbed bool
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
	s.wi = t.wi
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

// bare reports whether the branch of process p is a single event that no
// insertion other than its own ended at: it stands for no other sequence.
// Skipping such a branch loses only what its event leads to; skipping
// another one would lose the sequences it took in (odpor-cs: see
// explorer.covered).
func (t *wakeupTree[E, K]) bare(p K) bool {
	for _, c := range t.root.children {
		if t.proc(c.ev) == p {
			return len(c.children) == 0 && !c.absorbed
		}
	}
	return false
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
// the rest of v becomes a new rightmost branch. insert reports whether the
// tree changed.
//
// A process p is a weak initial of v (WI_[E](v)) when its first event in v
// has no happens-before predecessor in v, or when p does not occur in v and
// its event (the child's) is independent of every event of v.
func (t *wakeupTree[E, K]) insert(v []E) bool {
	n := &t.root
	v = append([]E(nil), v...)
	for len(v) > 0 {
		var next *wuNode[E]
		for _, c := range n.children {
			if at, ok := t.weakInitial(c.ev, v); ok {
				next = c
				if at >= 0 {
					v = slices.Delete(v, at, at+1) // v is insert's own copy
				}
				break
			}
		}
		if next == nil {
			for _, ev := range v {
				c := &wuNode[E]{ev: ev}
				n.children = append(n.children, c)
				n = c
			}
			return true
		}
		if len(next.children) == 0 {
			next.absorbed = true
			return false // a leaf: the branch through it covers v
		}
		n = next
	}
	return false
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

package dporrt

// vclock is a persistent vector clock: for each process (by index in
// State.Procs), a count of its events. It is a trie of vcFan-ary nodes
// that clocks share: a clock built from its predecessors' by a join and one
// increment costs memory only where it differs from them, not one entry per
// process, so clocks along a sequence of n events among P processes take
// O(n log P) space, not O(n P). A nil node stands for zeros. Clocks are
// never changed once built.
type vclock struct {
	root   *vcNode
	height int // levels above the leaves: indices below vcFan^(height+1)
}

const (
	vcBits = 3
	vcFan  = 1 << vcBits
)

type vcNode struct {
	kids [vcFan]*vcNode // inner nodes
	vals [vcFan]int32   // leaves
	sum  int64          // of the counts below
}

// total returns the sum of the counts: the number of events the clock
// covers.
func (c vclock) total() int64 {
	if c.root == nil {
		return 0
	}
	return c.root.sum
}

// get returns the count of process p.
func (c vclock) get(p int) int32 {
	if p>>(vcBits*(c.height+1)) != 0 {
		return 0
	}
	n := c.root
	for h := c.height; n != nil; h-- {
		k := p >> (vcBits * h) & (vcFan - 1)
		if h == 0 {
			return n.vals[k]
		}
		n = n.kids[k]
	}
	return 0
}

// set returns c with the count of process p set to v, copying the path to p.
func (c vclock) set(p int, v int32) vclock {
	for p>>(vcBits*(c.height+1)) != 0 {
		c = lift(c)
	}
	c.root = setNode(c.root, c.height, p, v)
	return c
}

func setNode(n *vcNode, h, p int, v int32) *vcNode {
	m := &vcNode{}
	if n != nil {
		*m = *n
	}
	k := p >> (vcBits * h) & (vcFan - 1)
	if h == 0 {
		m.sum += int64(v - m.vals[k])
		m.vals[k] = v
	} else {
		old := m.kids[k]
		m.kids[k] = setNode(old, h-1, p, v)
		m.sum += m.kids[k].sum - old.sumOf()
	}
	return m
}

func (n *vcNode) sumOf() int64 {
	if n == nil {
		return 0
	}
	return n.sum
}

// join returns the pointwise maximum of a and b. Shared subtrees are not
// visited, and a result equal to a (or b) is a (or b).
func join(a, b vclock) vclock {
	for a.height < b.height {
		a = lift(a)
	}
	for b.height < a.height {
		b = lift(b)
	}
	return vclock{root: joinNode(a.root, b.root, a.height), height: a.height}
}

// lift returns c with one more level (its root becomes the first child).
func lift(c vclock) vclock {
	if c.root != nil {
		c.root = &vcNode{kids: [vcFan]*vcNode{c.root}, sum: c.root.sum}
	}
	c.height++
	return c
}

func joinNode(a, b *vcNode, h int) *vcNode {
	switch {
	case a == b || b == nil:
		return a
	case a == nil:
		return b
	}
	var m vcNode
	sameA, sameB := true, true
	if h == 0 {
		for k := range vcFan {
			m.vals[k] = max(a.vals[k], b.vals[k])
			m.sum += int64(m.vals[k])
			sameA = sameA && m.vals[k] == a.vals[k]
			sameB = sameB && m.vals[k] == b.vals[k]
		}
	} else {
		for k := range vcFan {
			m.kids[k] = joinNode(a.kids[k], b.kids[k], h-1)
			m.sum += m.kids[k].sumOf()
			sameA = sameA && m.kids[k] == a.kids[k]
			sameB = sameB && m.kids[k] == b.kids[k]
		}
	}
	switch {
	case sameA:
		return a
	case sameB:
		return b
	}
	return &m
}

package interp

import "math/bits"

// ProcSet is a set of process indices (into State.Procs) that finds its
// k-th smallest element in O(log n) steps: [Machine.Run] keeps the enabled
// processes in one, so a [Policy] picks among thousands of processes
// without going through them. The zero ProcSet is empty.
type ProcSet struct {
	words []uint64
	tree  []int32 // Fenwick tree of the words' popcounts, 1-based
	n     int
}

// Len returns the number of processes in the set.
func (s *ProcSet) Len() int { return s.n }

// Has reports whether process i is in the set.
func (s *ProcSet) Has(i int) bool {
	w := i / 64
	return i >= 0 && w < len(s.words) && s.words[w]&(1<<(i%64)) != 0
}

// At returns the k-th smallest process of the set (0 <= k < Len()).
func (s *ProcSet) At(k int) int {
	if k < 0 || k >= s.n {
		panic("interp: ProcSet.At out of range")
	}
	// The last word whose prefix holds at most k processes...
	pos, rem := 0, int32(k)
	for step := 1 << (bits.Len(uint(len(s.words))) - 1); step > 0; step >>= 1 {
		if next := pos + step; next <= len(s.words) && s.tree[next] <= rem {
			pos, rem = next, rem-s.tree[next]
		}
	}
	// ... is followed by the word holding the k-th: its rem-th bit.
	w := s.words[pos]
	for ; rem > 0; rem-- {
		w &= w - 1
	}
	return pos*64 + bits.TrailingZeros64(w)
}

// All returns the processes of the set in ascending order.
func (s *ProcSet) All() []int {
	out := make([]int, 0, s.n)
	for wi, w := range s.words {
		for ; w != 0; w &= w - 1 {
			out = append(out, wi*64+bits.TrailingZeros64(w))
		}
	}
	return out
}

// Add adds process i to the set.
func (s *ProcSet) Add(i int) {
	if s.Has(i) {
		return
	}
	w := i / 64
	if w >= len(s.words) {
		s.grow(w + 1)
	}
	s.words[w] |= 1 << (i % 64)
	s.n++
	s.update(w, 1)
}

// Remove removes process i from the set.
func (s *ProcSet) Remove(i int) {
	if !s.Has(i) {
		return
	}
	w := i / 64
	s.words[w] &^= 1 << (i % 64)
	s.n--
	s.update(w, -1)
}

func (s *ProcSet) update(w int, d int32) {
	for j := w + 1; j < len(s.tree); j += j & -j {
		s.tree[j] += d
	}
}

// grow makes room for n words (at least doubling) and rebuilds the tree.
func (s *ProcSet) grow(n int) {
	n = max(n, 2*len(s.words), 4)
	words := make([]uint64, n)
	copy(words, s.words)
	s.words = words
	s.tree = make([]int32, n+1)
	for j := 1; j <= n; j++ {
		s.tree[j] += int32(bits.OnesCount64(words[j-1]))
		if up := j + j&-j; up <= n {
			s.tree[up] += s.tree[j]
		}
	}
}

// Package widemaps holds maps with wide keys (int, int64, int32,
// uint16), which the front end holds as unbounded arrays indexed by the
// key, for the oracle: lookups with and without ok, assignment, x[k]++,
// delete, len, nil maps, struct elements, a package map.
package widemaps

import "sync"

type entry struct {
	ver uint16
	val int64
}

// W holds maps.
type W struct {
	mu      sync.Mutex
	counts  map[int]int
	entries map[int64]entry
	small   map[int32]int8
	total   int
}

var (
	seenMu sync.Mutex
	seen   map[uint16]bool
)

// Inc counts k and returns the number of keys.
func (w *W) Inc(k int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.counts[k]++
	return len(w.counts)
}

// Take removes k and adds its count to the total.
func (w *W) Take(k int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	c, ok := w.counts[k]
	if !ok {
		return false
	}
	delete(w.counts, k)
	w.total += c
	return true
}

// Set stores v at k with the next version of k's entry, unless the
// map is nil.
func (w *W) Set(k int64, v int64) uint16 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.entries == nil {
		return 0
	}
	e := w.entries[k]
	e.ver++
	e.val = v
	w.entries[k] = e
	return e.ver
}

// Val reads k's value (zero when absent).
func (w *W) Val(k int64) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.entries[k].val
}

// Bump adds d to k's small count (it wraps around) and to k+1's.
func (w *W) Bump(k int32, d int8) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.small[k] += d
	w.small[k+1] += d
}

// Mark marks k as seen and says whether it was.
func Mark(k uint16) bool {
	seenMu.Lock()
	defer seenMu.Unlock()
	was := seen[k]
	seen[k] = true
	return was
}

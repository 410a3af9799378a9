// Package maps holds the map operations the front end models, for the
// oracle: int8, uint8 and bool keys, struct elements, x[k]++ and x[k] +=,
// lookups with and without ok, delete, len, nil maps, a package map.
package maps

import "sync"

type pair struct {
	a int32
	b bool
}

// M holds maps.
type M struct {
	mu    sync.Mutex
	small map[int8]int64
	flags map[bool]uint8
	pairs map[uint8]pair
	total int64
}

var (
	hitsMu sync.Mutex
	hits   map[uint8]int
)

// Inc counts k.
func (m *M) Inc(k int8) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.small[k]++
}

// Add adds v to k's count and returns the count.
func (m *M) Add(k int8, v int64) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.small[k] += v
	return m.small[k]
}

// Take removes k and adds its count to the total.
func (m *M) Take(k int8) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	var v int64
	var ok bool
	v, ok = m.small[k]
	if !ok {
		return false
	}
	delete(m.small, k)
	m.total += v
	return true
}

// Size returns the number of keys, -1 for a nil map.
func (m *M) Size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.small == nil {
		return -1
	}
	return len(m.small)
}

// Flag bumps a flag's count (it wraps around).
func (m *M) Flag(f bool) uint8 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.flags != nil {
		m.flags[f] = m.flags[f] + 200
	}
	return m.flags[!f]
}

// SetPair sets k's pair, unless it is there with b set.
func (m *M) SetPair(k uint8, a int32) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.pairs[k]; ok && p.b {
		return
	}
	m.pairs[k] = pair{a: a, b: a > 0}
}

// PairA reads k's a (zero when absent).
func (m *M) PairA(k uint8) int32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.pairs[k].a
}

// Hit counts a hit of k in the package map.
func Hit(k uint8) {
	hitsMu.Lock()
	defer hitsMu.Unlock()
	hits[k+1]++
}

// Hits returns k's hits.
func Hits(k uint8) int {
	hitsMu.Lock()
	defer hitsMu.Unlock()
	return hits[k+1]
}

// Package parallel holds parallel assignments for the oracle. Go reads
// the index operands on the left before it assigns anything: i, a[i] =
// v, w sets the element of i's old value, not of v.
package parallel

import "sync"

// P holds an array indexed by one of its fields, and a map keyed by one.
type P struct {
	mu sync.Mutex
	a  [3]int
	i  int
	m  map[uint8]int
	k  uint8
}

// Shift sets i to v and the element at i's old value to w.
func (p *P) Shift(v, w int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.i, p.a[p.i] = v, w
}

// Clear zeroes the array, then sets a local that indexes it and the
// element at the local's old value in one assignment (as a generated
// package of the oracle had it: its orders always end alike in Go).
func (p *P) Clear() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for j := 0; j < 3; j++ {
		p.a[j] = 0
	}
	l := p.a[0]
	l, p.a[l] = max(l, p.i), p.a[1]
	return l
}

// Key sets k to k2 and the map's element at k's old value to v.
func (p *P) Key(k2 uint8, v int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m != nil {
		p.k, p.m[p.k] = k2, v
	}
}

// Get returns the element j.
func (p *P) Get(j int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.a[j]
}

// Val returns the map's element at k.
func (p *P) Val(k uint8) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.m[k]
}

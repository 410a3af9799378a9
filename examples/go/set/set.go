// Package set is a set of small integers.
package set

import "sync"

// Size bounds the elements: a set holds 0 <= x < Size.
const Size = 16

// Set is a set of integers in [0, Size).
type Set struct {
	mu      sync.RWMutex
	present [Size]bool
	n       int
}

// Add inserts x and reports whether it was new. x out of range panics.
func (s *Set) Add(x int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.present[x] {
		return false
	}
	s.present[x] = true
	s.n++
	return true
}

// Remove deletes x and reports whether it was there.
func (s *Set) Remove(x int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.present[x] {
		return false
	}
	s.present[x] = false
	s.n--
	return true
}

// Contains reports whether x is in the set.
func (s *Set) Contains(x int) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.present[x]
}

// Len returns the number of elements.
func (s *Set) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.n
}

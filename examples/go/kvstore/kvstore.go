// Package kvstore is a key-value store whose entries carry versions: a
// store-wide clock (uint32: it wraps around) stamps every write.
package kvstore

import "sync"

const keys = 8

// Store maps keys 0 <= k < keys to values.
type Store struct {
	mu      sync.Mutex
	vals    [keys]int
	vers    [keys]uint32
	present [keys]bool
	clock   uint32
}

// Put sets k to v and returns the new version.
func (s *Store) Put(k, v int) uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	s.vals[k] = v
	s.vers[k] = s.clock
	s.present[k] = true
	return s.clock
}

// Get returns the value of k and whether it is present.
func (s *Store) Get(k int) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.present[k] {
		return 0, false
	}
	return s.vals[k], true
}

// CompareAndSet sets k to v only if k's version is ver.
func (s *Store) CompareAndSet(k int, ver uint32, v int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.present[k] || s.vers[k] != ver {
		return false
	}
	s.clock++
	s.vals[k] = v
	s.vers[k] = s.clock
	return true
}

// Delete removes k.
func (s *Store) Delete(k int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.present[k] = false
}

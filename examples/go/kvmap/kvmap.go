// Package kvmap is the key-value store of kvstore on a map: a
// store-wide clock (uint32: it wraps around) stamps every write.
package kvmap

import "sync"

// Key is a key of the store.
type Key uint8

type entry struct {
	val int64
	ver uint32
}

// Store maps keys to values with versions.
type Store struct {
	mu    sync.Mutex
	data  map[Key]entry
	clock uint32
}

// New returns an empty store.
func New() *Store { return &Store{data: map[Key]entry{}} }

// Put sets k to v and returns the new version.
func (s *Store) Put(k Key, v int64) uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	s.data[k] = entry{val: v, ver: s.clock}
	return s.clock
}

// Get returns the value of k and whether it is present.
func (s *Store) Get(k Key) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.data[k]
	return e.val, ok
}

// CompareAndSet sets k to v only if k is present at version ver.
func (s *Store) CompareAndSet(k Key, ver uint32, v int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.data[k]
	if !ok || e.ver != ver {
		return false
	}
	s.clock++
	s.data[k] = entry{val: v, ver: s.clock}
	return true
}

// Delete removes k and reports whether it was present.
func (s *Store) Delete(k Key) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.data[k]; !ok {
		return false
	}
	delete(s.data, k)
	return true
}

// Len returns the number of keys.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.data)
}

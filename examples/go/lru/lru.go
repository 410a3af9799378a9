// Package lru is a small cache that evicts the least recently used
// entry. Keys returns a slice, which the front end does not model: that
// block is unknown, with its reason.
package lru

import "sync"

const ways = 3

type entry struct {
	key, val int
	used     int64 // the tick of the last use
	valid    bool
}

// Cache holds at most ways entries.
type Cache struct {
	mu      sync.Mutex
	entries [ways]entry
	tick    int64
}

// find returns the index of key's entry, or -1.
func (c *Cache) find(key int) int {
	for i := 0; i < ways; i++ {
		if c.entries[i].valid && c.entries[i].key == key {
			return i
		}
	}
	return -1
}

// Get returns key's value and marks it used.
func (c *Cache) Get(key int) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.find(key)
	if i < 0 {
		return 0, false
	}
	c.tick++
	c.entries[i].used = c.tick
	return c.entries[i].val, true
}

// Put stores key's value, evicting the least recently used entry when
// the cache is full.
func (c *Cache) Put(key, val int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick++
	i := c.find(key)
	if i < 0 {
		i = 0
		for j := 0; j < ways; j++ {
			if !c.entries[j].valid {
				i = j
				break
			}
			if c.entries[j].used < c.entries[i].used {
				i = j
			}
		}
	}
	c.entries[i] = entry{key: key, val: val, used: c.tick, valid: true}
}

// Keys lists the keys held.
func (c *Cache) Keys() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for _, e := range c.entries {
		if e.valid {
			out = append(out, e.key)
		}
	}
	return out
}

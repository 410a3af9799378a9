// Package counter is a counter with a reset, and a package-level hit
// count kept under a package-level mutex.
package counter

import "sync"

// Counter counts events; Reset starts it again and counts the resets.
type Counter struct {
	mu     sync.Mutex
	n      int64
	resets int32
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

// Add adds k.
func (c *Counter) Add(k int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += k
}

// Reset sets the count to zero and returns what it was.
func (c *Counter) Reset() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.n
	c.n = 0
	c.resets++
	return old
}

// Get returns the count.
func (c *Counter) Get() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

var (
	hitsMu sync.Mutex
	hits   int64
)

// Hit counts one hit.
func Hit() {
	hitsMu.Lock()
	hits++
	hitsMu.Unlock()
}

// Hits returns the hits.
func Hits() int64 {
	hitsMu.Lock()
	defer hitsMu.Unlock()
	return hits
}

// Package slices holds the slice operations the front end models, for
// the oracle: s[i] (out of range, a runtime error), s[i] = v and op=,
// len, s = append(s, v, ...), struct elements, a package slice.
package slices

import "sync"

type item struct {
	id  int
	qty int32
}

type Log struct {
	mu    sync.Mutex
	items []item
	ids   []int
}

func (l *Log) Add(id int, q int32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, item{id: id, qty: q})
}

func (l *Log) Set(i int, q int32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items[i].qty = q
}

func (l *Log) Get(i int) int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i < len(l.items) && l.items[i].id > 0 {
		return l.items[i].qty
	}
	return 0
}

func (l *Log) Push(a, b int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids = append(l.ids, a, b)
	l.ids[0] += a
	return len(l.ids)
}

var (
	histMu sync.Mutex
	hist   []int64
)

// Record appends v to the package slice and returns the previous last
// value (0 when empty).
func Record(v int64) int64 {
	histMu.Lock()
	defer histMu.Unlock()
	var last int64
	if n := len(hist); n > 0 {
		last = hist[n-1]
	}
	hist = append(hist, v)
	return last
}

// Package gctune keeps Go's garbage collector from running every few
// megabytes while the heap is small.
//
// The explorers allocate short-lived events, sets and state copies at a high
// rate over a live heap of a few megabytes. With Go's default (GOGC=100) the
// collector then runs each time the heap doubles, many times a second, and
// took a third to a half of codpor's time on FR-a(8). Start sets
// a floor under the heap goal instead: the collector runs when the heap
// reaches the floor, or at Go's default growth once the live heap is past
// half of it. The floor costs memory, at most the floor itself, and nothing
// once the live heap is larger.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// DefaultFloor is the heap goal the icgen command keeps at least: 64 MiB.
// Measured with icgen explore, codpor on FR-a(8): 3.0 to 3.2 s against 4.9
// to 6.6 s with Go's default, at a peak resident set of 83 MiB against 21.
const DefaultFloor = 64 << 20

// percent is the GC percentage that puts the next collection at floor bytes
// of heap, where live bytes of heap survived the last one and the other
// roots (stacks and globals) take roots bytes. Go's heap goal is the larger
// of live + (live + roots) * percent / 100 and its minimum heap, 4 MiB
// scaled by percent / 100, so the percentage is bounded by the floor over
// 4 MiB too. It is never below Go's default of 100.
func percent(live, roots, floor uint64) int {
	scan := max(live+roots, 1)
	if live+scan >= floor {
		return 100
	}
	p := float64(floor-live) * 100 / float64(scan)
	return max(100, int(min(p, float64(floor)*100/minHeap)))
}

// minHeap is the Go runtime's minimum heap goal at GOGC=100.
const minHeap = 4 << 20

type tuner struct {
	floor   uint64
	sample  []metrics.Sample
	mu      sync.Mutex
	stopped bool
}

// sentinel is the object whose cleanup runs after each collection: it holds
// a pointer so that it is not allocated in a tiny block shared with others
// (which may never be collected on its own).
type sentinel struct {
	_ *tuner
	_ [2]uint64
}

// Start keeps the heap goal at floor bytes at least, from the next
// collection on, until stop is called (stop puts the percentage back to
// what it was). It does nothing where the GOGC or GOMEMLIMIT environment
// variable is set: those are the user's own settings.
func Start(floor uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	t := &tuner{floor: floor, sample: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"},
	}}
	old := debug.SetGCPercent(100) // reads the percentage, put back at once
	debug.SetGCPercent(old)
	t.arm()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if !t.stopped {
			t.stopped = true
			debug.SetGCPercent(old)
		}
	}
}

// arm registers a cleanup that runs once the next collection has found a
// fresh sentinel unreachable.
func (t *tuner) arm() {
	runtime.AddCleanup(new(sentinel), func(t *tuner) { t.adjust() }, t)
}

// adjust sets the percentage from the live heap the last collection left,
// and arms again.
func (t *tuner) adjust() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	metrics.Read(t.sample)
	var v [3]uint64
	for i, s := range t.sample {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	debug.SetGCPercent(percent(v[0], v[1]+v[2], t.floor))
	t.arm()
}

// Main runs a test binary's tests (m is its *testing.M) with the floor the
// icgen command keeps, and returns their exit code: TestMain is
// os.Exit(gctune.Main(m)).
func Main(m interface{ Run() int }) int {
	Start(DefaultFloor)
	return m.Run()
}

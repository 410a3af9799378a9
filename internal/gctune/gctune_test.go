package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, roots, floor uint64
		want               int
	}{
		{1 * mib, 0, 64 * mib, 1600},      // bounded by the runtime's minimum heap, 4 MiB * p / 100
		{3 * mib, 0, 64 * mib, 1600},      // the minimum heap is the goal, not 51 MiB
		{16 * mib, 0, 64 * mib, 300},      // 16 MiB live, goal 64
		{3 * mib, 5 * mib, 64 * mib, 762}, // the roots count in the goal
		{32 * mib, 0, 64 * mib, 100},      // half the floor: Go's default
		{200 * mib, 0, 64 * mib, 100},     // past the floor
		{0, 0, 64 * mib, 1600},
		{1 << 50, 0, 1 << 52, 300},
	} {
		p := percent(c.live, c.roots, c.floor)
		if p != c.want {
			t.Errorf("percent(%d, %d, %d) = %d, want %d", c.live, c.roots, c.floor, p, c.want)
		}
		if p > 100 {
			// Go's heap goal is the floor (to a MiB).
			goal := max(c.live+(c.live+c.roots)/100*uint64(p), minHeap/100*uint64(p))
			if goal > c.floor || c.floor-goal > mib {
				t.Errorf("live %d, roots %d: goal %d, floor %d", c.live, c.roots, goal, c.floor)
			}
		}
	}
}

// current reads the GC percentage (setting it back at once).
func current() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestStart(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := current()
	stop := Start(DefaultFloor)
	deadline := time.Now().Add(10 * time.Second)
	got := before
	for got <= 100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		got = current()
	}
	stop()
	if got <= 100 {
		t.Fatalf("after collections the GC percentage is %d; want it raised over a small live heap", got)
	}
	if p := current(); p != before {
		t.Errorf("stop left the percentage at %d, want %d", p, before)
	}
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if p := current(); p != before {
		t.Errorf("a collection after stop set the percentage to %d, want %d", p, before)
	}
}

func TestStartLeavesUserSettings(t *testing.T) {
	t.Setenv("GOGC", "100")
	before := current()
	stop := Start(DefaultFloor)
	defer stop()
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p := current(); p != before {
		t.Errorf("with GOGC set, the percentage went from %d to %d", before, p)
	}
}

type fakeTests struct{ ran bool }

func (f *fakeTests) Run() int { f.ran = true; return 3 }

func TestMainRuns(t *testing.T) {
	t.Setenv("GOGC", "100") // leave this process's collector alone
	f := &fakeTests{}
	if code := Main(f); code != 3 || !f.ran {
		t.Errorf("Main returned %d, ran %v; want the tests' code 3", code, f.ran)
	}
}

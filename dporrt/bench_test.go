package dporrt

import (
	"context"
	"fmt"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// Benchmarks of the interpreter's hot paths, as explorers use them:
//
//	go test ./dporrt -run '^$' -bench . -benchmem
//
// events/s counts executed blocks (events) per second of benchmark time.

// arithSrc: P processes, each M blocks of a few arithmetic operations on
// locals, an array element and a shared global.
const arithSrc = `param P = 8;
param M = 50;
global int acc[P], total;
proc w(int id) {
  int i;
  int x = id;
  while (i < M) {
    x = (x * 31 + 7) % 1000;
    acc[id] = acc[id] + x;
    total = total + x % 3;
    i = i + 1;
    yield;
  }
}
init { int k; while (k < P) { spawn w(k); k = k + 1; } }
`

// dfsSrc: three processes of three blocks each (1680 interleavings).
const dfsSrc = `global int x, y, z;
proc a() { x = x + 1; yield; y = y * 2 + x; yield; z = z - y; }
proc b() { y = y + 3; yield; x = x * 3 % 7; yield; z = z + x; }
proc c() { z = z + 1; yield; x = x - z; yield; y = y % 5 + z; }
init { spawn a(); spawn b(); spawn c(); }
`

// awaitSrc: P processes waiting for their turn.
const awaitSrc = `param P = 32;
global int turn;
proc w(int id) { await(turn == id); turn = turn + 1; }
init { int k; while (k < P) { spawn w(k); k = k + 1; } }
`

func benchMachine(b *testing.B, src string, set map[string]int64) *interp.Machine {
	b.Helper()
	m, err := interp.New(testprog.Source(b, src), set)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func fibMachine(b *testing.B, n int64) *interp.Machine {
	b.Helper()
	m, err := interp.New(testprog.File(b, "../testdata/fib.blk"), map[string]int64{"N": n})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// runFirst runs one complete execution with the First policy, reusing ev
// and buf, and returns the number of events.
func runFirst(b *testing.B, m *interp.Machine, ev *interp.Event, buf []int) int {
	st, err := m.Initial()
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for {
		buf = st.EnabledProcs(buf[:0])
		if len(buf) == 0 {
			return n
		}
		st.StepInto(buf[0], ev)
		if ev.Err != nil {
			b.Fatal(ev.Err)
		}
		n++
	}
}

// BenchmarkStep runs complete executions (Initial, then EnabledProcs and
// StepInto until the end).
func BenchmarkStep(b *testing.B) {
	cases := []struct {
		name string
		m    func(b *testing.B) *interp.Machine
	}{
		{"fib10", func(b *testing.B) *interp.Machine { return fibMachine(b, 10) }},
		{"arith", func(b *testing.B) *interp.Machine { return benchMachine(b, arithSrc, nil) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m := c.m(b)
			var ev interp.Event
			buf := make([]int, 0, 64)
			events := 0
			for b.Loop() {
				events += runFirst(b, m, &ev, buf)
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
		})
	}
}

// dfsBench explores all interleavings with Mark/Undo, one Event per depth,
// and returns the number of events executed.
func dfsBench(b *testing.B, st *interp.State, depth int, evs []interp.Event, bufs [][]int) int {
	en := st.EnabledProcs(bufs[depth][:0])
	bufs[depth] = en
	n := 0
	mark := st.Mark()
	for _, i := range en {
		st.StepInto(i, &evs[depth])
		if evs[depth].Err != nil {
			b.Fatal(evs[depth].Err)
		}
		n += 1 + dfsBench(b, st, depth+1, evs, bufs)
		st.Undo(mark)
	}
	return n
}

// BenchmarkStepUndo is the explorers' pattern: a DFS over all interleavings
// of a small program, stepping forward and undoing back.
func BenchmarkStepUndo(b *testing.B) {
	m := benchMachine(b, dfsSrc, nil)
	st, err := m.Initial()
	if err != nil {
		b.Fatal(err)
	}
	evs := make([]interp.Event, 16)
	bufs := make([][]int, 16)
	events := 0
	for b.Loop() {
		events += dfsBench(b, st, 0, evs, bufs)
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
}

// midFib returns a fib(10) state after 150 events of the First policy
// (oldest process first, so the spawn tree grows breadth-first): 232
// processes, 82 of them live.
func midFib(b *testing.B) *interp.State {
	m := fibMachine(b, 10)
	st, err := m.Initial()
	if err != nil {
		b.Fatal(err)
	}
	for k := 0; k < 150; k++ {
		en := st.EnabledProcs(nil)
		st.Step(en[0])
	}
	return st
}

func BenchmarkClone(b *testing.B) {
	st := midFib(b)
	for b.Loop() {
		_ = st.Clone()
	}
	b.ReportMetric(float64(len(st.Procs)), "procs")
}

// BenchmarkCloneInto is Clone into the same state over and over, as the
// explorers' state checks and snapshots reuse dropped ones.
func BenchmarkCloneInto(b *testing.B) {
	st := midFib(b)
	var c *interp.State
	for b.Loop() {
		c = st.CloneInto(c)
	}
	b.ReportMetric(float64(len(st.Procs)), "procs")
}

func BenchmarkHash(b *testing.B) {
	st := midFib(b)
	for b.Loop() {
		_ = st.Hash()
	}
	b.ReportMetric(float64(len(st.Live())), "live")
}

func BenchmarkEqual(b *testing.B) {
	st := midFib(b)
	c := st.Clone()
	for b.Loop() {
		if !st.Equal(c) {
			b.Fatal("clone not equal")
		}
	}
}

// BenchmarkEnabled evaluates the await guards of 32 waiting processes.
func BenchmarkEnabled(b *testing.B) {
	m := benchMachine(b, awaitSrc, nil)
	st, err := m.Initial()
	if err != nil {
		b.Fatal(err)
	}
	for i := range st.Procs {
		st.Step(i) // entry blocks: every process now waits at its await
	}
	buf := make([]int, 0, 64)
	for b.Loop() {
		buf = st.EnabledProcs(buf[:0])
	}
	if len(buf) != 1 {
		b.Fatalf("enabled = %v, want one process", buf)
	}
}

// bombSrc: every process spawns two copies of itself (a fork bomb); after n
// events about 2n processes exist.
const bombSrc = `proc p() { spawn p(); spawn p(); }
init { spawn p(); }
`

// BenchmarkForkBomb runs and explores a fork bomb for n events, n growing
// tenfold: ns/event and B/event stay flat, as an event costs the same
// whatever the number of processes (2n at the end).
func BenchmarkForkBomb(b *testing.B) {
	m := benchMachine(b, bombSrc, nil)
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("run/%d", n), func(b *testing.B) {
			for b.Loop() {
				if out := m.Run(interp.Random(1), n); len(out.Events) != n {
					b.Fatalf("%d events", len(out.Events))
				}
			}
			reportPerEvent(b, n)
		})
		for _, algo := range []Algorithm{DFS, SDPOR} {
			b.Run(fmt.Sprintf("%s/%d", algo, n), func(b *testing.B) {
				for b.Loop() {
					if r, err := Explore(context.Background(), m, Options{Algo: algo, MaxStates: n}); err != nil || r.States != n {
						b.Fatalf("%v, %+v", err, r)
					}
				}
				reportPerEvent(b, n)
			})
		}
	}
}

// reportPerEvent reports the time per event, n events per iteration
// (-benchmem's B/op divided by n is the memory per event).
func reportPerEvent(b *testing.B, n int) {
	events := float64(b.N) * float64(n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/events, "ns/event")
}

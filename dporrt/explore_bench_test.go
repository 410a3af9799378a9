package dporrt

import (
	"context"
	"fmt"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// BenchmarkExplore reports events per second of dfs, sdpor, csdpor, odpor,
// odpor-ob, odpor-cs and odpor-cs-ob on fib (N = 4: every res process conflicts, so
// interleavings grow fast). The events of the context-sensitive ones
// include those of the reversed orders they run. The algorithms that use
// an IC file are measured in package synth (BenchmarkExploreICs).
func BenchmarkExplore(b *testing.B) {
	m, err := interp.New(testprog.File(b, "../testdata/fib.blk"), map[string]int64{"N": 4})
	if err != nil {
		b.Fatal(err)
	}
	for _, algo := range []Algorithm{DFS, SDPOR, CSDPOR, ODPOR, ODPOB, ODPCS, ODPCSO} {
		b.Run(string(algo), func(b *testing.B) {
			states := benchExplore(b, m, Options{Algo: algo, MaxStates: 200000})
			b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkExploreCells reports the cost per event of the static
// dependency's array cells (eventSets: an event of a block with fixed
// indices gets sets of its own) against whole arrays, with odpor on DBP
// (N = 4, whose blocks all index their arrays by their param), both runs
// bounded to the same number of events.
func BenchmarkExploreCells(b *testing.B) {
	m, err := interp.New(testprog.File(b, "../testdata/bench/dbp.blk"), map[string]int64{"N": 4})
	if err != nil {
		b.Fatal(err)
	}
	for _, whole := range []bool{false, true} {
		name := map[bool]string{false: "cells", true: "whole"}[whole]
		b.Run(name, func(b *testing.B) {
			benchExplore(b, m, Options{Algo: ODPOR, WholeArrays: whole, MaxStates: 30000})
		})
	}
}

// BenchmarkExploreDep reports the cost per event of sdpor's two
// dependencies on PS (N = 5, bounded to the same number of events): the
// static sets, and the dynamic ones, which run each event's block
// abstractly from its locals once (localSets, then kept by block and
// locals).
func BenchmarkExploreDep(b *testing.B) {
	m, err := interp.New(testprog.File(b, "../testdata/bench/ps.blk"), map[string]int64{"N": 5})
	if err != nil {
		b.Fatal(err)
	}
	for _, dep := range []DepMode{Static, Locals} {
		b.Run(dep.String(), func(b *testing.B) {
			benchExplore(b, m, Options{Algo: SDPOR, Dep: dep, MaxStates: 100000})
		})
	}
}

// benchExplore explores m with opts b.N times, reports the time per event
// and returns the events explored.
func benchExplore(b *testing.B, m *interp.Machine, opts Options) (states int) {
	for i := 0; i < b.N; i++ {
		r, err := Explore(context.Background(), m, opts)
		if err != nil {
			b.Fatal(err)
		}
		states += r.States
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(states), "ns/event")
	return states
}

// BenchmarkExploreSplit reports explorations on one worker and on two
// (Options.Workers) over programs of 10^5 traces and more: dfs on fib (N =
// 4, 972,972 traces) and lastzero (N = 5, 3,487,880 traces), sdpor on qs
// (N = 9, 362,880 traces) and pi (N = 9). The speedup is the ratio of the
// two rows' ns/op (sdpor's counts may differ between them); it needs two
// free cores.
func BenchmarkExploreSplit(b *testing.B) {
	for _, p := range []struct {
		name, file string
		algo       Algorithm
		n          int64
	}{{"fib", "../testdata/bench/fib.blk", DFS, 4}, {"lastzero", "../testdata/bench/lastzero.blk", DFS, 5},
		{"qs-sdpor", "../testdata/bench/qs.blk", SDPOR, 9}, {"pi-sdpor", "../testdata/bench/pi.blk", SDPOR, 9}} {
		m, err := interp.New(testprog.File(b, p.file), map[string]int64{"N": p.n})
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/j%d", p.name, w), func(b *testing.B) {
				states := benchExplore(b, m, Options{Algo: p.algo, Workers: w})
				b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}

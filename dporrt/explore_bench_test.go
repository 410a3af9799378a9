package dporrt

import (
	"testing"
)

// BenchmarkExplore reports events per second of dfs, sdpor, csdpor, odpor
// and odpor-ob on
// fib (N = 4: every res process conflicts, so interleavings grow fast).
// csdpor's events include those of the reversed orders it runs. cdpor needs
// an IC file; package synth measures it.
func BenchmarkExplore(b *testing.B) {
	m, err := New(compileFile(b, "../testdata/fib.blk"), map[string]int64{"N": 4})
	if err != nil {
		b.Fatal(err)
	}
	for _, algo := range []Algorithm{DFS, SDPOR, CSDPOR, ODPOR, ODPOB} {
		b.Run(string(algo), func(b *testing.B) {
			states := 0
			for i := 0; i < b.N; i++ {
				r, err := Explore(m, Options{Algo: algo, MaxStates: 200000})
				if err != nil {
					b.Fatal(err)
				}
				states += r.States
			}
			b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(states), "ns/event")
		})
	}
}

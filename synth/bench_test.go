package synth

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// BenchmarkSynth synthesizes each testdata program with 1 and 2 workers and
// reports the median time per pair besides the total.
func BenchmarkSynth(b *testing.B) {
	files, _ := filepath.Glob("../testdata/*.blk")
	for _, file := range files {
		p := testprog.File(b, file)
		for _, j := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/j%d", filepath.Base(file), j), func(b *testing.B) {
				var times []time.Duration
				pairs := 0
				for i := 0; i < b.N; i++ {
					_, st, err := Run(context.Background(), p, Options{Workers: j})
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, st.PairTimes...)
					pairs = st.Pairs
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/pair-median")
				b.ReportMetric(float64(pairs), "pairs")
			})
		}
	}
}

// BenchmarkExploreICs reports events per second of the algorithms that
// use an IC file (cdpor, codpor, codpor-ob) on fib (N = 4), the program
// dporrt's BenchmarkExplore measures the others on; the ICs are
// synthesized once, outside the timing.
func BenchmarkExploreICs(b *testing.B) {
	p := testprog.File(b, "../testdata/fib.blk")
	ics, _, err := Run(context.Background(), p, Options{})
	if err != nil {
		b.Fatal(err)
	}
	m, err := interp.New(p, map[string]int64{"N": 4})
	if err != nil {
		b.Fatal(err)
	}
	for _, algo := range []dporrt.Algorithm{dporrt.CDPOR, dporrt.CODPOR, dporrt.CODPOB} {
		b.Run(string(algo), func(b *testing.B) {
			states := 0
			for i := 0; i < b.N; i++ {
				r, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: algo, ICs: ics, MaxStates: 200000})
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

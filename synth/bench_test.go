package synth

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkSynth synthesizes each testdata program with 1 and 2 workers and
// reports the median time per pair besides the total.
func BenchmarkSynth(b *testing.B) {
	files, _ := filepath.Glob("../testdata/*.blk")
	for _, file := range files {
		p := compileFile(b, file)
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

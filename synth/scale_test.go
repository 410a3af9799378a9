package synth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
)

// scaleProgram generates one proc p(v) of k statements of a family, ending
// with r = v:
//
//	ifs:   if (gi > v) { gi = v; }            over k distinct globals
//	array: if (a[i] > v) { a[i] = v; }        k branches on one array a[k]
//	chain: int t1 = t0 + 1; ... g = tk;       k temporaries, t0 = g + v
//
// In each family the two processes' effects on the g's (or on a) commute
// (a minimum with v in each cell, or additions), and r = v does not unless
// v == v': the self-pair's only constraint is v == v', whatever k.
func scaleProgram(family string, k int) string {
	var b strings.Builder
	switch family {
	case "ifs":
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "global int g%d;\n", i)
		}
		b.WriteString("global int r;\nproc p(int v) {\n")
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "  if (g%d > v) { g%d = v; }\n", i, i)
		}
	case "array":
		fmt.Fprintf(&b, "global int a[%d];\nglobal int r;\nproc p(int v) {\n", k)
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "  if (a[%d] > v) { a[%d] = v; }\n", i, i)
		}
	case "chain":
		b.WriteString("global int g, r;\nproc p(int v) {\n  int t0 = g + v;\n")
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "  int t%d = t%d + 1;\n", i, i-1)
		}
		fmt.Fprintf(&b, "  g = t%d;\n", k)
	}
	b.WriteString("  r = v;\n}\n")
	return b.String()
}

var scaleFamilies = []string{"ifs", "array", "chain"}

// scalePair synthesizes the self-pair of the program of family and k with
// encoding enc, bounded by opts's Timeout and Budget.
func scalePair(t testing.TB, family string, k int, enc encode.Encoding, opts Options) (*ic.Pair, *Stats) {
	src := scaleProgram(family, k)
	p := testprog.Named(t, family+".blk", src)
	opts.Workers, opts.Encoding = 1, enc
	f, st, err := Run(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := f.Pair("p", "p")
	return pr, st
}

// TestScale: at k = 16 the merged encoding finds each family's self-pair
// exactly: {v == v'}. Each pair is bounded by Z3's resources, not by time,
// so the answer does not depend on the machine or its load: 10 million
// units, where ifs and array spend about 70,000 and chain 800.
func TestScale(t *testing.T) {
	t.Parallel()
	for _, fam := range scaleFamilies {
		pr, _ := scalePair(t, fam, 16, encode.Merged, Options{Budget: 10_000_000})
		var got []string
		for _, c := range pr.Constraints {
			got = append(got, c.Text)
		}
		if strings.Join(got, "; ") != "v == v'" || !pr.Exact || pr.Status != ic.Conditional {
			t.Errorf("%s, k = 16: I(p, p') = %v [%s, exact %v, %s], want {v == v'}, exact", fam, got, pr.Status, pr.Exact, pr.Reason)
		}
	}
}

func pathsMaxK() int {
	if n, err := strconv.Atoi(os.Getenv("ICGEN_SCALE_PATHS_MAXK")); err == nil {
		return n
	}
	return 8
}

// BenchmarkScale synthesizes the self-pair of each family for growing k
// with both encodings: time per pair, allocated bytes and the peak heap,
// and whether the pair came out exact (1) or unknown (0).
// Run with -benchtime=1x; ICGEN_SCALE_PATHS_MAXK bounds the paths runs.
func BenchmarkScale(b *testing.B) {
	for _, fam := range scaleFamilies {
		for _, k := range []int{4, 8, 12, 16, 24, 32} {
			for _, enc := range []encode.Encoding{encode.Merged, encode.Paths} {
				b.Run(fmt.Sprintf("%s/k=%d/%s", fam, k, enc), func(b *testing.B) {
					if enc == encode.Paths && fam != "chain" && k > pathsMaxK() {
						// T(a.b) alone has 2^k x 2^k transitions, all built
						// before any limit applies (chain has one path).
						b.Skipf("paths beyond k = %d", pathsMaxK())
					}
					b.ReportAllocs()
					var peak uint64
					done := make(chan struct{})
					go func() {
						var ms runtime.MemStats
						for {
							select {
							case <-done:
								return
							case <-time.After(20 * time.Millisecond):
								runtime.ReadMemStats(&ms)
								if ms.HeapAlloc > peak {
									peak = ms.HeapAlloc
								}
							}
						}
					}()
					var pr *ic.Pair
					for i := 0; i < b.N; i++ {
						pr, _ = scalePair(b, fam, k, enc, Options{Timeout: 10 * time.Minute})
					}
					close(done)
					exact := 0.0
					if pr.Exact {
						exact = 1
					}
					b.ReportMetric(exact, "exact")
					b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
					if pr.Status == ic.Unknown {
						b.Logf("%s k=%d %s: unknown: %s", fam, k, enc, pr.Reason)
					}
				})
			}
		}
	}
}

// BenchmarkCorpus synthesizes every program of testdata, testdata/bench
// and testdata/regress with one worker, with both encodings, and reports
// the median and 90th percentile of the time per pair over all pairs and
// the total printed size of the constraints.
func BenchmarkCorpus(b *testing.B) {
	var files []string
	for _, pat := range []string{"../testdata/*.blk", "../testdata/bench/*.blk", "../testdata/regress/*.blk"} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	for _, enc := range []encode.Encoding{encode.Merged, encode.Paths} {
		b.Run(enc.String(), func(b *testing.B) {
			var times []time.Duration
			size, pairs, exact, unknown := 0, 0, 0, 0
			for i := 0; i < b.N; i++ {
				times, size, pairs, exact, unknown = times[:0], 0, 0, 0, 0
				for _, file := range files {
					f, st, err := Run(context.Background(), testprog.File(b, file), Options{Workers: 1, Encoding: enc})
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, st.PairTimes...)
					for _, pr := range f.Pairs {
						pairs++
						if pr.Exact {
							exact++
						}
						if pr.Status == ic.Unknown {
							unknown++
						}
						for _, c := range pr.Constraints {
							size += len(c.Text)
						}
					}
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/pair-median")
			b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "ms/pair-p90")
			b.ReportMetric(float64(size), "constraint-bytes")
			b.ReportMetric(float64(pairs), "pairs")
			b.ReportMetric(float64(exact), "exact")
			b.ReportMetric(float64(unknown), "unknown")
		})
	}
}

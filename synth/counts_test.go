package synth

import (
	"context"
	"os"
	"testing"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// BenchmarkGeneratedCounts measures what the algorithms that use ICs and
// their bounds explore on the programs of the random differential test
// (seeds 1 to 300, or progen.Soak's range): the complete traces,
// sleep-set-blocked traces and states of each, summed, as metrics, and it
// logs each program where codpor explores more complete traces than cdpor
// or odpor-cs, or codpor-ob more than odpor-cs-ob, or codpor more runs
// than cdpor, complete and blocked together; it counts the programs where
// codpor executes more states than cdpor or odpor-cs, and those where
// odpor-cs, which uses no ICs, explores more complete traces than csdpor
// (the optimal loop's context-sensitive pruning behind the source loop's,
// which no constraint enters; docs/algorithms.md gives these counts). Each
// pair has the random test's budget (randomPair), which does not depend on
// the machine or its load, so the counts do not either; the unknown-pairs
// metric counts the pairs that run out of it with the pairs not modeled. ICGEN_ASSUME_NO_OVERFLOW=1 runs
// cdpor, codpor and codpor-ob with Options.AssumeNoOverflow, the papers'
// setting:
//
//	go test ./synth -run '^$' -bench GeneratedCounts -benchtime 1x -v -timeout 30m
//	ICGEN_SOAK_FROM=301 ICGEN_SOAK=1000 go test ./synth -run '^$' -bench GeneratedCounts -benchtime 1x -v -timeout 2h
//	ICGEN_ASSUME_NO_OVERFLOW=1 go test ./synth -run '^$' -bench GeneratedCounts -benchtime 1x -v -timeout 30m
func BenchmarkGeneratedCounts(b *testing.B) {
	algos := []dporrt.Algorithm{dporrt.CDPOR, dporrt.CODPOR, dporrt.ODPCS, dporrt.CODPOB, dporrt.ODPCSO, dporrt.CSDPOR}
	first, last := progen.Soak(300)
	unguarded := os.Getenv("ICGEN_ASSUME_NO_OVERFLOW") == "1"
	for range b.N {
		sum := map[dporrt.Algorithm]dporrt.Stats{}
		programs := 0
		statesAbove := map[dporrt.Algorithm]int{} // programs where codpor executes more states
		csAbove, csBelow := 0, 0                  // programs where odpor-cs explores more (fewer) complete traces than csdpor
		unknown := 0                              // pairs without constraints (out of time, or not modeled)
		for seed := first; seed <= last; seed++ {
			p, errs := lang.Compile("gen.blk", []byte(progen.Generate(seed, randomOptions(seed))))
			if errs != nil {
				b.Fatalf("seed %d does not compile", seed)
			}
			m, err := interp.New(p, nil)
			if err != nil {
				b.Fatalf("seed %d: %v", seed, err)
			}
			if oracle, _ := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.DFS, MaxStates: 100000}); oracle.Cut {
				continue // as the differential test: too big for dfs
			}
			ics, st, err := Run(context.Background(), p, randomPair)
			if err != nil {
				b.Fatalf("seed %d: synth: %v", seed, err)
			}
			unknown += st.Unknown
			programs++
			got := map[dporrt.Algorithm]dporrt.Stats{}
			for _, a := range algos {
				opts := dporrt.Options{Algo: a}
				if info, _ := dporrt.Lookup(a); info.NeedsICs {
					opts.ICs, opts.AssumeNoOverflow = ics, unguarded
				}
				r, err := dporrt.Explore(context.Background(), m, opts)
				if err != nil {
					b.Fatalf("seed %d: %s: %v", seed, a, err)
				}
				s := sum[a]
				s.Traces, s.Blocked, s.States = s.Traces+r.Traces, s.Blocked+r.Blocked, s.States+r.States
				sum[a] = s
				got[a] = r.Stats
			}
			for _, c := range [][2]dporrt.Algorithm{{dporrt.CODPOR, dporrt.CDPOR}, {dporrt.CODPOR, dporrt.ODPCS}, {dporrt.CODPOB, dporrt.ODPCSO}} {
				if got[c[0]].Traces > got[c[1]].Traces {
					b.Logf("seed %d: %s %d complete traces, %s %d", seed, c[0], got[c[0]].Traces, c[1], got[c[1]].Traces)
				}
			}
			co, cd := got[dporrt.CODPOR], got[dporrt.CDPOR]
			if co.Traces+co.Blocked > cd.Traces+cd.Blocked {
				b.Logf("seed %d: codpor %d runs, cdpor %d (complete and blocked)", seed, co.Traces+co.Blocked, cd.Traces+cd.Blocked)
			}
			for _, a := range []dporrt.Algorithm{dporrt.CDPOR, dporrt.ODPCS} {
				if co.States > got[a].States {
					statesAbove[a]++
				}
			}
			switch opt, src := got[dporrt.ODPCS].Traces, got[dporrt.CSDPOR].Traces; {
			case opt > src:
				csAbove++
				b.Logf("seed %d: odpor-cs %d complete traces, csdpor %d", seed, opt, src)
			case opt < src:
				csBelow++
			}
		}
		b.ReportMetric(float64(programs), "programs")
		b.ReportMetric(float64(unknown), "unknown-pairs")
		b.ReportMetric(float64(statesAbove[dporrt.CDPOR]), "codpor-states-above-cdpor")
		b.ReportMetric(float64(statesAbove[dporrt.ODPCS]), "codpor-states-above-odpor-cs")
		b.ReportMetric(float64(csAbove), "odpor-cs-above-csdpor")
		b.ReportMetric(float64(csBelow), "odpor-cs-below-csdpor")
		for _, a := range algos {
			b.ReportMetric(float64(sum[a].Traces), string(a)+"-traces")
			b.ReportMetric(float64(sum[a].Blocked), string(a)+"-blocked")
			b.ReportMetric(float64(sum[a].States), string(a)+"-states")
		}
	}
}

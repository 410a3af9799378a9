package dporrt

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
)

// splitCorpus is the programs the split is checked on: the differential
// corpus (testdata, the regressions, the bench variants at small sizes)
// and the benchmarks at sizes with thousands of traces.
func splitCorpus(t *testing.T) map[string]*interp.Machine {
	t.Helper()
	var files []string
	for _, g := range []string{"../testdata/*.blk", "../testdata/regress/*.blk", "testdata/regress/*.blk", "../bench/variants/*.blk", "../testdata/bench/*.blk"} {
		fs, _ := filepath.Glob(g)
		files = append(files, fs...)
	}
	small := map[string]map[string]int64{"fib.blk": {"N": 3}, "prodcons.blk": {"ITEMS": 1, "SIZE": 1},
		"dbp-local.blk": {"N": 2}, "qs-nocount.blk": {"N": 3}, "fr-pos.blk": {"N": 3}, "bb-local.blk": {"N": 2}}
	out := map[string]*interp.Machine{}
	for _, file := range files {
		name := filepath.Base(file)
		if filepath.Base(filepath.Dir(file)) == "bench" {
			name = "bench/" + name
		}
		m, err := interp.New(testprog.File(t, file), small[filepath.Base(file)])
		if err != nil {
			t.Fatal(err)
		}
		// Endless loops end at the step budget: a smaller one keeps
		// their events cheap, and every run compared has the same.
		m.MaxSteps = 10000
		out[name] = m
	}
	return out
}

// sameRun reports how two results of one algorithm differ in what a split
// keeps: the final states and findings always; with exact, the complete
// traces; with all, every count and every finding's schedule and count.
func sameRun(a, b *Result, exact, all bool) string {
	if ok, why := a.Agrees(b); !ok {
		return why
	}
	if exact && a.Traces != b.Traces {
		return fmt.Sprintf("%d traces vs %d", a.Traces, b.Traces)
	}
	if !all {
		return ""
	}
	if a.Stats.States != b.Stats.States || a.Blocked != b.Blocked || a.Longest != b.Longest {
		return fmt.Sprintf("stats %+v vs %+v", a.Stats, b.Stats)
	}
	for i := range a.Findings {
		f, g := a.Findings[i], b.Findings[i]
		if f.Count != g.Count || !slices.Equal(f.Schedule, g.Schedule) {
			return fmt.Sprintf("finding %d: %d at %v vs %d at %v", i, f.Count, f.Schedule, g.Count, g.Schedule)
		}
	}
	for i := range a.Finals {
		if !a.Finals[i].Equal(b.Finals[i]) {
			return fmt.Sprintf("final state %d differs in order", i)
		}
	}
	return ""
}

// TestSplitAgrees explores every program of the corpus with each algorithm
// that splits, on one worker and on two and three (see checkSplit).
func TestSplitAgrees(t *testing.T) {
	for name, m := range splitCorpus(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if !checkSplit(t, m, 2, 3) {
				t.Skip("too big for dfs")
			}
		})
	}
}

// TestSplitRandom does what TestSplitAgrees does on generated programs
// (internal/progen), with and without awaits, on two workers.
func TestSplitRandom(t *testing.T) {
	first, last := testsize.Seeds(30, 300)
	for _, opts := range randomOptions {
		for seed := first; seed <= last; seed++ {
			src := progen.Generate(seed, opts)
			m, err := interp.New(testprog.Source(t, src), nil)
			if err != nil {
				t.Fatalf("seed %d (%s): %v", seed, opts, err)
			}
			m.MaxSteps = 10000
			if t.Run(fmt.Sprintf("seed%d-%s", seed, opts), func(t *testing.T) { checkSplit(t, m, 2) }) {
				continue
			}
			t.Logf("program:\n%s", src)
		}
	}
}

// checkSplit explores m with each algorithm that splits, on one worker and
// on each number of workers, and checks what the split promises
// (split.go, share.go): dfs the same result in every count, schedule and
// order; sdpor the same final states and findings, and without awaits the
// same complete traces; each also against dfs. It returns false, checking
// nothing, when dfs does not finish within 300,000 events.
func checkSplit(t *testing.T, m *interp.Machine, workers ...int) bool {
	t.Helper()
	oracle, err := Explore(context.Background(), m, Options{Algo: DFS, MaxStates: 300000})
	if err != nil {
		t.Fatal(err)
	}
	if oracle.Cut {
		return false
	}
	for _, info := range Algorithms {
		if info.Parallel == Serial {
			continue
		}
		one, err := Explore(context.Background(), m, Options{Algo: info.Name})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range workers {
			r, err := Explore(context.Background(), m, Options{Algo: info.Name, Workers: n})
			if err != nil {
				t.Fatalf("%s on %d workers: %v", info.Name, n, err)
			}
			if ok, why := r.Agrees(oracle); !ok {
				t.Errorf("%s on %d workers differs from dfs: %s", info.Name, n, why)
			}
			// Without awaits sdpor explores one trace per class of traces,
			// in whatever order its back sets grow: the same count.
			exact := info.Parallel == FixedSplit || !m.Prog.HasAwait()
			if why := sameRun(r, one, exact, info.Parallel == FixedSplit); why != "" {
				t.Errorf("%s on %d workers differs from one worker: %s", info.Name, n, why)
			}
			if info.Parallel == SharedSplit {
				// Levels published as often as they can be.
				r, err := Explore(context.Background(), m, Options{Algo: info.Name, Workers: n, eagerPublish: true})
				if err != nil {
					t.Fatal(err)
				}
				if why := sameRun(r, one, exact, false); why != "" {
					t.Errorf("%s on %d workers publishing eagerly differs from one worker: %s", info.Name, n, why)
				}
			}
			if len(one.Findings) > 0 {
				checkStop(t, m, info, n, one)
			}
		}
	}
	return true
}

// checkStop checks that with StopOnViolation the workers stop for a
// finding: on a fixed split, the one one worker stops at, with its
// schedule; on a shared one, one of those of all, the full run of one
// worker.
func checkStop(t *testing.T, m *interp.Machine, info Info, workers int, all *Result) {
	t.Helper()
	algo := info.Name
	one, err := Explore(context.Background(), m, Options{Algo: algo, StopOnViolation: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Explore(context.Background(), m, Options{Algo: algo, StopOnViolation: true, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Cut || r.CutBy != "violation" {
		t.Errorf("%s on %d workers, stopping on a violation: cut %v by %q", algo, workers, r.Cut, r.CutBy)
	}
	if info.Parallel == SharedSplit {
		if len(r.Findings) == 0 {
			t.Errorf("%s on %d workers, stopping on a violation: no finding", algo, workers)
		}
		for _, f := range r.Findings {
			if !slices.ContainsFunc(all.Findings, func(g Finding) bool { return findingKey(g) == findingKey(f) }) {
				t.Errorf("%s on %d workers, stopping on a violation: finding %s that one worker does not make", algo, workers, findingKey(f))
			}
		}
		return
	}
	if len(r.Findings) != len(one.Findings) {
		t.Fatalf("%s on %d workers, stopping on a violation: %d findings, one worker %d", algo, workers, len(r.Findings), len(one.Findings))
	}
	for i, f := range one.Findings {
		g := r.Findings[i]
		if findingKey(f) != findingKey(g) || f.Count != g.Count || !slices.Equal(f.Schedule, g.Schedule) {
			t.Errorf("%s on %d workers, stopping on a violation: finding %d at %v (%d), one worker at %v (%d)", algo, workers, i, g.Schedule, g.Count, f.Schedule, f.Count)
		}
	}
}

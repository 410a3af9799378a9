package dporrt

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// differential explores m with dfs and with every other algorithm of the
// registry in each dependency mode it takes, and fails unless each reaches
// the final states and findings dfs reaches (an observers algorithm: the
// findings, and the final states too when it can be told to observe them).
// ics, when set, is given to the algorithms that use an IC file. It
// returns false, checking nothing, when dfs does not finish within bound
// events.
func differential(t *testing.T, name string, m *interp.Machine, bound int, ics *ic.File) bool {
	t.Helper()
	oracle, err := Explore(context.Background(), m, Options{Algo: DFS, MaxStates: bound})
	if err != nil {
		t.Fatal(err)
	}
	if oracle.Cut {
		return false // too big to be an oracle
	}
	traces := map[string]int{} // by algorithm, dependency and ObserveFinal
	key := func(a Algorithm, o Options) string { return fmt.Sprint(a, o.Dep, o.ObserveFinal) }
	for _, info := range Algorithms {
		if info.Loop == LoopDFS {
			continue
		}
		for _, dep := range []DepMode{Locals, Static} {
			opts := Options{Algo: info.Name, Dep: dep}
			if info.NeedsICs {
				opts.ICs = ics
			}
			runs := []Options{opts}
			if info.Observers {
				o := opts
				o.ObserveFinal = true
				runs = append(runs, o)
			}
			for _, o := range runs {
				label := fmt.Sprintf("%s: %s (%s dependency%s)", name, info.Name, dep, map[bool]string{true: ", with ICs"}[o.ICs != nil])
				r, err := Explore(context.Background(), m, o)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				if ok, why := agrees(info, o, r, oracle); !ok {
					t.Errorf("%s differs from dfs: %s", label, why)
				}
				if r.Traces > oracle.Traces {
					t.Errorf("%s explores %d traces, more than dfs's %d", label, r.Traces, oracle.Traces)
				}
				if info.Loop == LoopOptimal && !m.Prog.HasAwait() && r.Blocked != 0 {
					t.Errorf("%s explores %d sleep-set-blocked traces in a program without awaits", label, r.Blocked)
				}
				traces[key(info.Name, o)] = r.Traces
				for _, bound := range info.AtMost {
					if info.NeedsICs && o.ICs == nil {
						break
					}
					if b, ok := traces[key(bound, o)]; ok && r.Traces > b {
						t.Errorf("%s explores %d traces, more than %s's %d", label, r.Traces, bound, b)
					}
				}
			}
		}
	}
	return true
}

// agrees compares the result r of the run opts of algorithm info with
// dfs's: the final states and the findings, or only the findings for an
// observers algorithm not told to observe the final state (it preserves
// the violations and the values read, not every final state).
func agrees(info Info, opts Options, r, oracle *Result) (bool, string) {
	if info.PreservesFinals(opts) {
		return r.Agrees(oracle)
	}
	return r.AgreesOnFindings(oracle)
}

// TestDifferentialTestdata compares every algorithm with dfs on the example
// programs, on the variants of the benchmarks in bench/variants (at small
// sizes), and on testdata/regress and dporrt/testdata/regress (programs
// that exercise the runtime alone, kept apart so that synthesis does not
// run on them), programs on which an algorithm once
// missed a final state or a finding (each says why in its header; some
// were generated, and are kept whole there).
func TestDifferentialTestdata(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	regress, _ := filepath.Glob("../testdata/regress/*.blk")
	own, _ := filepath.Glob("testdata/regress/*.blk") // the runtime's alone (no synthesis runs on them)
	variants, _ := filepath.Glob("../bench/variants/*.blk")
	if len(variants) == 0 {
		t.Fatal("no programs in bench/variants")
	}
	files = append(append(append(files, regress...), own...), variants...)
	small := map[string]map[string]int64{"fib.blk": {"N": 3}, "prodcons.blk": {"ITEMS": 1, "SIZE": 1},
		"dbp-local.blk": {"N": 2}, "qs-nocount.blk": {"N": 3}, "fr-pos.blk": {"N": 3}, "bb-local.blk": {"N": 2}}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			m, err := interp.New(testprog.File(t, file), small[filepath.Base(file)])
			if err != nil {
				t.Fatal(err)
			}
			bound := 300000
			if filepath.Base(file) == "dbp-few.blk" {
				bound = 700000 // 644,656 states for dfs, under a second
			}
			if !differential(t, file, m, bound, nil) {
				t.Skip("dfs does not finish within the bound")
			}
		})
	}
}

// TestExample5 checks the CDPOR paper's Example 5 figures the algorithms
// that need no IC file: on Fig. 1 from z = -2, x = -2, sdpor with the
// syntactic dependency explores the 6 complete sequences, as dfs does,
// and so it does with the dynamic one: q's branch is decided by z, a
// global, so its event may read x and write z wherever it runs (cdpor's 1
// is checked in package synth, which makes ICs). csdpor
// explores 2, p.q.r and q.r.p, as the paper's Example 2 has CSDPOR do (see
// TestCSDPORFig1).
func TestExample5(t *testing.T) {
	m, err := interp.New(testprog.File(t, "../testdata/fig1.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		algo   Algorithm
		dep    DepMode
		traces int
	}{{DFS, Locals, 6}, {SDPOR, Static, 6}, {SDPOR, Locals, 6}, {CSDPOR, Static, 2}} {
		r, _ := Explore(context.Background(), m, Options{Algo: tc.algo, Dep: tc.dep})
		if r.Traces != tc.traces || len(r.Finals) != 1 {
			t.Errorf("%s (dep %d): %d traces, %d final states; want %d traces, 1 final state", tc.algo, tc.dep, r.Traces, len(r.Finals), tc.traces)
		}
	}
	// Example 4: from z = -1 the final z differs between orders: 2 final states.
	m4, _ := interp.New(testprog.File(t, "../testdata/fig1.blk"), map[string]int64{"z": -1})
	for _, info := range Algorithms {
		algo := info.Name
		if r, _ := Explore(context.Background(), m4, Options{Algo: algo}); len(r.Finals) != 2 {
			t.Errorf("%s from z = -1: %d final states, want 2", algo, len(r.Finals))
		}
	}
}

// randomOptions are the generator's options the random differential
// cycles through, by seed: every feature; no funcs or runtime errors, so
// that more programs end in states rather than errors; and no awaits,
// where no trace is sleep-set blocked and loops with runtime errors end
// more traces (odpor-ob missed a final state of such a program:
// testdata/regress/ob-must-write.blk).
var randomOptions = []progen.Options{
	progen.Default(),
	{Procs: 4, MaxBlocks: 3, Await: true, Spawn: true, Arrays: true, Loops: true, Asserts: true},
	noAwait(progen.Default()),
}

// noAwait returns o without awaits.
func noAwait(o progen.Options) progen.Options {
	o.Await = false
	return o
}

// TestDifferentialRandom compares every algorithm of the registry, in
// both dependency modes, with dfs on generated programs (internal/progen:
// yields, awaits, spawns, asserts, arrays, funcs, loops across yields,
// runtime errors): 40 with -short (make test), 400 without (make
// test-full), more with ICGEN_SOAK=N (internal/testsize), and versions of
// them with statements deleted (progen.Mutants: one for each of the first
// 100). Programs too big for dfs
// are skipped; they must be a minority. A failing program is printed
// whole, with its seed and options, for replay.
func TestDifferentialRandom(t *testing.T) {
	const maxFailing = 10 // failing programs a shard reports before it stops
	first, last := testsize.Seeds(40, 400)
	n := int(last - first + 1)
	const shards = 2
	ran, cut := make([]int, shards), make([]int, shards)
	t.Run("shards", func(t *testing.T) {
		for w := range shards {
			t.Run(strconv.Itoa(w), func(t *testing.T) {
				t.Parallel()
				// Each program is a subtest of its own, so that a soak goes
				// on past a failing one (one program must not hide the rest
				// of its shard); it stops after maxFailing of them.
				failing := 0
				check := func(name, what string, m *interp.Machine, src string, count *int) bool {
					ok := t.Run(name, func(t *testing.T) {
						if differential(t, what, m, 100000, nil) {
							*count++
						}
						if t.Failed() {
							t.Errorf("the program of %s:\n%s", what, src)
						}
					})
					if !ok {
						failing++
					}
					return failing < maxFailing
				}
				for seed := first + uint64(w); seed <= last; seed += shards {
					opts := randomOptions[seed%uint64(len(randomOptions))]
					src := progen.Generate(seed, opts)
					m, err := interp.New(testprog.Source(t, src), nil)
					if err != nil {
						t.Fatalf("seed %d: %v\n%s", seed, err, src)
					}
					if !check(fmt.Sprintf("seed%d", seed), fmt.Sprintf("seed %d (options %s)", seed, opts), m, src, &ran[w]) {
						return
					}
					for k := range progen.Mutants(seed, 100) {
						del := progen.Mutant(src, seed, k)
						p, errs := lang.Compile(fmt.Sprintf("gen%d-%d.blk", seed, k), []byte(del))
						if errs != nil {
							continue // a use of a deleted local
						}
						m, err := interp.New(p, nil)
						if err != nil {
							continue // an init that fails
						}
						if !check(fmt.Sprintf("seed%d-cut%d", seed, k), fmt.Sprintf("seed %d (options %s) cut down (progen.Mutant %d)", seed, opts, k), m, del, &cut[w]) {
							return
						}
					}
				}
			})
		}
	})
	total := ran[0] + ran[1]
	t.Logf("%d of %d generated programs explored by every algorithm, %d too big for dfs; and %d cut-down versions", total, n, n-total, cut[0]+cut[1])
	if total < n/2 {
		t.Errorf("only %d of %d generated programs were small enough for dfs", total, n)
	}
}

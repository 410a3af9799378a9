package synth

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// runnable reports whether src compiles and its machine starts.
func runnable(src string) bool {
	p, errs := lang.Compile("cut.blk", []byte(src))
	if errs != nil {
		return false
	}
	_, err := interp.New(p, nil)
	return err == nil
}

// randomPair bounds the synthesis of each pair of a generated program by a
// resource budget, so that a program's IC file, and what the algorithms
// explore with it, is the same on every machine and under any load: half
// a million of Z3's units, about 0.3 s on one core here
// (ICGEN_PAIR_BUDGET overrides it). The time bound is a backstop
// (ICGEN_PAIR_TIMEOUT overrides it, 0 for none): a pair that reaches it
// ends as the machine's speed decides.
var randomPair = func() Options {
	o := Options{Workers: 1, Budget: 500_000, Timeout: 10 * time.Second}
	if n, err := strconv.ParseUint(os.Getenv("ICGEN_PAIR_BUDGET"), 10, 64); err == nil {
		o.Budget = n
	}
	if d, err := time.ParseDuration(os.Getenv("ICGEN_PAIR_TIMEOUT")); err == nil && d >= 0 {
		o.Timeout = d
	}
	return o
}()

// TestRandomDifferential explores generated programs (internal/progen)
// with the algorithms that use an IC file, given the ICs synthesized from
// each program, and checks each reaches exactly the final states and
// findings dfs reaches, in no more complete traces than the algorithms
// the registry bounds it by (Info.AtMost: codpor-ob by odpor-ob). Every
// algorithm without synthesized ICs is compared with dfs on more programs
// by dporrt's TestDifferentialRandom, which needs no solver. It runs 40
// programs with -short (make test), 300 without (make test-full), more
// with ICGEN_SOAK=N (internal/testsize). Some programs are also run cut
// down (progen.Mutants: one for each of the first 60, 20 with -short).
// Every fourth program is run again, with the same ICs, from a start with
// one int global near an end of int64 (edgeStart), where runs overflow and
// the pairs' overflow guards count. Failing programs are printed whole,
// named genN (the program of seed N), genN with its start, or genN-cutK
// (its K-th cut-down version, progen.Mutant), for replay.
func TestRandomDifferential(t *testing.T) {
	// Each pair gets randomPair's budget: about 0.3 s a program, the few
	// big ones bounded (one of 12 took 47 s with no bound).
	first, last := testsize.Seeds(40, 300)
	cutUpTo := uint64(testsize.Pick(20, 60)) // the seeds run cut down too
	n := int(last - first + 1)
	const shards = 2 // one per core: synthesis and exploration are CPU-bound
	ran, cut := make([]int, shards), make([]int, shards)
	start := time.Now()
	t.Run("shards", func(t *testing.T) {
		for w := range shards {
			t.Run(strconv.Itoa(w), func(t *testing.T) {
				t.Parallel()
				for seed := first + uint64(w); seed <= last; seed += shards {
					began := time.Now()
					src := progen.Generate(seed, randomOptions(seed))
					if randomDifferential(t, fmt.Sprintf("gen%d", seed), src, edgeStart(seed)) {
						ran[w]++
					}
					for k := range progen.Mutants(seed, cutUpTo) {
						del := progen.Mutant(src, seed, k)
						if !runnable(del) {
							continue // a use of a deleted local, an init that fails
						}
						if randomDifferential(t, fmt.Sprintf("gen%d-cut%d", seed, k), del, nil) {
							cut[w]++
						}
					}
					// A soak's progress, seen with -v as it runs.
					if d := time.Since(began); d > 20*time.Second {
						t.Logf("seed %d took %s", seed, d.Round(time.Second))
					}
					if seed%200 < shards {
						t.Logf("seed %d done, %s since the start", seed, time.Since(start).Round(time.Second))
					}
				}
			})
		}
	})
	total := ran[0] + ran[1]
	t.Logf("%d generated programs explored with synthesized ICs, %d too big for dfs; and %d cut-down versions; %d from a start near an end of int64, %d of them with an overflow", total, n-total, cut[0]+cut[1], edgeRuns.Load(), edgeOverflows.Load())
	if n >= 40 && edgeOverflows.Load() == 0 {
		t.Errorf("no start near an end of int64 overflows: the overflow guards are not tested")
	}
	if total < n/2 {
		t.Errorf("only %d of %d generated programs were small enough", total, n)
	}
}

// randomOptions are the generator's options for a seed: every third
// program has no awaits, where no run of the optimal loop may end sleep-set
// blocked and codpor's reversals may start with the race's own events
// (with awaits they keep E's order, see dporrt's explorer.blocking).
func randomOptions(seed uint64) progen.Options {
	o := progen.Default()
	if seed%3 == 0 {
		o.Await = false
	}
	return o
}

// edgeStart is, for every fourth seed, a start of the generated program
// with one of its int globals near an end of int64 (the global and the
// value chosen by the seed; see randomDifferential), and nil otherwise.
func edgeStart(seed uint64) func(*lang.Program) map[string]int64 {
	if seed%4 != 0 {
		return nil
	}
	edges := []int64{math.MaxInt64, math.MaxInt64 - 2, math.MinInt64, math.MinInt64 + 3, 1 << 62, -(1 << 62), 3037000499}
	return func(p *lang.Program) map[string]int64 {
		var ints []string
		for _, g := range p.Globals {
			if g.Type == lang.Int && g.Size == nil {
				ints = append(ints, g.Name)
			}
		}
		if len(ints) == 0 {
			return nil
		}
		return map[string]int64{ints[int(seed/4)%len(ints)]: edges[int(seed/4)%len(edges)]}
	}
}

// randomDifferential compares the algorithms that use ICs, with the ICs
// synthesized from the program, with dfs on one generated program, named
// in failures by name; false when the program is too big for dfs. With
// edge, the same ICs are checked again from the start it gives, one int
// global near an end of int64: runs overflow there, no proof says they
// cannot (dporrt's OverflowFree), and the pairs' overflow guards decide
// which races are uniform, where from the program's own start the proof
// mostly holds and they ask nothing.
func randomDifferential(t *testing.T, name string, src string, edge func(*lang.Program) map[string]int64) bool {
	t.Helper()
	p, errs := lang.Compile(name+".blk", []byte(src))
	if errs != nil {
		t.Fatalf("%s does not compile:\n%s\n%s", name, errs.Format([]byte(src)), src)
	}
	m, err := interp.New(p, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	oracle, _ := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.DFS, MaxStates: 100000})
	if oracle.Cut {
		return false
	}
	// A pair that runs out of its budget is unknown: sound, and the test
	// stays bounded.
	ics, _, err := Run(context.Background(), p, randomPair)
	if err != nil {
		t.Fatalf("%s: synth: %v", name, err)
	}
	checkICAlgorithms(t, name, src, p, m, oracle, ics)
	if edge == nil {
		return true
	}
	start := edge(p)
	if start == nil {
		return true
	}
	me, err := interp.New(p, start)
	if err != nil {
		t.Fatalf("%s with %v: %v", name, start, err)
	}
	if oe, _ := dporrt.Explore(context.Background(), me, dporrt.Options{Algo: dporrt.DFS, MaxStates: 100000}); !oe.Cut {
		edgeRuns.Add(1)
		if slices.ContainsFunc(oe.Findings, func(f dporrt.Finding) bool { return f.Error != nil && f.Error.Kind == interp.ErrOverflow }) {
			edgeOverflows.Add(1)
		}
		checkICAlgorithms(t, fmt.Sprintf("%s with %v", name, start), src, p, me, oe, ics)
	}
	return true
}

// edgeRuns counts the edge starts randomDifferential checks, and
// edgeOverflows those where dfs finds an overflow.
var edgeRuns, edgeOverflows atomic.Int64

// checkICAlgorithms is randomDifferential's check of every algorithm that
// uses ICs on machine m of program p, against dfs's result oracle.
func checkICAlgorithms(t *testing.T, name, src string, p *lang.Program, m *interp.Machine, oracle *dporrt.Result, ics *ic.File) {
	t.Helper()
	// traces holds the complete traces of each run, by algorithm,
	// dependency and ObserveFinal; bound returns them for algorithm a run
	// as o, running it first when it has not run (a bound without ICs).
	traces := map[string]int{}
	key := func(o dporrt.Options) string { return fmt.Sprint(o.Algo, o.Dep, o.ObserveFinal) }
	bound := func(a dporrt.Algorithm, o dporrt.Options) int {
		o.Algo = a
		if info, _ := dporrt.Lookup(a); !info.NeedsICs {
			o.ICs, o.AssumeNoOverflow = nil, false
		}
		if n, ok := traces[key(o)]; ok {
			return n
		}
		r, err := dporrt.Explore(context.Background(), m, o)
		if err != nil {
			t.Fatalf("%s: %s: %v", name, a, err)
		}
		traces[key(o)] = r.Traces
		return r.Traces
	}
	for _, info := range dporrt.Algorithms {
		if !info.NeedsICs {
			continue
		}
		var runs []dporrt.Options
		for _, dep := range []dporrt.DepMode{dporrt.Locals, dporrt.Static} {
			runs = append(runs, dporrt.Options{Algo: info.Name, Dep: dep, ICs: ics})
			if info.Observers { // the findings alone, then the final states too
				runs = append(runs, dporrt.Options{Algo: info.Name, Dep: dep, ICs: ics, ObserveFinal: true})
			}
		}
		for _, o := range runs {
			r, err := dporrt.Explore(context.Background(), m, o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			agrees := r.AgreesOnFindings
			if info.PreservesFinals(o) {
				agrees = r.Agrees
			}
			if ok, why := agrees(oracle); !ok {
				t.Fatalf("%s: %s (%s dependency, observe final %v) with synthesized ICs differs from dfs: %s\n%s", name, info.Name, o.Dep, o.ObserveFinal, why, src)
			}
			// The optimal loop ends no trace sleep-set blocked where no
			// process awaits (a block that failed is judged where a
			// reversal puts it: dporrt's failsWhere).
			if info.Loop == dporrt.LoopOptimal && !p.HasAwait() && r.Blocked != 0 {
				t.Errorf("%s: %s explores %d sleep-set-blocked traces in a program without awaits\n%s", name, o.Algo, r.Blocked, src)
			}
			traces[key(o)] = r.Traces
			for _, a := range info.AtMost {
				if b := bound(a, o); r.Traces > b {
					t.Errorf("%s: %s (%s dependency, observe final %v) with synthesized ICs explores %d complete traces, more than %s's %d\n%s", name, info.Name, o.Dep, o.ObserveFinal, r.Traces, a, b, src)
				}
			}
		}
	}
}

package synth

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/lang"
)

// randomPrograms is how many generated programs the differential test
// runs: a bounded number in make test, more with ICGEN_SOAK=N.
func randomPrograms(def int) int {
	if n, err := strconv.Atoi(os.Getenv("ICGEN_SOAK")); err == nil && n > 0 {
		return n
	}
	return def
}

// TestRandomDifferential explores generated programs with every algorithm
// (cdpor with synthesized ICs) and checks each reaches exactly the final
// states and findings dfs reaches, on programs of internal/progen (yields,
// awaits, spawns, asserts, arrays, funcs, loops across yields, runtime
// errors). Failing programs are printed whole, with their seed, for replay.
func TestRandomDifferential(t *testing.T) {
	for _, g := range []struct {
		name string
		n    int
		gen  func(seed uint64) string
	}{
		{"progen", randomPrograms(100), func(seed uint64) string { return progen.Generate(seed, progen.Default()) }},
	} {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			ran, skipped := 0, 0
			for seed := uint64(1); seed <= uint64(g.n); seed++ {
				src := g.gen(seed)
				if randomDifferential(t, seed, src) {
					ran++
				} else {
					skipped++
				}
			}
			t.Logf("%s: %d generated programs explored by every algorithm, %d too big for dfs", g.name, ran, skipped)
			if ran < g.n/2 {
				t.Errorf("only %d of %d generated programs were small enough", ran, g.n)
			}
		})
	}
}

// randomDifferential compares every algorithm with dfs on one generated
// program; false when the program is too big for dfs.
func randomDifferential(t *testing.T, seed uint64, src string) bool {
	t.Helper()
	p, errs := lang.Compile(fmt.Sprintf("gen%d.blk", seed), []byte(src))
	if errs != nil {
		t.Fatalf("seed %d does not compile:\n%s\n%s", seed, errs.Format([]byte(src)), src)
	}
	m, err := dporrt.New(p, nil)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	oracle, _ := dporrt.Explore(m, dporrt.Options{Algo: dporrt.DFS, MaxStates: 100000})
	if oracle.Cut {
		return false
	}
	var ics *ic.File
	if seed%4 == 0 { // synthesis costs more than exploration: a quarter of the programs
		// A pair that runs out of time has no constraints: sound, and
		// the test stays bounded.
		f, _, err := Run(context.Background(), p, Options{Workers: 1, Timeout: 2 * time.Second})
		if err != nil {
			t.Fatalf("seed %d: synth: %v", seed, err)
		}
		ics = f
	}
	for _, info := range dporrt.Algorithms[1:] {
		algo := info.Name
		if info.NeedsICs && ics == nil {
			continue
		}
		for _, dep := range []dporrt.DepMode{dporrt.Dynamic, dporrt.Static} {
			r, err := dporrt.Explore(m, dporrt.Options{Algo: algo, Dep: dep, ICs: ics})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if ok, why := r.Agrees(oracle); !ok {
				t.Fatalf("seed %d: %s (dep %d) differs from dfs: %s\n%s", seed, algo, dep, why, src)
			}
		}
	}
	return true
}

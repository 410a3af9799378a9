package synth

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/randprog"
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
// states and findings dfs reaches. Failing programs are printed whole, with
// their seed, for replay.
func TestRandomDifferential(t *testing.T) {
	n := randomPrograms(300)
	ran, skipped := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		src := randprog.Generate(seed, randprog.Options{Awaits: true})
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
			skipped++
			continue
		}
		ran++
		var ics *ic.File
		if seed%4 == 0 { // synthesis costs more than exploration: a quarter of the programs
			f, _, err := Run(context.Background(), p, Options{Workers: 1})
			if err != nil {
				t.Fatalf("seed %d: synth: %v", seed, err)
			}
			ics = f
		}
		for _, algo := range dporrt.Algorithms[1:] {
			if algo == dporrt.CDPOR && ics == nil {
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
	}
	t.Logf("%d generated programs explored by every algorithm, %d too big for dfs", ran, skipped)
	if ran < n/2 {
		t.Errorf("only %d of %d generated programs were small enough", ran, n)
	}
}

package gofront_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/internal/gogen"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/synth"
)

// TestOracleGenerated runs the oracle of TestOracle over random Go
// packages of the modelled subset (internal/gogen): every block is
// modelled, and for every conditional or independent pair, both orders
// run as real Go code from sampled states where a constraint and the
// overflow guard hold end alike; for exact pairs, states outside every
// constraint (where the interpreter runs neither order into an int64
// overflow) show a difference. ICGEN_GO_ORACLE_PACKAGES sets the number
// of packages (seeds 1 to N; 3 under -short, 12 otherwise; ICGEN_SOAK_FROM
// starts them elsewhere than 1), ICGEN_GO_ORACLE_SEED runs one seed
// alone, ICGEN_GO_ORACLE_SAMPLES the states per pair. A failure prints
// the seed and the package.
func TestOracleGenerated(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	t.Parallel()
	t0 := time.Now()
	per := testsize.Count("ICGEN_GO_ORACLE_SAMPLES", 8, 40)
	first, last := testsize.Count("ICGEN_SOAK_FROM", 1, 1), testsize.Count("ICGEN_GO_ORACLE_PACKAGES", 3, 12)
	if s := testsize.Count("ICGEN_GO_ORACLE_SEED", 0, 0); s > 0 {
		first, last = s, s
	}
	// The packages of one go test run: the Go compile is the cost.
	const batch = 10
	tmp := t.TempDir()
	var groups []oracleGroup
	srcs := map[string][]byte{}
	seeds := map[string]int{}
	packages, pairs, holds, outside := 0, 0, 0, 0
	flush := func() {
		if len(groups) == 0 {
			return
		}
		for i := range runOracle(t, groups) {
			name := groups[i].name
			t.Errorf("%s fails (ICGEN_GO_ORACLE_SEED=%d go test -run TestOracleGenerated ./gofront); the package:\n%s", name, seeds[name], srcs[name])
		}
		groups = nil
	}
	for seed := first; seed <= last; seed++ {
		name := fmt.Sprintf("seed %d", seed)
		src := gogen.Generate(uint64(seed), strconv.Itoa(seed))
		srcs[name], seeds[name] = src, seed
		dir := filepath.Join(tmp, strconv.Itoa(seed))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("gen%d.go", seed)), src, 0o644); err != nil {
			t.Fatal(err)
		}
		p, errs, err := gofront.Load(dir)
		if err != nil || errs != nil {
			t.Errorf("%s: the package does not load: %v %v\n%s", name, err, errs, src)
			continue
		}
		modelled := true
		for _, b := range p.Blocks {
			if b.Reason != nil {
				t.Errorf("%s: block %s is not modelled: %v\n%s", name, b.ID, b.Reason, src)
				modelled = false
			}
		}
		if !modelled {
			continue
		}
		// A pair that takes longer is unknown, and left out.
		f, _, err := synth.Run(context.Background(), p.Prog, synth.Options{Workers: 2, Budget: 300_000, Timeout: 3 * time.Second})
		if err != nil {
			t.Errorf("%s: synthesis fails: %v\n%s", name, err, src)
			continue
		}
		cases, h, o := pairCases(t, rand.New(rand.NewPCG(uint64(seed), 2)), p, f, per, true)
		seen := map[string]bool{}
		for _, c := range cases {
			seen[c.pair] = true
		}
		packages++
		pairs += len(seen)
		holds += h
		outside += o
		if len(cases) > 0 {
			groups = append(groups, oracleGroup{name, p, cases})
		}
		if len(groups) == batch {
			flush()
		}
	}
	flush()
	t.Logf("%d packages, %d pairs: %d states where a constraint holds, %d outside every constraint of an exact pair, in %v",
		packages, pairs, holds, outside, time.Since(t0).Round(time.Millisecond))
}

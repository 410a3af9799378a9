package dporrt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// shapesSeeds returns the seeds of progen.Shapes the shape tests run:
// 400, 60 with -short, ICGEN_SHAPES=N for a soak (ICGEN_SOAK_FROM=M to
// start at seed M).
func shapesSeeds() (first, last uint64) {
	first = uint64(testsize.Count("ICGEN_SOAK_FROM", 1, 1))
	return first, first + uint64(testsize.Count("ICGEN_SHAPES", 60, 400)) - 1
}

// TestDifferentialShapes runs the generated programs of the shapes that
// broke explorers from outside (progen.Shapes: waiters whose guards read
// several globals or cells that independent processes write, locks and
// handshakes built from await, copies of one proc, funcs that write called
// from spawn arguments, indices, guards, asserts and loop conditions)
// through every algorithm against dfs (see differential), and holds sdpor
// and odpor to the Mazurkiewicz classes of the static dependency counted
// by brute force (see checkClasses). Before the polls of blocked
// processes (reversePoll), the optimal algorithms missed final states on
// such programs, and odpor classes on 18 of the first 300.
func TestDifferentialShapes(t *testing.T) {
	first, last := shapesSeeds()
	ran, counted := 0, 0
	for seed := first; seed <= last; seed++ {
		src := progen.Generate(seed, progen.Shapes())
		m, err := interp.New(testprog.Source(t, src), nil)
		if err != nil {
			continue // an init that fails
		}
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			name := fmt.Sprintf("shapes seed %d", seed)
			if differential(t, name, m, 100000, nil) {
				ran++
			}
			if checkClasses(t, name, m) {
				counted++
			}
			if t.Failed() {
				t.Logf("the program of %s:\n%s", name, src)
			}
		})
	}
	n := int(last - first + 1)
	t.Logf("%d of %d programs explored by every algorithm against dfs, %d held to their classes", ran, n, counted)
	if ran < n/2 || counted < n/2 {
		t.Errorf("only %d and %d of %d programs were small enough", ran, counted, n)
	}
}

// checkClasses holds sdpor and odpor to the Mazurkiewicz classes of the
// static dependency, counted by brute force (classKeys): each explores a
// complete trace of every class, and odpor exactly one (a process that
// blocks makes it explore sleep-set-blocked traces, never two complete
// traces of one class). It reports false, checking nothing, where the
// program is too big to count.
func checkClasses(t *testing.T, name string, m *interp.Machine) bool {
	t.Helper()
	want, ok := classKeys(m, Static, 100000)
	if !ok {
		return false
	}
	for _, algo := range []Algorithm{SDPOR, ODPOR} {
		got, ok := exploredClasses(t, m, algo, Static, 200000)
		if !ok {
			return false
		}
		missing := 0
		for k := range want {
			if !got[k] {
				missing++
			}
		}
		if missing > 0 {
			t.Errorf("%s: %s misses %d of the %d Mazurkiewicz classes", name, algo, missing, len(want))
		}
		if algo == ODPOR {
			r, err := Explore(context.Background(), m, Options{Algo: ODPOR, Dep: Static})
			if err != nil {
				t.Fatal(err)
			}
			if r.Traces != len(want) {
				t.Errorf("%s: odpor explores %d complete traces, there are %d Mazurkiewicz classes", name, r.Traces, len(want))
			}
		}
	}
	return true
}

// TestMutantsRegress runs mutants of the regression programs
// (testdata/regress and dporrt/testdata/regress; progen.Mutate: a spawn
// duplicated, a literal changed, a process added that writes what an
// await reads, statements deleted) through every algorithm against dfs,
// and holds sdpor and odpor to their classes: 3 mutants of each kind of
// each program, ICGEN_MUTATE=N for a soak; with -short one mutant of each
// program, of one kind in turn. A regression program guards one order;
// its neighbours guard the shape.
func TestMutantsRegress(t *testing.T) {
	n := testsize.Count("ICGEN_MUTATE", 1, 3)
	files, _ := filepath.Glob("../testdata/regress/*.blk")
	own, _ := filepath.Glob("testdata/regress/*.blk")
	files = append(files, own...)
	ran, total := 0, 0
	for fi, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(n) {
			for kind := range 4 {
				if testing.Short() && os.Getenv("ICGEN_MUTATE") == "" && kind != fi%4 {
					continue
				}
				src := progen.Mutate(string(b), seed, kind)
				if src == string(b) {
					continue
				}
				prog, errs := lang.Compile(f, []byte(src))
				if errs != nil {
					continue // a use of a deleted local, a literal out of range
				}
				m, err := interp.New(prog, nil)
				if err != nil {
					continue // an init that fails
				}
				// A step budget of 4096: a mutant's endless loop (or a
				// spin loop of the program's, as in cs-pass-over.blk)
				// errs within it, not after a million steps an event.
				m.MaxSteps = 1 << 12
				total++
				name := fmt.Sprintf("%s-%d-%d", filepath.Base(f), seed, kind)
				t.Run(name, func(t *testing.T) {
					if differential(t, name, m, 100000, nil) {
						ran++
					}
					checkClasses(t, name, m)
					if t.Failed() {
						t.Logf("the mutant:\n%s", src)
					}
				})
			}
		}
	}
	t.Logf("%d mutants of %d programs, %d small enough for dfs", total, len(files), ran)
	if ran < total/2 {
		t.Errorf("only %d of %d mutants were small enough for dfs", ran, total)
	}
}

package dporrt

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// independentProcs is a program of k processes of one block each that
// touch nothing shared: dfs explores all k! orders, a tree whose level j
// has k-j branches, every subtree of a level the same size.
func independentProcs(k int) string {
	return fmt.Sprintf(`param K = %d;
proc p(int i) { int v = i; }
init { int i = 0; while (i < K) { spawn p(i); i = i + 1; } }
`, k)
}

func factorial(k int) int {
	f := 1
	for i := 2; i <= k; i++ {
		f *= i
	}
	return f
}

// permutationStates is the number of events dfs explores on k
// independent processes: k!/(k-j)! at depth j.
func permutationStates(k int) int {
	n := 0
	for j := 1; j <= k; j++ {
		n += factorial(k) / factorial(k-j)
	}
	return n
}

// TestEstimatePermutations checks the estimate where it is exact: on the
// permutation tree of k independent processes, every subtree of a level
// has the same size, so at each leaf dfs reaches (when the sizes of the
// branches under the path are known) the part done is the events
// explored over all the tree's events; after the first j of the k root
// branches, for one, it is j/k plus the new path's own events. At each
// progress report the branch being stepped into is new and its size a
// guess, so the estimate is only close there.
func TestEstimatePermutations(t *testing.T) {
	t.Parallel()
	for _, k := range []int{3, 4, 6} {
		m := newMachine(t, independentProcs(k), nil)
		all := float64(permutationStates(k))
		leaves := 0
		r, err := explore(context.Background(), m, Options{Algo: DFS, Progress: func(Stats) {}}, func(x *explorer, depth int) {
			if x.enabled.n > 0 {
				return
			}
			leaves++
			want := float64(x.res.States) / all
			if got := x.estimate(false); math.Abs(got-want) > 1e-9 {
				t.Errorf("k=%d, leaf %d: estimate %v, want %v", k, leaves, got, want)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Traces != factorial(k) || leaves != factorial(k) || r.States != permutationStates(k) {
			t.Fatalf("k=%d: %d traces, %d leaves checked, %d states; want %d traces and leaves, %d states", k, r.Traces, leaves, r.States, factorial(k), permutationStates(k))
		}
	}

	// 8 processes: 109,600 events, so Progress is called ten times.
	const k8 = 8
	m := newMachine(t, independentProcs(k8), nil)
	reports := 0
	_, err := Explore(context.Background(), m, Options{Algo: DFS, Progress: func(s Stats) {
		reports++
		want := float64(s.States) / float64(permutationStates(k8))
		if math.Abs(s.Estimate-want) > 0.01 {
			t.Errorf("report at %d states: estimate %v, want %v", s.States, s.Estimate, want)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if reports != permutationStates(k8)/progressEvery {
		t.Errorf("%d progress reports, want %d", reports, permutationStates(k8)/progressEvery)
	}
}

// TestEstimateBounds runs every algorithm on the test programs with the
// estimate taken at every level entered and at every progress report: it
// stays in [0, 1], and when the exploration is complete it is 1 at its last
// leaf, where no level of the path has a branch left and every size is
// known (unless the last trace ended in a runtime error, which enters no
// level), and no tree when there is no event. fib runs at N = 4, where
// every algorithm but dfs explores it completely, and, without -short, at
// N = 5 too, where every algorithm stops at the bound after seconds (most
// of this test's time) and only the range is checked.
func TestEstimateBounds(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../testdata/*.blk")
	starts := map[string][]map[string]int64{"fib.blk": {{"N": 4}}, "prodcons.blk": {{"ITEMS": 2, "SIZE": 1}}}
	if !testing.Short() {
		starts["fib.blk"] = append(starts["fib.blk"], map[string]int64{"N": 5})
	}
	for _, file := range files {
		sets := starts[filepath.Base(file)]
		if sets == nil {
			sets = []map[string]int64{nil} // the declared values
		}
		for _, set := range sets {
			m, err := interp.New(testprog.File(t, file), set)
			if err != nil {
				t.Fatal(err)
			}
			estimateBounds(t, fmt.Sprintf("%s %v", filepath.Base(file), set), m)
		}
	}
}

// estimateBounds is TestEstimateBounds on machine m, named prog.
func estimateBounds(t *testing.T, prog string, m *interp.Machine) {
	t.Helper()
	for _, a := range Algorithms {
		name := prog + " " + string(a.Name)
		inRange := func(e float64, where string) {
			if e < 0 || e > 1 || math.IsNaN(e) {
				t.Errorf("%s: estimate %v %s", name, e, where)
			}
		}
		var last float64
		leaf := false
		opts := Options{Algo: a.Name, MaxStates: 100_000, Progress: func(s Stats) {
			inRange(s.Estimate, fmt.Sprintf("at the report after %d states", s.States))
		}}
		r, err := explore(context.Background(), m, opts, func(x *explorer, depth int) {
			last, leaf = x.estimate(false), x.enabled.n == 0
			inRange(last, fmt.Sprintf("at depth %d", depth))
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cut || !leaf || r.States == 0 {
			continue // not complete, or no tree
		}
		if math.Abs(last-1) > 1e-9 {
			t.Errorf("%s: estimate %v at the last leaf of a complete exploration, want 1", name, last)
		}
	}
}

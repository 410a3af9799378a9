package dporrt

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
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

// TestEstimatePermutations checks the estimate where it is exact: on the
// permutation tree of k independent processes, the part of the tree left
// of the current path is the share of the k! traces already completed, at
// every level dfs enters (where it has explored the first j of the k root
// branches, that is j/k) and at every progress report, made while an
// event is being stepped.
func TestEstimatePermutations(t *testing.T) {
	t.Parallel()
	const k = 4
	m := newMachine(t, independentProcs(k), nil)
	all := float64(factorial(k))
	checked := 0
	r, err := explore(m, Options{Algo: DFS}, func(x *explorer, depth int) {
		want := float64(x.res.Traces) / all
		if got := x.estimate(); math.Abs(got-want) > 1e-9 {
			t.Errorf("depth %d after %d traces: estimate %v, want %v", depth, x.res.Traces, got, want)
		}
		if depth == 1 {
			j := x.levels[0].done.len() - 1 // root branches left behind
			if got, want := x.estimate(), float64(j)/k; math.Abs(got-want) > 1e-9 {
				t.Errorf("root branch %d: estimate %v, want %d/%d", j+1, got, j, k)
			}
		}
		checked++
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Traces != factorial(k) || checked == 0 {
		t.Fatalf("%d traces, %d levels checked; want %d traces", r.Traces, checked, factorial(k))
	}

	// 8 processes: 109,600 events, so Progress is called ten times.
	const k8 = 8
	m = newMachine(t, independentProcs(k8), nil)
	reports := 0
	_, err = Explore(m, Options{Algo: DFS, Progress: func(s Stats) {
		reports++
		want := float64(s.Traces) / float64(factorial(k8))
		if math.Abs(s.Estimate-want) > 1e-9 {
			t.Errorf("report at %d states, %d traces: estimate %v, want %v", s.States, s.Traces, s.Estimate, want)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if reports < 5 {
		t.Errorf("%d progress reports, want at least 5", reports)
	}
}

// TestEstimateBounds runs every algorithm on the test programs with the
// estimate taken at every level and at every progress report: it stays in
// [0, 1], and for dfs, whose levels' branch counts are exact, it never goes
// down.
func TestEstimateBounds(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../testdata/*.blk")
	small := map[string]map[string]int64{"fib.blk": {"N": 5}, "prodcons.blk": {"ITEMS": 2, "SIZE": 1}}
	for _, file := range files {
		m, err := New(compileFile(t, file), small[filepath.Base(file)])
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range Algorithms {
			name := filepath.Base(file) + " " + string(a.Name)
			last, levels, reports := 0.0, 0, 0
			seen := func(e float64, where string) {
				if e < 0 || e > 1 || math.IsNaN(e) {
					t.Errorf("%s: estimate %v %s", name, e, where)
				}
				if a.Loop == LoopDFS && e < last-1e-12 {
					t.Errorf("%s: estimate went down from %v to %v %s", name, last, e, where)
				}
				last = e
			}
			opts := Options{Algo: a.Name, MaxStates: 300_000, Progress: func(s Stats) {
				reports++
				seen(s.Estimate, fmt.Sprintf("at the report after %d states", s.States))
			}}
			_, err := explore(m, opts, func(x *explorer, depth int) {
				if levels++; levels%7 == 0 { // every level would be slow on the large ones
					seen(x.estimate(), fmt.Sprintf("at depth %d", depth))
				}
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

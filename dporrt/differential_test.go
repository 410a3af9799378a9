package dporrt

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/internal/randprog"
)

// differential explores m with dfs and every other algorithm and dependency
// mode, and fails unless all reach the same final states and findings.
func differential(t *testing.T, name string, m *Machine, bound int) (dfsTraces int, ok bool) {
	t.Helper()
	oracle, err := Explore(m, Options{Algo: DFS, MaxStates: bound})
	if err != nil {
		t.Fatal(err)
	}
	if oracle.Cut {
		return 0, false // too big to be an oracle
	}
	for _, info := range Algorithms[1:] {
		algo := info.Name
		for _, opts := range []Options{{Dep: Dynamic}, {Dep: Static}, {Dep: Static, ObserveFinal: true}} {
			if opts.ObserveFinal && !info.Observers {
				continue
			}
			opts.Algo = algo
			dep := opts.Dep
			r, err := Explore(m, opts)
			if err != nil {
				t.Fatal(err)
			}
			agrees := r.Agrees
			if !info.PreservesFinals(opts) {
				agrees = r.AgreesOnFindings
			}
			if ok, why := agrees(oracle); !ok {
				t.Errorf("%s: %s (dep %d, observe final %v) differs from dfs: %s", name, algo, dep, opts.ObserveFinal, why)
			}
			if r.Traces > oracle.Traces {
				t.Errorf("%s: %s (dep %d) explores %d traces, more than dfs's %d", name, algo, dep, r.Traces, oracle.Traces)
			}
		}
	}
	return oracle.Traces, true
}

// TestDifferentialTestdata compares every algorithm with dfs on the example
// programs and on testdata/regress, programs on which an algorithm once
// missed a final state (each says why in its header).
func TestDifferentialTestdata(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	regress, _ := filepath.Glob("../testdata/regress/*.blk")
	files = append(files, regress...)
	small := map[string]map[string]int64{"fib.blk": {"N": 3}, "prodcons.blk": {"ITEMS": 1, "SIZE": 1}}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			m, err := New(compileFile(t, file), small[filepath.Base(file)])
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := differential(t, file, m, 300000); !ok {
				t.Skip("dfs does not finish within the bound")
			}
		})
	}
}

// TestExample5 checks the CDPOR paper's Example 5 figures the algorithms
// that need no IC file: on Fig. 1 from z = -2, x = -2, sdpor with the
// syntactic dependency explores the 6 complete sequences, as dfs does, and
// csdpor 2, p.q.r and q.r.p (cdpor's 1 is checked in package synth, which
// makes ICs).
func TestExample5(t *testing.T) {
	m, err := New(compileFile(t, "../testdata/fig1.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		algo   Algorithm
		dep    DepMode
		traces int
	}{{DFS, Dynamic, 6}, {SDPOR, Static, 6}, {SDPOR, Dynamic, 4}, {CSDPOR, Static, 2}, {CSDPOR, Dynamic, 1}} {
		r, _ := Explore(m, Options{Algo: tc.algo, Dep: tc.dep})
		if r.Traces != tc.traces || len(r.Finals) != 1 {
			t.Errorf("%s (dep %d): %d traces, %d final states; want %d traces, 1 final state", tc.algo, tc.dep, r.Traces, len(r.Finals), tc.traces)
		}
	}
	// Example 4: from z = -1 the final z differs between orders: 2 final states.
	m4, _ := New(compileFile(t, "../testdata/fig1.blk"), map[string]int64{"z": -1})
	for _, info := range Algorithms {
		algo := info.Name
		if r, _ := Explore(m4, Options{Algo: algo}); len(r.Finals) != 2 {
			t.Errorf("%s from z = -1: %d final states, want 2", algo, len(r.Finals))
		}
	}
}

// TestDifferentialRegressions replays generated programs on which an
// algorithm once missed a final state of dfs's, with the reason.
func TestDifferentialRegressions(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		why  string
	}{
		{1247, "a process blocked at an await; the race to reverse was hidden by a later write of its guard"},
		{26, "csdpor: a process asleep by a sleep sequence's tail hid the races its subtree would have reversed"},
		{1375, "csdpor: a state where a sleep sequence's tail blocks the only process left needs its races reversed"},
	} {
		src := randprog.Generate(tc.seed, randprog.Options{Awaits: true})
		m, err := New(compileSrc(t, src), nil)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("seed %d (%s)", tc.seed, tc.why)
		if _, ok := differential(t, name, m, 300000); !ok {
			t.Errorf("%s: dfs does not finish", name)
		}
	}
}

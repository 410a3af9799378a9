package dporrt

import (
	"testing"
)

// TestCSDPORFig1 checks csdpor's tree on the CDPOR paper's Fig. 1 (from
// z = -2, x = -2, static dependency). It explores p.q.r; q.p ends where
// p.q does, and r.q where q.r does after p, so p.r stops with q covered.
// After q, p is covered, and r commutes with it there (s[q.r.p] =
// s[q.p.r]): p stays covered past r, and q.r stops. The paper's Example 2
// explores q.r.p to its end, as csdpor did before covers were carried past
// commuting events: 2 complete sequences. After r, p and q are covered.
func TestCSDPORFig1(t *testing.T) {
	m, err := New(compileFile(t, "../testdata/fig1.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tree := &Tree{}
	r, err := Explore(m, Options{Algo: CSDPOR, Dep: Static, Tree: tree})
	if err != nil {
		t.Fatal(err)
	}
	if r.Traces != 1 || r.Blocked != 0 || r.Covered != 3 || len(r.Finals) != 1 {
		t.Errorf("%d complete traces, %d blocked, %d covered stops, %d final states; want 1, 0, 3, 1", r.Traces, r.Blocked, r.Covered, len(r.Finals))
	}
	want := `p#1
  q#2
    r#3 complete
  r#3 covered (covered q#2)
q#2 (covered p#1)
  r#3 covered (covered p#1)
r#3 covered (covered p#1 q#2)
`
	if got := treeText(tree); got != want {
		t.Errorf("the explored tree is\n%swant\n%s", got, want)
	}
}

// TestCSDPORCommuting checks that csdpor explores 1 complete trace and no
// sleep-set-blocked one on the benchmarks whose shared updates all commute
// (small sizes): each pair of updates is syntactically dependent, so
// without carrying covers past commuting events csdpor explored the Euler
// zigzag number of their orders (16 traces for 5 updates, 272 for 7).
// DBP and BB keep their 2^N complete traces: those end in different
// states.
func TestCSDPORCommuting(t *testing.T) {
	for _, tc := range []struct {
		file   string
		n      int64
		traces int
	}{
		{"fib", 4, 1}, {"pi", 5, 1}, {"ms", 5, 1}, {"qs", 5, 1}, {"reg", 4, 1}, {"ps", 4, 1},
		{"dbp", 3, 8}, {"bb", 3, 8},
	} {
		m, err := New(compileFile(t, "../testdata/bench/"+tc.file+".blk"), map[string]int64{"N": tc.n})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Explore(m, Options{Algo: CSDPOR})
		if err != nil {
			t.Fatal(err)
		}
		if r.Traces != tc.traces {
			t.Errorf("%s(%d): %d complete traces, want %d", tc.file, tc.n, r.Traces, tc.traces)
		}
	}
}

package dporrt

import (
	"context"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// TestCSDPORFig1 checks csdpor's tree on the CDPOR paper's Fig. 1 (from
// z = -2, x = -2, static dependency). It explores p.q.r; q.p ends where
// p.q does, and r.q where q.r does after p, so p.r stops with q covered.
// After q, p is covered, and r is dependent on it, so q.r.p runs to its
// end: 2 complete sequences, p.q.r and q.r.p, as in the paper's Example 2.
// After r, p and q are covered.
func TestCSDPORFig1(t *testing.T) {
	m, err := interp.New(testprog.File(t, "../testdata/fig1.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tree := &Tree{}
	r, err := Explore(context.Background(), m, Options{Algo: CSDPOR, Dep: Static, Tree: tree})
	if err != nil {
		t.Fatal(err)
	}
	if r.Traces != 2 || r.Blocked != 0 || r.Covered != 2 || len(r.Finals) != 1 {
		t.Errorf("%d complete traces, %d blocked, %d covered stops, %d final states; want 2, 0, 2, 1", r.Traces, r.Blocked, r.Covered, len(r.Finals))
	}
	want := `p#1
  q#2
    r#3 complete
  r#3 covered (covered q#2)
q#2 (covered p#1)
  r#3
    p#1 complete
r#3 covered (covered p#1 q#2)
`
	if got := treeText(tree); got != want {
		t.Errorf("the explored tree is\n%swant\n%s", got, want)
	}
}

// TestCSDPORCommuting checks the cost of leaving commuting updates to
// the paper's checks (its Problem II): on the benchmarks whose shared
// updates are k adds into the same globals, each pair syntactically
// dependent but commuting, csdpor explores the Euler zigzag number of
// their orders, the alternating permutations of k (16 for 5 updates),
// where a cover carried past commuting events made it 1 before that carry
// was found unsound (docs/algorithms.md). Fib(4) has fib(5) = 5 res
// processes; Pi(5), MS(5) and QS(5) have 5 updates, Reg(4) 4.
func TestCSDPORCommuting(t *testing.T) {
	for _, tc := range []struct {
		file    string
		n       int64
		updates int
	}{
		{"fib", 4, 5}, {"pi", 5, 5}, {"ms", 5, 5}, {"qs", 5, 5}, {"reg", 4, 4},
	} {
		m, err := interp.New(testprog.File(t, "../testdata/bench/"+tc.file+".blk"), map[string]int64{"N": tc.n})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Explore(context.Background(), m, Options{Algo: CSDPOR})
		if err != nil {
			t.Fatal(err)
		}
		if want := zigzag(tc.updates); r.Traces != want {
			t.Errorf("%s(%d): %d complete traces, want %d", tc.file, tc.n, r.Traces, want)
		}
	}
}

// zigzag returns the Euler zigzag number E(n) for n >= 1 (1, 1, 2, 5, 16,
// 61, ...): E(n+1) = (sum over k of C(n, k) E(k) E(n-k)) / 2, E(0) = E(1) = 1.
func zigzag(n int) int {
	e := []int{1, 1}
	for m := 1; m < n; m++ {
		sum, c := 0, 1 // c = C(m, k)
		for k := 0; k <= m; k++ {
			sum += c * e[k] * e[m-k]
			c = c * (m - k) / (k + 1)
		}
		e = append(e, sum/2)
	}
	return e[n]
}

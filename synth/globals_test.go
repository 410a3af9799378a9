package synth

import (
	"strings"
	"testing"
)

// TestFewerGlobals checks that the cover prefers constraints reading fewer
// globals: where a condition over locals and params implies F, it is the
// one emitted (the runtime can use it whatever other processes write),
// while the ICs of the CDPOR paper stay as they are.
func TestFewerGlobals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, a, b string
		want       []string
		globals    []string // the globals the constraints may read
	}{
		// DBP: db[i] == ite(i' == i, 1 - db[i'], db[i]) holds exactly
		// when i != i'; the constraint must not read db.
		{"../testdata/bench/dbp.blk", "client@23", "update",
			[]string{"0 <= i && i < N && 0 <= i' && i' < N && i != i'"}, nil},
		{"../testdata/bench/dbp.blk", "update", "update",
			[]string{"0 <= i && i < N && 0 <= i' && i' < N"}, nil},
		// bb: two producers commute when they put the same value.
		{"../testdata/bbmany.blk", "producer@14", "producer@14",
			[]string{"0 <= tail && tail <= 1 && count <= 0 && v == v'"}, []string{"count", "tail"}},
		// The paper's ICs (CDPOR Sec. 4.1, Example 5, Sec. 4.2) are unchanged.
		{"../testdata/fig1.blk", "p", "q", []string{"z <= -1"}, []string{"z"}},
		{"../testdata/fig1.blk", "q", "r", []string{"x == z", "z <= -2", "z >= 0"}, []string{"x", "z"}},
		{"../testdata/fib.blk", "res", "res", []string{"nr > 0", "v == v'"}, []string{"nr"}},
	}
	for _, tc := range cases {
		got, pr := constraintsOf(synthesized(t, tc.file), tc.a, tc.b)
		if pr == nil {
			t.Fatalf("%s: no pair (%s, %s)", tc.file, tc.a, tc.b)
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") || !pr.Exact {
			t.Errorf("%s: I(%s, %s) = %v [exact %v], want %v [exact]", tc.file, tc.a, tc.b, got, pr.Exact, tc.want)
		}
		allowed := map[string]bool{}
		for _, g := range tc.globals {
			allowed[g] = true
		}
		for _, c := range pr.Constraints {
			for _, g := range c.Expr.Globals() {
				if !allowed[g] {
					t.Errorf("%s: I(%s, %s): %s reads %s", tc.file, tc.a, tc.b, c.Text, g)
				}
			}
		}
	}
}

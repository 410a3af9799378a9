package dporrt

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// TestBenchVariantCounts holds the counts RESULTS.md reads from the
// variants, at sizes that take milliseconds: the N! orders odpor-ob
// explores on QS are those of its placement counter; odpor-cs-ob's
// 1 + N * 2^(N-1) on FR are those of a reader that keeps the value it read
// (one that keeps only whether the value is positive leaves 2).
func TestBenchVariantCounts(t *testing.T) {
	traces := func(file string, algo Algorithm, n int64, whole bool) int {
		t.Helper()
		var defs map[string]int64
		if n > 0 { // 0: the program has no size
			defs = map[string]int64{"N": n}
		}
		m, err := interp.New(testprog.File(t, file), defs)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Explore(context.Background(), m, Options{Algo: algo, WholeArrays: whole})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cut {
			t.Fatalf("%s N=%d: %s stopped: %s", file, n, algo, r.CutBy)
		}
		return r.Traces
	}
	fact := func(n int) int {
		f := 1
		for i := 2; i <= n; i++ {
			f *= i
		}
		return f
	}
	for _, c := range []struct {
		file  string
		algo  Algorithm
		n     int64
		want  int
		whole bool
	}{
		{"../testdata/bench/qs.blk", ODPOB, 6, fact(6), false},
		{"../testdata/bench/qs.blk", ODPOR, 6, fact(6), false},
		{"../bench/variants/qs-nocount.blk", ODPOB, 8, 1, false},
		{"../testdata/bench/fr.blk", ODPCSO, 5, 1 + 5*(1<<4), false},
		{"../bench/variants/fr-pos.blk", ODPCSO, 5, 2, false},
	} {
		t.Run(fmt.Sprintf("%s/%s/%d", filepath.Base(c.file), c.algo, c.n), func(t *testing.T) {
			if got := traces(c.file, c.algo, c.n, c.whole); got != c.want {
				t.Errorf("%d complete traces, want %d", got, c.want)
			}
		})
	}
}

// TestDifferentialFloatingReaders runs every algorithm against dfs, with
// the registry's AtMost bounds, on FR's shape (N writers of one global and
// a reader spawned after them) with readers that tell the values they read
// apart more or less finely. Such a reader once made odpor-cs-ob explore
// more complete traces than odpor-ob (dporrt/testdata/regress/cs-wake-all.blk);
// the generated programs of TestDifferentialRandom never have that shape.
func TestDifferentialFloatingReaders(t *testing.T) {
	readers := []string{
		"seen = x;",
		"if (x == N) { seen = 1; }",
		"if (x > 0) { seen = 1; }",
		"if (x > N / 2) { seen = 1; }",
		"if (x % 2 == 0) { seen = 1; }",
		"assert(x != N - 1);",
		"if (x == 1) { seen = x; } else { x = 0; }",
	}
	for _, n := range []int{3, 4, 5} {
		for i, r := range readers {
			name := fmt.Sprintf("N=%d/reader%d", n, i)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				src := fmt.Sprintf(`param N = %d;
global int x = 0, seen = -1;
proc writer(int id) { x = id; }
proc reader() { %s }
init {
  int i = 1;
  while (i <= N) {
    spawn writer(i);
    i = i + 1;
  }
  spawn reader();
}
`, n, r)
				m, err := interp.New(testprog.Source(t, src), nil)
				if err != nil {
					t.Fatal(err)
				}
				if !differential(t, name+": "+r, m, 300000, nil) {
					t.Fatal("dfs does not finish within the bound")
				}
			})
		}
	}
}

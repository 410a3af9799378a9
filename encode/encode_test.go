package encode

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

func TestPair(t *testing.T) {
	t.Parallel()
	fig1 := `global int x = -2, z = -2;
proc p() { x = x + 1; }
proc q() { if (z >= 0) { z = x; } }
proc r() { x = x + 1; z = z + 1; }`
	cases := []struct {
		name, src, a, b string
		f               string // F's key
		exact           bool
		inexact         string // substring of a reason
	}{
		// CDPOR Example 6: the four disjuncts of F(q,r), the infeasible one dropped.
		{"fig1 q r", fig1, "q", "r",
			"((z >= 0) && ((z + 1) >= 0)) || ((z >= 0) && ((z + 1) < 0) && ((x + 1) == (z + 1))) || ((z < 0) && ((z + 1) >= 0) && ((z + 1) == (x + 1))) || ((z < 0) && ((z + 1) < 0))",
			true, ""},
		{"fig1 p r", fig1, "p", "r", "true", true, ""},
		{"different next points", `global int x; proc a() { if (x > 0) { yield; } } proc b() { x = 1; }`, "a", "b",
			"x > 0", true, ""}, // b makes x positive, so a must yield in both orders
		// Where x != 0 the assert fails in both orders (same violation); where
		// x == 0 only b.a records it.
		{"violations must match", `global int x; proc a() { assert(x == 0); } proc b() { x = 1; }`, "a", "b",
			"x != 0", true, ""},
		{"arrays compared by touched elements", `global int g[3]; proc a(int i) { g[i] = 1; } proc b(int j) { g[j] = 2; }`, "a", "b",
			"(0 <= i) && (i < 3) && (0 <= j') && (j' < 3) && (2 == ite(i == j', 1, 2)) && (ite(j' == i, 2, 1) == 1)", true, ""},
		{"loops are abstracted", `global int s; proc a(int n) { int i = 0; while (i < n) { s = s + i; i = i + 1; } } proc b() { s = 0; }`, "a", "b",
			"", false, "loop at a"},
		{"counted loops are unrolled", `global int s; proc a() { int i = 0; while (i < 3) { s = s + i; i = i + 1; } } proc b() { s = 0; }`, "a", "b",
			"", true, ""},
		{"long counted loops are abstracted", `global int s; proc a() { int i = 0; while (i < 5) { s = s + i; i = i + 1; } } proc b() { s = 0; }`, "a", "b",
			"", false, "loop at a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, errs := lang.Compile("t.blk", []byte(tc.src))
			if errs != nil {
				t.Fatal(errs)
			}
			f := Pair(p.Block(tc.a), p.Block(tc.b), ts.NewSymbols(p))
			if tf, _ := f.Graph.Term(f.F, 1<<20); tc.f != "" && tf.Key() != tc.f {
				t.Errorf("F = %s\nwant %s", tf.Key(), tc.f)
			}
			if f.Exact != tc.exact {
				t.Errorf("exact = %v, want %v (inexact: %v)", f.Exact, tc.exact, f.Inexact)
			}
			if tc.inexact != "" && !strings.Contains(strings.Join(f.Inexact, "; "), tc.inexact) {
				t.Errorf("inexact reasons %v lack %q", f.Inexact, tc.inexact)
			}
			bench := f.Benchmark()
			for _, want := range []string{"(set-logic ALL)", "(define-fun |F(", "(assert |F(", "(check-sat)"} {
				if !strings.Contains(bench, want) {
					t.Errorf("benchmark lacks %q:\n%s", want, bench)
				}
			}
		})
	}
}

func TestSymbol(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"x": "x", "v'": "|v'|", "loop:p:3:x": "|loop:p:3:x|", "and": "|and|", "a#2": "|a#2|"} {
		if got := Symbol(in); got != want {
			t.Errorf("Symbol(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPairTooLarge: a pair whose paths multiply beyond MaxPathPairs is
// unknown with a reason (no constraint: sound), not a formula that
// exhausts memory; just below the bound it is built. Far beyond it (10
// ifs: 1024 paths a block, about a million compositions in each order)
// the refusal comes after a few hundred compositions a side, not after
// all of them: composing them whole, the test was killed by the kernel at
// 24 GB.
func TestPairTooLarge(t *testing.T) {
	for _, tc := range []struct {
		ifs     int
		unknown bool
	}{{4, false}, {5, true}, {10, true}} {
		src := "global int x"
		for i := 0; i < tc.ifs; i++ {
			src += fmt.Sprintf(", g%d", i)
		}
		src += ";\nproc p() {\n"
		for i := 0; i < tc.ifs; i++ {
			src += fmt.Sprintf("  if (g%d > x) { x = x + %d; } else { x = x - g%d; }\n", i, i+1, i)
		}
		src += "}\ninit { spawn p(); spawn p(); }\n"
		p, errs := lang.Compile("t.blk", []byte(src))
		if errs != nil {
			t.Fatal(errs.Format([]byte(src)))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f := Pair(p.Blocks[0], p.Blocks[0], ts.NewSymbols(p))
		runtime.ReadMemStats(&after)
		n := len(f.AB.Transitions) * len(f.BA.Transitions)
		if got := strings.Contains(f.Unknown, "too large"); got != tc.unknown {
			t.Errorf("%d ifs (%d pairs of paths): unknown %q, want unknown %v", tc.ifs, n, f.Unknown, tc.unknown)
		}
		if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 256 {
			t.Errorf("%d ifs: building the pair allocated %d MB", tc.ifs, mb)
		}
		if tc.unknown && (!f.Graph.IsFalse(f.F) || f.Exact) {
			t.Errorf("%d ifs: an unknown pair must have F = false, inexact", tc.ifs)
		}
	}
}

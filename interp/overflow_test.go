package interp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/lang"
)

// overflows reports whether some interleaving of m raises an integer
// overflow, by a search over the states reachable from the initial one
// (each visited once, told apart by State.Equal), and whether it finished
// within bound states.
func overflows(t *testing.T, m *Machine, bound int) (found, done bool) {
	t.Helper()
	st, err := m.Initial()
	if err != nil {
		return err.Kind == ErrOverflow, true
	}
	seen := map[uint64][]*State{}
	stack := []*State{st}
	for n := 0; len(stack) > 0; n++ {
		if n == bound {
			return false, false
		}
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range s.EnabledProcs(nil) {
			c := s.Clone()
			if ev := c.Step(i); ev.Err != nil {
				if ev.Err.Kind == ErrOverflow {
					return true, true
				}
				continue
			}
			h := c.Hash()
			if slices.ContainsFunc(seen[h], c.Equal) {
				continue
			}
			seen[h] = append(seen[h], c)
			stack = append(stack, c)
		}
	}
	return false, true
}

// TestOverflowFreeBench: the proof holds on the CDPOR benchmarks, whose
// counters many processes update (so the papers' reductions need no
// --assume-no-overflow), and on Lamport's bakery, whose threads wait on
// globals; it says why where it does not hold: BB's buffer count does not
// settle, and its consumers' loops leave a run's writes unbounded.
func TestOverflowFreeBench(t *testing.T) {
	for _, tc := range []struct {
		file string
		n    int64
		ok   bool
		why  string
	}{
		{"fib", 14, true, ""}, {"qs", 25, true, ""}, {"ms", 30, true, ""}, {"pi", 20, true, ""},
		{"ps", 11, true, ""}, {"reg", 40, true, ""}, {"dbp", 12, true, ""}, {"fr", 9, true, ""},
		{"lw", 10, true, ""}, {"abs", 5, true, ""}, {"fra", 10, true, ""},
		{"bb", 6, false, "did not settle"}, {"lam", 2, true, ""}, {"lam", 3, true, ""},
	} {
		m, err := New(testprog.File(t, "../testdata/bench/"+tc.file+".blk"), map[string]int64{"N": tc.n})
		if err != nil {
			t.Fatal(err)
		}
		ok, why := m.OverflowFree()
		if ok != tc.ok || !strings.Contains(why, tc.why) {
			t.Errorf("%s(%d): OverflowFree = %v, %q; want %v, %q", tc.file, tc.n, ok, why, tc.ok, tc.why)
		}
	}
}

// TestOverflowFreeCounters checks the counters' bounds on programs at the
// edge of int64, each against the search of overflows: proven only where no run overflows.
func TestOverflowFreeCounters(t *testing.T) {
	max := fmt.Sprint(int64(math.MaxInt64))
	for _, tc := range []struct {
		name, src string
		ok        bool
	}{
		{"two increments to the top", "global int c = " + max + " - 2;\nproc p() { c = c + 1; }\ninit { spawn p(); spawn p(); }", true},
		{"three past it", "global int c = " + max + " - 2;\nproc p() { c = c + 1; }\ninit { spawn p(); spawn p(); spawn p(); }", false},
		{"a loop with yields", "global int c = " + max + " - 6;\nproc p() { int i = 0; while (i < 3) { c = c + 2; yield; i = i + 1; } }\ninit { spawn p(); }", true},
		{"one more round", "global int c = " + max + " - 6;\nproc p() { int i = 0; while (i < 4) { c = c + 2; yield; i = i + 1; } }\ninit { spawn p(); }", false},
		{"spawned by spawns", "global int c = " + max + " - 3;\nproc f(int v) { if (v > 0) { spawn f(v - 1); spawn f(v - 1); } else { c = c + 1; } }\ninit { spawn f(2); }", false},
		{"spawned, fewer", "global int c = " + max + " - 4;\nproc f(int v) { if (v > 0) { spawn f(v - 1); spawn f(v - 1); } else { c = c + 1; } }\ninit { spawn f(2); }", true},
		{"down", "global int c = -" + max + " + 1;\nproc p() { c = c - 1; }\ninit { spawn p(); spawn p(); }", true},
		{"down past it", "global int c = -" + max + " + 1;\nproc p() { c = c - 1; }\ninit { spawn p(); spawn p(); spawn p(); }", false},
		{"by a global", "global int c = " + max + " - 10, d = 3;\nproc p() { c = c + d; }\nproc q() { d = 5; }\ninit { spawn p(); spawn p(); spawn q(); }", true},
		{"by a global, more", "global int c = " + max + " - 10, d = 3;\nproc p() { c = c + d; }\nproc q() { d = 6; }\ninit { spawn p(); spawn p(); spawn q(); }", false},
		{"cells", "global int a[2] = {0, " + max + " - 2};\nproc p(int i) { a[i] = a[1 - i] + 1; }\ninit { spawn p(0); spawn p(1); }", true},
		{"cells past it", "global int a[2] = {0, " + max + " - 2};\nproc p(int i) { a[i] = a[1 - i] + 1; yield; a[i] = a[1 - i] + 1; }\ninit { spawn p(0); spawn p(1); }", false},
		{"branches", "global int c = " + max + " - 5, g;\nproc p() { if (g > 0) { c = c + 5; } else { c = c + 1; } }\nproc q() { g = 1; }\ninit { spawn p(); spawn q(); }", true},
		{"read elsewhere", "global int c = 0, d;\nproc p() { c = c + 1; d = c * 4611686018427387904; }\ninit { spawn p(); spawn p(); }", false},
		{"spin", "global int c, g;\nproc p() { while (g == 0) { c = c + 1; yield; } }\nproc q() { g = 1; }\ninit { spawn p(); spawn q(); }", false},
		{"settles", "global int x = 1;\nproc p() { x = 3 - x; }\ninit { spawn p(); spawn p(); }", true},
		{"doubles", "global int x = 1;\nproc p() { x = x * 2; }\ninit { spawn p(); spawn p(); }", true},
		{"doubles past it", "global int x = 2305843009213693952;\nproc p() { x = x * 2; }\ninit { spawn p(); spawn p(); }", false},
		{"doubles below the top", "global int x = 1152921504606846976;\nproc p() { x = x * 2; }\ninit { spawn p(); }", true},
		{"doubled by a func", "global int x = 1;\nfunc f() { x = x * 2; }\nproc p() { f(); }\ninit { spawn p(); spawn p(); }", true},
		{"doubled by a func, past it", "global int x = 2305843009213693952;\nfunc f() { x = x * 2; }\nproc p() { f(); }\ninit { spawn p(); spawn p(); }", false},
		{"doubles in a loop", "global int x = 1, g;\nproc p() { while (g == 0) { x = x * 2; yield; } }\nproc q() { g = 1; }\ninit { spawn p(); spawn q(); }", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(testprog.Source(t, tc.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			ok, why := m.OverflowFree()
			if ok != tc.ok {
				t.Errorf("OverflowFree = %v (%s), want %v", ok, why, tc.ok)
			}
			if ok == (why != "") {
				t.Errorf("OverflowFree = %v with reason %q", ok, why)
			}
			found, done := overflows(t, m, 100000)
			if ok && !done {
				t.Fatal("proven free of overflow, and the search does not finish")
			}
			if ok && found {
				t.Errorf("proven free of overflow, but the search finds one")
			}
		})
	}
}

// TestOverflowFreeOracle checks the proof against the search of overflows wherever it holds:
// on the example and regression programs, and on generated programs with
// the globals started near the ends of int64 (one at a time), where
// overflows abound; and on generated counter programs (40 seeds of each
// with -short, 300 without, more with ICGEN_SOAK=N: internal/testsize).
// Where it holds, the search must find no overflow.
func TestOverflowFreeOracle(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	regress, _ := filepath.Glob("../testdata/regress/*.blk")
	own, _ := filepath.Glob("testdata/regress/*.blk")
	runs, proven, found := 0, 0, 0
	check := func(name string, m *Machine) {
		ok, why := m.OverflowFree()
		over, done := overflows(t, m, 100000)
		if !done {
			return
		}
		runs++
		if over {
			found++
		}
		if ok {
			proven++
			if over {
				t.Errorf("%s: proven free of overflow, but the search finds one", name)
			}
		} else if why == "" {
			t.Errorf("%s: not proven, without a reason", name)
		}
	}
	for _, file := range append(append(files, regress...), own...) {
		m, err := New(testprog.File(t, file), map[string]int64{"N": 3})
		if err != nil {
			if m, err = New(testprog.File(t, file), nil); err != nil {
				t.Fatal(err)
			}
		}
		check(file, m)
	}
	big := []int64{math.MaxInt64, math.MaxInt64 - 2, math.MinInt64, math.MinInt64 + 3, 1 << 62, -(1 << 62), 3037000499, math.MaxInt64 / 2}
	first, last := testsize.Seeds(40, 300)
	for seed := first; seed <= last; seed++ {
		o := progen.Default()
		if seed%3 == 0 {
			o.Await = false
		}
		src := progen.Generate(seed, o)
		p := testprog.Source(t, src)
		sets := []map[string]int64{nil}
		for _, g := range p.Globals {
			if g.Type == lang.Int {
				sets = append(sets, map[string]int64{g.Name: big[int(seed+uint64(g.Index))%len(big)]})
			}
		}
		for _, set := range sets {
			m, err := New(p, set)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("progen seed %d with %v", seed, set), m)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		check(fmt.Sprintf("counter program %d", seed), mustNew(t, counterProgram(rng)))
	}
	t.Logf("of %d programs the search finishes, %d proven free of overflow; the search found an overflow in %d", runs, proven, found)
	if proven == 0 || found == 0 {
		t.Errorf("the oracle tests nothing: %d proven, %d with an overflow", proven, found)
	}
}

// funcPositions are the places an expression can call a func, each a
// proc w that calls F there once (or init, for "init"), with the
// declarations it needs (see TestOverflowFreeFuncs). touch runs a
// statement of its own after F, which writes no global: F's writes must
// still count.
var funcPositions = []struct{ name, decls, w, init string }{
	{"spawn argument", "proc c(int v) { }", "spawn c(F);", ""},
	{"index of a target", "", "arr[F] = 1;", ""},
	{"index of a value", "", "z = arr[F];", ""},
	{"await guard", "", "await(F == 0);", ""},
	{"assert", "", "assert(F == 0);", ""},
	{"if condition", "", "if (F > 0) { z = 1; }", ""},
	{"while condition", "", "while (F > 0) { z = 1; }", ""},
	{"local initializer", "", "int t = F;", ""},
	{"argument of a call", "func touch(int v) { int t = v; }", "touch(F);", ""},
	{"argument of a call in a func", "func touch(int v) { int t = v; }\nfunc f() { touch(F); }", "f();", ""},
	{"return value", "func int outer() { return F; }", "z = outer();", ""},
	{"init", "", "", "int t = F;"},
}

// TestOverflowFreeFuncs: a func called wherever an expression can call
// one counts in the proof, both what it writes and its own operations.
// From y at the edge of int64, grow takes y to the top, where a's x + y
// overflows, and big overflows itself; from a small y neither does. At
// every position (funcPositions), with either func and either start, the
// proof holds exactly where the search finds no overflow, which it finds from the
// edge only (in init, an overflow is init's runtime error).
func TestOverflowFreeFuncs(t *testing.T) {
	for _, pos := range funcPositions {
		for _, f := range []string{"grow()", "big()"} {
			for _, y := range []string{"4611686018427387903", "4"} {
				edge := len(y) > 1
				name := fmt.Sprintf("%s/%s/y=%s", pos.name, f, y)
				src := "global int x = 0, y = " + y + ", z = 0;\nglobal int arr[1];\n" +
					"func int grow() { y = y * 2 + 1; return 0; }\nfunc int big() { int t = y * 2 + 2; return 0; }\n" +
					pos.decls + "\nproc w() { " + pos.w + " }\n" +
					"proc a() { x = x + y; x = x - y; }\nproc b() { x = x + 1; }\n" +
					"init { " + pos.init + " spawn a(); spawn b(); spawn w(); }"
				src = strings.ReplaceAll(src, "F", f) // no other capital F
				t.Run(name, func(t *testing.T) {
					m := mustNew(t, src)
					ok, why := m.OverflowFree()
					found, done := overflows(t, m, 100000)
					if !done {
						t.Fatal("the search does not finish")
					}
					if found != edge {
						t.Fatalf("the search finds an overflow: %v; the program is built to have one from the edge only", found)
					}
					if ok == found {
						t.Errorf("OverflowFree = %v (%s); the search finds an overflow: %v", ok, why, found)
					}
				})
			}
		}
	}
}

// TestOverflowFreeUnmodelled: what the proof does not model fails it,
// with a reason, rather than being guessed. The program, proven as
// compiled, is edited after compiling: an invariant that calls a func
// that writes what the invariant reads (the language has no calls in
// invariants), and a node of a kind the proof does not know.
func TestOverflowFreeUnmodelled(t *testing.T) {
	const src = "global int y = 4;\nfunc int grow() { y = y * 2 + 1; return 0; }\ninvariant (y >= 0);\n" +
		"proc p() { y = y - 1; }\ninit { spawn p(); }"
	for _, tc := range []struct {
		name string
		edit func(p *lang.Program)
		why  string // "": proven
	}{
		{"as compiled", func(*lang.Program) {}, ""},
		{"an invariant that calls a func", func(p *lang.Program) {
			inv := p.Invariants[0]
			inv.Cond = &lang.BinaryExpr{At: inv.Pos, Op: lang.OpGe, X: &lang.CallExpr{At: inv.Pos, Func: p.Funcs[0]}, Y: &lang.IntLit{At: inv.Pos}}
		}, "calls a func"},
		{"a node of an unknown kind", func(p *lang.Program) { p.Procs[0].Nodes[1].Kind = lang.NodeReturn + 1 }, "cannot analyse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testprog.Source(t, src)
			tc.edit(p)
			m, err := New(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			ok, why := m.OverflowFree()
			if ok != (tc.why == "") || !strings.Contains(why, tc.why) {
				t.Errorf("OverflowFree = %v, %q; want %v, %q", ok, why, tc.why == "", tc.why)
			}
		})
	}
}

func mustNew(t *testing.T, src string) *Machine {
	t.Helper()
	m, err := New(testprog.Source(t, src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// counterProgram returns a random program of counters updated by two or
// three processes near the top of int64: increments and decrements by
// literals, locals and another global, in loops and spawned children.
func counterProgram(rng *rand.Rand) string {
	var b strings.Builder
	top := int64(math.MaxInt64) - int64(rng.IntN(40))
	fmt.Fprintf(&b, "global int c = %d, e = %d, g = %d;\n", top, -top+int64(rng.IntN(40)), rng.IntN(5))
	upd := func() string {
		target := []string{"c", "e"}[rng.IntN(2)]
		op := []string{"+", "-"}[rng.IntN(2)]
		by := []string{fmt.Sprint(rng.IntN(6)), "v", "g"}[rng.IntN(3)]
		return fmt.Sprintf("%s = %s %s %s;", target, target, op, by)
	}
	nprocs := 2 + rng.IntN(2)
	for i := range nprocs {
		fmt.Fprintf(&b, "proc p%d(int v) {\n", i)
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "  int i = 0;\n  while (i < %d) {\n    %s\n    yield;\n    i = i + 1;\n  }\n", 1+rng.IntN(3), upd())
		case 1:
			fmt.Fprintf(&b, "  if (v > 0) {\n    spawn p%d(v - 1);\n  }\n  %s\n", i, upd())
		case 2:
			fmt.Fprintf(&b, "  if (g > %d) {\n    %s\n  } else {\n    %s\n  }\n  g = %d;\n", rng.IntN(4), upd(), upd(), rng.IntN(5))
		default:
			fmt.Fprintf(&b, "  %s\n  yield;\n  %s\n", upd(), upd())
		}
		b.WriteString("}\n")
	}
	b.WriteString("init {\n")
	for i := range nprocs {
		fmt.Fprintf(&b, "  spawn p%d(%d);\n", i, rng.IntN(3))
	}
	b.WriteString("}\n")
	return b.String()
}

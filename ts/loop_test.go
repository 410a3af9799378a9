package ts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/lang"
)

// TestTripCount: the counted loops that tripCount recognizes, the rounds
// it finds, and the loops it leaves to abstraction.
func TestTripCount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		locals     map[string]int64 // values known at the loop's header
		rounds     int              // -1: not counted (abstracted)
	}{
		{"up by one", "while (i < 3) { g = g + i; i = i + 1; }", map[string]int64{"i": 0}, 3},
		{"no round", "while (i < 3) { g = g + i; i = i + 1; }", map[string]int64{"i": 5}, 0},
		{"up to and with", "while (i <= 3) { g = g + i; i = i + 1; }", map[string]int64{"i": 0}, 4},
		{"down by two", "while (i > 0) { g = g + i; i = i - 2; }", map[string]int64{"i": 7}, 4},
		{"bound first", "while (2 >= i) { g = g + i; i = 1 + i; }", map[string]int64{"i": 0}, 3},
		{"not equal", "while (i != 4) { g = g + i; i = i + 2; }", map[string]int64{"i": 0}, 2},
		{"bound from a local", "while (i < k * 2 - 1) { g = g + i; i = i + 1; }", map[string]int64{"i": 0, "k": 2}, 3},
		{"branches in the body", "while (i < 2) { if (g > i) { g = i; } else { h(); } i = i + 1; }", map[string]int64{"i": 0}, 2},
		{"more rounds than MaxUnroll", "while (i < 9) { g = g + i; i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"a not-equal that never meets", "while (i != 3) { g = g + i; i = i + 2; }", map[string]int64{"i": 0}, -1},
		{"counter unknown", "while (i < 3) { g = g + i; i = i + 1; }", nil, -1},
		{"bound a global", "while (i < g) { g = g - 1; i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"bound a param", "while (i < N) { g = g + i; i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"bound written in the body", "while (i < k) { k = k - 1; i = i + 1; }", map[string]int64{"i": 0, "k": 3}, -1},
		{"counter written twice", "while (i < 3) { i = i + g; i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"step under a branch", "while (i < 3) { if (g > 0) { i = i + 1; } else { i = i + 2; } }", map[string]int64{"i": 0}, -1},
		{"step not last", "while (i < 3) { i = i + 1; g = g + i; }", map[string]int64{"i": 0}, -1},
		{"step not constant", "while (i < 3) { g = g + i; i = i + g; }", map[string]int64{"i": 0}, -1},
		{"step that is no step", "while (i < 3) { g = g + i; i = 1; }", map[string]int64{"i": 0}, -1},
		{"condition no comparison", "while (b) { b = false; i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"condition an equality", "while (i == 0) { g = g + i; i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"a loop in the body", "while (i < 2) { int j = 0; while (j < 2) { j = j + 1; } i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"a call of a func with a loop", "while (i < 2) { g = g + w(); i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"a long body", "while (i < 4) { g = g + 1; g = g + 2; g = g + 3; g = g + 4; g = g + 5; i = i + 1; }", map[string]int64{"i": 0}, 4},
		{"a longer body", "while (i < 4) { g = g + 1; g = g + 2; g = g + 3; g = g + 4; g = g + 5; g = g + 6; i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"a call counts its func's body", "while (i < 3) { g = g + big(); i = i + 1; }", map[string]int64{"i": 0}, 3},
		{"a call makes the body too long", "while (i < 4) { g = g + big(); i = i + 1; }", map[string]int64{"i": 0}, -1},
		{"counter overflows", "while (i > 0) { g = g + 1; i = i + 9223372036854775807; }", map[string]int64{"i": 1}, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := "param N = 3;\nglobal int g;\nglobal bool b;\nfunc int h() { return 0; }\n" +
				"func int w() { int j = 0; while (j < g) { j = j + 1; } return j; }\n" +
				"func int big() { g = g + 1; g = g + 2; g = g + 3; g = g + 4; return g; }\n" +
				"proc main() { int i = 0; int k = 0; " + tc.body + " }\n"
			p := testprog.Named(t, "loop.blk", src)
			nodes := p.Block("main").Proc.Nodes
			var header *lang.Node
			for _, n := range nodes {
				if n.Loop != nil {
					header = n
					break
				}
			}
			if header == nil {
				t.Fatal("no loop")
			}
			val := func(v *lang.Var) (int64, bool) {
				x, ok := tc.locals[v.Name]
				return x, ok
			}
			rounds, ok := tripCount(p, nodes, header, val)
			if !ok {
				rounds = -1
			}
			if rounds != tc.rounds {
				t.Errorf("rounds = %d, want %d", rounds, tc.rounds)
			}
		})
	}
}

// TestUnrolledLoops: a counted loop is unrolled by both executors (the
// path executor and the merged one), exactly, and each ends where the
// interpreter does.
func TestUnrolledLoops(t *testing.T) {
	t.Parallel()
	// init leaves log = 5, n = 0, r = 0, s = 7, a = {9, 3, 0, 0}, b = false.
	cases := []struct {
		name, body string
		want       []string
	}{
		{"up by one", "int i = 0; while (i < 3) { r = r * 10 + i + 1; i = i + 1; }", []string{"r=123"}},
		{"down by two, branching on a global", "int i = 4; while (i > 0) { if (s > i) { r = r + i; } else { log = log + 1; } i = i - 2; }", []string{"log=5", "r=6"}},
		{"a global that decides the branch changes", "int i = 0; while (i < 4) { if (s > 5) { s = s - 1; } else { r = r + 1; } i = i + 1; }", []string{"s=5", "r=2"}},
		{"arrays", "int i = 0; while (i < 3) { r = r + 1; a[i] = a[i] + i; i = i + 1; }", []string{"r=3", "a[0]=9", "a[1]=4", "a[2]=2"}},
		{"a return in the body", "int i = 0; while (i < 3) { if (i == 1) { return; } r = r + 1; i = i + 1; }", []string{"r=1"}},
		{"a return on a global", "int i = 0; while (i < 3) { if (a[i] == 0) { return; } r = r + a[i]; i = i + 1; }", []string{"r=12"}},
		{"calls and spawns in the body", "int i = 0; while (i != 3) { r = r + f(); spawn q(i, n); i = i + 1; }", []string{"log=5111", "n=3", "r=6", "spawn q(0, 1)", "spawn q(2, 3)"}},
		{"bound from a local", "int m = 2; int i = 0; while (m + 1 > i) { r = r + i; i = i + 1; }", []string{"r=3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := mainProgram(t, tc.body)
			concrete := runConcrete(t, p)
			if symbolic := runSymbolic(t, p); symbolic != concrete {
				t.Errorf("the interpreter ends in\n%s\nthe path executor in\n%s", concrete, symbolic)
			}
			if merged := runMerged(t, p); merged != concrete {
				t.Errorf("the interpreter ends in\n%s\nthe merged executor in\n%s", concrete, merged)
			}
			wantIn(t, concrete, tc.want)
		})
	}
}

// runMerged is runSymbolic for the merged system of main's block: its
// values, and the conditions of its spawns, with the input symbols bound
// to the state init leaves, must fold to constants, and OK to true.
func runMerged(t *testing.T, p *lang.Program) string {
	m, init := initial(t, p)
	syms := NewSymbols(p)
	g := NewGraph()
	sys := MergeBlock(p.Block("main"), 0, syms, g)
	if sys.Unknown != "" || len(sys.Abstracted) > 0 {
		t.Fatalf("merged system of main not exact: %s %v", sys.Unknown, sys.Abstracted)
	}
	bind := func(s *Sym) (Ref, bool) { return initialValue(g, m, init, s) }
	memo := map[Ref]Ref{}
	constant := func(r Ref) int64 {
		c := g.Subst(r, bind, memo)
		if g.Kind(c) != KConst {
			if tr, ok := g.Term(c, 1<<12); ok {
				t.Fatalf("merged value does not fold to a constant: %s", tr)
			}
			t.Fatal("merged value does not fold to a constant")
		}
		return g.Val(c)
	}
	if constant(sys.OK) != 1 {
		t.Fatal("the merged system is not OK in the initial state")
	}
	value := func(v *lang.Var, i int) int64 {
		r := sys.Global(v, syms)
		if v.Type == lang.IntArray {
			r = g.Select(g.Subst(r, bind, memo), g.Int(int64(i)))
		}
		return constant(r)
	}
	var spawns []string
	for _, s := range sys.Spawns {
		if constant(s.Cond) == 0 {
			continue
		}
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i] = fmt.Sprint(constant(a))
		}
		spawns = append(spawns, s.Proc.Name+"("+strings.Join(args, ", ")+")")
	}
	return orderState(p, value, spawns)
}

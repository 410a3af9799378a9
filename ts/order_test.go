package ts

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// orderDecls declares funcs with side effects on globals: each call of f or
// g appends its digit to log and returns the number of calls so far, so the
// final values tell in which order the calls ran.
const orderDecls = `param P = 3;
global int log = 5, n, r, s = 7;
global int a[4];
global bool b;
func int f() { log = log * 10 + 1; n = n + 1; return n; }
func int g() { log = log * 10 + 2; n = n + 1; return n; }
func int k() { s = 100; return 1; }
func int h(int x, int y) { return x * 10 + y; }
func bool t() { log = log * 10 + 3; return true; }
proc q(int x, int y) { }
`

// TestEvaluationOrder: the symbolic executor and the interpreter (package
// dporrt) give the side effects of one statement the same order (DESIGN
// decision 1), the one docs/language.md states: the right-hand side of an
// assignment before the index of its target, operands and arguments left
// to right, a variable read when its operand is evaluated. Each statement
// runs as the only block of a proc from the state init leaves; the
// transition of the block whose condition holds there must give every
// global, array element and spawn the value the interpreter computes, and
// both must match want.
func TestEvaluationOrder(t *testing.T) {
	t.Parallel()
	// init leaves log = 5, n = 0, r = 0, s = 7, a = {9, 3, 0, 0}, b = false.
	cases := []struct {
		name, body string
		want       []string
	}{
		{"value before target index", "a[f()] = g();", []string{"log=521", "a[2]=1", "n=2"}},
		{"target index read after the value", "a[n] = f();", []string{"log=51", "a[1]=1", "n=1"}},
		{"binary operands left to right", "r = f() - g();", []string{"log=512", "r=-1"}},
		{"nested operands left to right", "r = f() * 10 + (g() - f()) * 100;", []string{"log=5121", "r=-90"}},
		{"call arguments left to right", "r = h(f(), g());", []string{"log=512", "r=12"}},
		{"spawn arguments left to right", "spawn q(f(), g());", []string{"log=512", "spawn q(1, 2)"}},
		{"a global read before a call that writes it", "s = s + k();", []string{"s=8"}},
		{"a global read after a call that writes it", "s = k() + s;", []string{"s=101"}},
		{"array elements read where they stand", "r = a[n] + f() + a[n];", []string{"log=51", "r=13"}},
		{"condition operands left to right", "if (g() < f()) { r = 1; } else { r = 2; }", []string{"log=521", "r=1"}},
		{"&& skips its right operand", "b = f() > 5 && t();", []string{"log=51", "b=false"}},
		{"|| skips its right operand", "b = f() > 0 || t();", []string{"log=51", "b=true"}},
		{"&& evaluates its right operand", "b = f() > 0 && t();", []string{"log=513", "b=true"}},
		{"statements in order", "r = f(); a[r] = g(); spawn q(r, a[r]);", []string{"log=512", "a[1]=2", "r=1", "spawn q(1, 2)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := mainProgram(t, tc.body)
			concrete, symbolic := runConcrete(t, p), runSymbolic(t, p)
			if concrete != symbolic {
				t.Errorf("the interpreter ends in\n%s\nthe symbolic executor in\n%s", concrete, symbolic)
			}
			wantIn(t, concrete, tc.want)
		})
	}
}

// mainProgram compiles orderDecls with a proc main of body, and an init
// that leaves log = 5, n = 0, r = 0, s = 7, a = {9, 3, 0, 0}, b = false.
func mainProgram(t *testing.T, body string) *lang.Program {
	src := orderDecls + "proc main() { " + body + " }\ninit { a[0] = 9; a[1] = P; spawn main(); }\n"
	return testprog.Named(t, "main.blk", src)
}

// wantIn checks that the rendered state holds each of want.
func wantIn(t *testing.T, state string, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(" "+state+" ", " "+w+" ") {
			t.Errorf("want %s; the interpreter ends in %s", w, state)
		}
	}
}

// orderState renders globals (arrays element by element, zero elements
// left out) and the processes spawned by main, in order.
func orderState(p *lang.Program, value func(g *lang.Var, i int) int64, spawns []string) string {
	var parts []string
	for _, g := range p.Globals {
		switch {
		case g.Type == lang.IntArray:
			for i := 0; i < 4; i++ {
				if v := value(g, i); v != 0 {
					parts = append(parts, fmt.Sprintf("%s[%d]=%d", g.Name, i, v))
				}
			}
		case g.Type == lang.Bool:
			parts = append(parts, fmt.Sprintf("%s=%t", g.Name, value(g, 0) != 0))
		default:
			parts = append(parts, fmt.Sprintf("%s=%d", g.Name, value(g, 0)))
		}
	}
	sort.Strings(parts)
	for _, s := range spawns {
		parts = append(parts, "spawn "+s)
	}
	return strings.Join(parts, " ")
}

// runConcrete runs init, then main's only block, in the interpreter.
func runConcrete(t *testing.T, p *lang.Program) string {
	_, st := initial(t, p)
	before := len(st.Procs)
	if ev := st.Step(0); ev.Err != nil {
		t.Fatal(ev.Err)
	}
	var spawns []string
	for _, pr := range st.Procs[before:] {
		args := make([]string, len(pr.Proc.Params))
		for i, v := range pr.Proc.Params {
			args[i] = fmt.Sprint(pr.Locals[v.Index])
		}
		spawns = append(spawns, pr.Proc.Name+"("+strings.Join(args, ", ")+")")
	}
	return orderState(p, st.Global, spawns)
}

// runSymbolic builds the system of main's block, binds its input symbols
// to the state init leaves (as the interpreter computes it), and reads the
// transition whose condition holds there: every term must fold to a
// constant.
func runSymbolic(t *testing.T, p *lang.Program) string {
	m, init := initial(t, p)
	var main *lang.Block
	for _, b := range p.Blocks {
		if b.ID == "main" {
			main = b
		}
	}
	syms := NewSymbols(p)
	g := NewGraph()
	sys := Block(main, 0, syms, g)
	if !sys.Exact() {
		t.Fatalf("system of main not exact: %s %v", sys.Unknown, sys.Abstracted)
	}
	memo := map[Ref]Ref{}
	bind := func(r Ref) Ref {
		return g.Subst(r, func(s *Sym) (Ref, bool) { return initialValue(g, m, init, s) }, memo)
	}
	constant := func(x Ref) int64 {
		if g.Kind(x) != KConst {
			t.Fatalf("%s does not fold to a constant", g.Text(x))
		}
		return g.Val(x)
	}
	var taken *Transition
	for _, tr := range sys.Transitions {
		if c := bind(tr.Cond); g.IsTrue(c) {
			if taken != nil {
				t.Fatal("two transitions hold")
			}
			taken = tr
		} else if !g.IsFalse(c) {
			t.Fatalf("condition %s does not fold", g.Text(c))
		}
	}
	if taken == nil {
		t.Fatalf("no transition holds in the initial state:\n%s", sys)
	}
	gr := g
	value := func(g *lang.Var, i int) int64 {
		v := bind(taken.Global(gr, g, syms))
		if g.Type == lang.IntArray {
			v = gr.Select(v, gr.Int(int64(i)))
		}
		return constant(v)
	}
	var spawns []string
	for _, s := range taken.Spawns {
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i] = fmt.Sprint(constant(bind(a)))
		}
		spawns = append(spawns, s.Proc.Name+"("+strings.Join(args, ", ")+")")
	}
	return orderState(p, value, spawns)
}

// initial runs init in the interpreter: the machine and the state it
// leaves.
func initial(t *testing.T, p *lang.Program) (*interp.Machine, *interp.State) {
	m, err := interp.New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	init, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	return m, init
}

// initialValue is the value of the input symbol s in state init: a
// param's, or a global's (an array as stores of its elements); nil for a
// local.
func initialValue(g *Graph, m *interp.Machine, init *interp.State, s *Sym) (Ref, bool) {
	switch {
	case s.Kind == SymParam:
		return g.Int(m.Param(s.Param)), true
	case s.Kind != SymGlobal:
		return 0, false
	case s.Var.Type == lang.IntArray:
		arr := g.SymRef(s)
		_, n := m.GlobalLocs(s.Var)
		for i := 0; i < n; i++ {
			arr = g.Store(arr, g.Int(int64(i)), g.Int(init.Global(s.Var, i)))
		}
		return arr, true
	case s.Var.Type == lang.Bool:
		return g.Bool(init.Global(s.Var, 0) != 0), true
	}
	return g.Int(init.Global(s.Var, 0)), true
}

package audit

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

func machine(t testing.TB, path string, set map[string]int64) *interp.Machine {
	t.Helper()
	m, err := interp.New(testprog.File(t, path), set)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// replay runs a witness's start state again, independently of the code
// that found it, and reports whether the two orders end alike.
func replay(t *testing.T, m *interp.Machine, a, b string, w *Witness) bool {
	t.Helper()
	if w.Params != nil {
		m = machine(t, m.Prog.File, w.Params)
	}
	p := m.Prog
	ba, bb := p.Block(a), p.Block(b)
	store := make([]int64, m.Locs())
	locals := [2][]int64{make([]int64, len(ba.Proc.Locals)), make([]int64, len(bb.Proc.Locals))}
	vals := map[string]string{}
	for _, v := range w.Start {
		vals[v.Name] = v.Value
	}
	parse := func(s string) int64 {
		switch s {
		case "true":
			return 1
		case "false":
			return 0
		}
		var v int64
		for i, c := range s {
			if i == 0 && c == '-' {
				continue
			}
			v = 10*v + int64(c-'0')
		}
		if s[0] == '-' {
			v = -v
		}
		return v
	}
	for l := 0; l < m.Locs(); l++ {
		if s, ok := vals[m.LocName(interp.Loc(l))]; ok {
			store[l] = parse(s)
		}
	}
	for k, bl := range []*lang.Block{ba, bb} {
		for _, v := range bl.Point.Live {
			name := v.Name
			if k == 1 {
				name += "'"
			}
			locals[k][v.Index] = parse(vals[name])
		}
	}
	st := m.PairState(store, ba, locals[0], bb, locals[1])
	for _, g := range p.Globals {
		if !g.Unbounded() {
			continue
		}
		for name, s := range vals {
			var i int64
			if _, err := fmt.Sscanf(name, g.Name+"[%d]", &i); err == nil {
				st.SetElement(g, i, parse(s))
			}
		}
	}
	if !st.Enabled(0) || !st.Enabled(1) {
		t.Errorf("(%s, %s): a block is not enabled in the witness state %v", a, b, w.Start)
		return true
	}
	run := func(first, second int) (*interp.State, bool) {
		s := st.Clone()
		if ev := s.Step(first); ev.Err != nil || !s.Enabled(second) {
			return s, false
		}
		ev := s.Step(second)
		return s, ev.Err == nil
	}
	ab, ok1 := run(0, 1)
	bA, ok2 := run(1, 0)
	return ok1 && ok2 && ab.Equal(bA)
}

func TestRunFig1(t *testing.T) {
	t.Parallel()
	m := machine(t, "../testdata/fig1.blk", nil)
	r, err := Run(context.Background(), m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]struct {
		class Class
		cs    []string
	}{
		{"p", "p"}: {Always, []string{"true"}},
		{"p", "q"}: {Conditional, []string{"z <= -1"}},
		{"p", "r"}: {Always, []string{"true"}},
		{"q", "q"}: {Always, []string{"true"}},
		{"q", "r"}: {Conditional, []string{"x == z", "z <= -2", "z >= 0"}},
		{"r", "r"}: {Always, []string{"true"}},
	}
	if len(r.Pairs) != len(want) {
		t.Fatalf("%d pairs, want %d", len(r.Pairs), len(want))
	}
	for _, p := range r.Pairs {
		w := want[[2]string{p.A, p.B}]
		if p.Class != w.class || !slices.Equal(p.Constraints, w.cs) {
			t.Errorf("(%s, %s): %s %v, want %s %v", p.A, p.B, p.Class, p.Constraints, w.class, w.cs)
		}
		switch {
		case p.Class == Always && p.Witness != nil:
			t.Errorf("(%s, %s) always commutes but has a witness", p.A, p.B)
		case p.Class != Always && p.Witness == nil:
			t.Errorf("(%s, %s): no witness: %s", p.A, p.B, p.NoWitness)
		case p.Witness != nil:
			if p.Witness.Kind != Differ {
				t.Errorf("(%s, %s): witness of kind %s, want differ", p.A, p.B, p.Witness.Kind)
			}
			if replay(t, m, p.A, p.B, p.Witness) {
				t.Errorf("(%s, %s): the witness %v does not differ when run", p.A, p.B, p.Witness.Start)
			}
			t.Logf("(%s, %s): %v: %s", p.A, p.B, p.Witness.Start, p.Witness.Summary())
		}
	}
}

// TestRunUnbounded: a witness over an unbounded array names the
// elements it sets, at any index, and differs when run again.
func TestRunUnbounded(t *testing.T) {
	t.Parallel()
	prog := testprog.Source(t, `global int m[*], n;
proc p(int k) { if (m[k] == 0) { n = n + 1; } m[k] = m[k] + 1; }
proc q(int k) { m[k + 1000000] = 0; }
`)
	m, err := interp.New(prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Pairs {
		if p.A != "p" || p.B != "q" {
			continue
		}
		if !slices.Equal(p.Constraints, []string{"k != k' + 1000000"}) {
			t.Errorf("(p, q): %v", p.Constraints)
		}
		if p.Witness == nil {
			t.Fatalf("(p, q): no witness: %s", p.NoWitness)
		}
		if replay(t, m, p.A, p.B, p.Witness) {
			t.Errorf("(p, q): the witness %v does not differ when run", p.Witness.Start)
		}
		t.Logf("%v: %s", p.Witness.Start, p.Witness.Summary())
		return
	}
	t.Fatal("no pair (p, q)")
}

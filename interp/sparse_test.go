package interp

import (
	"maps"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
)

// TestUnbounded: an unbounded array is indexed by any integer, with no
// bounds check, each element 0 until written; a state holds the elements
// that are not 0, so writing 0 back gives an equal state with an equal
// hash; Undo restores the elements; a clone is independent; ICEnv and
// SetElement read and write any element.
func TestUnbounded(t *testing.T) {
	t.Parallel()
	prog := testprog.Source(t, `global int m[*], n;
proc p(int k) { if (m[k] == 0) { n = n + 1; } m[k] = m[k] + 1; m[-k] = 7; }
proc q(int k) { m[k] = 0; m[-k] = 0; }
init { spawn p(-9223372036854775807); spawn q(-9223372036854775807); }
`)
	m, err := New(prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := prog.Global("m")
	st, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	start := st.Clone()
	mark := st.Mark()
	if ev := st.Step(0); ev.Err != nil {
		t.Fatal(ev.Err)
	}
	const k = -9223372036854775807
	want := map[int64]int64{k: 1, -k: 7}
	if got := st.Elements(g); !maps.Equal(got, want) {
		t.Fatalf("after p: %v, want %v", got, want)
	}
	if start.Elements(g) != nil {
		t.Errorf("the clone taken before p changed: %v", start.Elements(g))
	}
	if v, ok := (ICEnv{S: st}).Element("m", -k); !ok || v != 7 {
		t.Errorf("ICEnv: m[%d] = %d, %t", -k, v, ok)
	}
	after := st.Clone()
	if ev := st.Step(1); ev.Err != nil {
		t.Fatal(ev.Err)
	}
	if len(st.Elements(g)) != 0 {
		t.Errorf("after q: %v, want no element", st.Elements(g))
	}
	if st.Equal(start) {
		t.Errorf("equal to the start: n differs")
	}
	// q wrote 0 back: m equals the start's, n does not.
	st.Undo(mark)
	if !st.Equal(start) || st.Hash() != start.Hash() {
		t.Errorf("Undo: %v, want %v", st.Elements(g), start.Elements(g))
	}
	st.SetElement(g, k, 1)
	st.SetElement(g, -k, 7)
	if st.Equal(start) {
		t.Errorf("SetElement: still equal to the start")
	}
	x := after.Clone()
	x.SetElement(g, 5, 0)
	if !x.Equal(after) || x.Hash() != after.Hash() {
		t.Errorf("writing 0 to an element that is 0 changed the state")
	}
}

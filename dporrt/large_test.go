package dporrt

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/lang"
)

// TestLargeArrays runs and explores a program with two arrays of 2^20
// elements (larger than denseStamps): fill initializers, reads and writes
// of far elements named by LocName, a block reading one element many times
// (its sets keep each location once), and an invariant over an array,
// checked after the event that writes it.
func TestLargeArrays(t *testing.T) {
	t.Parallel()
	const n = 1 << 20
	m := newMachine(t, `param N = 4;
global int a[N] = 7, b[N], s;
invariant (a[0] == 7);
proc p(int i) { b[i] = a[i] + 1; }
proc q() { int k; while (k < 10) { s = s + a[3] + a[3]; k = k + 1; } }
proc r() { a[0] = 1; }
init { spawn p(N - 1); spawn q(); spawn r(); }
`, map[string]int64{"N": n})
	st, err := m.Initial()
	if err != nil {
		t.Fatal(err)
	}
	first, size := m.GlobalLocs(m.Prog.Global("a"))
	if size != n || slices.ContainsFunc(st.Store[first:int(first)+n], func(v int64) bool { return v != 7 }) {
		t.Fatalf("a has %d elements, not all 7", size)
	}
	bFirst, _ := m.GlobalLocs(m.Prog.Global("b"))
	steps := []struct {
		reads, writes string
		viols         int
	}{
		{"a[1048575]", "b[1048575]", 0},
		{"a[3] s", "s", 0},
		{"a[0]", "a[0]", 1}, // the invariant read a[0] and failed
	}
	for i, want := range steps {
		ev := st.Step(i)
		if ev.Err != nil {
			t.Fatal(ev.Err)
		}
		reads, writes := strings.Join(locNames(m, ev.Reads), " "), strings.Join(locNames(m, ev.Writes), " ")
		if reads != want.reads || writes != want.writes || len(ev.Violations) != want.viols {
			t.Errorf("event %d: reads %q writes %q, %d violations; want %q %q %d", i, reads, writes, len(ev.Violations), want.reads, want.writes, want.viols)
		}
	}
	if got := st.Store[int(bFirst)+n-1]; got != 8 {
		t.Errorf("b[N-1] = %d, want 8", got)
	}
	for _, dep := range []DepMode{Dynamic, Static} {
		r, err := Explore(m, Options{Algo: SDPOR, Dep: dep})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cut || r.FinalCount != len(r.Finals) || len(r.Findings) != 1 || r.Findings[0].Violation == nil {
			t.Errorf("dep %s: %+v", dep, r)
		}
	}
}

// TestStoreBound checks the bound on a program's globals: up to MaxStore
// locations it is fine, past it New reports the global that goes over, as
// a located "program too large" error.
func TestStoreBound(t *testing.T) {
	t.Parallel()
	prog := compileSrc(t, `param N = 4;
param M = 4;
global int x;
global int a[N], b[M];
`)
	cases := []struct {
		n, m int64
		err  string
	}{
		{n: MaxArraySize, m: MaxStore - MaxArraySize - 1},
		{n: MaxArraySize, m: MaxStore - MaxArraySize, err: "test.blk:4:18: program too large: with b the globals need 33554433 locations (256 MiB at 8 bytes each); at most 33554432 (256 MiB) fit"},
	}
	for _, c := range cases {
		m, err := New(prog, map[string]int64{"N": c.n, "M": c.m})
		if c.err == "" {
			if err != nil {
				t.Errorf("N=%d M=%d: %v", c.n, c.m, err)
			} else if m.Locs() != int(1+c.n+c.m) {
				t.Errorf("N=%d M=%d: %d locations", c.n, c.m, m.Locs())
			}
			continue
		}
		var le *lang.Error
		if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("N=%d M=%d: error %v, want a *lang.Error starting %q", c.n, c.m, err, c.err)
		}
	}
}

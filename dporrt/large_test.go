package dporrt

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
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
	if size != n || slices.ContainsFunc(st.Values(first, n), func(v int64) bool { return v != 7 }) {
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
		reads, writes := strings.Join(m.LocNames(ev.Reads), " "), strings.Join(m.LocNames(ev.Writes), " ")
		if reads != want.reads || writes != want.writes || len(ev.Violations) != want.viols {
			t.Errorf("event %d: reads %q writes %q, %d violations; want %q %q %d", i, reads, writes, len(ev.Violations), want.reads, want.writes, want.viols)
		}
	}
	if got := st.Value(bFirst + n - 1); got != 8 {
		t.Errorf("b[N-1] = %d, want 8", got)
	}
	for _, dep := range []DepMode{Locals, Static} {
		r, err := Explore(context.Background(), m, Options{Algo: SDPOR, Dep: dep})
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
	prog := testprog.Source(t, `param N = 4;
param M = 4;
global int x;
global int a[N], b[M];
`)
	cases := []struct {
		n, m int64
		err  string
	}{
		{n: interp.MaxArraySize, m: interp.MaxStore - interp.MaxArraySize - 1},
		{n: interp.MaxArraySize, m: interp.MaxStore - interp.MaxArraySize, err: "test.blk:4:18: program too large: with b the globals need 33554433 locations (256 MiB at 8 bytes each); at most 33554432 (256 MiB) fit"},
	}
	for _, c := range cases {
		m, err := interp.New(prog, map[string]int64{"N": c.n, "M": c.m})
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

// bigStoreSrc has two arrays of N cells each; its processes touch a few of
// them, one awaits a counter the others raise, and each runs one or two
// blocks: every algorithm takes its snapshots, clones and final states.
const bigStoreSrc = `param N = 512;
global int a[N];
global int b[N];
proc w(int i) { a[i] = a[i] + 1; b[N - 1 - i] = i; b[2] = b[2] + 1; }
proc r() { await(b[2] >= 1); a[N - 1] = a[0] + b[N - 1]; }
proc s() { a[0] = b[0] + 1; yield; b[1] = a[N - 1]; }
init { spawn w(0); spawn w(1); spawn r(); spawn s(); }
`

// bigStoreICs is an IC file for bigStoreSrc with one constraint, which
// reads both arrays at an index that is not a literal (so it stands for
// every cell of each): r's block after the await and s's block after the
// yield commute where r leaves a[N - 1] as it is, which s reads. It needs
// N >= 3 (s writes b[1], which r does not read, and not the counter b[2]
// that keeps r enabled), and is guarded against overflow in r's sum.
func bigStoreICs(t *testing.T, p *lang.Program) *ic.File {
	t.Helper()
	num := func(v int64) *ic.Expr { return ic.Int(v) }
	op := func(o string, args ...*ic.Expr) *ic.Expr { return &ic.Expr{Op: o, Args: args} }
	n := &ic.Expr{Op: "param", Name: "N"}
	at := func(arr string, i *ic.Expr) *ic.Expr { return &ic.Expr{Op: "select", Name: arr, Args: []*ic.Expr{i}} }
	last := op("-", n, num(1))
	sum := op("+", at("a", num(0)), at("b", last))
	f := ic.Skeleton(p)
	ra, sb := p.Procs[1].Points[1].Block.ID, p.Procs[2].Points[1].Block.ID
	if p.Procs[1].Name != "r" || p.Procs[2].Name != "s" {
		t.Fatalf("procs %s, %s; want r, s", p.Procs[1].Name, p.Procs[2].Name)
	}
	f.Pairs = []ic.Pair{{A: ra, B: sb, Status: ic.Conditional, Exact: true,
		Constraints: []ic.Constraint{ic.NewConstraint(op("&&", op(">=", n, num(3)), op(">", at("b", num(2)), num(0)), op("==", sum, at("a", last))))},
		NoOverflow:  op("&&", op("<=", sum, num(math.MaxInt64)), op(">=", sum, num(math.MinInt64)))}}
	return f
}

// TestStoreMemory checks that an exploration's memory does not grow with
// the store: every algorithm explores bigStoreSrc with 2^10 locations and
// with MaxStore (2^25, 256 MiB at 8 bytes a location), and allocates less
// than 64 KiB an event more with the larger store (an event writes at most
// three cells, and copies at most their pages and directories, 8 KiB each,
// after each clone of the state), and less than an eighth of the store's
// 256 MiB in all. A copy of the store per snapshot, clone or final state
// allocates 256 MiB; a pass over it per event takes time in proportion to
// it. Not parallel: it counts the bytes the whole process allocates.
func TestStoreMemory(t *testing.T) {
	p := testprog.Source(t, bigStoreSrc)
	f := bigStoreICs(t, p)
	alloc := func(algo Algorithm, n int64) (bytes uint64, events int) {
		m, err := interp.New(p, map[string]int64{"N": n})
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		opts := Options{Algo: algo}
		if info, _ := Lookup(algo); info.NeedsICs {
			opts.ICs = f
		}
		r, err := Explore(context.Background(), m, opts)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if r.FinalCount != 8 || r.Cut {
			t.Fatalf("%s, N = %d: %d final states (cut: %v), want 8", algo, n, r.FinalCount, r.Cut)
		}
		return after.TotalAlloc - before.TotalAlloc, r.States
	}
	for _, a := range Algorithms {
		small, smallEvents := alloc(a.Name, 1<<9)
		big, bigEvents := alloc(a.Name, interp.MaxArraySize)
		perSmall, perBig := float64(small)/float64(smallEvents), float64(big)/float64(bigEvents)
		t.Logf("%-12s %3d events: %8.0f bytes an event with 2^10 locations, %8.0f with 2^25 (%d in all)", a.Name, bigEvents, perSmall, perBig, big)
		if perBig-perSmall > 64<<10 || big > interp.MaxStore {
			t.Errorf("%s: %.0f bytes an event with 2^10 locations, %.0f with 2^25 (%d in all): memory grows with the store", a.Name, perSmall, perBig, big)
		}
	}
}

// TestConstraintLocsWholeArrays checks that the locations a constraint
// reads stand for a whole array of more than maxCellList cells by one
// location (WholeLoc), found without a pass over its cells: the constraint of
// bigStoreICs reads a and b, of 2^24 cells each, at indices that are not
// literals. Not parallel: it counts the bytes the process allocates.
func TestConstraintLocsWholeArrays(t *testing.T) {
	p := testprog.Source(t, bigStoreSrc)
	f := bigStoreICs(t, p)
	m, err := interp.New(p, map[string]int64{"N": interp.MaxArraySize})
	if err != nil {
		t.Fatal(err)
	}
	x := newExplorer(m, Options{Algo: CODPOR, Dep: Static, ICs: f})
	if x.ics, err = newICIndex(p, f); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := x.constraintLocs(&f.Pairs[0])
	runtime.ReadMemStats(&after)
	wa, wb := interp.WholeLoc(p.Global("a").Index), interp.WholeLoc(p.Global("b").Index)
	if !slices.Contains(got, wa) || !slices.Contains(got, wb) || len(got) > 6 {
		t.Errorf("constraint locations %v, want %d and %d (a and b whole) and some of their cells", got, wa, wb)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("finding them allocated %d bytes", n)
	}
}

package interp

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
)

// sameState reports how a and b differ exactly (not modulo naming): store,
// processes (ids, procs, points, all locals, spawn counters), violations and
// the root spawn counter. It returns nil when they are identical.
func sameState(a, b *State) error {
	if n := a.m.Locs(); !slices.Equal(a.Values(0, n), b.Values(0, n)) {
		return fmt.Errorf("store %v != %v", a.Values(0, n), b.Values(0, n))
	}
	if a.rootSpawn != b.rootSpawn {
		return fmt.Errorf("root spawns %d != %d", a.rootSpawn, b.rootSpawn)
	}
	if len(a.Procs) != len(b.Procs) {
		return fmt.Errorf("%d processes != %d: %q vs %q", len(a.Procs), len(b.Procs), procNames(a), procNames(b))
	}
	for i, p := range a.Procs {
		q := b.Procs[i]
		if p == q {
			return fmt.Errorf("process %d is shared by both states", i)
		}
		if p.ID.Compare(q.ID) != 0 || p.Proc != q.Proc || p.Point != q.Point || p.Done != q.Done ||
			p.Spawned != q.Spawned || !slices.Equal(p.Locals, q.Locals) {
			return fmt.Errorf("process %d: %s %+v != %s %+v", i, p.Name(), *p, q.Name(), *q)
		}
	}
	if !slices.Equal(a.Violations, b.Violations) {
		return fmt.Errorf("violations %v != %v", a.Violations, b.Violations)
	}
	return nil
}

// checkRestored checks that st equals (exactly, and by Equal and Hash) the
// state saved as want with hash h.
func checkRestored(t *testing.T, what string, st, want *State, h uint64) {
	t.Helper()
	if err := sameState(st, want); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !st.Equal(want) || !want.Equal(st) {
		t.Fatalf("%s: states are identical but not Equal", what)
	}
	if st.Hash() != h || want.Hash() != h {
		t.Fatalf("%s: hash %x, clone %x, saved %x", what, st.Hash(), want.Hash(), h)
	}
}

// A producer/consumer over an array buffer, with awaits, spawns and asserts
// that fail in some interleavings.
const pcSrc = `param N = 2;
global int buf[N], head, tail, count, sum;
proc prod(int v) {
  int k;
  while (k < 2) {
    await(count < N);
    buf[tail] = v + k;
    tail = (tail + 1) % N;
    count = count + 1;
    k = k + 1;
  }
}
proc cons(int n) {
  int k;
  while (k < n) {
    await(count > 0);
    sum = sum + buf[head];
    head = (head + 1) % N;
    count = count - 1;
    assert(sum < 25, "big");
    k = k + 1;
  }
  spawn done(sum);
}
proc done(int s) { assert(s == 62, "total"); }
init { spawn prod(10); spawn prod(20); spawn cons(4); }
`

type testProg struct {
	name string
	m    *Machine
}

func walkPrograms(t *testing.T) []testProg {
	fib, err := New(testprog.File(t, "../testdata/fib.blk"), map[string]int64{"N": 5})
	if err != nil {
		t.Fatal(err)
	}
	return []testProg{
		{"fib5", fib},
		{"pc", newMachine(t, pcSrc, nil)},
		{"pc-N1", newMachine(t, pcSrc, map[string]int64{"N": 1})},
		{"fig1", newMachine(t, fig1Src, map[string]int64{"z": -1})},
	}
}

// TestUndoRandomWalks does seeded random walks that go deep and backtrack
// by several levels at once. Before each step it saves a clone, the hash
// and a mark; each backtrack undoes one level at a time and checks the state
// against the clone of that level. Sometimes a step is undone at once and
// redone: the event and the state must be the same again.
func TestUndoRandomWalks(t *testing.T) {
	t.Parallel()
	for _, tp := range walkPrograms(t) {
		for seed := uint64(1); seed <= 12; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", tp.name, seed), func(t *testing.T) {
				t.Parallel()
				randomWalk(t, tp.m, seed)
			})
		}
	}
}

func randomWalk(t *testing.T, m *Machine, seed uint64) {
	st, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	type level struct {
		mark  int
		clone *State
		hash  uint64
	}
	var stack []level
	r := rand.New(rand.NewPCG(seed, 99))
	steps, backtracks := 0, 0
	for iter := 0; iter < 600; iter++ {
		en := st.EnabledProcs(nil)
		if len(en) == 0 || len(stack) > 0 && r.IntN(5) == 0 {
			if len(stack) == 0 {
				break
			}
			backtracks++
			for k := 1 + r.IntN(len(stack)); k > 0; k-- {
				lv := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				st.Undo(lv.mark)
				checkRestored(t, fmt.Sprintf("iteration %d, back to depth %d", iter, len(stack)), st, lv.clone, lv.hash)
			}
			continue
		}
		i := en[r.IntN(len(en))]
		lv := level{mark: st.Mark(), clone: st.Clone(), hash: st.Hash()}
		ev := st.Step(i)
		steps++
		if ev.Err != nil {
			t.Fatal(ev.Err)
		}
		if r.IntN(3) == 0 {
			after := st.Clone()
			first := eventText(m, ev)
			st.Undo(lv.mark)
			checkRestored(t, "undo of one step", st, lv.clone, lv.hash)
			ev = st.Step(i)
			if again := eventText(m, ev); again != first {
				t.Fatalf("redone step differs:\n%s\n%s", first, again)
			}
			if err := sameState(st, after); err != nil {
				t.Fatalf("redone step reached another state: %v", err)
			}
		}
		stack = append(stack, lv)
	}
	for len(stack) > 0 {
		lv := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		st.Undo(lv.mark)
		checkRestored(t, fmt.Sprintf("final unwinding to depth %d", len(stack)), st, lv.clone, lv.hash)
	}
	if st.Mark() != 0 {
		t.Errorf("log not empty after unwinding: %d", st.Mark())
	}
	if steps < 10 || backtracks == 0 {
		t.Errorf("walk too short: %d steps, %d backtracks", steps, backtracks)
	}
}

// eventText renders an event for comparisons.
func eventText(m *Machine, ev *Event) string {
	return fmt.Sprintf("%d %s r=%v w=%v s=%v v=%v err=%v", ev.Proc, ev.Block.ID,
		m.LocNames(ev.Reads), m.LocNames(ev.Writes), ev.Spawned, violationTexts(ev.Violations), ev.Err)
}

// stateText renders a state exactly (ids included) for sets of final states.
func stateText(st *State) string {
	var b strings.Builder
	fmt.Fprint(&b, st.Values(0, st.m.Locs()))
	for _, p := range st.Procs {
		pt := -1
		if p.Point != nil {
			pt = p.Point.Index
		}
		fmt.Fprintf(&b, " %s@%d%v", p.Name(), pt, p.Locals)
	}
	for _, v := range st.Violations {
		fmt.Fprintf(&b, " [%s]", v)
	}
	return b.String()
}

// dfsUndo explores every interleaving from st with Mark/Undo, checking on
// each return that the state is the one it had on entry. It returns the
// number of complete runs per final state.
func dfsUndo(t *testing.T, st *State, finals map[string]int) {
	entry, h, mark := st.Clone(), st.Hash(), st.Mark()
	en := st.EnabledProcs(nil)
	if len(en) == 0 {
		finals[stateText(st)]++
		return
	}
	for _, i := range en {
		if ev := st.Step(i); ev.Err != nil {
			t.Fatal(ev.Err)
		}
		dfsUndo(t, st, finals)
		st.Undo(mark)
		checkRestored(t, "return from a subtree", st, entry, h)
	}
}

// dfsClone explores every interleaving from st by stepping clones (no
// Undo): the oracle for dfsUndo.
func dfsClone(t *testing.T, st *State, finals map[string]int) {
	en := st.EnabledProcs(nil)
	if len(en) == 0 {
		finals[stateText(st)]++
		return
	}
	for _, i := range en {
		c := st.Clone()
		if ev := c.Step(i); ev.Err != nil {
			t.Fatal(ev.Err)
		}
		dfsClone(t, c, finals)
	}
}

// dfsCloneInto is dfsClone with each clone made into a state dropped
// before (CloneInto), as the explorers' snapshots are: a copy that kept
// memory of the state it reused would reach other final states.
func dfsCloneInto(t *testing.T, st *State, finals map[string]int, free *[]*State) {
	en := st.EnabledProcs(nil)
	if len(en) == 0 {
		finals[stateText(st)]++
		return
	}
	for _, i := range en {
		var reuse *State
		if n := len(*free); n > 0 {
			reuse, *free = (*free)[n-1], (*free)[:n-1]
		}
		c := st.CloneInto(reuse)
		if ev := c.Step(i); ev.Err != nil {
			t.Fatal(ev.Err)
		}
		dfsCloneInto(t, c, finals, free)
		*free = append(*free, c)
	}
}

// TestDFSUndo explores all interleavings of small programs with Mark/Undo
// and compares the final states (with their number of runs) to an
// exploration that steps clones instead.
func TestDFSUndo(t *testing.T) {
	t.Parallel()
	fib3, err := New(testprog.File(t, "../testdata/fib.blk"), map[string]int64{"N": 3})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		m         *Machine
		runs      int // complete interleavings; 0: not checked
		minFinals int
	}{
		{name: "fig1", m: newMachine(t, fig1Src, nil), runs: 6, minFinals: 1},
		{name: "fig1-z", m: newMachine(t, fig1Src, map[string]int64{"z": -1}), runs: 6, minFinals: 2},
		{name: "pc", m: newMachine(t, pcSrc, nil), minFinals: 2},
		{name: "fib3", m: fib3, minFinals: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st, rerr := c.m.Initial()
			if rerr != nil {
				t.Fatal(rerr)
			}
			byUndo, byClone := map[string]int{}, map[string]int{}
			dfsUndo(t, st, byUndo)
			if st.Mark() != 0 {
				t.Errorf("log not empty after the exploration: %d", st.Mark())
			}
			dfsClone(t, st, byClone)
			byCloneInto, free := map[string]int{}, []*State{}
			dfsCloneInto(t, st, byCloneInto, &free)
			if !maps.Equal(byCloneInto, byClone) {
				t.Errorf("clones made into dropped states reach %d final states, new clones %d", len(byCloneInto), len(byClone))
			}
			runs := 0
			for _, n := range byUndo {
				runs += n
			}
			if c.runs != 0 && runs != c.runs {
				t.Errorf("%d interleavings, want %d", runs, c.runs)
			}
			if len(byUndo) < c.minFinals {
				t.Errorf("%d final states, want at least %d", len(byUndo), c.minFinals)
			}
			if len(byUndo) != len(byClone) {
				t.Errorf("undo DFS: %d final states; clone DFS: %d", len(byUndo), len(byClone))
			}
			for k, n := range byUndo {
				if byClone[k] != n {
					t.Errorf("final state reached %d times with undo, %d with clones:\n%s", n, byClone[k], k)
				}
			}
			t.Logf("%d interleavings, %d final states", runs, len(byUndo))
		})
	}
}

// TestCloneIndependent checks that a clone can be stepped, gives the same
// events as the original, and that stepping one does not change the other.
func TestCloneIndependent(t *testing.T) {
	t.Parallel()
	m := newMachine(t, pcSrc, nil)
	st, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	for k := 0; k < 4; k++ {
		st.Step(st.EnabledProcs(nil)[0])
	}
	saved := st.Clone()
	c := st.Clone()
	for step := 0; ; step++ {
		en := c.EnabledProcs(nil)
		if len(en) == 0 {
			break
		}
		i := en[len(en)-1]
		evc := c.Step(i)
		if err := sameState(st, saved); err != nil {
			t.Fatalf("stepping the clone changed the original: %v", err)
		}
		if step == 0 {
			evo := st.Step(i)
			if a, b := eventText(m, evc), eventText(m, evo); a != b {
				t.Errorf("clone and original ran the same block differently:\n%s\n%s", a, b)
			}
			if err := sameState(st, c); err != nil {
				t.Errorf("clone and original differ after the same step: %v", err)
			}
			saved = st.Clone()
		}
	}
}

// TestCloneViolations checks that a clone and its original append
// violations independently (no shared backing array).
func TestCloneViolations(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `proc a() { assert(false, "a"); }
proc b() { assert(false, "b"); }
init { assert(false, "i1"); assert(false, "i2"); assert(false, "i3"); spawn a(); spawn b(); }
`, nil)
	st, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	c := st.Clone()
	st.Step(0)
	c.Step(1)
	last := func(s *State) string { return s.Violations[len(s.Violations)-1].Msg }
	if len(st.Violations) != 4 || len(c.Violations) != 4 || last(st) != "a" || last(c) != "b" {
		t.Errorf("original %v, clone %v", st.Violations, c.Violations)
	}
}

// TestUndoAfterError checks that Undo rolls back the partial effects of a
// block that stopped with a runtime error.
func TestUndoAfterError(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int x, a[2];
proc c() { }
proc p() { int t = 4; x = t; spawn c(); assert(false); a[x] = 2; }
init { spawn p(); }
`, nil)
	st, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	before, h, mark := st.Clone(), st.Hash(), st.Mark()
	ev := st.Step(0)
	if ev.Err == nil || ev.Err.Msg != "index 4 out of bounds for array a of size 2" {
		t.Fatalf("error = %v", ev.Err)
	}
	if globals(st)["x"] != 4 || len(st.Procs) != 2 || len(st.Violations) != 1 {
		t.Fatalf("partial effects missing: %v %q %v", st.Values(0, m.Locs()), procNames(st), st.Violations)
	}
	st.Undo(mark)
	checkRestored(t, "undo of a failed block", st, before, h)
}

// TestEqualModuloNaming compares the states two schedules reach.
func TestEqualModuloNaming(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		src   string
		a, b  string // schedules (process names)
		equal bool
		// differ, when set, must hold: the states are not identical (so
		// Equal really works modulo something).
		differ func(a, b *State) bool
	}{
		{name: "same-processes-other-ids", src: `global int turn;
proc w() { yield; }
proc a() { if (turn == 0) { turn = 1; spawn w(); } }
proc b() { if (turn == 0) { turn = 1; spawn w(); } }
init { spawn a(); spawn b(); }
`, a: "a#1 b#2", b: "b#2 a#1", equal: true,
			differ: func(a, b *State) bool { return !slices.Equal(procNames(a), procNames(b)) }},
		{name: "dead-local", src: `global int g;
proc p() { int t = g; yield; g = 5; }
proc q() { g = 1; }
init { spawn p(); spawn q(); }
`, a: "q#2 p#1", b: "p#1 q#2", equal: true,
			differ: func(a, b *State) bool { return a.Procs[0].Locals[0] != b.Procs[0].Locals[0] }},
		{name: "live-local", src: `global int g;
proc p() { int t = g; yield; g = t; }
proc q() { g = 1; }
init { spawn p(); spawn q(); }
`, a: "q#2 p#1", b: "p#1 q#2", equal: false},
		{name: "dead-param-of-spawned", src: `global int g;
proc c(int v) { yield; }
proc p() { spawn c(g); }
proc q() { g = 1; }
init { spawn p(); spawn q(); }
`, a: "p#1 q#2", b: "q#2 p#1", equal: true,
			differ: func(a, b *State) bool { return a.Procs[2].Locals[0] != b.Procs[2].Locals[0] }},
		{name: "live-param-of-spawned", src: `global int g, h;
proc c(int v) { h = v; }
proc p() { spawn c(g); }
proc q() { g = 1; }
init { spawn p(); spawn q(); }
`, a: "p#1 q#2", b: "q#2 p#1", equal: false},
		{name: "violation", src: `global int g;
proc p() { assert(g == 0); }
proc q() { g = 1; }
init { spawn p(); spawn q(); }
`, a: "p#1 q#2", b: "q#2 p#1", equal: false},
		{name: "violation-same-site-other-process", src: `global int g;
proc p() { assert(g == 0, "m"); }
proc q() { g = 1; }
init { spawn p(); spawn p(); spawn q(); }
`, a: "p#1 q#3 p#2", b: "p#2 q#3 p#1", equal: true,
			differ: func(a, b *State) bool { return a.Violations[0].Proc != b.Violations[0].Proc }},
		{name: "violations-other-order", src: `global int g;
proc p() { assert(g == 5, "p"); }
proc q() { assert(g == 5, "q"); }
init { spawn p(); spawn q(); }
`, a: "p#1 q#2", b: "q#2 p#1", equal: true,
			differ: func(a, b *State) bool { return a.Violations[0].Msg != b.Violations[0].Msg }},
		{name: "globals", src: `global int g;
proc p() { g = g * 2; }
proc q() { g = g + 1; }
init { spawn p(); spawn q(); }
`, a: "p#1 q#2", b: "q#2 p#1", equal: false},
		{name: "point", src: `proc p() { yield; yield; }
init { spawn p(); }
`, a: "p#1", b: "p#1 p#1", equal: false},
		{name: "finished-vs-live", src: `proc p() { yield; }
init { spawn p(); }
`, a: "p#1", b: "p#1 p#1", equal: false},
		{name: "finished-processes-ignored", src: `global int g;
proc p(int v) { g = g + v; }
init { spawn p(1); spawn p(2); }
`, a: "p#1 p#2", b: "p#2 p#1", equal: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, c.src, nil)
			run := func(sched string) *State {
				pol, perr := Replay(strings.Fields(sched))
				out := m.Run(pol, 0)
				if out.Err != nil || *perr != nil || len(out.Events) != len(strings.Fields(sched)) {
					t.Fatalf("schedule %q: err=%v replay=%v events=%d", sched, out.Err, *perr, len(out.Events))
				}
				return out.Final
			}
			a, b := run(c.a), run(c.b)
			if c.differ != nil && !c.differ(a, b) {
				t.Fatalf("the states should differ in representation:\n%s\n%s", stateText(a), stateText(b))
			}
			if got := a.Equal(b); got != c.equal || b.Equal(a) != got {
				t.Errorf("Equal = %v (reversed %v), want %v:\n%s\n%s", got, b.Equal(a), c.equal, stateText(a), stateText(b))
			}
			if ha, hb := a.Hash(), b.Hash(); (ha == hb) != c.equal {
				t.Errorf("hashes %x %x, want equal=%v", ha, hb, c.equal)
			}
		})
	}
}

// TestEqualEdits edits a clone field by field.
func TestEqualEdits(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int g, a[3];
proc p(int u) { int t = u * 2; int d = t + 1; yield; g = t; }
proc q() { a[1] = 1; }
init { spawn p(3); spawn q(); }
`, nil)
	pol, _ := Replay([]string{"p#1", "q#2"})
	base := m.Run(pol, 0).Final
	p := base.Procs[0]
	var live []string
	for _, v := range p.Point.Live {
		live = append(live, v.Name)
	}
	if !slices.Equal(live, []string{"t"}) {
		t.Fatalf("live at p's yield: %v, want [t]", live)
	}
	slot := func(name string) int {
		for _, v := range p.Proc.Locals {
			if v.Name == name {
				return v.Index
			}
		}
		t.Fatalf("no local %s", name)
		return -1
	}
	cases := []struct {
		name  string
		edit  func(s *State)
		equal bool
	}{
		{"nothing", func(s *State) {}, true},
		{"dead-local", func(s *State) { s.Procs[0].Locals[slot("d")] = 99 }, true},
		{"dead-param", func(s *State) { s.Procs[0].Locals[slot("u")] = -5 }, true},
		{"live-local", func(s *State) { s.Procs[0].Locals[slot("t")] = 7 }, false},
		{"finished-process-locals", func(s *State) { s.Procs[1].Locals = []int64{} }, true},
		{"spawn-counter", func(s *State) { s.Procs[0].Spawned = 4 }, true},
		{"process-ids", func(s *State) { s.Procs[0].ID, s.Procs[1].ID = s.m.PID(2), s.m.PID(1) }, true},
		{"process-order", func(s *State) { s.Procs[0], s.Procs[1] = s.Procs[1], s.Procs[0] }, true},
		{"array-element", func(s *State) { s.store.set(3, 5) }, false},
		{"scalar", func(s *State) { s.store.set(0, -1) }, false},
		{"point", func(s *State) { s.Procs[0].Point = s.Procs[0].Proc.Points[0] }, false},
		{"done", func(s *State) { s.Procs[0].Point, s.Procs[0].Done = nil, true }, false},
		{"violation", func(s *State) { s.Violations = append(s.Violations, Violation{Pos: p.Proc.Pos, Msg: "x"}) }, false},
		{"extra-process", func(s *State) {
			c := *s.Procs[0]
			c.ID = s.m.PID(9)
			s.Procs = append(s.Procs, &c)
		}, false},
	}
	for _, c := range cases {
		s := base.Clone() // Clone shares base's pages: it writes base
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.edit(s)
			if got := s.Equal(base); got != c.equal || base.Equal(s) != got {
				t.Errorf("Equal = %v, want %v", got, c.equal)
			}
			if (s.Hash() == base.Hash()) != c.equal {
				t.Errorf("hash equality = %v, want %v", s.Hash() == base.Hash(), c.equal)
			}
		})
	}
}

// TestHashMultiset checks that Hash treats processes and violations as
// multisets: duplicates count.
func TestHashMultiset(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `proc w() { yield; }
init { spawn w(); spawn w(); spawn w(); spawn w(); }
`, nil)
	st, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	// Two processes at entry + two at the yield vs. four at one point:
	// a sum of per-process hashes must not cancel out pairs.
	a := st.Clone()
	a.Step(0)
	a.Step(1)
	b := st.Clone()
	b.Step(2)
	b.Step(3)
	if !a.Equal(b) || a.Hash() != b.Hash() {
		t.Errorf("same multiset: Equal=%v hashes %x %x", a.Equal(b), a.Hash(), b.Hash())
	}
	c := st.Clone()
	c.Step(0)
	hashes := map[uint64]int{st.Hash(): 0, c.Hash(): 1, a.Hash(): 2}
	if len(hashes) != 3 {
		t.Errorf("0, 1 and 2 processes moved give %d distinct hashes", len(hashes))
	}
	vs := []Violation{{}, {}}
	vs[0].Pos.Line, vs[1].Pos.Line = 1, 2
	x, y := st.Clone(), st.Clone()
	x.Violations = []Violation{vs[0], vs[0]}
	y.Violations = []Violation{vs[1], vs[1]}
	if x.Equal(y) || x.Hash() == y.Hash() {
		t.Errorf("different violation multisets: Equal=%v", x.Equal(y))
	}
	y.Violations = []Violation{vs[0]}
	if x.Equal(y) || x.Hash() == y.Hash() {
		t.Errorf("violation counted once vs twice: Equal=%v", x.Equal(y))
	}
}

// TestFind checks Find against a scan of Procs as processes are spawned
// and undone, in clones (made new and into dropped states), and with the
// ids of another machine of the same program, whose serial numbers are
// those of ours.
func TestFind(t *testing.T) {
	t.Parallel()
	src := `global int x;
proc c(int v) { x = v; }
proc p() { spawn c(1); yield; spawn c(2); spawn c(3); }
init { spawn p(); spawn p(); }`
	m, other := newMachine(t, src, nil), newMachine(t, src, nil)
	st, rerr := m.Initial()
	if rerr != nil {
		t.Fatal(rerr)
	}
	check := func(st *State, when string) {
		t.Helper()
		for i, p := range st.Procs {
			if got := st.Find(p.ID); got != i {
				t.Errorf("%s: Find(%s) = %d, want %d", when, p.ID, got, i)
			}
			foreign, err := other.ParsePID(p.ID.String())
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Find(foreign); got != -1 {
				t.Errorf("%s: Find of the other machine's %s = %d, want -1", when, foreign, got)
			}
		}
		for _, gone := range []string{"1.9", "2.2.1", "3"} {
			if pid, err := m.ParsePID(gone); err != nil || st.Find(pid) != -1 {
				t.Errorf("%s: Find(%s) = %d, want -1 (%v)", when, gone, st.Find(pid), err)
			}
		}
		if st.Find(PID{}) != -1 {
			t.Errorf("%s: the root is found", when)
		}
	}
	check(st, "initial")
	var dropped *State
	marks := []int{}
	for step := 0; ; step++ {
		en := st.EnabledProcs(nil)
		if len(en) == 0 {
			break
		}
		marks = append(marks, st.Mark())
		st.Step(en[step%len(en)])
		check(st, fmt.Sprintf("step %d", step))
		check(st.Clone(), fmt.Sprintf("clone at step %d", step))
		dropped = st.CloneInto(dropped)
		check(dropped, fmt.Sprintf("clone into a dropped state at step %d", step))
	}
	for k := len(marks) - 1; k >= 0; k-- {
		st.Undo(marks[k])
		check(st, fmt.Sprintf("undone to step %d", k))
	}
}

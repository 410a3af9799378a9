package dporrt

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// The optimality oracle below has its own dependency, written from the
// definitions and from what the interpreter reports, without the
// explorer's: two events are dependent when they are of the same process,
// one created the other's process, one is a runtime error (it ends the
// execution), or one writes a location the other reads or writes. The
// locations are, under the static dependency, the globals their blocks
// name (lang.Block.Reads and Writes): an array whole, but for an array
// whose cells the machine tells apart, named by the cells its block's
// fixed indices (lang.Block.Cells) take with the locals the event started
// with, or all of them where the block indexes it otherwise (see
// staticNames). Under the dynamic one they are the explorer's localSets,
// which the oracle does not compute on its own: TestSetsCover holds them
// to what the events really touch and to the static sets, TestLocalSets
// to hand-made examples. Happens-before is the transitive closure of that
// relation over a trace.

// tevent is an executed event as the oracle sees it.
type tevent struct {
	pid     interp.PID
	rank    int      // its position among its process's events, from 1
	reads   []string // locations, by name
	writes  []string
	spawned []interp.PID
	err     bool
	hb      []bool // hb[j]: event j of the trace happens before this one
}

// observe makes the oracle's event of ev, which process pid ran after the
// trace's events; spawned are the ids of the processes ev created.
func observe(m *interp.Machine, dep DepMode, trace []*tevent, pid interp.PID, ev *interp.Event, spawned []interp.PID, pre []int64) *tevent {
	e := &tevent{pid: pid, rank: 1, spawned: spawned, err: ev.Err != nil}
	for _, p := range trace {
		if p.pid == pid {
			e.rank++
		}
	}
	if dep == Static {
		e.reads = staticNames(m, ev.Block, ev.Block.Reads, false, pre)
		e.writes = staticNames(m, ev.Block, ev.Block.Writes, true, pre)
	} else {
		r, w := newExplorer(m, Options{Dep: Locals}).localSets(ev.Block, pre)
		e.reads, e.writes = m.LocNames(r), m.LocNames(w)
		if len(r) == 1 && r[0] >= 0 && ev.Err == nil && slices.Contains(w, r[0]) && !slices.Contains(ev.Writes, r[0]) {
			// An event that reads one location and did not write it
			// only reads it: a failed compare-and-swap.
			e.writes = m.LocNames(slices.DeleteFunc(slices.Clone(w), func(l interp.Loc) bool { return l == r[0] }))
		}
	}
	// Happens-before: every earlier event e depends on, and everything
	// that happens before those.
	e.hb = make([]bool, len(trace))
	for j := len(trace) - 1; j >= 0; j-- {
		if e.hb[j] || !conflict(trace[j], e) {
			continue
		}
		e.hb[j] = true
		for i, before := range trace[j].hb {
			e.hb[i] = e.hb[i] || before
		}
	}
	return e
}

// staticNames names the locations of the globals vs that block b, run
// from the locals pre, reads (writes, with write) under the static
// dependency: a global by its name, or an array whose cells the machine
// tells apart by its cells: those its fixed indices in b take, when all of
// them are in bounds, else every one.
func staticNames(m *interp.Machine, b *lang.Block, vs []*lang.Var, write bool, pre []int64) []string {
	var out []string
	for _, v := range vs {
		if v.Kind != lang.Global {
			continue
		}
		if !splitArrays(m.Prog, Static)[v.Index] {
			out = append(out, v.Name)
			continue
		}
		first, n := m.GlobalLocs(v)
		cells := make([]interp.Loc, n)
		for c := range cells {
			cells[c] = first + interp.Loc(c)
		}
		if k := slices.IndexFunc(b.Cells, func(c lang.CellAccess) bool { return c.Array == v }); k >= 0 {
			c := b.Cells[k]
			var at []interp.Loc // the cells of its reads, then of its writes
			ev := m.IndexEval()
			for _, e := range slices.Concat(c.Reads, c.Writes) {
				if i, ok := ev.Eval(e, pre); ok && i >= 0 && i < int64(n) {
					at = append(at, first+interp.Loc(i))
				}
			}
			if len(at) == len(c.Reads)+len(c.Writes) {
				cells = at[:len(c.Reads)]
				if write {
					cells = at[len(c.Reads):]
				}
			}
		}
		for _, l := range cells {
			out = append(out, m.LocName(l))
		}
	}
	return out
}

// conflict is the oracle's dependency.
func conflict(a, b *tevent) bool {
	if a.pid == b.pid || a.err || b.err || slices.Contains(a.spawned, b.pid) || slices.Contains(b.spawned, a.pid) {
		return true
	}
	share := func(x, y []string) bool {
		return slices.ContainsFunc(x, func(l string) bool { return slices.Contains(y, l) })
	}
	return share(a.writes, b.writes) || share(a.writes, b.reads) || share(a.reads, b.writes)
}

// run steps process i of st and returns the oracle's event (appended to
// the trace) and the interpreter's.
func run(st *interp.State, dep DepMode, trace []*tevent, i int) ([]*tevent, *interp.Event) {
	pid := st.Procs[i].ID
	pre := slices.Clone(st.Procs[i].Locals)
	ev := st.Step(i)
	var spawned []interp.PID
	for _, c := range ev.Spawned {
		spawned = append(spawned, st.Procs[c].ID)
	}
	return append(trace, observe(st.Machine(), dep, trace, pid, ev, spawned, pre)), ev
}

// classes counts the Mazurkiewicz classes of the complete traces of a
// program by brute force: it runs every interleaving on the interpreter
// and keys each trace by its happens-before relation under the oracle's
// dependency (see hbKey). A trace is complete when no process is enabled
// or it ends in a runtime error.
func classes(m *interp.Machine, dep DepMode, bound int) (n int, ok bool) {
	keys, ok := classKeys(m, dep, bound)
	return len(keys), ok
}

// classKeys returns the keys of the Mazurkiewicz classes classes counts.
func classKeys(m *interp.Machine, dep DepMode, bound int) (map[string]bool, bool) {
	st, rerr := m.Initial()
	if rerr != nil {
		return nil, false
	}
	keys := map[string]bool{}
	states := 0
	var walk func(trace []*tevent) bool
	walk = func(trace []*tevent) bool {
		enabled := st.EnabledProcs(nil)
		if len(enabled) == 0 {
			keys[hbKey(trace)] = true
			return true
		}
		mark := st.Mark()
		for _, i := range enabled {
			if states++; states > bound {
				return false
			}
			next, ev := run(st, dep, trace, i)
			ok := true
			if ev.Err != nil {
				keys[hbKey(next)] = true
			} else {
				ok = walk(next)
			}
			st.Undo(mark)
			if !ok {
				return false
			}
		}
		return true
	}
	if !walk(nil) {
		return nil, false
	}
	return keys, true
}

// exploredClasses returns the keys (see hbKey) of the complete traces
// algorithm algo explores on m under dep: each complete or failing leaf of
// its recorded tree, run again on the interpreter. ok is false when the
// tree did not fit in maxNodes.
func exploredClasses(t *testing.T, m *interp.Machine, algo Algorithm, dep DepMode, maxNodes int) (map[string]bool, bool) {
	t.Helper()
	tree := &Tree{MaxNodes: maxNodes}
	if _, err := Explore(context.Background(), m, Options{Algo: algo, Dep: dep, Tree: tree}); err != nil {
		t.Fatal(err)
	}
	if tree.Truncated {
		return nil, false
	}
	keys := map[string]bool{}
	for n, node := range tree.Nodes {
		if node.Kind != NodeComplete && node.Kind != NodeError {
			continue
		}
		var steps []interp.Step
		for a := n; a > 0; a = tree.Nodes[a].Parent {
			steps = append(steps, tree.Nodes[a].Step)
		}
		st, _ := m.Initial()
		var trace []*tevent
		for s := len(steps) - 1; s >= 0; s-- {
			trace, _ = run(st, dep, trace, st.Find(steps[s].PID))
		}
		keys[hbKey(trace)] = true
	}
	return keys, true
}

// hbKey identifies the happens-before relation of a trace independently of
// the order of concurrent events: for each event, its process and rank
// there, and the events (process and rank) that happen before it.
func hbKey(trace []*tevent) string {
	name := func(e *tevent) string { return e.pid.String() + "/" + strconv.Itoa(e.rank) }
	parts := make([]string, len(trace))
	for k, e := range trace {
		var preds []string
		for j, before := range e.hb {
			if before {
				preds = append(preds, name(trace[j]))
			}
		}
		sort.Strings(preds)
		parts[k] = name(e) + "<-" + strings.Join(preds, ",")
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

// checkClocks runs every interleaving of a program (up to bound events)
// with the explorer's stepping and compares the happens-before relation of
// its vector clocks, and each event's rank in its process, with the
// oracle's.
func checkClocks(t *testing.T, name string, m *interp.Machine, dep DepMode, bound int) {
	t.Helper()
	x := newExplorer(m, Options{Algo: DFS, Dep: dep})
	st, rerr := m.Initial()
	if rerr != nil {
		return
	}
	x.st = st
	states := 0
	var walk func(trace []*tevent)
	walk = func(trace []*tevent) {
		for _, i := range x.st.EnabledProcs(nil) {
			if states++; states > bound {
				return
			}
			pid := x.st.Procs[i].ID
			pre := slices.Clone(x.st.Procs[i].Locals)
			ev, spawned := x.step(pid, true)
			k := len(x.seq) - 1
			x.clock(k)
			ids := make([]interp.PID, len(spawned))
			for c, pi := range spawned {
				ids[c] = x.st.Procs[pi].ID
			}
			next := append(trace, observe(m, dep, trace, pid, &x.scratch, ids, pre))
			o := next[k]
			if int(ev.seq) != o.rank {
				t.Fatalf("%s (%s): event %d is number %d of its process, the clock says %d", name, dep, k, o.rank, ev.seq)
			}
			for j := range k {
				if got := hb(x.seq[j], ev); got != o.hb[j] {
					t.Fatalf("%s (%s): event %d (%s) happens before event %d (%s): the clocks say %v, the closure %v", name, dep, j, x.seq[j].pid, k, pid, got, o.hb[j])
				}
			}
			if ev.err == nil {
				walk(next)
			}
			x.st.Undo(ev.mark)
			x.seq = x.seq[:k]
		}
	}
	walk(nil)
}

// checkOptimal compares the complete traces of sdpor and odpor with the
// number of Mazurkiewicz classes of dfs's traces under the same
// dependency. Source-DPOR explores at least one trace per class; without
// awaits (no blocking), with sleep sets, it explores exactly one (and may
// be sleep-set blocked under the dynamic dependency). Optimal DPOR
// explores exactly one, and is never sleep-set blocked unless a runtime
// error disables every process (the papers assume no disabling); it always
// uses the static dependency, so it is compared under that one only. The
// explorer's vector clocks are checked against the oracle's closure too.
func checkOptimal(t *testing.T, name string, m *interp.Machine, dep DepMode) bool {
	t.Helper()
	n, ok := classes(m, dep, 200000)
	if !ok {
		return false
	}
	checkClocks(t, name, m, dep, 200000)
	for _, algo := range []Algorithm{SDPOR, ODPOR} {
		r, err := Explore(context.Background(), m, Options{Algo: algo, Dep: dep})
		if err != nil {
			t.Fatal(err)
		}
		blocked := info(algo).Loop == LoopOptimal && r.Blocked != 0
		if r.Traces != n || blocked {
			t.Errorf("%s (%s dependency): %s explores %d complete traces and %d sleep-set-blocked ones, there are %d Mazurkiewicz classes", name, dep, algo, r.Traces, r.Blocked, n)
		}
	}
	return true
}

func info(a Algorithm) Info {
	i, _ := Lookup(a)
	return i
}

// TestOptimalTestdata: on the example programs without awaits, and on the
// regression programs of compare-and-swap blocks, sdpor's and odpor's
// complete traces are exactly the Mazurkiewicz classes (fig1: 6 under
// either dependency, the syntactic one's as the paper says).
func TestOptimalTestdata(t *testing.T) {
	for _, name := range []string{"../testdata/fig1", "../testdata/mix", "../testdata/arrays", "../testdata/cas",
		"testdata/regress/cas-wakeup-sets", "testdata/regress/cas-wakeup-class"} {
		m, err := interp.New(testprog.File(t, name+".blk"), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range []DepMode{Locals, Static} {
			if !checkOptimal(t, name, m, dep) {
				t.Errorf("%s: too big to count classes", name)
			}
		}
	}
}

// awaitFree are the generator's options for the optimality tests: every
// feature but awaits, whose blocking makes source-DPOR explore more than
// one trace per class. Runtime errors stay: they disable every process
// too, but only at the end of a trace. Optimal DPOR once ended
// sleep-set-blocked traces on them (progen seeds 9, 14, 76 and 144), and
// explored more or fewer traces than classes (seeds 169, 153), until a
// reversal's failing event was judged where the reversal puts it (see
// failsWhere).
var awaitFree = func() progen.Options { o := progen.Default(); o.Await = false; return o }()

// TestOptimalRandom: on generated programs without awaits (40 with -short,
// 150 without, more with ICGEN_SOAK=N: internal/testsize), sdpor explores
// exactly one complete trace per Mazurkiewicz class, under both dependency
// modes.
func TestOptimalRandom(t *testing.T) {
	first, last := testsize.Seeds(40, 150)
	n := int(last - first + 1)
	checked := 0
	for seed := first; seed <= last; seed++ {
		src := progen.Generate(seed, awaitFree)
		m, err := interp.New(testprog.Source(t, src), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range []DepMode{Locals, Static} {
			if checkOptimal(t, fmt.Sprintf("seed %d", seed), m, dep) {
				checked++
			}
		}
		if t.Failed() {
			t.Fatalf("program:\n%s", src)
		}
	}
	if checked < n {
		t.Errorf("only %d of %d runs were small enough to count classes", checked, 2*n)
	}
}

// TestISSTA19ContextSensitive checks the context-sensitive optimal
// algorithms on the ISSTA'19 running example against the paper's Fig. 2(b)
// (Example 3.1 and Sec. 4.1). odpor-cs explores p.q.r; r.q ends where q.r
// does after p, so p.r stops with q covered (state 4); p.r and r.p end
// alike, as do the same races after q: 2 complete traces, p.q.r and q.p.r,
// and stops at p.r, q.r and r (states 4, 8, 9). With observers, p.q and q.p
// differ in x, but r, their only observer, sees the same (its assert holds
// after both): q.p.r is covered too and stops at q.p (state 6), 1 complete
// trace.
func TestISSTA19ContextSensitive(t *testing.T) {
	m, err := interp.New(testprog.File(t, "../testdata/issta19.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		algo                    Algorithm
		traces, states, covered int
		tree                    string
	}{
		{ODPCS, 2, 9, 3, `
p#1
  q#2
    r#3 complete
  r#3 covered (covered q#2)
q#2
  p#1
    r#3 complete
  r#3 covered (covered p#1)
r#3 covered (covered p#1 q#2)
`},
		{ODPCSO, 1, 8, 4, `
p#1
  q#2
    r#3 complete
  r#3 covered (covered q#2)
q#2
  p#1 covered (covered r#3)
  r#3 covered (covered p#1)
r#3 covered (covered p#1 q#2)
`},
	} {
		tree := &Tree{}
		r, err := Explore(context.Background(), m, Options{Algo: tc.algo, Tree: tree})
		if err != nil {
			t.Fatal(err)
		}
		if r.Traces != tc.traces || r.Blocked != 0 || r.States != tc.states || r.Covered != tc.covered {
			t.Errorf("%s: %d complete traces, %d blocked, %d states, %d covered stops; want %d, 0, %d, %d",
				tc.algo, r.Traces, r.Blocked, r.States, r.Covered, tc.traces, tc.states, tc.covered)
		}
		if got := treeText(tree); got != tc.tree[1:] {
			t.Errorf("%s: the explored tree is\n%swant\n%s", tc.algo, got, tc.tree[1:])
		}
	}
}

// treeText renders a recorded tree, one node a line under its parent,
// indented by depth: the step's process, and how the node ends unless it
// is inner, with the processes asleep there.
func treeText(t *Tree) string {
	var b strings.Builder
	var walk func(n int, indent string)
	walk = func(n int, indent string) {
		for c, node := range t.Nodes {
			if node.Parent != n {
				continue
			}
			b.WriteString(indent + node.Step.Name)
			if node.Kind != NodeInner {
				b.WriteString(" " + node.Kind.String())
			}
			if len(node.Asleep) > 0 {
				b.WriteString(" (asleep " + strings.Join(node.Asleep, " ") + ")")
			}
			if len(node.Covered) > 0 {
				b.WriteString(" (covered " + strings.Join(node.Covered, " ") + ")")
			}
			b.WriteString("\n")
			walk(c, indent+"  ")
		}
	}
	walk(0, "")
	return b.String()
}

// TestISSTA19Example runs the optimal algorithms on the ISSTA'19 running
// example (Fig. 2(a)): p, q and r are pairwise dependent, so each of the 6
// orders is its own Mazurkiewicz trace and odpor explores all 6, each once,
// in 15 states, with no sleep-set-blocked trace. With observers (Example
// 2.2), once r has run nobody reads x: the order of p and q after r is not
// observed and only one of r.p.q and r.q.p is explored, 5 traces in 13
// states; a virtual last event that reads x (ObserveFinal) brings back 6.
func TestISSTA19Example(t *testing.T) {
	m, err := interp.New(testprog.File(t, "../testdata/issta19.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"pqr", "prq", "qpr", "qrp", "rpq", "rqp"}
	for _, tc := range []struct {
		opts           Options
		traces, states int
		orders         []string // the complete traces, sorted; r.p.q or r.q.p for odpor-ob
	}{
		{Options{Algo: ODPOR}, 6, 15, all},
		{Options{Algo: ODPOB}, 5, 13, nil},
		{Options{Algo: ODPOB, ObserveFinal: true}, 6, 15, all},
	} {
		tree := &Tree{}
		tc.opts.Tree = tree
		r, err := Explore(context.Background(), m, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s (observe final %v)", tc.opts.Algo, tc.opts.ObserveFinal)
		if r.Traces != tc.traces || r.Blocked != 0 || r.States != tc.states {
			t.Errorf("%s: %d complete traces, %d blocked, %d states; want %d, 0, %d", name, r.Traces, r.Blocked, r.States, tc.traces, tc.states)
		}
		var orders []string
		for i, n := range tree.Nodes {
			if n.Kind != NodeComplete {
				continue
			}
			var procs []string
			for j := i; tree.Nodes[j].Parent >= 0; j = tree.Nodes[j].Parent {
				procs = append(procs, tree.Nodes[j].Step.Name[:1])
			}
			slices.Reverse(procs)
			orders = append(orders, strings.Join(procs, ""))
		}
		slices.Sort(orders)
		want := tc.orders
		if want == nil { // one of the two orders of p and q after r
			want = all[:4]
			if len(orders) == 5 {
				want = append(slices.Clone(want), orders[4])
			}
			if len(orders) != 5 || (orders[4] != "rpq" && orders[4] != "rqp") {
				t.Errorf("%s: complete traces %v, want %v and one of rpq, rqp", name, orders, want)
				continue
			}
		}
		if !slices.Equal(orders, want) {
			t.Errorf("%s: complete traces %v, want %v", name, orders, want)
		}
	}
}

// TestClassesCovered: sdpor and odpor explore a trace of every
// Mazurkiewicz class of the static dependency (the oracle's), on the
// programs of dporrt/testdata/regress and on generated ones with awaits
// (of the seeds 1 to 40 with -short, to 120 without, more with
// ICGEN_SOAK=N: internal/testsize), where neither need be optimal (a process can block) but both must be
// complete: each class a complete trace of theirs is in, checked by
// running every leaf of their trees again (exploredClasses). odpor missed
// two of dporrt/testdata/regress/disabler-own.blk's 27 while final states
// agreed with dfs.
func TestClassesCovered(t *testing.T) {
	files, _ := filepath.Glob("testdata/regress/*.blk")
	type program struct {
		name string
		m    *interp.Machine
	}
	var progs []program
	for _, f := range files {
		m, err := interp.New(testprog.File(t, f), nil)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, program{f, m})
	}
	first, last := testsize.Seeds(40, 120)
	for seed := first; seed <= last; seed++ {
		src := progen.Generate(seed, progen.Default())
		m, err := interp.New(testprog.Source(t, src), nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Prog.HasAwait() {
			progs = append(progs, program{fmt.Sprintf("seed %d", seed), m})
		}
	}
	checked := 0
	for _, p := range progs {
		want, ok := classKeys(p.m, Static, 50000)
		if !ok {
			continue
		}
		checked++
		for _, algo := range []Algorithm{SDPOR, ODPOR} {
			got, ok := exploredClasses(t, p.m, algo, Static, 100000)
			if !ok {
				continue
			}
			missing := 0
			for k := range want {
				if !got[k] {
					missing++
				}
			}
			if missing > 0 {
				t.Errorf("%s: %s misses %d of the %d Mazurkiewicz classes", p.name, algo, missing, len(want))
			}
		}
	}
	if checked < len(progs)/2 {
		t.Errorf("only %d of %d programs were small enough to count their classes", checked, len(progs))
	}
}

// TestFastMutex: on Lamport's fast mutex with three threads
// (testdata/fast-mutex.blk), sdpor under either dependency and odpor
// explore one complete trace in each of its 9,216 Mazurkiewicz classes,
// the count of the per-access model checkers, and reach the same final
// states. The full test also replays odpor's complete traces and counts
// their classes (exploredClasses): 9,216 distinct ones.
func TestFastMutex(t *testing.T) {
	const classes = 9216
	m, err := interp.New(testprog.File(t, "testdata/fast-mutex.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var finals int
	for _, run := range []Options{{Algo: SDPOR, Dep: Static}, {Algo: SDPOR, Dep: Locals}, {Algo: ODPOR, Dep: Static}} {
		r, err := Explore(context.Background(), m, run)
		if err != nil {
			t.Fatal(err)
		}
		if r.Traces != classes || r.Cut {
			t.Errorf("%s (%s dependency): %d complete traces, want %d", run.Algo, run.Dep, r.Traces, classes)
		}
		if finals == 0 {
			finals = len(r.Finals)
		} else if len(r.Finals) != finals {
			t.Errorf("%s (%s dependency): %d final states, sdpor %d", run.Algo, run.Dep, len(r.Finals), finals)
		}
	}
	if testing.Short() {
		return
	}
	got, ok := exploredClasses(t, m, ODPOR, Static, 1<<22)
	if !ok || len(got) != classes {
		t.Errorf("odpor's complete traces fall into %d classes, want %d", len(got), classes)
	}
}

// TestLiteratureCounts holds odpor and odpor-ob, under the default
// dependency, to the trace counts the stateless model checking literature
// publishes for its programs (per-access dependencies, a failed
// compare-and-swap a read), and where dfs is small enough to the oracle's
// classes: lastzero, (N + 3) * 2^(N - 2); indexer, 8^(N - 11) past 11
// threads; compare-and-swap blocks, 5 for a writer and two (cas.blk) and
// 14 for a chain of four (cas-chain.blk). No trace is sleep-set blocked.
func TestLiteratureCounts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file   string
		params map[string]int64
		want   int
	}{
		{"../testdata/cas.blk", nil, 5},
		{"../testdata/cas-chain.blk", map[string]int64{"N": 4}, 14},
		{"../testdata/bench/indexer.blk", map[string]int64{"N": 12}, 8},
	}
	for n := int64(3); n <= int64(testsize.Pick(5, 8)); n++ {
		cases = append(cases, struct {
			file   string
			params map[string]int64
			want   int
		}{"../testdata/bench/lastzero.blk", map[string]int64{"N": n}, int(n+3) << (n - 2)})
	}
	if !testing.Short() {
		cases = append(cases, struct {
			file   string
			params map[string]int64
			want   int
		}{"../testdata/bench/indexer.blk", map[string]int64{"N": 13}, 64})
	}
	for _, c := range cases {
		m, err := interp.New(testprog.File(t, c.file), c.params)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s %v", filepath.Base(c.file), c.params)
		if n, ok := classes(m, Locals, 200000); ok && n != c.want {
			t.Errorf("%s: the oracle counts %d classes, the literature %d", name, n, c.want)
		}
		for _, algo := range []Algorithm{ODPOR, ODPOB} {
			r, err := Explore(context.Background(), m, Options{Algo: algo})
			if err != nil {
				t.Fatal(err)
			}
			if r.Traces != c.want || r.Blocked != 0 {
				t.Errorf("%s: %s explores %d complete traces and %d sleep-set-blocked ones, want %d and none", name, algo, r.Traces, r.Blocked, c.want)
			}
		}
	}
}

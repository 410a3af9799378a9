package dporrt

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/progen"
)

// classes counts the Mazurkiewicz classes of the complete traces of a
// program by brute force: it runs every interleaving (dfs) and keys each
// trace by its happens-before relation (for each event: its process, its
// rank in that process, and the set of earlier events it depends on,
// transitively), under the same dependency the explorer uses.
func classes(t *testing.T, m *Machine, dep DepMode, bound int) (int, bool) {
	t.Helper()
	x := newExplorer(m, Options{Algo: DFS, Dep: dep})
	st, err := m.Initial()
	if err != nil {
		return 0, false
	}
	x.st = st
	keys := map[string]bool{}
	var walk func() bool
	walk = func() bool {
		enabled := x.st.EnabledProcs(nil)
		if len(enabled) == 0 {
			keys[hbKey(x.seq)] = true
			return true
		}
		for _, i := range enabled {
			if x.res.States >= bound {
				return false
			}
			ev, _ := x.step(x.st.Procs[i].ID, true)
			x.clock(len(x.seq) - 1)
			checkClock(t, x, len(x.seq)-1)
			ok := true
			if ev.err != nil {
				keys[hbKey(x.seq)] = true
			} else {
				ok = walk()
			}
			x.st.Undo(ev.mark)
			x.seq = x.seq[:len(x.seq)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	if !walk() {
		return 0, false
	}
	return len(keys), true
}

// checkClock compares the vector clock of the event at position k with the
// happens-before relation computed by brute force: the transitive closure
// of the direct predecessors (same process, creator, dependent).
func checkClock(t *testing.T, x *explorer, k int) {
	t.Helper()
	n := x.seq[k]
	before := make([]bool, k)
	for j := k - 1; j >= 0; j-- {
		e := x.seq[j]
		direct := e.proc == n.proc || slices.Contains(e.spawn, n.pid) || x.dependent(e, n)
		for m := j + 1; m < k && !direct; m++ {
			direct = before[m] && hb(e, x.seq[m])
		}
		before[j] = direct
		if got := hb(e, n); got != direct {
			t.Fatalf("event %d (%s) happens before event %d (%s): clock says %v, closure says %v", j, e.pid, k, n.pid, got, direct)
		}
	}
	if want := int32(1 + countProc(x.seq[:k], n.proc)); n.seq != want {
		t.Fatalf("event %d is number %d of its process, clock says %d", k, want, n.seq)
	}
}

func countProc(seq []*event, proc int) int {
	c := 0
	for _, e := range seq {
		if e.proc == proc {
			c++
		}
	}
	return c
}

// hbKey identifies the happens-before relation of a trace independently of
// the order of concurrent events.
func hbKey(seq []*event) string {
	parts := make([]string, len(seq))
	for k, ev := range seq {
		var preds []string
		for j := 0; j < k; j++ {
			if hb(seq[j], ev) {
				preds = append(preds, seq[j].pid.String()+"/"+strconv.Itoa(int(seq[j].seq)))
			}
		}
		sort.Strings(preds)
		parts[k] = ev.pid.String() + "/" + strconv.Itoa(int(ev.seq)) + "<-" + strings.Join(preds, ",")
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

// checkOptimal compares the complete traces of sdpor and odpor with the
// number of Mazurkiewicz classes of dfs's traces under the same
// dependency. Source-DPOR explores at least one trace per class; without
// awaits (no blocking), with sleep sets, it explores exactly one (and may
// be sleep-set blocked under the dynamic dependency). Optimal DPOR
// explores exactly one and is never sleep-set blocked; it always uses
// the static dependency, so it is compared under that one only.
func checkOptimal(t *testing.T, name string, m *Machine, dep DepMode) bool {
	t.Helper()
	n, ok := classes(t, m, dep, 200000)
	if !ok {
		return false
	}
	for _, algo := range []Algorithm{SDPOR, ODPOR} {
		if info(algo).StaticDep && dep != Static {
			continue
		}
		r, err := Explore(m, Options{Algo: algo, Dep: dep})
		if err != nil {
			t.Fatal(err)
		}
		if r.Traces != n || info(algo).Loop == LoopOptimal && r.Blocked != 0 {
			t.Errorf("%s (dep %d): %s explores %d complete traces and %d sleep-set-blocked ones, there are %d Mazurkiewicz classes", name, dep, algo, r.Traces, r.Blocked, n)
		}
	}
	return true
}

func info(a Algorithm) Info {
	i, _ := Lookup(a)
	return i
}

// TestOptimalTestdata: on the example programs without awaits, sdpor's
// complete traces are exactly the Mazurkiewicz classes (fig1: 6 under the
// syntactic dependency, as the paper says, and 4 under the dynamic one).
func TestOptimalTestdata(t *testing.T) {
	for _, name := range []string{"fig1", "mix", "arrays"} {
		m, err := New(compileFile(t, "../testdata/"+name+".blk"), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range []DepMode{Dynamic, Static} {
			if !checkOptimal(t, name, m, dep) {
				t.Errorf("%s: too big to count classes", name)
			}
		}
	}
}

// awaitFree are the generator's options for the optimality tests: every
// feature but awaits and runtime errors, which disable processes (an await
// until its guard holds, an error every process for good): the optimality
// the papers prove assumes no disabling.
var awaitFree = func() progen.Options { o := progen.Default(); o.Await, o.Errors = false, false; return o }()

// TestOptimalRandom: on generated programs without awaits, sdpor explores
// exactly one complete trace per Mazurkiewicz class, under both dependency
// modes.
func TestOptimalRandom(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed <= 150; seed++ {
		src := progen.Generate(seed, awaitFree)
		m, err := New(compileSrc(t, src), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range []DepMode{Dynamic, Static} {
			if checkOptimal(t, fmt.Sprintf("seed %d", seed), m, dep) {
				checked++
			}
		}
		if t.Failed() {
			t.Fatalf("program:\n%s", src)
		}
	}
	if checked < 150 {
		t.Errorf("only %d of 300 runs were small enough to count classes", checked)
	}
}

// TestISSTA19Example runs odpor on the ISSTA'19 running example (Fig. 2(a)):
// p, q and r are pairwise dependent, so each of the 6 orders is its own
// Mazurkiewicz trace and odpor explores all 6, each once, in 15 states,
// with no sleep-set-blocked trace.
func TestISSTA19Example(t *testing.T) {
	m, err := New(compileFile(t, "../testdata/issta19.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tree := &Tree{}
	r, err := Explore(m, Options{Algo: ODPOR, Tree: tree})
	if err != nil {
		t.Fatal(err)
	}
	if r.Traces != 6 || r.Blocked != 0 || r.States != 15 {
		t.Errorf("odpor: %d complete traces, %d blocked, %d states; want 6, 0, 15", r.Traces, r.Blocked, r.States)
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
	if want := []string{"pqr", "prq", "qpr", "qrp", "rpq", "rqp"}; !slices.Equal(orders, want) {
		t.Errorf("odpor's complete traces %v, want %v", orders, want)
	}
}

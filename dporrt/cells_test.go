package dporrt

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/lang"
)

// TestStaticSetsCover runs interleavings of the benchmarks and of
// generated programs (bounded) and checks, for every event, that its
// static sets (eventSets) hold every location it really read and wrote
// (the key of each cell: itself, or its array's first location), and that
// they are within its block's (staticSets). A cell missing from an event's
// sets would make two dependent events independent.
func TestStaticSetsCover(t *testing.T) {
	var progs []*lang.Program
	files, _ := filepath.Glob("../testdata/bench/*.blk")
	if len(files) == 0 {
		t.Fatal("no benchmarks")
	}
	for _, f := range files {
		progs = append(progs, compileFile(t, f))
	}
	for seed := uint64(1); seed <= 200; seed++ {
		progs = append(progs, compileSrc(t, progen.Generate(seed, progen.Default())))
	}
	refined := 0
	for k, p := range progs {
		m, err := New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("program %d", k)
		if k < len(files) {
			name = files[k]
		}
		refined += checkStaticSets(t, name, m, 3000)
	}
	if refined == 0 {
		t.Error("no event had sets finer than its block's")
	}
}

// checkStaticSets walks interleavings of m (up to bound events) and checks
// each event's static sets; it returns how many were finer than their
// block's.
func checkStaticSets(t *testing.T, name string, m *Machine, bound int) (refined int) {
	t.Helper()
	x := newExplorer(m, Options{Algo: DFS, Dep: Static})
	st, rerr := m.Initial()
	if rerr != nil {
		return 0
	}
	x.st = st
	steps := 0
	within := func(a, b []Loc) bool {
		return !slices.ContainsFunc(a, func(l Loc) bool { _, ok := slices.BinarySearch(b, l); return !ok })
	}
	var walk func()
	walk = func() {
		for _, i := range x.st.EnabledProcs(nil) {
			if steps++; steps > bound {
				return
			}
			ev, _ := x.step(x.st.Procs[i].ID, true)
			for _, set := range []struct {
				what       string
				did, sets  []Loc
				blockWhole []Loc
			}{
				{"read", x.scratch.Reads, ev.reads, x.blockSets(ev.block)[0]},
				{"wrote", x.scratch.Writes, ev.writes, x.blockSets(ev.block)[1]},
			} {
				for _, l := range set.did {
					if _, ok := slices.BinarySearch(set.sets, x.key(l)); !ok {
						t.Fatalf("%s: block %s %s %s, not in its static sets %v", name, ev.block.ID, set.what, m.LocName(l), set.sets)
					}
				}
				if !within(set.sets, set.blockWhole) {
					t.Fatalf("%s: block %s: event sets %v not within the block's %v", name, ev.block.ID, set.sets, set.blockWhole)
				}
			}
			if len(ev.reads)+len(ev.writes) < len(x.blockSets(ev.block)[0])+len(x.blockSets(ev.block)[1]) {
				refined++
			}
			if ev.err == nil {
				walk()
			}
			x.st.Undo(ev.mark)
			x.seq = x.seq[:len(x.seq)-1]
		}
	}
	walk()
	return refined
}

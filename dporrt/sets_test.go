package dporrt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icgen/icgen/internal/progen"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// randomPIDs builds a random spawn tree of n ids (deep chains and wide
// fans both), returned in creation order.
func randomPIDs(m *interp.Machine, r *rand.Rand, n int) []interp.PID {
	paths := [][]int32{{1}}
	kids := map[int]int32{-1: 1} // by the parent's index in paths; -1 is init
	for len(paths) < n {
		parent := -1
		switch r.IntN(3) {
		case 0:
			parent = len(paths) - 1 // deepen the last one
		case 1:
			parent = r.IntN(len(paths))
		}
		kids[parent]++
		var path []int32
		if parent >= 0 {
			path = slices.Clone(paths[parent])
		}
		paths = append(paths, append(path, kids[parent]))
	}
	ids := make([]interp.PID, n)
	for i, p := range paths {
		ids[i] = m.PID(p...)
	}
	return ids
}

// TestPIDSet checks the explorer's ordered set against a sorted slice.
func TestPIDSet(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `proc p() { }`, nil)
	r := rand.New(rand.NewPCG(5, 6))
	ids := randomPIDs(m, r, 300)
	var s pidSet
	in := map[interp.PID]int{}
	for step := 0; step < 5000; step++ {
		k := r.IntN(len(ids))
		if r.IntN(2) == 0 {
			s.remove(ids[k])
			delete(in, ids[k])
		} else {
			s.insert(ids[k], k)
			in[ids[k]] = k
		}
		var want []interp.PID
		for p := range in {
			want = append(want, p)
		}
		slices.SortFunc(want, interp.PID.Compare)
		if got := s.pids(); !slices.Equal(got, want) || s.n != len(want) {
			t.Fatalf("step %d: %v, want %v", step, got, want)
		}
		for n := s.first(); n != nil; n = n.next[0] {
			if in[n.pid] != n.proc {
				t.Fatalf("step %d: %s has process %d, want %d", step, n.pid, n.proc, in[n.pid])
			}
		}
		q := ids[r.IntN(len(ids))]
		var want2 interp.PID
		found := false
		for _, p := range want {
			if p.Compare(q) > 0 {
				want2, found = p, true
				break
			}
		}
		if n := s.after(q); (n != nil) != found || n != nil && n.pid != want2 {
			t.Fatalf("step %d: after(%s) is wrong", step, q)
		}
	}
}

// TestVClock checks persistent clocks against dense vectors: set, join,
// total, and that building a clock leaves the ones it came from alone.
func TestVClock(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 8))
	type pair struct {
		c     vclock
		dense []int32
	}
	check := func(p pair) {
		t.Helper()
		var sum int64
		for i := 0; i < 700; i++ {
			want := int32(0)
			if i < len(p.dense) {
				want = p.dense[i]
			}
			if got := p.c.get(i); got != want {
				t.Fatalf("get(%d) = %d, want %d", i, got, want)
			}
			sum += int64(want)
		}
		if p.c.total() != sum {
			t.Fatalf("total %d, want %d", p.c.total(), sum)
		}
	}
	clocks := []pair{{}}
	for step := 0; step < 3000; step++ {
		a := clocks[r.IntN(len(clocks))]
		var next pair
		if r.IntN(2) == 0 {
			i := r.IntN(1 + r.IntN(600))
			v := int32(r.IntN(50))
			next.c = a.c.set(i, v)
			next.dense = slices.Clone(a.dense)
			for len(next.dense) <= i {
				next.dense = append(next.dense, 0)
			}
			next.dense[i] = v
		} else {
			b := clocks[r.IntN(len(clocks))]
			next.c = join(a.c, b.c)
			next.dense = make([]int32, max(len(a.dense), len(b.dense)))
			for i := range next.dense {
				if i < len(a.dense) {
					next.dense[i] = a.dense[i]
				}
				if i < len(b.dense) {
					next.dense[i] = max(next.dense[i], b.dense[i])
				}
			}
		}
		check(next)
		clocks = append(clocks, next)
		if step%500 == 0 {
			for _, p := range clocks {
				check(p)
			}
		}
	}
}

// enabledPrograms are programs with awaits, spawns, runtime errors and
// deadlocks, on which the enabled processes change in every way: the
// example and regression programs, and generated ones (10 with -short, 40
// without, more with ICGEN_SOAK=N: internal/testsize).
func enabledPrograms(t *testing.T) map[string]*interp.Machine {
	t.Helper()
	out := map[string]*interp.Machine{}
	files, _ := filepath.Glob("../testdata/*.blk")
	regress, _ := filepath.Glob("../testdata/regress/*.blk")
	for _, f := range append(files, regress...) {
		m, err := interp.New(testprog.File(t, f), nil)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = m
	}
	first, last := testsize.Seeds(10, 40)
	for seed := first; seed <= last; seed++ {
		out[fmt.Sprintf("progen-%d", seed)] = newMachine(t, progen.Generate(seed, progen.Default()), nil)
	}
	return out
}

// TestRunEnabled checks the enabled set Run keeps up to date from what each
// event affected against a scan of every process, under random schedules;
// and State.AnyEnabled (is a process other than two enabled at a block of
// some set) against the same scan.
func TestRunEnabled(t *testing.T) {
	t.Parallel()
	for name, m := range enabledPrograms(t) {
		for seed := uint64(1); seed <= 5; seed++ {
			steps := 0
			r := rand.New(rand.NewPCG(seed, 11))
			check := func(st *interp.State, enabled *interp.ProcSet) int {
				want := st.EnabledProcs(nil)
				if !slices.Equal(enabled.All(), want) {
					t.Fatalf("%s, seed %d, step %d: enabled %v, want %v", name, seed, steps, enabled.All(), want)
				}
				for range 3 {
					mask := r.Uint64()
					at := func(b *lang.Block) bool { return mask>>(b.Index%64)&1 != 0 }
					skip1, skip2 := r.IntN(len(st.Procs)+1)-1, r.IntN(len(st.Procs)+1)-1
					brute := slices.ContainsFunc(want, func(i int) bool {
						return i != skip1 && i != skip2 && at(st.Procs[i].Point.Block)
					})
					if got := st.AnyEnabled(at, skip1, skip2); got != brute {
						t.Fatalf("%s, seed %d, step %d: AnyEnabled(%x, %d, %d) = %v, want %v", name, seed, steps, mask, skip1, skip2, got, brute)
					}
				}
				steps++
				return enabled.At(r.IntN(enabled.Len()))
			}
			m.Run(check, 5000)
		}
	}
}

// TestExploreEnabled checks, at every level of every algorithm's
// exploration, the enabled processes the explorer keeps (ordered by id, and
// by level) against a scan of every process.
func TestExploreEnabled(t *testing.T) {
	t.Parallel()
	for name, m := range enabledPrograms(t) {
		for _, info := range Algorithms {
			algo := info.Name
			for _, dep := range []DepMode{Locals, Static} {
				levels := 0
				check := func(x *explorer, depth int) {
					levels++
					var want []interp.PID
					for _, i := range x.st.EnabledProcs(nil) {
						want = append(want, x.st.Procs[i].ID)
					}
					slices.SortFunc(want, interp.PID.Compare)
					if got := x.enabled.pids(); !slices.Equal(got, want) {
						t.Fatalf("%s, %s, dep %s, depth %d: enabled %v, want %v", name, algo, dep, depth, got, want)
					}
					for i := range x.st.Procs {
						if x.enabledAt(i, depth) != x.st.Enabled(i) || x.isEnabled(i) != x.st.Enabled(i) {
							t.Fatalf("%s, %s, dep %s, depth %d: process %s enabled %v, history says %v", name, algo, dep, depth, x.st.Procs[i].Name(), x.st.Enabled(i), x.enabledAt(i, depth))
						}
					}
				}
				opts := Options{Algo: algo, Dep: dep, MaxStates: testsize.Pick(600, 3000)}
				if _, err := explore(context.Background(), m, opts, check); err != nil {
					t.Fatal(err)
				}
				if levels == 0 {
					t.Errorf("%s, %s: no level checked", name, algo)
				}
			}
		}
	}
}

// TestPIDBag checks the small set of ids against a map, past the size
// where it turns into one.
func TestPIDBag(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `proc p() { }`, nil)
	ids := randomPIDs(m, rand.New(rand.NewPCG(9, 10)), 60)
	var b pidBag
	in := map[interp.PID]bool{}
	for k, p := range ids {
		for _, q := range ids {
			if b.has(q) != in[q] {
				t.Fatalf("after %d adds: has(%s) = %v", k, q, b.has(q))
			}
		}
		b.add(p)
		b.add(p)
		in[p] = true
	}
}

// TestMemoryBounds: past the bound on kept final states, finals are
// counted by hash, not kept; past the bound on snapshots, csdpor and
// odpor-cs reach a race's state by undoing and replaying. With room for
// about two snapshots, dropped ones are kept for reuse only while the live
// and kept ones stay within the bound. None of it changes what is
// explored.
func TestMemoryBounds(t *testing.T) {
	t.Parallel()
	for name, m := range enabledPrograms(t) {
		for _, algo := range []Algorithm{SDPOR, CSDPOR, ODPCS} {
			want, err := Explore(context.Background(), m, Options{Algo: algo, MaxStates: 5000})
			if err != nil {
				t.Fatal(err)
			}
			for _, room := range []string{"none", "two snapshots"} {
				over := false
				var xp *explorer
				got, err := explore(context.Background(), m, Options{Algo: algo, MaxStates: 5000}, func(x *explorer, depth int) {
					xp = x
					switch {
					case depth == 0 && room == "none":
						x.finalLimit, x.snapLimit = 0, 0
					case depth == 0:
						x.snapLimit = 2 * x.st.Size()
					}
					over = over || x.snapBytes+x.freeBytes > x.snapLimit
				})
				if err != nil {
					t.Fatal(err)
				}
				// At the end, the live snapshots and the kept ones are
				// counted as they are.
				live, kept := 0, 0
				for _, lv := range xp.levels {
					if lv.snap != nil {
						live += lv.snapSize
					}
				}
				for _, f := range xp.freeSnaps {
					kept += f.size
				}
				over = over || live != xp.snapBytes || kept != xp.freeBytes || live+kept > xp.snapLimit
				if over {
					t.Errorf("%s, %s, room for %s: the snapshots, live and kept, went past the bound, or the kept ones were miscounted", name, algo, room)
				}
				if got.Stats.Traces != want.Traces || got.Blocked != want.Blocked || got.States != want.States ||
					got.FinalCount != want.FinalCount {
					t.Errorf("%s, %s, room for %s: %d/%d/%d traces/blocked/states, %d finals; want %d/%d/%d, %d",
						name, algo, room, got.Traces, got.Blocked, got.States, got.FinalCount, want.Traces, want.Blocked, want.States, want.FinalCount)
				}
				if room == "none" && (got.FinalCount != len(want.Finals) || len(got.Finals) != 0) {
					t.Errorf("%s, %s: with no room %d finals (%d kept); want %d, none kept", name, algo, got.FinalCount, len(got.Finals), len(want.Finals))
				}
				if !slices.Equal(got.findingSites(), want.findingSites()) {
					t.Errorf("%s, %s, room for %s: findings %v, want %v", name, algo, room, got.findingSites(), want.findingSites())
				}
			}
		}
	}
}

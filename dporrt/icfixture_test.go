package dporrt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// icFixtures are the hand-written IC files of testdata/ics (what each
// constraint says, and why it is true, is in testdata/ics/README.md), with
// the initial values the tests start their programs from: the declared ones
// and others that make the constraints hold, or not, in other places.
var icFixtures = []struct {
	name   string
	starts []map[string]int64
}{
	{"fig1", []map[string]int64{nil, {"z": -1}, {"z": 0}, {"x": -1, "z": -1}, {"x": 3, "z": -3}}},
	{"mix", []map[string]int64{nil, {"x": 1}, {"y": 1}, {"k": 0}, {"x": -1, "y": -2}}},
}

// loadFixture compiles testdata/NAME.blk and reads its IC file.
func loadFixture(t *testing.T, name string) (*lang.Program, *ic.File) {
	t.Helper()
	p := testprog.File(t, "../testdata/"+name+".blk")
	path := "testdata/ics/" + name + ".ic.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ic.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if f.Hash != p.Hash {
		t.Fatalf("%s was written for another version of %s (hash %.12s, the program's %.12s)", path, name, f.Hash, p.Hash)
	}
	return p, f
}

// fixturePair returns the pair of blocks a and b of f, and whether the
// file stores it as (b, a).
func fixturePair(f *ic.File, a, b string) (*ic.Pair, bool) {
	for i := range f.Pairs {
		pr := &f.Pairs[i]
		switch {
		case pr.A == a && pr.B == b:
			return pr, false
		case pr.A == b && pr.B == a:
			return pr, true
		}
	}
	return nil, false
}

// TestICFixturesWellFormed checks what a runtime trusts in a fixture
// without evaluating it: its blocks (read and write sets, W) are the
// program's, as package ic computes them; every pair of blocks has one
// entry; and each constraint's written forms are its expression's.
func TestICFixturesWellFormed(t *testing.T) {
	for _, fx := range icFixtures {
		p, f := loadFixture(t, fx.name)
		skel := ic.Skeleton(p)
		if !reflect.DeepEqual(f.Blocks, skel.Blocks) {
			t.Errorf("%s: the blocks are not the program's:\n got %+v\nwant %+v", fx.name, f.Blocks, skel.Blocks)
		}
		if !reflect.DeepEqual(f.Globals, skel.Globals) {
			t.Errorf("%s: the globals are not the program's", fx.name)
		}
		for i, a := range p.Blocks {
			for _, b := range p.Blocks[i:] {
				n := 0
				for _, pr := range f.Pairs {
					if pr.A == a.ID && pr.B == b.ID || pr.A == b.ID && pr.B == a.ID {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%s: %d entries for the pair (%s, %s)", fx.name, n, a.ID, b.ID)
				}
			}
		}
		for _, pr := range f.Pairs {
			for _, c := range pr.Constraints {
				where := fmt.Sprintf("%s: I(%s, %s') %s", fx.name, pr.A, pr.B, c.Text)
				if c.Text != c.Expr.String() || c.SMTLIB != ic.SMTLIB(c.Expr) {
					t.Errorf("%s: written forms %q, %q are not its expression's, %q, %q", where, c.Text, c.SMTLIB, c.Expr, ic.SMTLIB(c.Expr))
				}
				if !slices.Equal(c.Globals, c.Expr.Globals()) {
					t.Errorf("%s: globals %v, its expression reads %v", where, c.Globals, c.Expr.Globals())
				}
			}
			if (pr.Status == ic.Dependent) != (len(pr.Constraints) == 0) {
				t.Errorf("%s: I(%s, %s') is %s with %d constraints", fx.name, pr.A, pr.B, pr.Status, len(pr.Constraints))
			}
		}
	}
}

// pairVerdict is what checkPair found in one state.
type pairVerdict int

const (
	pairSkipped   pairVerdict = iota // a process not enabled, or the guard fails
	pairHolds                        // a constraint holds (and the orders commute)
	pairHoldsNot                     // no constraint holds
	pairViolation                    // a claim of the file is false here (see checkPair)
)

// checkPair runs the processes i and j of st in both orders, on copies, and
// compares what happened with what the fixture says of their blocks'
// pair: where a constraint holds with the pair's overflow guard, both
// orders run with no runtime error and end in equal states (modulo process
// naming); where none holds and the pair is exact, they do not. why says
// what went wrong for pairViolation.
func checkPair(f *ic.File, st *interp.State, i, j int) (v pairVerdict, why string) {
	pi, pj := st.Procs[i], st.Procs[j]
	if pi.Done || pj.Done || !st.Enabled(i) || !st.Enabled(j) {
		return pairSkipped, ""
	}
	pr, swapped := fixturePair(f, pi.Point.Block.ID, pj.Point.Block.ID)
	if pr == nil {
		return pairViolation, "no pair in the file"
	}
	env := interp.ICEnv{S: st, First: pi, Second: pj}
	if swapped {
		env.First, env.Second = pj, pi
	}
	if pr.NoOverflow != nil {
		if ok, err := pr.NoOverflow.Holds(env); err != nil || !ok {
			return pairSkipped, ""
		}
	}
	holds := false
	for _, c := range pr.Constraints {
		if ok, err := c.Expr.Holds(env); err == nil && ok {
			holds = true
		}
	}
	if !holds && !pr.Exact {
		return pairHoldsNot, ""
	}
	run := func(first, second int) (*interp.State, bool) {
		s := st.Clone()
		if ev := s.Step(first); ev.Err != nil || !s.Enabled(second) {
			return nil, false
		}
		if ev := s.Step(second); ev.Err != nil {
			return nil, false
		}
		return s, true
	}
	s1, ok1 := run(i, j)
	s2, ok2 := run(j, i)
	commute := ok1 && ok2 && s1.Equal(s2)
	switch {
	case holds && !commute:
		return pairViolation, fmt.Sprintf("I(%s, %s') holds and the orders differ", pr.A, pr.B)
	case !holds && commute:
		return pairViolation, fmt.Sprintf("I(%s, %s') is exact, none of its constraints holds, and the orders commute", pr.A, pr.B)
	case holds:
		return pairHolds, ""
	}
	return pairHoldsNot, ""
}

// TestICFixturesTrue checks the fixtures' claims by running both orders of
// every pair of enabled processes: in every state dfs reaches from the
// fixtures' initial values, and in states of two processes at any two
// blocks with random small globals and locals. Each conditional pair must
// be seen both holding and not holding, or the fixture says little.
func TestICFixturesTrue(t *testing.T) {
	for _, fx := range icFixtures {
		p, f := loadFixture(t, fx.name)
		seen := map[*ic.Pair]map[pairVerdict]int{}
		note := func(st *interp.State, i, j int, where string) {
			v, why := checkPair(f, st, i, j)
			if v == pairViolation {
				t.Fatalf("%s, %s, processes %s and %s: %s", fx.name, where, st.Procs[i].Name(), st.Procs[j].Name(), why)
			}
			pr, _ := fixturePair(f, st.Procs[i].Point.Block.ID, st.Procs[j].Point.Block.ID)
			if seen[pr] == nil {
				seen[pr] = map[pairVerdict]int{}
			}
			seen[pr][v]++
		}
		for _, start := range fx.starts {
			m, err := interp.New(p, start)
			if err != nil {
				t.Fatal(err)
			}
			st, rerr := m.Initial()
			if rerr != nil {
				t.Fatal(rerr)
			}
			var walk func(depth int)
			walk = func(depth int) {
				for i := range st.Procs {
					for j := range st.Procs {
						if i != j && st.Procs[i].Live() && st.Procs[j].Live() {
							note(st, i, j, fmt.Sprintf("from %v at depth %d", start, depth))
						}
					}
				}
				mark := st.Mark()
				for _, i := range st.EnabledProcs(nil) {
					if ev := st.Step(i); ev.Err == nil {
						walk(depth + 1)
					}
					st.Undo(mark)
				}
			}
			walk(0)
		}
		m, err := interp.New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 7))
		small := func() int64 { return r.Int64N(7) - 3 }
		for range 3000 {
			a, b := p.Blocks[r.IntN(len(p.Blocks))], p.Blocks[r.IntN(len(p.Blocks))]
			store := make([]int64, m.Locs())
			for k := range store {
				store[k] = small()
			}
			locals := func(bl *lang.Block) []int64 {
				l := make([]int64, len(bl.Proc.Locals))
				for k := range l {
					l[k] = small()
				}
				return l
			}
			for _, g := range p.Globals { // bools are 0 or 1
				if g.Type == lang.Bool {
					first, _ := m.GlobalLocs(g)
					store[first] = r.Int64N(2)
				}
			}
			st := m.PairState(store, a, locals(a), b, locals(b))
			note(st, 0, 1, fmt.Sprintf("random state %v", st.Values(0, m.Locs())))
		}
		for k := range f.Pairs {
			pr := &f.Pairs[k]
			if pr.Status == ic.Conditional && (seen[pr][pairHolds] == 0 || seen[pr][pairHoldsNot] == 0) {
				t.Errorf("%s: I(%s, %s') was not seen both holding and not holding: %v", fx.name, pr.A, pr.B, seen[pr])
			}
		}
	}
}

// TestDifferentialICFixtures compares every algorithm with dfs on the
// programs of the fixtures, from each of their initial values, the
// algorithms that use IC files being given the fixture: cdpor's
// constraints hold uniformly in some states and only where a race is
// reversed in others (fig1's I(p, q') reads z, which r may write; mix's
// I(reader@9, checker') reads x, which writer may write), and some pairs
// are not exact (fig1's I(q, r'), mix's I(writer, writer')), so the
// state-comparison fallback runs too.
func TestDifferentialICFixtures(t *testing.T) {
	for _, fx := range icFixtures {
		p, f := loadFixture(t, fx.name)
		for _, start := range fx.starts {
			m, err := interp.New(p, start)
			if err != nil {
				t.Fatal(err)
			}
			if !differential(t, fmt.Sprintf("%s from %v", fx.name, start), m, 300000, f) {
				t.Errorf("%s from %v: dfs does not finish", fx.name, start)
			}
		}
	}
	// The ICs are used: on Fig. 1 cdpor explores 1 complete trace (the
	// CDPOR paper's Example 5), where sdpor with the same syntactic
	// dependency explores all 6.
	p, f := loadFixture(t, "fig1")
	m, _ := interp.New(p, nil)
	if r, _ := Explore(context.Background(), m, Options{Algo: CDPOR, ICs: f}); r.Traces != 1 {
		t.Errorf("cdpor on fig1 with the fixture: %d complete traces, want 1", r.Traces)
	}
}

package audit

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/ts"
)

func TestCheckClaims(t *testing.T) {
	t.Parallel()
	m := machine(t, "../testdata/fig1.blk", nil)
	c, err := NewChecker(m, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	z := &ic.Expr{Op: "global", Name: "z"}
	le := func(v int64) *ic.Expr { return &ic.Expr{Op: "<=", Args: []*ic.Expr{z, ic.Int(v)}} }
	cases := []struct {
		claim   Claim
		verdict Verdict
		witness bool
	}{
		{Claim{A: "p", B: "q", Expr: le(-1)}, Proven, false},
		{Claim{A: "q", B: "p", Expr: le(-1)}, Proven, false}, // either order of the pair
		{Claim{A: "p", B: "q", Expr: le(0)}, Unsound, true},
		{Claim{A: "q", B: "r", Expr: &ic.Expr{Op: "true"}}, Unsound, true},
		{Claim{A: "p", B: "nope", Expr: le(0)}, Invalid, false},
		{Claim{A: "p", B: "q", Expr: &ic.Expr{Op: "global", Name: "y"}}, Invalid, false},
	}
	var claims []Claim
	for _, tc := range cases {
		claims = append(claims, tc.claim)
	}
	res, err := c.Check(context.Background(), claims)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		r := res[i]
		if r.Verdict != tc.verdict || (r.Witness != nil) != tc.witness {
			t.Errorf("(%s, %s) %s: %s (%s), witness %v; want %s, witness %v", tc.claim.A, tc.claim.B, tc.claim.Expr, r.Verdict, r.Reason, r.Witness != nil, tc.verdict, tc.witness)
			continue
		}
		if r.Witness != nil && replay(t, m, tc.claim.A, tc.claim.B, r.Witness) {
			t.Errorf("(%s, %s) %s: the witness %v runs alike", tc.claim.A, tc.claim.B, tc.claim.Expr, r.Witness.Start)
		}
	}
}

// TestCheckOldLoopClaims: synthesis once gave these pairs {true} (loops
// that run out of steps, two loops on one line sharing one function);
// check must call that claim unsound, with a witness the interpreter
// confirms, and must prove nothing of the kind.
func TestCheckOldLoopClaims(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"budget-loop.blk", "budget-spin.blk", "loops-one-line.blk"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			m := machine(t, "../testdata/regress/"+file, nil)
			c, err := NewChecker(m, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			res, err := c.Check(context.Background(), []Claim{{A: "p", B: "r", Expr: &ic.Expr{Op: "true"}}})
			if err != nil {
				t.Fatal(err)
			}
			r := res[0]
			if r.Verdict != Unsound || r.Witness == nil {
				t.Fatalf("I(p, r') = {true}: %s (%s), want unsound with a witness", r.Verdict, r.Reason)
			}
			if replay(t, m, "p", "r", r.Witness) {
				t.Errorf("the witness %v runs alike", r.Witness.Start)
			}
		})
	}
}

// TestCheckClaimsManyPaths: a pair whose path encoding is too large to
// build (7 ifs in one block) is checked over the merged encoding: the
// right claim is proven, and a wrong one is unsound with a witness the
// interpreter confirms (found where both orders run, as for paths).
func TestCheckClaimsManyPaths(t *testing.T) {
	t.Parallel()
	src := "global int g0, g1, g2, g3, g4, g5, g6, r;\nproc p(int v) {\n"
	for i := 0; i < 7; i++ {
		src += fmt.Sprintf("  if (g%d > v) { g%d = v; }\n", i, i)
	}
	src += "  r = v;\n}\ninit { spawn p(1); spawn p(2); }\n"
	path := filepath.Join(t.TempDir(), "ifs.blk")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := machine(t, path, nil)
	p := m.Prog.Block("p")
	if f := encode.Pair(p, p, ts.NewSymbols(m.Prog)); f.Unknown == "" {
		t.Fatal("the path encoding was built: the test needs a pair it cannot build")
	}
	c, err := NewChecker(m, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v0, v1 := &ic.Expr{Op: "local", Name: "v"}, &ic.Expr{Op: "local", Name: "v", Event: 1}
	claims := []Claim{
		{A: "p", B: "p", Expr: &ic.Expr{Op: "==", Args: []*ic.Expr{v0, v1}}},
		{A: "p", B: "p", Expr: &ic.Expr{Op: "true"}},
	}
	res, err := c.Check(context.Background(), claims)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Verdict != Proven {
		t.Errorf("v == v': %s (%s), want proven", res[0].Verdict, res[0].Reason)
	}
	if res[1].Verdict != Unsound || res[1].Witness == nil {
		t.Fatalf("true: %s (%s), witness %v; want unsound with a witness", res[1].Verdict, res[1].Reason, res[1].Witness != nil)
	}
	if replay(t, m, "p", "p", res[1].Witness) {
		t.Errorf("true: the witness %v runs alike", res[1].Witness.Start)
	}
}

// TestGuardNeeded: GuardNeeded says whether proven constraints need their
// pair's overflow guard at int64, and the interpreter agrees: where it says
// so, both orders run from a state where the constraint holds and one
// overflows; where it says not, no order overflows from states at the
// ends of int64 where the constraint holds.
func TestGuardNeeded(t *testing.T) {
	t.Parallel()
	const (
		max = math.MaxInt64
		min = math.MinInt64
	)
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bounded := write("bounded.blk", "global int x = 0;\nproc p() { if (x < 10) { x = x + 1; } }\ninit { spawn p(); }\n")
	two := write("two.blk", "global int x = 0, y = 0;\nproc p() { x = x + 1; }\nproc q() { y = y + 1; }\ninit { spawn p(); spawn q(); }\n")
	g := func(name string) *ic.Expr { return &ic.Expr{Op: "global", Name: name} }
	op := func(o string, args ...*ic.Expr) *ic.Expr { return &ic.Expr{Op: o, Args: args} }
	tru := &ic.Expr{Op: "true"}
	cases := []struct {
		name, file, a, b string
		claim            *ic.Expr
		needed           bool
		states           []map[string]int64 // where the claim holds: one overflows if needed, none if not
	}{
		{"fig1 p, q", "../testdata/fig1.blk", "p", "q", op("<=", g("z"), ic.Int(-1)), true, []map[string]int64{{"x": max, "z": -1}}},
		{"no arithmetic", "../testdata/fig1.blk", "q", "q", tru, false, []map[string]int64{{"x": max, "z": max}, {"x": min, "z": min}}},
		{"invariant bounds it", "../testdata/counter.blk", "dec", "dec", tru, false, []map[string]int64{{"c": 0}, {"c": 1}, {"c": max}}},
		{"branch bounds it", bounded, "p", "p", tru, false, []map[string]int64{{"x": min}, {"x": 9}, {"x": 10}, {"x": max}}},
		{"unbounded", two, "p", "q", tru, true, []map[string]int64{{"x": max, "y": 0}}},
		{"the constraint bounds it", two, "p", "q", op("&&", op("<=", g("x"), ic.Int(5)), op("<=", g("y"), ic.Int(5))), false,
			[]map[string]int64{{"x": 5, "y": 5}, {"x": min, "y": min}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := machine(t, tc.file, nil)
			c, err := NewChecker(m, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			res, err := c.Check(context.Background(), []Claim{{A: tc.a, B: tc.b, Expr: tc.claim}})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Verdict != Proven {
				t.Fatalf("%s: %s (%s), want proven", tc.claim, res[0].Verdict, res[0].Reason)
			}
			needed, err := c.GuardNeeded(context.Background(), tc.a, tc.b, []*ic.Expr{tc.claim})
			if err != nil {
				t.Fatal(err)
			}
			if needed != tc.needed {
				t.Errorf("GuardNeeded = %v, want %v", needed, tc.needed)
			}
			over := 0
			for _, st := range tc.states {
				holds, ov := runOrders(t, m, tc.a, tc.b, st, tc.claim)
				if !holds {
					t.Fatalf("%s does not hold in %v", tc.claim, st)
				}
				if ov {
					over++
				}
			}
			if (over > 0) != tc.needed {
				t.Errorf("%d of the states %v overflow in an order; needed: %v", over, tc.states, tc.needed)
			}
		})
	}
}

// runOrders runs blocks a and b (of two processes without locals) in both
// orders from the globals given, the others 0; it reports whether claim
// holds there and whether an order overflows.
func runOrders(t *testing.T, m *interp.Machine, a, b string, globals map[string]int64, claim *ic.Expr) (holds, overflow bool) {
	t.Helper()
	store := make([]int64, m.Locs())
	for name, v := range globals {
		first, _ := m.GlobalLocs(m.Prog.Global(name))
		store[first] = v
	}
	ba, bb := m.Prog.Block(a), m.Prog.Block(b)
	st := m.PairState(store, ba, nil, bb, nil)
	holds, err := claim.Holds(interp.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1]})
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][2]int32{{1, 2}, {2, 1}} {
		s := m.PairState(store, ba, nil, bb, nil)
		for _, id := range order {
			i := s.Find(m.PID(id))
			if i < 0 || !s.Enabled(i) {
				break
			}
			if ev := s.Step(i); ev.Err != nil {
				overflow = overflow || ev.Err.Kind == interp.ErrOverflow
				break
			}
		}
	}
	return holds, overflow
}

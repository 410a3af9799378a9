package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
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

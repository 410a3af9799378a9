package audit

import (
	"context"
	"testing"

	"github.com/icgen/icgen/ic"
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

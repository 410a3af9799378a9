package ic

import (
	"fmt"
	"testing"

	"github.com/icgen/icgen/internal/z3"
	"github.com/icgen/icgen/lang"
)

// TestNestedRemainderSMTLIB checks that a constraint with nested truncated
// remainders and quotients prints its SMT-LIB form in text linear in the
// depth (a compound operand is bound once by a let) and that the form
// still means C's truncated operations, checked by Z3 at sample values.
// An operand that is a name or a literal prints as before, without a let.
func TestNestedRemainderSMTLIB(t *testing.T) {
	x := &Expr{Op: "global", Name: "x"}
	if got, want := SMTLIB(&Expr{Op: "%", Args: []*Expr{x, Int(3)}}), "(- x (* 3 (ite (>= x 0) (div x 3) (- (div (- x) 3)))))"; got != want {
		t.Errorf("x %% 3 prints %s, want %s", got, want)
	}
	e := x
	want := func(v int64) int64 { return v }
	for d := range 12 {
		k := int64(d%5 + 2)
		if d%2 == 0 {
			k = -k
		}
		prev := want
		if d%3 == 0 {
			e = &Expr{Op: "/", Args: []*Expr{{Op: "-", Args: []*Expr{e}}, Int(k)}}
			want = func(v int64) int64 { q, _ := lang.Div(-prev(v), k); return q }
		} else {
			e = &Expr{Op: "%", Args: []*Expr{e, Int(k)}}
			want = func(v int64) int64 { return lang.Mod(prev(v), k) }
		}
	}
	text := SMTLIB(e)
	if len(text) > 12*200 {
		t.Fatalf("12 nested divisions print in %d bytes, not linear in the depth", len(text))
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for _, v := range []int64{-1000003, -17, -1, 0, 1, 5, 999983} {
		src := fmt.Sprintf("(declare-const x Int)\n(assert (= x %s))\n(assert (distinct %s %s))", smtInt(v), text, smtInt(want(v)))
		fs, err := ctx.Parse(src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		s := ctx.NewSolver()
		if err := s.Assert(fs...); err != nil {
			t.Fatal(err)
		}
		if r := s.Check(); r.Status != z3.Unsat {
			t.Errorf("x = %d: the text is not the truncated value %d (%v)", v, want(v), r.Status)
		}
		s.Close()
	}
}

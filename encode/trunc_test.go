package encode

import (
	"fmt"
	"testing"

	"github.com/icgen/icgen/internal/z3"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// TestNestedRemainderText checks that nested truncated remainders and
// quotients print in text linear in their depth (each operand bound once
// by a let; a generated program's ((((-g2) / 3) % 2) % -2) % 2 inside a
// function call printed gigabytes before) and still mean C's truncated
// operations: Z3 finds no x where the text differs from the value the
// interpreter computes.
func TestNestedRemainderText(t *testing.T) {
	x := ts.SymTerm(&ts.Sym{Name: "x", Sort: ts.SortInt, Kind: ts.SymGlobal})
	term := x
	want := func(v int64) int64 { return v }
	for d := range 12 {
		k := int64(d%5 + 2)
		if d%2 == 0 {
			k = -k
		}
		prev, prevTerm := want, term
		if d%3 == 0 {
			term = ts.Div(ts.Unary(lang.OpNeg, prevTerm), ts.Int(k))
			want = func(v int64) int64 { q, _ := lang.Div(-prev(v), k); return q }
		} else {
			term = ts.Mod(prevTerm, ts.Int(k))
			want = func(v int64) int64 { return lang.Mod(prev(v), k) }
		}
	}
	text := SMT(term)
	if len(text) > 12*200 {
		t.Fatalf("12 nested divisions print in %d bytes, not linear in the depth", len(text))
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for _, v := range []int64{-1000003, -17, -1, 0, 1, 5, 999983} {
		src := fmt.Sprintf("(declare-const x Int)\n(assert (= x %s))\n(assert (distinct %s %s))", intLit(v), text, intLit(want(v)))
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

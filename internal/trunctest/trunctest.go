// Package trunctest builds chains of nested truncated divisions and
// remainders for the tests of the SMT-LIB printers (packages ic and
// encode) and checks printed text with Z3: linear in the depth, and equal
// to the interpreter's value at sample points. Only tests import it.
package trunctest

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/icgen/icgen/internal/z3"
	"github.com/icgen/icgen/lang"
)

// Step is one level of a chain: (-prev) / K when Div, else prev % K.
type Step struct {
	Div bool
	K   int64
}

// Chain is the chain of depth steps the printers are tested on: divisors
// 2 to 6 of both signs, a division every third step.
func Chain(depth int) []Step {
	steps := make([]Step, depth)
	for d := range steps {
		k := int64(d%5 + 2)
		if d%2 == 0 {
			k = -k
		}
		steps[d] = Step{Div: d%3 == 0, K: k}
	}
	return steps
}

// Value is the chain's value from x = v, with the language's semantics.
func Value(steps []Step, v int64) int64 {
	for _, s := range steps {
		if s.Div {
			v, _ = lang.Div(-v, s.K)
		} else {
			v = lang.Mod(v, s.K)
		}
	}
	return v
}

// Check fails t unless text, an SMT-LIB term over the Int constant x
// printed from steps, is at most 200 bytes a step and Z3 finds it equal
// to Value at each sample x.
func Check(t testing.TB, text string, steps []Step) {
	t.Helper()
	if len(text) > 200*len(steps) {
		t.Fatalf("%d nested divisions print in %d bytes, not linear in the depth", len(steps), len(text))
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for _, v := range []int64{-1000003, -17, -1, 0, 1, 5, 999983} {
		src := fmt.Sprintf("(declare-const x Int)\n(assert (= x %s))\n(assert (distinct %s %s))", literal(v), text, literal(Value(steps, v)))
		fs, err := ctx.Parse(src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		s := ctx.NewSolver()
		if err := s.Assert(fs...); err != nil {
			t.Fatal(err)
		}
		if r := s.Check(); r.Status != z3.Unsat {
			t.Errorf("x = %d: the text is not the truncated value %d (%v)", v, Value(steps, v), r.Status)
		}
		s.Close()
	}
}

// literal is an SMT-LIB integer literal (negative ones as (- n)).
func literal(v int64) string {
	if v < 0 {
		return "(- " + strconv.FormatInt(-v, 10) + ")"
	}
	return strconv.FormatInt(v, 10)
}

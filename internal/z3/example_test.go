package z3_test

import (
	"fmt"
	"time"

	"github.com/icgen/icgen/internal/z3"
)

// A worker keeps one context and one solver, and releases each query's
// terms when it is done.
func Example() {
	x, err := z3.NewContext()
	if err != nil {
		panic(err)
	}
	defer x.Close()
	s := x.NewSolver()
	defer s.Close()

	for _, bound := range []int64{3, 0} {
		m := x.Mark()
		// y = 7 mod 2 (Euclidean: 1), 0 <= y < bound
		y := x.IntConst("y")
		q := x.And(x.Eq(y, x.Mod(x.Int(-7), x.Int(2))), x.Ge(y, x.Int(0)), x.Lt(y, x.Int(bound)))
		if err := x.Err(); err != nil {
			panic(err)
		}
		s.Push()
		s.Assert(q)
		// A budget per query: far above what this one takes, so that a
		// busy machine does not change the output.
		r := s.CheckTimeout(time.Minute)
		fmt.Print(bound, ": ", r)
		if r.Status == z3.Sat {
			model, _ := s.Model()
			v, _ := model.Eval(y, true).Int64()
			fmt.Print(", y = ", v)
		}
		fmt.Println()
		s.Pop(1)
		x.Release(m)
	}
	// Output:
	// 3: sat, y = 1
	// 0: unsat
}

// Canonical forms of constraints: simplify, then the propagate-ineqs tactic.
func ExampleContext_ApplyTactic() {
	x, _ := z3.NewContext()
	defer x.Close()
	z, v := x.IntConst("z"), x.IntConst("x")
	for _, f := range []z3.Term{
		x.Lt(z, x.Int(-1)),
		x.Eq(x.Add(z, x.Int(1)), x.Add(v, x.Int(1))),
	} {
		fs, err := x.ApplyTactic("propagate-ineqs", x.Simplify(f))
		fmt.Println(f, "->", fs, err)
	}
	// Output:
	// (< z (- 1)) -> [(<= z (- 2))] <nil>
	// (= (+ z 1) (+ x 1)) -> [(= z x)] <nil>
}

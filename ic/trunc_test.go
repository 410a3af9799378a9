package ic

import (
	"testing"

	"github.com/icgen/icgen/internal/trunctest"
)

// TestNestedRemainderSMTLIB checks that a constraint with nested truncated
// remainders and quotients prints its SMT-LIB form in text linear in the
// depth (a compound operand is bound once by a let) and that the form
// still means C's truncated operations (see trunctest.Check). An operand
// that is a name or a literal prints as before, without a let.
func TestNestedRemainderSMTLIB(t *testing.T) {
	x := &Expr{Op: "global", Name: "x"}
	if got, want := SMTLIB(&Expr{Op: "%", Args: []*Expr{x, Int(3)}}), "(- x (* 3 (ite (>= x 0) (div x 3) (- (div (- x) 3)))))"; got != want {
		t.Errorf("x %% 3 prints %s, want %s", got, want)
	}
	steps := trunctest.Chain(12)
	e := x
	for _, s := range steps {
		if s.Div {
			e = &Expr{Op: "/", Args: []*Expr{{Op: "-", Args: []*Expr{e}}, Int(s.K)}}
		} else {
			e = &Expr{Op: "%", Args: []*Expr{e, Int(s.K)}}
		}
	}
	trunctest.Check(t, SMTLIB(e), steps)
}

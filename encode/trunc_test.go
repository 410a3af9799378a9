package encode

import (
	"testing"

	"github.com/icgen/icgen/internal/trunctest"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// TestNestedRemainderText checks that nested truncated remainders and
// quotients print in text linear in their depth (each operand bound once
// by a let; a generated program's ((((-g2) / 3) % 2) % -2) % 2 inside a
// function call printed gigabytes before) and still mean C's truncated
// operations (see trunctest.Check).
func TestNestedRemainderText(t *testing.T) {
	steps := trunctest.Chain(12)
	term := ts.SymTerm(&ts.Sym{Name: "x", Sort: ts.SortInt, Kind: ts.SymGlobal})
	for _, s := range steps {
		if s.Div {
			term = ts.Div(ts.Unary(lang.OpNeg, term), ts.Int(s.K))
		} else {
			term = ts.Mod(term, ts.Int(s.K))
		}
	}
	trunctest.Check(t, SMT(term), steps)
}

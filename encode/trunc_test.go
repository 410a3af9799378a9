package encode

import (
	"testing"

	"github.com/icgen/icgen/internal/trunctest"
	"github.com/icgen/icgen/ts"
)

// TestNestedRemainderText checks that nested truncated remainders and
// quotients print in text linear in their depth (each operand bound once
// by a let; a generated program's ((((-g2) / 3) % 2) % -2) % 2 inside a
// function call printed gigabytes before) and still mean C's truncated
// operations (see trunctest.Check).
func TestNestedRemainderText(t *testing.T) {
	steps := trunctest.Chain(12)
	g := ts.NewGraph()
	term := g.SymRef(&ts.Sym{Name: "x", Sort: ts.SortInt, Kind: ts.SymGlobal})
	for _, s := range steps {
		if s.Div {
			term = g.Div(g.Neg(term), g.Int(s.K))
		} else {
			term = g.Mod(term, g.Int(s.K))
		}
	}
	trunctest.Check(t, SMT(g, term), steps)
}

package encode

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// TestIntervalGuard: the bounds found for overflow guards built by hand,
// as Pair and PairMerged build them (range atoms under path conditions),
// printed as lo <= v <= hi. The values read range over the mathematical
// integers, as they do for the solver that checks the guard: a quotient
// needs its dividend bounded on both sides. Where two values are added,
// the shared box 2^62 does not hold, 2^61 does, and the first value is
// then widened as far as the second's bounds allow.
func TestIntervalGuard(t *testing.T) {
	t.Parallel()
	const max, min = math.MaxInt64, math.MinInt64
	cases := []struct {
		name  string
		guard func(g *ts.Graph, x, y, c ts.Ref) ts.Ref
		want  string // "true": no bound needed; "": none found
	}{
		{"one increment", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			return le(g, g.Binary(lang.OpAdd, x, g.Int(1)), g.Int(max))
		}, "x <= 9223372036854775806"},
		{"merged additions", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			// x + (c ? 5 : 3) + 2, its sum checked where c holds and not.
			m := g.Ite(c, g.Binary(lang.OpAdd, x, g.Int(5)), g.Binary(lang.OpAdd, x, g.Int(3)))
			return g.And(g.Implies(c, le(g, g.Binary(lang.OpAdd, x, g.Int(5)), g.Int(max))),
				le(g, g.Binary(lang.OpAdd, m, g.Int(2)), g.Int(max)))
		}, "x <= 9223372036854775800"},
		{"two values added", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			s := g.Binary(lang.OpAdd, x, y)
			return g.And(le(g, g.Int(min), s), le(g, s, g.Int(max)))
		}, "-6917529027641081856 <= x <= 6917529027641081855; -2305843009213693952 <= y <= 2305843009213693952"},
		{"one side only", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			// x + y, then x + 9223372036854775807: x must stay at most 0.
			s := g.Binary(lang.OpAdd, x, y)
			return g.And(le(g, g.Int(min), s), le(g, s, g.Int(max)), le(g, g.Binary(lang.OpAdd, x, g.Int(max)), g.Int(max)))
		}, "-4611686018427387904 <= x <= 0; -4611686018427387904 <= y <= 9223372036854775807"},
		{"product", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			p := g.Binary(lang.OpMul, x, y)
			return g.And(le(g, g.Int(min), p), le(g, p, g.Int(max)))
		}, "-4294967295 <= x <= 4294967295; -2147483648 <= y <= 2147483648"},
		{"negation", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			return le(g, g.Neg(x), g.Int(max))
		}, "-9223372036854775807 <= x"},
		{"quotient", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			q := g.Div(x, y)
			return g.And(le(g, g.Int(min), q), le(g, q, g.Int(max)))
		}, "-9223372036854775807 <= x <= 9223372036854775807"}, // over mathematical integers
		{"update under a branch", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			// if (x > 3) { ... } else { x = x + 1; }, run twice: x + 1
			// is only computed where x is at most 3, and then at most 4.
			x1 := g.Ite(g.Binary(lang.OpGt, x, g.Int(3)), x, g.Binary(lang.OpAdd, x, g.Int(1)))
			return g.And(g.Or(g.Binary(lang.OpGt, x, g.Int(3)), le(g, g.Binary(lang.OpAdd, x, g.Int(1)), g.Int(max))),
				g.Or(g.Binary(lang.OpGt, x1, g.Int(3)), le(g, g.Binary(lang.OpAdd, x1, g.Int(1)), g.Int(max))))
		}, "true"},
		{"branches narrowed", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			// (x > 5 ? x - 10 : x) + 20: at most x - 10 + 20 above 5, 25
			// below, so x needs 10 below the edge, not 20.
			m := g.Ite(g.Binary(lang.OpGt, x, g.Int(5)), g.Binary(lang.OpSub, x, g.Int(10)), x)
			return le(g, g.Binary(lang.OpAdd, m, g.Int(20)), g.Int(max))
		}, "x <= 9223372036854775797"},
		{"never", func(g *ts.Graph, x, y, c ts.Ref) ts.Ref {
			return le(g, g.Binary(lang.OpAdd, x, g.Int(max)), g.Int(min))
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := ts.NewGraph()
			x := g.SymRef(&ts.Sym{Name: "x", Sort: ts.SortInt, Kind: ts.SymGlobal})
			y := g.SymRef(&ts.Sym{Name: "y", Sort: ts.SortInt, Kind: ts.SymGlobal})
			c := g.SymRef(&ts.Sym{Name: "c", Sort: ts.SortBool, Kind: ts.SymGlobal})
			bounds, ok := IntervalGuard(g, tc.guard(g, x, y, c))
			var got []string
			for _, b := range bounds {
				var s strings.Builder
				if b.Lo != nil {
					fmt.Fprintf(&s, "%d <= ", *b.Lo)
				}
				s.WriteString(g.Sym(b.Term).Name)
				if b.Hi != nil {
					fmt.Fprintf(&s, " <= %d", *b.Hi)
				}
				got = append(got, s.String())
			}
			switch {
			case !ok:
				got = nil
			case len(got) == 0:
				got = []string{"true"}
			}
			if strings.Join(got, "; ") != tc.want {
				t.Errorf("bounds %q, want %q", strings.Join(got, "; "), tc.want)
			}
		})
	}
}

func le(g *ts.Graph, a, b ts.Ref) ts.Ref { return g.Binary(lang.OpLe, a, b) }

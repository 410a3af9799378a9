package encode

import (
	"testing"

	"github.com/icgen/icgen/ts"
)

// TestEqualArrays: two store chains over one base array are equal where
// their elements agree at each index either writes, the outermost store's
// index first, x's before y's; chains over different bases are compared
// whole.
func TestEqualArrays(t *testing.T) {
	t.Parallel()
	g := ts.NewGraph()
	sym := func(name string, sort ts.Sort) ts.Ref { return g.SymRef(&ts.Sym{Name: name, Sort: sort}) }
	a, b := sym("a", ts.SortArray), sym("b", ts.SortArray)
	i, j, v, w := sym("i", ts.SortInt), sym("j", ts.SortInt), sym("v", ts.SortInt), sym("w", ts.SortInt)
	x := g.Store(g.Store(a, i, v), j, w)
	cases := []struct {
		x, y ts.Ref
		want string
	}{
		{x, x, "true"},
		{x, g.Store(a, j, v), "(w == v) && (ite(j == i, w, v) == ite(j == i, v, a[i]))"},
		{g.Store(a, i, v), a, "v == a[i]"},
		{g.Store(a, i, v), g.Store(b, i, v), "a{i := v} == b{i := v}"},
		{v, w, "v == w"},
	}
	for _, tc := range cases {
		if got := g.Text(equal(g, tc.x, tc.y)); got != tc.want {
			t.Errorf("equal(%s, %s) = %s, want %s", g.Text(tc.x), g.Text(tc.y), got, tc.want)
		}
	}
}

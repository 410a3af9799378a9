package encode

import (
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// equal is x == y, with the equality of two arrays written over their
// elements where it is exact, so that atoms only compare integers and
// booleans: two store chains over one base array, b{...} == b{...}, are
// equal where their elements agree at every index either chain writes
// (both equal the base elsewhere), the outermost store's index first, x's
// before y's. Reads over writes are the graph's ([ts.Graph.Select]). Other
// arrays (an array a loop function returns, chains over different bases)
// are compared whole.
func equal(g *ts.Graph, x, y ts.Ref) ts.Ref {
	if x == y || g.Sort(x) != ts.SortArray {
		return g.Binary(lang.OpEq, x, y)
	}
	b1, idx1 := chain(g, x)
	b2, idx2 := chain(g, y)
	if b1 != b2 {
		return g.Binary(lang.OpEq, x, y)
	}
	var eqs []ts.Ref
	seen := map[ts.Ref]bool{}
	for _, k := range append(idx1, idx2...) {
		if !seen[k] {
			seen[k] = true
			eqs = append(eqs, g.Binary(lang.OpEq, g.Select(x, k), g.Select(y, k)))
		}
	}
	return g.And(eqs...)
}

// chain returns the base of a store chain and the indices it writes,
// outermost first.
func chain(g *ts.Graph, a ts.Ref) (ts.Ref, []ts.Ref) {
	var idx []ts.Ref
	for g.Kind(a) == ts.KStore {
		idx = append(idx, g.Args(a)[1])
		a = g.Args(a)[0]
	}
	return a, idx
}

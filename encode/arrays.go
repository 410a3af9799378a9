package encode

import (
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// ElimArrays rewrites array terms away where it is exact, so that atoms
// only compare integers and booleans:
//
//   - read over write: a{i := v}[j] becomes ite(i == j, v, a[j]);
//   - equality of two store chains over the same base array, b{...} ==
//     b{...}, becomes the conjunction, over every index either chain writes,
//     of the elements' equality (both sides equal the base elsewhere).
//
// Other array terms (arrays passed to loop functions, chains over
// different bases) are left alone.
func ElimArrays(t *ts.Term) *ts.Term {
	if len(t.Args) == 0 {
		return t
	}
	args := make([]*ts.Term, len(t.Args))
	for i, a := range t.Args {
		args[i] = ElimArrays(a)
	}
	switch {
	case t.Kind == ts.KSelect:
		return readOverWrite(args[0], args[1])
	case t.Kind == ts.KOp && (t.Op == lang.OpEq || t.Op == lang.OpNe) && args[0].Sort == ts.SortArray:
		b1, idx1 := chain(args[0])
		b2, idx2 := chain(args[1])
		if b1.Equal(b2) {
			var eqs []*ts.Term
			seen := map[string]bool{}
			for _, k := range append(idx1, idx2...) {
				if seen[k.Key()] {
					continue
				}
				seen[k.Key()] = true
				eqs = append(eqs, ts.Binary(lang.OpEq, readOverWrite(args[0], k), readOverWrite(args[1], k)))
			}
			eq := ts.And(eqs...)
			if t.Op == lang.OpNe {
				return ts.Unary(lang.OpNot, eq)
			}
			return eq
		}
	}
	return ts.Rebuild(t, args)
}

// chain returns the base of a store chain and the indices it writes.
func chain(a *ts.Term) (*ts.Term, []*ts.Term) {
	var idx []*ts.Term
	for a.Kind == ts.KStore {
		idx = append(idx, a.Args[1])
		a = a.Args[0]
	}
	return a, idx
}

func readOverWrite(a, i *ts.Term) *ts.Term {
	if a.Kind != ts.KStore {
		return ts.Select(a, i)
	}
	return ts.Ite(ts.Binary(lang.OpEq, a.Args[1], i), a.Args[2], readOverWrite(a.Args[0], i))
}

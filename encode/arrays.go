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
	r, _ := elimArrays(t, -1)
	return r
}

// elimArrays is ElimArrays within a budget of characters (negative: no
// budget): the text of every term it builds is charged, so a term nested
// in others counts once per enclosing term, a bound on the work more than
// on the final text. False when the budget ran out; the term returned is
// then unusable. Shared subterms are rewritten once.
func elimArrays(t *ts.Term, budget int) (*ts.Term, bool) {
	e := &elim{memo: map[*ts.Term]*ts.Term{}, budget: budget, limited: budget >= 0}
	r := e.term(t)
	return r, !e.limited || e.budget >= 0
}

type elim struct {
	memo    map[*ts.Term]*ts.Term
	budget  int
	limited bool
}

func (e *elim) term(t *ts.Term) *ts.Term {
	if len(t.Args) == 0 || (e.limited && e.budget < 0) {
		return t
	}
	if r, ok := e.memo[t]; ok {
		return r
	}
	args := make([]*ts.Term, len(t.Args))
	for i, a := range t.Args {
		args[i] = e.term(a)
	}
	r := rewriteArrays(t, args)
	if e.limited {
		e.budget -= len(r.Key())
	}
	e.memo[t] = r
	return r
}

// rewriteArrays rewrites one node whose arguments are rewritten already.
func rewriteArrays(t *ts.Term, args []*ts.Term) *ts.Term {
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

package uf

import (
	"slices"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// MaxExact is the largest number of same-proc spawns compared by the exact
// bijection encoding (MaxExact! disjuncts).
const MaxExact = 4

// Spawns returns a formula that implies the multisets s1 and s2 are equal
// modulo process naming, and whether it is also implied by it (exact).
func Spawns(s1, s2 []ts.Spawn) (f *ts.Term, exact bool) {
	g1, g2 := group(s1), group(s2)
	if len(g1) != len(g2) {
		return ts.False, true
	}
	exact = true
	var conj []*ts.Term
	for key, xs := range g1 {
		ys := g2[key]
		if len(xs) != len(ys) {
			return ts.False, true
		}
		if xs[0].Proc == nil { // opaque loop spawn terms: only syntax is known
			if !sameKeys(xs, ys) {
				return ts.False, false
			}
			exact = false
			continue
		}
		if len(xs) <= MaxExact {
			conj = append(conj, bijections(xs, ys))
			continue
		}
		exact = false
		if !sameNormalized(xs, ys) {
			return ts.False, false
		}
	}
	return ts.And(conj...), exact
}

// group collects spawns by proc (opaque loop spawns under their own key).
func group(ss []ts.Spawn) map[string][]ts.Spawn {
	out := map[string][]ts.Spawn{}
	for _, s := range ss {
		key := "<loop>"
		if s.Proc != nil {
			key = s.Proc.Name
		}
		out[key] = append(out[key], s)
	}
	return out
}

// liveArgs returns the argument terms of a spawn that matter for state
// equality: the parameters live at the proc's entry.
func liveArgs(s ts.Spawn) []*ts.Term {
	live := map[*lang.Var]bool{}
	for _, v := range s.Proc.Points[0].Live {
		live[v] = true
	}
	var out []*ts.Term
	for i, p := range s.Proc.Params {
		if live[p] {
			out = append(out, s.Args[i])
		}
	}
	return out
}

// bijections is OR over permutations pi of AND_k args(xs[k]) == args(ys[pi(k)]).
func bijections(xs, ys []ts.Spawn) *ts.Term {
	n := len(xs)
	perm := make([]int, n)
	used := make([]bool, n)
	var alts []*ts.Term
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			var eqs []*ts.Term
			for i := 0; i < n; i++ {
				a, b := liveArgs(xs[i]), liveArgs(ys[perm[i]])
				for j := range a {
					eqs = append(eqs, ts.Binary(lang.OpEq, a[j], b[j]))
				}
			}
			alts = append(alts, ts.And(eqs...))
			return
		}
		for j := 0; j < n; j++ {
			if !used[j] {
				used[j], perm[k] = true, j
				rec(k + 1)
				used[j] = false
			}
		}
	}
	rec(0)
	return ts.Or(alts...)
}

func sameKeys(xs, ys []ts.Spawn) bool {
	return slices.Equal(keys(xs, func(s ts.Spawn) string { return s.Key() }), keys(ys, func(s ts.Spawn) string { return s.Key() }))
}

func sameNormalized(xs, ys []ts.Spawn) bool {
	norm := func(s ts.Spawn) string {
		args := liveArgs(s)
		ks := make([]string, len(args))
		for i, a := range args {
			ks[i] = Normalize(a).Key()
		}
		return s.Proc.Name + "(" + strings.Join(ks, ", ") + ")"
	}
	return slices.Equal(keys(xs, norm), keys(ys, norm))
}

func keys(ss []ts.Spawn, f func(ts.Spawn) string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	sort.Strings(out)
	return out
}

// Normalize returns a term equal to t with the operands of the commutative
// operators + * == != && || in a canonical order, and nested + and * chains
// flattened into one order: terms equal modulo associativity and
// commutativity get the same key.
func Normalize(t *ts.Term) *ts.Term {
	if len(t.Args) == 0 {
		return t
	}
	args := make([]*ts.Term, len(t.Args))
	for i, a := range t.Args {
		args[i] = Normalize(a)
	}
	if t.Kind == ts.KOp && len(args) == 2 {
		switch t.Op {
		case lang.OpAdd, lang.OpMul:
			ops := flatten(t.Op, args, nil)
			sort.Slice(ops, func(i, j int) bool { return ops[i].Key() < ops[j].Key() })
			r := ops[0]
			for _, o := range ops[1:] {
				r = ts.Binary(t.Op, r, o)
			}
			return r
		case lang.OpEq, lang.OpNe:
			if args[1].Key() < args[0].Key() {
				args[0], args[1] = args[1], args[0]
			}
		}
	}
	if t.Kind == ts.KOp && (t.Op == lang.OpAnd || t.Op == lang.OpOr) {
		sort.Slice(args, func(i, j int) bool { return args[i].Key() < args[j].Key() })
		if t.Op == lang.OpAnd {
			return ts.And(args...)
		}
		return ts.Or(args...)
	}
	return ts.Rebuild(t, args)
}

func flatten(op lang.Op, args []*ts.Term, out []*ts.Term) []*ts.Term {
	for _, a := range args {
		if a.Kind == ts.KOp && a.Op == op && len(a.Args) == 2 {
			out = flatten(op, a.Args, out)
		} else {
			out = append(out, a)
		}
	}
	return out
}

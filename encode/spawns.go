package encode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Spawned processes are compared as multisets modulo process naming (CDPOR
// Def. 6): a process is equal to another when they run the same proc and
// agree on the parameters live at its entry. The formula "the two
// multisets are equal" is exact, a disjunction over the bijections between
// same-proc spawns, when each proc spawns at most [MaxExactSpawns]
// processes. Past that the path encoding matches terms syntactically
// modulo associativity and commutativity (normalizer), which is sound
// (equal terms are equal values) but may miss equalities, and says it is
// not exact; the merged encoding falls back to the path encoding.

// MaxExactSpawns is the largest number of same-proc spawns compared by the
// exact bijection encoding (MaxExactSpawns! disjuncts).
const MaxExactSpawns = 4

// MaxSpawnConds bounds the distinct spawn conditions of one proc the
// merged encoding compares exactly (2^n cases); past it the pair falls
// back to the path encoding.
const MaxSpawnConds = 6

// spawnsEqual is the condition under which the processes spawned by the
// two orders are equal multisets modulo naming: per proc, a case split on
// which spawn conditions hold, and in each case the bijections between the
// spawns present (as pathSpawnsEqual does for one pair of paths).
func spawnsEqual(g *ts.Graph, xs, ys []*ts.CondSpawn) (ts.Ref, string) {
	var procs []*lang.Proc
	byProc := map[*lang.Proc][2][]*ts.CondSpawn{}
	for side, ss := range [][]*ts.CondSpawn{xs, ys} {
		for _, s := range ss {
			if s.Proc == nil {
				return 0, "processes spawned inside a loop"
			}
			if g.IsFalse(s.Cond) {
				continue
			}
			e, ok := byProc[s.Proc]
			if !ok {
				procs = append(procs, s.Proc)
			}
			e[side] = append(e[side], s)
			byProc[s.Proc] = e
		}
	}
	var conj []ts.Ref
	for _, p := range procs {
		sides := byProc[p]
		var conds []ts.Ref
		idx := map[ts.Ref]int{}
		for _, ss := range sides {
			for _, s := range ss {
				if _, ok := idx[s.Cond]; !ok && !g.IsTrue(s.Cond) {
					idx[s.Cond] = len(conds)
					conds = append(conds, s.Cond)
				}
			}
		}
		if len(conds) > MaxSpawnConds {
			return 0, fmt.Sprintf("more than %d conditions under which %s is spawned", MaxSpawnConds, p.Name)
		}
		var cases []ts.Ref
		for mask := 0; mask < 1<<len(conds); mask++ {
			present := func(s *ts.CondSpawn) bool {
				return g.IsTrue(s.Cond) || mask&(1<<idx[s.Cond]) != 0
			}
			var px, py []*ts.CondSpawn
			for _, s := range sides[0] {
				if present(s) {
					px = append(px, s)
				}
			}
			for _, s := range sides[1] {
				if present(s) {
					py = append(py, s)
				}
			}
			if len(px) != len(py) {
				continue
			}
			if len(px) > MaxExactSpawns {
				return 0, fmt.Sprintf("more than %d spawns of %s", MaxExactSpawns, p.Name)
			}
			lits := make([]ts.Ref, len(conds))
			for i, c := range conds {
				if mask&(1<<i) != 0 {
					lits[i] = c
				} else {
					lits[i] = g.Not(c)
				}
			}
			cases = append(cases, g.And(g.And(lits...), bijections(g, p, px, py)))
		}
		conj = append(conj, g.Or(cases...))
	}
	return g.And(conj...), ""
}

// bijections is OR over permutations pi of AND_k args(xs[k]) == args(ys[pi(k)]),
// over the parameters live at the proc's entry.
func bijections(g *ts.Graph, p *lang.Proc, xs, ys []*ts.CondSpawn) ts.Ref {
	live := map[*lang.Var]bool{}
	for _, v := range p.Points[0].Live {
		live[v] = true
	}
	var alts []ts.Ref
	permutations(len(xs), func(perm []int) {
		var eqs []ts.Ref
		for i := range xs {
			for j, prm := range p.Params {
				if live[prm] {
					eqs = append(eqs, g.Binary(lang.OpEq, xs[i].Args[j], ys[perm[i]].Args[j]))
				}
			}
		}
		alts = append(alts, g.And(eqs...))
	})
	return g.Or(alts...)
}

// permutations calls f with every permutation of 0..n-1, in lexicographic
// order (f must not keep perm).
func permutations(n int, f func(perm []int)) {
	perm := make([]int, n)
	used := make([]bool, n)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(perm)
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
}

// pathSpawnsEqual returns a formula, a term of g, that implies the spawns
// of two paths are equal multisets modulo process naming, and whether it
// is also implied by it (exact).
func pathSpawnsEqual(g *ts.Graph, s1, s2 []ts.Spawn) (f ts.Ref, exact bool) {
	g1, g2 := groupSpawns(s1), groupSpawns(s2)
	if len(g1) != len(g2) {
		return g.False(), true
	}
	exact = true
	var conj []ts.Ref
	for key, xs := range g1 {
		ys := g2[key]
		if len(xs) != len(ys) {
			return g.False(), true
		}
		if xs[0].Proc == nil { // opaque loop spawn terms: only syntax is known
			if !sameArgs(xs, ys) {
				return g.False(), false
			}
			exact = false
			continue
		}
		if len(xs) <= MaxExactSpawns {
			conj = append(conj, pathBijections(g, xs, ys))
			continue
		}
		exact = false
		if !sameNormalized(g, xs, ys) {
			return g.False(), false
		}
	}
	return g.And(conj...), exact
}

// groupSpawns collects spawns by proc (opaque loop spawns under their own
// key).
func groupSpawns(ss []ts.Spawn) map[string][]ts.Spawn {
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
func liveArgs(s ts.Spawn) []ts.Ref {
	live := map[*lang.Var]bool{}
	for _, v := range s.Proc.Points[0].Live {
		live[v] = true
	}
	var out []ts.Ref
	for i, p := range s.Proc.Params {
		if live[p] {
			out = append(out, s.Args[i])
		}
	}
	return out
}

// pathBijections is bijections over the spawns of two paths.
func pathBijections(g *ts.Graph, xs, ys []ts.Spawn) ts.Ref {
	var alts []ts.Ref
	permutations(len(xs), func(perm []int) {
		var eqs []ts.Ref
		for i := range xs {
			a, b := liveArgs(xs[i]), liveArgs(ys[perm[i]])
			for j := range a {
				eqs = append(eqs, g.Binary(lang.OpEq, a[j], b[j]))
			}
		}
		alts = append(alts, g.And(eqs...))
	})
	return g.Or(alts...)
}

// sameArgs reports whether two lists of spawns are equal multisets of
// argument lists (terms of one graph: equal refs are equal terms).
func sameArgs(xs, ys []ts.Spawn) bool {
	return sameMultiset(xs, ys, func(s ts.Spawn) []ts.Ref { return s.Args })
}

// sameNormalized reports whether two lists of spawns of one proc are
// equal multisets of live arguments modulo associativity and
// commutativity (normalize).
func sameNormalized(g *ts.Graph, xs, ys []ts.Spawn) bool {
	n := &normalizer{g: g, memo: map[ts.Ref]ts.Ref{}, text: map[ts.Ref]string{}}
	norm := func(s ts.Spawn) []ts.Ref {
		args := liveArgs(s)
		out := make([]ts.Ref, len(args))
		for i, a := range args {
			out[i] = n.term(a)
		}
		return out
	}
	return sameMultiset(xs, ys, norm)
}

// sameMultiset reports whether xs and ys are equal multisets of the ref
// lists key gives.
func sameMultiset(xs, ys []ts.Spawn, key func(ts.Spawn) []ts.Ref) bool {
	keys := func(ss []ts.Spawn) [][]ts.Ref {
		out := make([][]ts.Ref, len(ss))
		for i, s := range ss {
			out[i] = key(s)
		}
		slices.SortFunc(out, slices.Compare)
		return out
	}
	return slices.EqualFunc(keys(xs), keys(ys), slices.Equal)
}

// normalizer rewrites terms of g to equal terms with the operands of the
// commutative operators + * == != && || in a canonical order (by their
// text), and nested + and * chains flattened into one order: terms equal
// modulo associativity and commutativity become the same term.
type normalizer struct {
	g    *ts.Graph
	memo map[ts.Ref]ts.Ref
	text map[ts.Ref]string
}

func (n *normalizer) key(r ts.Ref) string {
	k, ok := n.text[r]
	if !ok {
		k = n.g.Text(r)
		n.text[r] = k
	}
	return k
}

func (n *normalizer) term(r ts.Ref) ts.Ref {
	g := n.g
	if out, ok := n.memo[r]; ok {
		return out
	}
	if len(g.Args(r)) == 0 {
		return r
	}
	args := make([]ts.Ref, len(g.Args(r)))
	for i, a := range g.Args(r) {
		args[i] = n.term(a)
	}
	byText := func(x, y ts.Ref) int { return strings.Compare(n.key(x), n.key(y)) }
	out := ts.Ref(-1)
	kind, op := g.Kind(r), g.Op(r)
	switch {
	case kind == ts.KOp && len(args) == 2 && (op == lang.OpAdd || op == lang.OpMul):
		ops := n.flatten(op, args, nil)
		slices.SortStableFunc(ops, byText)
		out = ops[0]
		for _, o := range ops[1:] {
			out = g.Binary(op, out, o)
		}
	case kind == ts.KOp && len(args) == 2 && (op == lang.OpEq || op == lang.OpNe):
		if n.key(args[1]) < n.key(args[0]) {
			args[0], args[1] = args[1], args[0]
		}
	case kind == ts.KOp && (op == lang.OpAnd || op == lang.OpOr):
		slices.SortStableFunc(args, byText)
	}
	if out < 0 {
		out = g.Rebuild(r, args)
	}
	n.memo[r] = out
	return out
}

func (n *normalizer) flatten(op lang.Op, args []ts.Ref, out []ts.Ref) []ts.Ref {
	g := n.g
	for _, a := range args {
		if g.Kind(a) == ts.KOp && g.Op(a) == op && len(g.Args(a)) == 2 {
			out = n.flatten(op, g.Args(a), out)
		} else {
			out = append(out, a)
		}
	}
	return out
}

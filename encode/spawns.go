package encode

import (
	"fmt"
	"slices"
	"sort"
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
// modulo associativity and commutativity (normalize), which is sound
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

// pathSpawnsEqual returns a formula that implies the spawns of two paths
// are equal multisets modulo process naming, and whether it is also
// implied by it (exact).
func pathSpawnsEqual(s1, s2 []treeSpawn) (f *ts.Term, exact bool) {
	g1, g2 := groupSpawns(s1), groupSpawns(s2)
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
		if len(xs) <= MaxExactSpawns {
			conj = append(conj, pathBijections(xs, ys))
			continue
		}
		exact = false
		if !sameNormalized(xs, ys) {
			return ts.False, false
		}
	}
	return ts.And(conj...), exact
}

// groupSpawns collects spawns by proc (opaque loop spawns under their own
// key).
func groupSpawns(ss []treeSpawn) map[string][]treeSpawn {
	out := map[string][]treeSpawn{}
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
func liveArgs(s treeSpawn) []*ts.Term {
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

// pathBijections is bijections over the spawns of two paths.
func pathBijections(xs, ys []treeSpawn) *ts.Term {
	var alts []*ts.Term
	permutations(len(xs), func(perm []int) {
		var eqs []*ts.Term
		for i := range xs {
			a, b := liveArgs(xs[i]), liveArgs(ys[perm[i]])
			for j := range a {
				eqs = append(eqs, ts.Binary(lang.OpEq, a[j], b[j]))
			}
		}
		alts = append(alts, ts.And(eqs...))
	})
	return ts.Or(alts...)
}

func sameKeys(xs, ys []treeSpawn) bool {
	return slices.Equal(spawnKeys(xs, func(s treeSpawn) string { return s.Key() }), spawnKeys(ys, func(s treeSpawn) string { return s.Key() }))
}

func sameNormalized(xs, ys []treeSpawn) bool {
	norm := func(s treeSpawn) string {
		args := liveArgs(s)
		ks := make([]string, len(args))
		for i, a := range args {
			ks[i] = normalize(a).Key()
		}
		return s.Proc.Name + "(" + strings.Join(ks, ", ") + ")"
	}
	return slices.Equal(spawnKeys(xs, norm), spawnKeys(ys, norm))
}

func spawnKeys(ss []treeSpawn, f func(treeSpawn) string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	sort.Strings(out)
	return out
}

// normalize returns a term equal to t with the operands of the commutative
// operators + * == != && || in a canonical order, and nested + and * chains
// flattened into one order: terms equal modulo associativity and
// commutativity get the same key.
func normalize(t *ts.Term) *ts.Term {
	if len(t.Args) == 0 {
		return t
	}
	args := make([]*ts.Term, len(t.Args))
	for i, a := range t.Args {
		args[i] = normalize(a)
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

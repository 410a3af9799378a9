package encode

import (
	"fmt"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
	"github.com/icgen/icgen/uf"
)

// MaxSpawnConds bounds the distinct spawn conditions of one proc the
// merged encoding compares exactly (2^n cases); past it the pair falls
// back to the path encoding.
const MaxSpawnConds = 6

// spawnsEqual is the condition under which the processes spawned by the
// two orders are equal multisets modulo naming: per proc, a case split on
// which spawn conditions hold, and in each case the bijections between the
// spawns present (as package uf does for one pair of paths).
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
			if len(px) > uf.MaxExact {
				return 0, fmt.Sprintf("more than %d spawns of %s", uf.MaxExact, p.Name)
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
	n := len(xs)
	perm := make([]int, n)
	used := make([]bool, n)
	var alts []ts.Ref
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			var eqs []ts.Ref
			for i := 0; i < n; i++ {
				for j, prm := range p.Params {
					if live[prm] {
						eqs = append(eqs, g.Binary(lang.OpEq, xs[i].Args[j], ys[perm[i]].Args[j]))
					}
				}
			}
			alts = append(alts, g.And(eqs...))
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
	return g.Or(alts...)
}

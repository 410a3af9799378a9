package ts

import "github.com/icgen/icgen/lang"

// successors of a node within a block: points and returns end it; an
// abstracted loop is stepped over.
func successors(n *lang.Node) []int {
	switch n.Kind {
	case lang.NodePoint, lang.NodeReturn:
		return nil
	case lang.NodeBranch:
		if n.Loop != nil && !n.Loop.Points {
			return []int{n.Else}
		}
		return []int{n.Next, n.Else}
	}
	return []int{n.Next}
}

// topo orders the nodes reachable from start without passing stop so that
// every node comes after its predecessors; false when they hold a cycle.
func topo(nodes []*lang.Node, start, stop int) ([]int, bool) {
	const (
		white = iota
		grey
		black
	)
	color := map[int]int{}
	var post []int
	ok := true
	var visit func(int)
	visit = func(id int) {
		color[id] = grey
		for _, s := range successors(nodes[id]) {
			if s == lang.End || s == stop {
				continue
			}
			switch color[s] {
			case grey:
				ok = false
			case white:
				visit(s)
			}
		}
		color[id] = black
		post = append(post, id)
	}
	visit(start)
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post, ok
}

// merge joins states reached at one node (with a value each, or vals nil)
// into one: values become ites over the condition that tells the states
// apart. States whose path condition is false are dropped; nil when none
// is left.
func (x *mexec) merge(sts []*mstate, vals []Ref) (*mstate, Ref) {
	var acc *mstate
	accVal := Ref(-1)
	for i, s := range sts {
		if x.g.IsFalse(x.cond(s)) {
			continue
		}
		v := Ref(-1)
		if vals != nil {
			v = vals[i]
		}
		if acc == nil {
			acc, accVal = s, v
			continue
		}
		acc, accVal = x.merge2(acc, accVal, s, v)
	}
	return acc, accVal
}

func (x *mexec) merge2(a *mstate, va Ref, b *mstate, vb Ref) (*mstate, Ref) {
	g := x.g
	inB := map[Ref]bool{}
	for _, c := range b.pc {
		inB[c] = true
	}
	inA := map[Ref]bool{}
	var common, ra, rb []Ref
	for _, c := range a.pc {
		inA[c] = true
		if inB[c] {
			common = append(common, c)
		} else {
			ra = append(ra, c)
		}
	}
	for _, c := range b.pc {
		if !inA[c] {
			rb = append(rb, c)
		}
	}
	// The states are disjoint (a block is deterministic): where one of
	// them is reached, d tells which.
	d := g.And(ra...)
	out := &mstate{pc: common, pcRef: -1, env: map[*lang.Var]Ref{}, viol: map[int]Ref{}}
	if either := g.Or(d, g.And(rb...)); !g.IsTrue(either) {
		out.pc = append(out.pc, either)
	}
	ite := func(p, q Ref) Ref { return g.Ite(d, p, q) }
	union := map[*lang.Var]Ref{}
	for v := range a.env {
		union[v] = 0
	}
	for v := range b.env {
		union[v] = 0
	}
	for _, v := range SortedVars(union) {
		out.env[v] = ite(x.envValue(a, v), x.envValue(b, v))
	}
	if a.frame != nil {
		out.frame = &mframe{fn: a.frame.fn, locals: map[*lang.Var]Ref{}}
		union := map[*lang.Var]Ref{}
		for v := range a.frame.locals {
			union[v] = 0
		}
		for v := range b.frame.locals {
			union[v] = 0
		}
		for _, v := range SortedVars(union) {
			out.frame.locals[v] = ite(frameValue(g, a, v), frameValue(g, b, v))
		}
	}
	offs := map[int]Ref{}
	for k := range a.viol {
		offs[k] = 0
	}
	for k := range b.viol {
		offs[k] = 0
	}
	for _, k := range sortedInts(offs) {
		ca, ok := a.viol[k]
		if !ok {
			ca = g.Int(0)
		}
		cb, ok := b.viol[k]
		if !ok {
			cb = g.Int(0)
		}
		out.viol[k] = ite(ca, cb)
	}
	out.spawns = append([]*CondSpawn(nil), a.spawns...)
	have := map[*CondSpawn]bool{}
	for _, sp := range a.spawns {
		have[sp] = true
	}
	for _, sp := range b.spawns {
		if !have[sp] {
			out.spawns = append(out.spawns, sp)
		}
	}
	v := Ref(-1)
	if va >= 0 && vb >= 0 {
		v = ite(va, vb)
	}
	return out, v
}

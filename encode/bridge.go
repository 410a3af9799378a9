package encode

import (
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// treeTransition is a path system's transition with its terms as tree
// views: the path encoding still works on trees, and reads the graph
// through them.
type treeTransition struct {
	Cond, NoOverflow *ts.Term
	Globals          []treeAssign
	Locals           [2][]treeAssign
	Next             [2]*lang.Point
	Ends             [2]bool
	Spawns           []treeSpawn
	Violations       []lang.Pos
	Fns              map[string]*ts.Fn
	Written          []*lang.Var
}

type treeAssign struct {
	Var   *lang.Var
	Value *ts.Term
}

type treeSpawn struct {
	Proc  *lang.Proc
	Args  []*ts.Term
	Event int
}

func (s treeSpawn) Key() string {
	ks := ""
	for i, a := range s.Args {
		if i > 0 {
			ks += ", "
		}
		ks += a.Key()
	}
	if s.Proc == nil {
		return ks
	}
	return "spawn_" + s.Proc.Name + "(" + ks + ")"
}

func (t *treeTransition) Global(g *lang.Var, syms *ts.Symbols) *ts.Term {
	for _, a := range t.Globals {
		if a.Var == g {
			return a.Value
		}
	}
	return ts.SymTerm(syms.Global(g))
}

const maxText = int(^uint(0) >> 1)

func trees(s *ts.System) []*treeTransition {
	memo := map[ts.Ref]*ts.Term{}
	tr := func(r ts.Ref) *ts.Term {
		if t, ok := memo[r]; ok {
			return t
		}
		t, _ := s.G.Term(r, maxText)
		memo[r] = t
		return t
	}
	var out []*treeTransition
	for _, t := range s.Transitions {
		u := &treeTransition{Cond: tr(t.Cond), NoOverflow: tr(t.NoOverflow), Next: t.Next, Ends: t.Ends, Violations: t.Violations, Fns: t.Fns, Written: t.Written}
		for _, a := range t.Globals {
			u.Globals = append(u.Globals, treeAssign{a.Var, tr(a.Value)})
		}
		for e := 0; e < 2; e++ {
			for _, a := range t.Locals[e] {
				u.Locals[e] = append(u.Locals[e], treeAssign{a.Var, tr(a.Value)})
			}
		}
		for _, sp := range t.Spawns {
			args := make([]*ts.Term, len(sp.Args))
			for i, a := range sp.Args {
				args[i] = tr(a)
			}
			u.Spawns = append(u.Spawns, treeSpawn{sp.Proc, args, sp.Event})
		}
		out = append(out, u)
	}
	return out
}

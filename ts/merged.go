package ts

import (
	"sort"

	"github.com/icgen/icgen/lang"
)

// CondSpawn is a process created under a condition: the path condition at
// the spawn statement.
type CondSpawn struct {
	Cond  Ref
	Proc  *lang.Proc // nil: the processes an abstracted loop spawns (Args holds one opaque term)
	Args  []Ref
	Event int
}

// Merged is the transition system of one block (or of two blocks run one
// after the other, [ComposeMerged]) built by symbolic execution that merges
// at join points: instead of one transition per path, one final state
// whose values are ite terms over the branch conditions, in a hash-consed
// [Graph]. Its size is linear in the block's size for blocks of sequential
// branches, where the paths are exponentially many.
//
// Everything [Transition] keeps per path is kept here under a condition:
// OK holds where the block is enabled (its await guard) and raises no
// runtime error other than overflow (every division, index and loop of the
// path it takes is fine); NoOverflow holds where no arithmetic result of the
// path taken leaves int64 (it is meant where OK holds); spawns carry the
// path condition of their statement; failed asserts are counts per assert.
type Merged struct {
	G          *Graph
	Blocks     [2]*lang.Block
	HasEvent   [2]bool
	OK         Ref
	NoOverflow Ref
	Globals    map[*lang.Var]Ref    // final values of the globals written
	Locals     [2]map[*lang.Var]Ref // per event: final values of the proc's locals assigned
	Next       [2]Ref               // per event: Point.Index of the point reached, -1 at the end
	Exits      [2][]*lang.Point     // per event: the points it may reach (nil: the end), by index
	Spawns     []*CondSpawn
	Violations map[int]Ref // per assert (by Pos.Offset): how many times it failed
	Fns        map[string]*Fn
	Abstracted []string
	Unknown    string
	// Written holds, for each global an invariant of the program reads,
	// the condition under which the block assigns it, whether or not its
	// value changes (Globals holds only values that may change); absent:
	// never. The interpreter checks an invariant after every event that
	// writes a location it reads, `g = g;` included.
	Written map[*lang.Var]Ref
}

// Global is the final value of global v.
func (m *Merged) Global(v *lang.Var, syms *Symbols) Ref {
	if r, ok := m.Globals[v]; ok {
		return r
	}
	return m.G.SymRef(syms.Global(v))
}

// Local is the final value of local v of event e.
func (m *Merged) Local(e int, v *lang.Var, syms *Symbols) Ref {
	if r, ok := m.Locals[e][v]; ok {
		return r
	}
	return m.G.SymRef(syms.Local(v, e))
}

// Violation is the number of times the assert at offset off failed.
func (m *Merged) Violation(off int) Ref {
	if r, ok := m.Violations[off]; ok {
		return r
	}
	return m.G.Int(0)
}

// SortedVars returns the keys of a variable map in declaration order
// (globals, then locals by slot): maps are walked in this order so that
// graph ids, hence output, never depend on map iteration.
func SortedVars(m map[*lang.Var]Ref) []*lang.Var {
	out := make([]*lang.Var, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	sortVars(out)
	return out
}

func sortVars(vs []*lang.Var) {
	sort.Slice(vs, func(i, j int) bool {
		if vs[i].Kind != vs[j].Kind {
			return vs[i].Kind < vs[j].Kind
		}
		return vs[i].Index < vs[j].Index
	})
}

func sortedInts(m map[int]Ref) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// PointCode is the code of a point in Merged.Next: its index, -1 for the end.
func pointCode(p *lang.Point) int64 {
	if p == nil {
		return -1
	}
	return int64(p.Index)
}

// PointCode is the code Merged.Next gives a point (nil: the end).
func PointCode(p *lang.Point) int64 { return pointCode(p) }

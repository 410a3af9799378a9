package ts

import (
	"fmt"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// Assign is the final value of one variable in a transition.
type Assign struct {
	Var   *lang.Var
	Value Ref
}

// Spawn is a process created by a transition: its proc and the values of
// its parameters.
type Spawn struct {
	Proc  *lang.Proc
	Args  []Ref
	Event int // which of the two processes spawned it
}

// Key is the canonical text of the spawn, spawn_P(args), its terms those
// of g.
func (s Spawn) Key(g *Graph) string {
	args := make([]*Term, len(s.Args))
	for i, a := range s.Args {
		args[i], _ = g.Term(a, maxText)
	}
	if s.Proc == nil { // the processes an abstracted loop spawns
		return joinKeys(args)
	}
	return "spawn_" + s.Proc.Name + "(" + joinKeys(args) + ")"
}

// maxText is the budget of Graph.Term that never gives up.
const maxText = int(^uint(0) >> 1)

// Text is the text of r's tree view.
func (g *Graph) Text(r Ref) string { return g.Tree(r).key }

// Tree is r's whole tree view ([Graph.Term] without a budget).
func (g *Graph) Tree(r Ref) *Term {
	t, _ := g.Term(r, maxText)
	return t
}

// Transition is one path of a system: C -> (A, S). It is taken exactly in
// the states where Cond holds; Cond includes the conditions under which the
// path raises no runtime error other than overflow (divisors are not zero,
// indices are in bounds), so erring paths are not transitions at all.
// NoOverflow is the condition under which no arithmetic result on the path
// leaves int64 (the language's other runtime error); it is kept apart so
// constraints read as in mathematics while the check stays available.
type Transition struct {
	Cond       Ref
	NoOverflow Ref
	Globals    []Assign       // final values of the globals written, by declaration order
	Locals     [2][]Assign    // per event: final values of the locals live at Next
	Next       [2]*lang.Point // per event: the point reached; nil when the process ends
	Ends       [2]bool        // per event: the process ended
	Spawns     []Spawn        // processes created, in creation order
	Violations []lang.Pos     // failed asserts (sorted)
	Fns        map[string]*Fn // uninterpreted functions used
	// Written are the globals the path assigns, in declaration order,
	// whether or not their values change (Globals holds only those that
	// do): the interpreter checks an invariant after every event that
	// writes a location it reads, `g = g;` included.
	Written []*lang.Var
}

// Global returns the final value of global g, or its input symbol term when
// the transition does not write it.
func (t *Transition) Global(gr *Graph, g *lang.Var, syms *Symbols) Ref {
	for _, a := range t.Globals {
		if a.Var == g {
			return a.Value
		}
	}
	return gr.SymRef(syms.Global(g))
}

// System is a deterministic transition system for one block (Events[0]) or
// the composition of two blocks (Events[0] then Events[1]).
type System struct {
	G           *Graph         // holds the terms of the transitions
	Blocks      [2]*lang.Block // Blocks[1] is nil for a single block
	Events      int            // 1 or 2
	Transitions []*Transition
	Abstracted  []string // what was abstracted (loops as uninterpreted functions)
	Unknown     string   // why no system could be built; Transitions is then empty
}

// Exact reports whether the system describes the blocks exactly.
func (s *System) Exact() bool { return s.Unknown == "" && len(s.Abstracted) == 0 }

// MaxPaths bounds the paths of one system; beyond it the system is unknown.
const MaxPaths = 4096

// MaxWork bounds the nodes symbolic execution runs for one block, over all
// its paths; beyond it the system is unknown. It also ends the unrolling of
// a loop that holds an interleaving point but goes round without reaching
// it. Being far below lang.MaxSteps, it means no path of a system runs out
// of the block's step budget, so systems need not model that budget (in-block
// loops have their own, in their ok function).
const MaxWork = 1 << 16

// MaxPathSteps bounds the nodes of one path; beyond it the system is
// unknown. Terms grow along a path, so a long path costs its length
// squared.
const MaxPathSteps = 1 << 12

// Symbols makes and remembers the input symbols of a program, so each
// variable of each event has exactly one symbol.
type Symbols struct {
	prog   *lang.Program
	byKey  map[string]*Sym
	params map[*lang.Param]*Sym
}

// NewSymbols returns the symbol table of a program.
func NewSymbols(p *lang.Program) *Symbols {
	return &Symbols{prog: p, byKey: map[string]*Sym{}, params: map[*lang.Param]*Sym{}}
}

// Global returns the symbol of a global's initial value.
func (s *Symbols) Global(g *lang.Var) *Sym {
	key := "g:" + g.Name
	if sym, ok := s.byKey[key]; ok {
		return sym
	}
	sym := &Sym{Name: g.Name, Sort: SortOf(g.Type), Kind: SymGlobal, Var: g}
	s.byKey[key] = sym
	return sym
}

// Local returns the symbol of a local's value at the start of event e.
func (s *Symbols) Local(v *lang.Var, e int) *Sym {
	key := fmt.Sprintf("l%d:%p", e, v)
	if sym, ok := s.byKey[key]; ok {
		return sym
	}
	name := s.localName(v) + strings.Repeat("'", e)
	sym := &Sym{Name: name, Sort: SortOf(v.Type), Kind: SymLocal, Event: e, Var: v}
	s.byKey[key] = sym
	return sym
}

// localName is lang.LocalName of a process local: v, or v#slot when an
// earlier local of its proc has the same name.
func (s *Symbols) localName(v *lang.Var) string {
	for _, pr := range s.prog.Procs {
		if v.Index < len(pr.Locals) && pr.Locals[v.Index] == v {
			return lang.LocalName(pr.Locals, v)
		}
	}
	return v.Name
}

// Param returns the symbol of a param.
func (s *Symbols) Param(p *lang.Param) *Sym {
	if sym, ok := s.params[p]; ok {
		return sym
	}
	sym := &Sym{Name: p.Name, Sort: SortInt, Kind: SymParam, Param: p}
	s.params[p] = sym
	return sym
}

// SortOf is the sort of values of a language type.
func SortOf(t lang.Type) Sort {
	switch t {
	case lang.Bool:
		return SortBool
	case lang.IntArray:
		return SortArray
	}
	return SortInt
}

func sortAssigns(as []Assign) {
	sort.Slice(as, func(i, j int) bool {
		if as[i].Var.Kind != as[j].Var.Kind {
			return as[i].Var.Kind < as[j].Var.Kind
		}
		return as[i].Var.Index < as[j].Var.Index
	})
}

// unionVars is the union of two lists of globals in declaration order,
// in declaration order.
func unionVars(a, b []*lang.Var) []*lang.Var {
	seen := make(map[*lang.Var]bool, len(a)+len(b))
	var out []*lang.Var
	for _, vs := range [][]*lang.Var{a, b} {
		for _, v := range vs {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	sortVars(out)
	return out
}

// A path of a system must not run out of the block's step budget unseen.
var _ = [lang.MaxSteps - MaxWork]struct{}{}

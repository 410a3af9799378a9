package interp

import (
	"fmt"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
)

// ICEnv evaluates IC constraints in a state for two processes: First's
// locals are the constraint's unprimed locals (event 0), Second's the primed
// ones (event 1).
type ICEnv struct {
	S             *State
	First, Second *Process
	Funcs         map[string]ic.Function // the IC file's functions, by name
}

var _ ic.Env = ICEnv{}

// Global returns a scalar global's value (bools as 0/1).
func (e ICEnv) Global(name string) (int64, bool) {
	g := e.S.m.Prog.Global(name)
	if g == nil || g.Type == lang.IntArray {
		return 0, false
	}
	return e.S.store.get(e.S.m.offset[g.Index]), true
}

// Element returns element i of a global array; false when out of bounds.
func (e ICEnv) Element(name string, i int64) (int64, bool) {
	g := e.S.m.Prog.Global(name)
	if g == nil || g.Type != lang.IntArray {
		return 0, false
	}
	return e.S.Element(g, i)
}

// Local returns a local of the first (event 0) or second (event 1)
// process, named as lang.LocalName names it.
func (e ICEnv) Local(event int, name string) (int64, bool) {
	p := e.First
	if event == 1 {
		p = e.Second
	}
	if p == nil {
		return 0, false
	}
	v := lang.LookupLocal(p.Proc.Locals, name)
	if v == nil {
		return 0, false
	}
	return p.Locals[v.Index], true
}

// Param returns a param's value in this machine.
func (e ICEnv) Param(name string) (int64, bool) {
	p := e.S.m.Prog.Param(name)
	if p == nil {
		return 0, false
	}
	return e.S.m.Params[p.Index], true
}

// Apply evaluates a function of the IC file that stands for an in-block
// loop (ic.Function): it binds the loop's inputs to the argument values in a
// copy of the state, runs the loop alone on its own step budget, as a
// block runs it (State.runLoop), and returns the output variable's final
// value (ic.FnValue), or whether the loop finished within the budget with
// no runtime error and no failed assert (ic.FnOK). Spawn functions, array
// results, and array arguments other than the current globals are not
// evaluated (an error: the constraint then does not hold), nor is a value
// of a loop that did not finish normally.
func (e ICEnv) Apply(name string, args []*ic.Expr) (int64, error) {
	f, ok := e.Funcs[name]
	if !ok {
		return 0, fmt.Errorf("unknown function %s", name)
	}
	if f.Kind == ic.FnSpawns {
		return 0, fmt.Errorf("%s: spawn functions are not evaluated", name)
	}
	prog := e.S.m.Prog
	var nodes []*lang.Node
	var locals []*lang.Var
	if pr := prog.Proc(f.Proc); pr != nil {
		nodes, locals = pr.Nodes, pr.Locals
	} else {
		for _, fu := range prog.Funcs {
			if fu.Name == f.Proc {
				nodes, locals = fu.Nodes, fu.Locals
			}
		}
	}
	var header *lang.Node
	for _, n := range nodes {
		if n.Loop != nil && !n.Loop.Points && n.Pos.Line == f.Line && n.Pos.Col == f.Col {
			header = n
			break
		}
	}
	if header == nil || len(args) != len(f.Ins) {
		return 0, fmt.Errorf("%s: no loop of %s at %d:%d with %d inputs", name, f.Proc, f.Line, f.Col, len(args))
	}
	find := func(n string) (*lang.Var, error) {
		if v := lang.LookupLocal(locals, n); v != nil {
			return v, nil
		}
		if g := prog.Global(n); g != nil {
			return g, nil
		}
		return nil, fmt.Errorf("%s: unknown variable %s", name, n)
	}
	st := e.S.Clone()
	st.logging = false
	fr := &frame{locals: make([]int64, len(locals)), pi: -1}
	for i, in := range f.Ins {
		v, err := find(in)
		if err != nil {
			return 0, err
		}
		if v.Type == lang.IntArray {
			if a := args[i]; a.Op != "global" || a.Name != v.Name {
				return 0, fmt.Errorf("%s: array argument %s is not the global %s", name, a, v.Name)
			}
			continue // the copy holds the current elements
		}
		x, err := args[i].Eval(e)
		if err != nil {
			return 0, err
		}
		if v.Kind == lang.Local {
			fr.locals[v.Index] = x
		} else {
			st.store.set(st.m.offset[v.Index], x)
		}
	}
	st.cur, st.curBlock = nil, "loop"
	viol := len(st.Violations)
	st.runLoop(nodes, header.ID, fr)
	normal := st.err == nil && len(st.Violations) == viol
	if f.Kind == ic.FnOK {
		return b2i(normal), nil
	}
	if !normal {
		return 0, fmt.Errorf("%s: the loop does not finish normally from these values", name)
	}
	v, err := find(f.Out)
	switch {
	case err != nil:
		return 0, err
	case v.Type == lang.IntArray:
		return 0, fmt.Errorf("%s: array results are not evaluated", name)
	case v.Kind == lang.Local:
		return fr.locals[v.Index], nil
	}
	return st.store.get(st.m.offset[v.Index]), nil
}

// PairState builds a state for checking a pair of blocks: the machine's
// globals set from globals (by location; missing ones 0), and two processes
// standing at blocks a and b with the given locals (by slot). The processes
// get the ids 1 and 2. A self pair (a == b) is two processes at the same block.
func (m *Machine) PairState(globals []int64, a *lang.Block, aLocals []int64, b *lang.Block, bLocals []int64) *State {
	s := &State{m: m, store: newStore(m.nstore), logging: true}
	for l, v := range globals[:min(len(globals), m.nstore)] {
		s.store.set(l, v)
	}
	s.store.settle()
	mk := func(id int32, bl *lang.Block, locals []int64) *Process {
		l := make([]int64, len(bl.Proc.Locals))
		copy(l, locals)
		return &Process{ID: m.PID(id), Proc: bl.Proc, Point: bl.Point, Locals: l}
	}
	s.addProc(mk(1, a, aLocals))
	s.addProc(mk(2, b, bLocals))
	s.rootSpawn = 2
	return s
}

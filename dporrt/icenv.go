package dporrt

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
}

var _ ic.Env = ICEnv{}

// Global returns a scalar global's value (bools as 0/1).
func (e ICEnv) Global(name string) (int64, bool) {
	g := e.S.m.Prog.Global(name)
	if g == nil || g.Type == lang.IntArray {
		return 0, false
	}
	return e.S.Store[e.S.m.offset[g.Index]], true
}

// Element returns element i of a global array; false when out of bounds.
func (e ICEnv) Element(name string, i int64) (int64, bool) {
	g := e.S.m.Prog.Global(name)
	if g == nil || g.Type != lang.IntArray || i < 0 || i >= int64(e.S.m.size[g.Index]) {
		return 0, false
	}
	return e.S.Store[e.S.m.offset[g.Index]+int(i)], true
}

// Local returns a local of the first (event 0) or second (event 1) process.
func (e ICEnv) Local(event int, name string) (int64, bool) {
	p := e.First
	if event == 1 {
		p = e.Second
	}
	if p == nil {
		return 0, false
	}
	for _, v := range p.Proc.Locals {
		if v.Name == name {
			return p.Locals[v.Index], true
		}
	}
	return 0, false
}

// Param returns a param's value in this machine.
func (e ICEnv) Param(name string) (int64, bool) {
	p := e.S.m.Prog.Param(name)
	if p == nil {
		return 0, false
	}
	return e.S.m.Params[p.Index], true
}

// Apply is not supported yet for the uninterpreted functions that stand for
// in-block loops: a constraint that mentions one is treated as not holding.
func (e ICEnv) Apply(fn string, _ []*ic.Expr) (int64, error) {
	return 0, fmt.Errorf("evaluating %s: loop functions are not evaluated yet", fn)
}

// PairState builds a state for checking a pair of blocks: the machine's
// globals set from globals (by location; missing ones 0), and two processes
// standing at blocks a and b with the given locals (by slot). The processes
// get the ids 1 and 2. A self pair (a == b) is two processes at the same block.
func (m *Machine) PairState(store []int64, a *lang.Block, aLocals []int64, b *lang.Block, bLocals []int64) *State {
	s := &State{m: m, Store: make([]int64, m.nstore), logging: true}
	copy(s.Store, store)
	s.stamp = make([]uint32, 2*m.nstore)
	mk := func(id int32, bl *lang.Block, locals []int64) *Process {
		l := make([]int64, len(bl.Proc.Locals))
		copy(l, locals)
		return &Process{ID: PID{id}, Proc: bl.Proc, Point: bl.Point, Locals: l}
	}
	s.Procs = []*Process{mk(1, a, aLocals), mk(2, b, bLocals)}
	s.rootSpawn = 2
	return s
}

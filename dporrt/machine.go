package dporrt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// Machine is a program instantiated with concrete param values: the layout
// of its globals in a flat store and everything the interpreter needs. A
// Machine is immutable and may be shared by goroutines; each [State] belongs
// to one goroutine.
type Machine struct {
	Prog   *lang.Program
	Params []int64 // by lang.Param.Index

	offset   []int // flat offset of each global, by lang.Var.Index
	size     []int // 1 for scalars, the length for arrays
	nstore   int
	locName  []string // name of each flat location, e.g. "x" or "a[3]"
	overInit map[*lang.Var]int64
	// invMask has, for each location, a bit per invariant that reads it
	// (bit 63 stands for invariant 63 and every later one).
	invMask []uint64

	// MaxSteps is the step budget (lang.MaxSteps): the nodes a block may
	// run outside its in-block loops, and each run of an in-block loop, before
	// it is stopped with a runtime error (an endless loop). IC files assume
	// the language's budget for loops through their ok functions, which run
	// on this one, and a path of a block is never longer than ts.MaxPathSteps:
	// a budget below that can raise errors where synthesis saw none.
	MaxSteps int
}

// DefaultMaxSteps is the language's step budget.
const DefaultMaxSteps = lang.MaxSteps

// MaxArraySize bounds array sizes, so a param cannot ask for all memory.
const MaxArraySize = 1 << 24

// New instantiates prog. set overrides param values (-D N=10) or the initial
// value of a global scalar (-D z=-1, applied before init runs); every name in
// set must be a param or a global scalar.
func New(prog *lang.Program, set map[string]int64) (*Machine, error) {
	m := &Machine{Prog: prog, MaxSteps: DefaultMaxSteps, overInit: map[*lang.Var]int64{}}
	m.Params = make([]int64, len(prog.Params))
	for _, p := range prog.Params {
		m.Params[p.Index] = p.Default
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := set[n]
		if p := prog.Param(n); p != nil {
			m.Params[p.Index] = v
			continue
		}
		g := prog.Global(n)
		switch {
		case g == nil:
			return nil, fmt.Errorf("-D %s: no param or global named %s", n, n)
		case g.Type == lang.IntArray:
			return nil, fmt.Errorf("-D %s: %s is an array; only params and scalar globals can be set", n, n)
		case g.Type == lang.Bool && v != 0 && v != 1:
			return nil, fmt.Errorf("-D %s: %s is a bool; use 0 or 1 (or true/false)", n, n)
		}
		m.overInit[g] = v
	}
	m.offset = make([]int, len(prog.Globals))
	m.size = make([]int, len(prog.Globals))
	for _, g := range prog.Globals {
		n := 1
		if g.Type == lang.IntArray {
			sz, err := m.constEval(g.Size)
			if err != nil {
				return nil, fmt.Errorf("size of array %s: %v", g.Name, err)
			}
			if sz <= 0 || sz > MaxArraySize {
				return nil, fmt.Errorf("%s: array %s has size %d (must be 1..%d)", g.Pos, g.Name, sz, MaxArraySize)
			}
			if g.InitList && int64(len(g.Init)) != sz {
				return nil, fmt.Errorf("%s: array %s has %d elements but %d initializers", g.Pos, g.Name, sz, len(g.Init))
			}
			n = int(sz)
		}
		m.offset[g.Index] = m.nstore
		m.size[g.Index] = n
		for i := 0; i < n; i++ {
			if g.Type == lang.IntArray {
				m.locName = append(m.locName, fmt.Sprintf("%s[%d]", g.Name, i))
			} else {
				m.locName = append(m.locName, g.Name)
			}
		}
		m.nstore += n
	}
	m.invMask = make([]uint64, m.nstore)
	for _, inv := range prog.Invariants {
		for _, g := range inv.Reads {
			for i := 0; i < m.size[g.Index]; i++ {
				m.invMask[m.offset[g.Index]+i] |= invBit(inv.Index)
			}
		}
	}
	return m, nil
}

// invBit is the bit of invariant k in Machine.invMask.
func invBit(k int) uint64 { return 1 << min(k, 63) }

// constEval evaluates a constant expression (literals, params, operators).
func (m *Machine) constEval(e lang.Expr) (int64, error) {
	s := &State{m: m}
	v := s.eval(e, nil)
	if s.err != nil {
		return 0, fmt.Errorf("%s", s.err.Msg)
	}
	return v, nil
}

// Loc is a location in the flat global store: a scalar global or one
// element of an array.
type Loc int32

// LocName renders a location as "x" or "a[3]".
func (m *Machine) LocName(l Loc) string { return m.locName[l] }

// Locs returns the number of locations in the store.
func (m *Machine) Locs() int { return m.nstore }

// GlobalLocs returns the locations of a global: one for a scalar, one per
// element for an array.
func (m *Machine) GlobalLocs(g *lang.Var) (first Loc, n int) {
	return Loc(m.offset[g.Index]), m.size[g.Index]
}

// Param returns the value of a param in this instance.
func (m *Machine) Param(p *lang.Param) int64 { return m.Params[p.Index] }

// ParamString renders the param values, e.g. "N=6 M=2".
func (m *Machine) ParamString() string {
	var parts []string
	for _, p := range m.Prog.Params {
		parts = append(parts, fmt.Sprintf("%s=%d", p.Name, m.Params[p.Index]))
	}
	return strings.Join(parts, " ")
}

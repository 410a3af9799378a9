package interp

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

	offset []int // flat offset of each global, by lang.Var.Index
	size   []int // 1 for scalars, the length for arrays, 0 for unbounded arrays
	// sparse numbers the unbounded arrays (-1 for the other globals): a
	// state holds their elements in maps (State.sparse), not in the store.
	sparse   []int
	nsparse  int
	nstore   int
	overInit map[*lang.Var]int64
	// invMask has, for each global, a bit per invariant that reads it
	// (bit 63 stands for invariant 63 and every later one).
	invMask []uint64

	// The points of every proc, numbered: proc p's point k is
	// pointBase[p.Index] + k.
	points    []*lang.Point
	pointBase []int
	npoints   int
	// guarded lists the points with an await guard; guardVars has, for
	// each point, the globals its block reads (the guard's reads among
	// them) as bits by lang.Var.Index, and guardWrites the globals it
	// writes.
	guarded     []int
	guardVars   [][]uint64
	guardWrites [][]uint64
	// laterReads has, for each block (by lang.Block.Index), the globals
	// that a process standing at its start may still read, as bits by
	// lang.Var.Index: those of the blocks that may follow it and of the
	// processes they may spawn, and those the invariants read.
	laterReads [][]uint64

	pids *pidTable // the process ids of its states

	overflow overflowProof // see OverflowFree

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

// MaxStore bounds the locations of a program's globals (scalars and array
// elements together): the initial state's store takes at most 8 bytes per
// location, so at most 256 MiB, and the states made from it share its
// pages (see store).
const MaxStore = 1 << 25

// errTooLarge is the error of a program whose globals need more than
// MaxStore locations, at the global that goes past the bound.
func errTooLarge(g *lang.Var, locs int64) error {
	return &lang.Error{Pos: g.Pos, Msg: fmt.Sprintf("program too large: with %s the globals need %d locations (%d MiB at 8 bytes each); at most %d (%d MiB) fit",
		g.Name, locs, locs*8>>20, MaxStore, MaxStore*8>>20)}
}

// New instantiates prog. set overrides param values (-D N=10) or the initial
// value of a global scalar (-D z=-1, applied before init runs); every name in
// set must be a param or a global scalar. A problem with the program at
// these values (an array size out of range, globals past MaxStore) is a
// *lang.Error at the global's declaration. Apart from its store, a
// machine takes memory in proportion to the program, not to its arrays.
func New(prog *lang.Program, set map[string]int64) (*Machine, error) {
	m := &Machine{Prog: prog, MaxSteps: DefaultMaxSteps, overInit: map[*lang.Var]int64{}, pids: &pidTable{}}
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
	m.sparse = make([]int, len(prog.Globals))
	for _, g := range prog.Globals {
		n := 1
		m.sparse[g.Index] = -1
		if g.Unbounded() {
			m.sparse[g.Index] = m.nsparse
			m.nsparse++
			m.offset[g.Index] = m.nstore
			continue
		}
		if g.Type == lang.IntArray {
			sz, err := m.constEval(g.Size)
			if err != nil {
				return nil, &lang.Error{Pos: g.Pos, Msg: fmt.Sprintf("size of array %s: %v", g.Name, err)}
			}
			if sz <= 0 || sz > MaxArraySize {
				return nil, &lang.Error{Pos: g.Pos, Msg: fmt.Sprintf("array %s has size %d (must be 1..%d)", g.Name, sz, MaxArraySize)}
			}
			if g.InitList && int64(len(g.Init)) != sz {
				return nil, &lang.Error{Pos: g.Pos, Msg: fmt.Sprintf("array %s has %d elements but %d initializers", g.Name, sz, len(g.Init))}
			}
			n = int(sz)
		}
		if locs := int64(m.nstore) + int64(n); locs > MaxStore {
			return nil, errTooLarge(g, locs)
		}
		m.offset[g.Index] = m.nstore
		m.size[g.Index] = n
		m.nstore += n
	}
	m.invMask = make([]uint64, len(prog.Globals))
	for _, inv := range prog.Invariants {
		for _, g := range inv.Reads {
			m.invMask[g.Index] |= invBit(inv.Index)
		}
	}
	m.pointBase = make([]int, len(prog.Procs))
	for _, pr := range prog.Procs {
		m.pointBase[pr.Index] = len(m.points)
		m.points = append(m.points, pr.Points...)
	}
	m.npoints = len(m.points)
	m.guardVars = make([][]uint64, m.npoints)
	m.guardWrites = make([][]uint64, m.npoints)
	globals := func(vs []*lang.Var) []uint64 {
		bits := make([]uint64, (len(prog.Globals)+63)/64)
		for _, v := range vs {
			if v.Kind == lang.Global {
				bits[v.Index/64] |= 1 << (v.Index % 64)
			}
		}
		return bits
	}
	for id, pt := range m.points {
		if pt.Guard == nil {
			continue
		}
		m.guarded = append(m.guarded, id)
		m.guardVars[id] = globals(pt.Block.Reads)
		m.guardWrites[id] = globals(pt.Block.Writes)
	}
	m.laterReads = laterReads(prog, globals)
	return m, nil
}

// ReadsLater reports whether a process standing at the start of b may
// still read a global of globals (bits by lang.Var.Index): by the
// syntactic reads of the blocks that may follow b and of the processes
// they may spawn, or of the invariants.
func (m *Machine) ReadsLater(b *lang.Block, globals []uint64) bool {
	return overlaps(m.laterReads[b.Index], globals)
}

// laterReads computes Machine.laterReads: the syntactic reads of a block,
// of every block that may follow it and of every proc they may spawn, to
// a fixpoint, and the globals the invariants read.
func laterReads(prog *lang.Program, globals func([]*lang.Var) []uint64) [][]uint64 {
	var invReads []*lang.Var
	for _, v := range prog.Invariants {
		invReads = append(invReads, v.Reads...)
	}
	inv := globals(invReads)
	out := make([][]uint64, len(prog.Blocks))
	for _, b := range prog.Blocks {
		out[b.Index] = globals(b.Reads)
		for w := range inv {
			out[b.Index][w] |= inv[w]
		}
	}
	for changed := true; changed; {
		changed = false
		join := func(dst, src []uint64) {
			for w := range dst {
				if src[w]&^dst[w] != 0 {
					dst[w] |= src[w]
					changed = true
				}
			}
		}
		for _, b := range prog.Blocks {
			for _, n := range b.Next {
				join(out[b.Index], out[n.Index])
			}
			for _, pr := range b.Spawns {
				join(out[b.Index], out[pr.Points[0].Block.Index])
			}
		}
	}
	return out
}

// pointID numbers a point among the points of every proc.
func (m *Machine) pointID(pt *lang.Point) int { return m.pointBase[pt.Block.Proc.Index] + pt.Index }

// GlobalOf returns the index (lang.Var.Index) of the global holding
// location l.
func (m *Machine) GlobalOf(l Loc) int {
	return sort.Search(len(m.offset), func(i int) bool { return m.offset[i] > int(l) }) - 1
}

// MarkVars sets in bits the globals (by lang.Var.Index) of the locations
// locs, sorted; it looks up each global once.
func (m *Machine) MarkVars(locs []Loc, bits []uint64) {
	for k := 0; k < len(locs); {
		if l := locs[k]; l < 0 { // see WholeLoc
			g := WholeGlobal(l)
			bits[g/64] |= 1 << (g % 64)
			k++
			continue
		}
		g := m.GlobalOf(locs[k])
		bits[g/64] |= 1 << (g % 64)
		end := Loc(m.offset[g] + m.size[g])
		rest := locs[k:]
		k += sort.Search(len(rest), func(j int) bool { return rest[j] >= end })
	}
}

// invariantsReading returns the bits (see invBit) of the invariants that
// read a location of locs, sorted.
func (m *Machine) invariantsReading(locs []Loc) uint64 {
	var mask uint64
	for k := 0; k < len(locs); {
		g := m.GlobalOf(locs[k])
		mask |= m.invMask[g]
		end := Loc(m.offset[g] + m.size[g])
		rest := locs[k:]
		k += sort.Search(len(rest), func(j int) bool { return rest[j] >= end })
	}
	return mask
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

// LocName renders a location as "x" or "a[3]", or "a[*]" for an array's
// wholeLoc.
func (m *Machine) LocName(l Loc) string {
	if l < 0 {
		return m.Prog.Globals[WholeGlobal(l)].Name + "[*]"
	}
	g := m.Prog.Globals[m.GlobalOf(l)]
	if g.Type != lang.IntArray {
		return g.Name
	}
	return fmt.Sprintf("%s[%d]", g.Name, int(l)-m.offset[g.Index])
}

// WholeLoc is the location that stands in a read or write set for every
// cell of the array of index g, where the cells are too many to list. It
// is negative, so a sorted set lists such locations first, and is not a
// location of the store.
func WholeLoc(g int) Loc { return Loc(-1 - g) }

// WholeGlobal is the index of the array WholeLoc stands for.
func WholeGlobal(l Loc) int { return int(-1 - l) }

// LocNames renders a read or write set, a WholeLoc by every cell of its
// array.
func (m *Machine) LocNames(ls []Loc) []string {
	out := []string{}
	for _, l := range ls {
		if l >= 0 {
			out = append(out, m.LocName(l))
			continue
		}
		first, n := m.GlobalLocs(m.Prog.Globals[WholeGlobal(l)])
		for c := range n {
			out = append(out, m.LocName(first+Loc(c)))
		}
	}
	return out
}

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

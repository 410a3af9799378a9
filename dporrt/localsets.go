package dporrt

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// The locals dependency (Options.Dep = Locals) gives each event the
// locations its block can touch when run by its process with the locals
// the process has at the event's start, whatever the globals hold: the
// block is run abstractly, its locals known, every value read from a
// global unknown, and every branch whose condition is unknown taken both
// ways. The sets depend on the block and its process's locals alone, which
// no other process changes, so they are the event's own in every state, as
// Source-DPOR's theory needs of a dependency: a race reversed from another
// order meets the same event with the same sets.
//
// The locations an event really touched are not enough. They depend on the
// values it read, so an event can be independent of another in one order
// and dependent in the order a reversal explores: a block that writes
// arr[g1 % 2] meets another block's write of arr[0] before a third process
// sets g1, and not after, and the races and sleep sets judged in one order
// do not hold in the other (see dporrt/testdata/regress/sdpor-dynamic.blk).
// Source-DPOR's events are single accesses whose location is fixed before
// they run; an atomic block reads and then touches locations chosen by what
// it read.
//
// Compared with the static dependency (the blocks' syntactic sets, with the
// cells of fixed indices), these sets leave out what a branch decided by
// the locals skips, and name the cells of indices the locals decide. Where
// the abstract run takes more than maxLocalSteps steps (a loop counted by
// a local with a large bound), the event takes its static sets.

// maxLocalSteps bounds the nodes an abstract run of a block visits before
// its event falls back on its static sets.
const maxLocalSteps = 4096

// maxLocalCache bounds the sets kept (by block and locals); past it they
// are computed again for each event.
const maxLocalCache = 1 << 16

// absVal is a value an abstract run knows, or not (a value read from a
// global, or made from one).
type absVal struct {
	v     int64
	known bool
}

var unknown = absVal{}

func known(v int64) absVal { return absVal{v: v, known: true} }

// localSetsEntry are the sets of the events of a block run with locals.
type localSetsEntry struct {
	block         *lang.Block
	locals        []int64
	reads, writes []interp.Loc
}

// localSets returns the locals sets of the event of block b run by a
// process whose locals are locals (see above). They are shared: callers
// must not change them.
func (x *explorer) localSets(b *lang.Block, locals []int64) (reads, writes []interp.Loc) {
	h := uint64(b.Index)
	for _, v := range locals {
		h = interp.Mix(h ^ uint64(v))
	}
	for _, e := range x.localCache[h] {
		if e.block == b && slices.Equal(e.locals, locals) {
			return e.reads, e.writes
		}
	}
	a := &absRun{x: x}
	a.block(b, locals)
	if a.over {
		reads, writes = x.eventSets(b, locals)
	} else {
		reads, writes = a.sets()
	}
	if len(x.localCache) < maxLocalCache {
		if x.localCache == nil {
			x.localCache = map[uint64][]localSetsEntry{}
		}
		x.localCache[h] = append(x.localCache[h], localSetsEntry{block: b, locals: slices.Clone(locals), reads: reads, writes: writes})
	}
	return reads, writes
}

// absRun is one abstract run: the locations it may read and write (keys,
// see explorer.key), and whether it went over maxLocalSteps.
type absRun struct {
	x             *explorer
	reads, writes []interp.Loc
	steps         int
	over          bool
}

// absState is a point of an abstract run of a body: a node and the values
// of the body's locals there.
type absState struct {
	node   int
	locals []absVal
}

// block runs block b abstractly from its point, with the process's locals.
func (a *absRun) block(b *lang.Block, locals []int64) {
	vals := make([]absVal, len(locals))
	for i, v := range locals {
		vals[i] = known(v)
	}
	pt := b.Point
	if pt.Guard != nil {
		a.eval(pt.Guard, vals)
	}
	nodes := b.Proc.Nodes
	a.body(nodes, absState{node: nodes[pt.Node].Next, locals: vals})
	if !a.over {
		a.invariants()
	}
}

// body runs abstractly the nodes of a proc or func body from start until
// each path reaches an interleaving point, a return or the end, or a
// runtime error that every run along it raises. A point of the run seen
// before (same node, same locals) is not run again, so a loop whose locals
// settle ends; one whose locals keep changing ends at maxLocalSteps.
func (a *absRun) body(nodes []*lang.Node, start absState) {
	seen := map[string]bool{}
	work := []absState{start}
	for len(work) > 0 && !a.over {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		for s.node != lang.End && !a.over {
			if a.steps++; a.steps > maxLocalSteps {
				a.over = true
				return
			}
			k := stateKey(s)
			if seen[k] {
				break
			}
			seen[k] = true
			n := nodes[s.node]
			next, ok := a.node(n, s.locals)
			if !ok {
				break
			}
			if n.Kind == lang.NodeBranch {
				c := next
				switch {
				case !c.known:
					work = append(work, absState{node: n.Else, locals: slices.Clone(s.locals)})
				case c.v == 0:
					s.node = n.Else
					continue
				}
			}
			if n.Kind == lang.NodePoint || n.Kind == lang.NodeReturn {
				break
			}
			s.node = n.Next
		}
	}
}

// stateKey is a map key for an abstract state.
func stateKey(s absState) string {
	b := make([]byte, 0, 8+9*len(s.locals))
	b = binary.LittleEndian.AppendUint64(b, uint64(s.node))
	for _, v := range s.locals {
		if v.known {
			b = append(b, 1)
			b = binary.LittleEndian.AppendUint64(b, uint64(v.v))
		} else {
			b = append(b, 0)
		}
	}
	return string(b)
}

// node runs node n abstractly on locals (changed in place): for a branch,
// the value of its condition. ok is false where every run raises a runtime
// error there.
func (a *absRun) node(n *lang.Node, locals []absVal) (cond absVal, ok bool) {
	switch n.Kind {
	case lang.NodeAssign:
		v, ok := a.eval(n.Value, locals)
		if !ok {
			return unknown, false
		}
		t := n.Target
		if t.Var.Kind == lang.Local {
			locals[t.Var.Index] = v
			return unknown, true
		}
		if t.Index == nil {
			l, _ := a.x.m.GlobalLocs(t.Var) // a scalar: its one location
			a.writes = append(a.writes, l)
			return unknown, true
		}
		i, ok := a.eval(t.Index, locals)
		if !ok {
			return unknown, false
		}
		return unknown, a.cell(&a.writes, t.Var, i)
	case lang.NodeBranch:
		return a.eval(n.Cond, locals)
	case lang.NodeAssert:
		_, ok := a.eval(n.Cond, locals)
		return unknown, ok
	case lang.NodeSpawn:
		for _, e := range n.Args {
			if _, ok := a.eval(e, locals); !ok {
				return unknown, false
			}
		}
	case lang.NodeCall:
		_, ok := a.eval(n.Call, locals)
		return unknown, ok
	case lang.NodeReturn:
		if n.Value != nil {
			_, ok := a.eval(n.Value, locals)
			return unknown, ok
		}
	}
	return unknown, true
}

// cell adds to *locs the location of element i of array g: the cell's key
// when i is known (false, an index error, when it is out of bounds), else
// every cell's.
func (a *absRun) cell(locs *[]interp.Loc, g *lang.Var, i absVal) bool {
	first, n := a.x.m.GlobalLocs(g)
	if i.known {
		if i.v < 0 || i.v >= int64(n) {
			return false
		}
		*locs = append(*locs, a.x.key(first+interp.Loc(i.v)))
		return true
	}
	a.whole(locs, g)
	return true
}

// whole adds to *locs the locations of every cell of array g (see
// wholeLocs).
func (a *absRun) whole(locs *[]interp.Loc, g *lang.Var) {
	*locs = a.x.wholeLocs(*locs, g.Index)
}

// eval evaluates e abstractly, noting the locations it may read; ok is
// false where every run raises a runtime error in it.
func (a *absRun) eval(e lang.Expr, locals []absVal) (absVal, bool) {
	switch e := e.(type) {
	case *lang.IntLit:
		return known(e.Val), true
	case *lang.BoolLit:
		return known(b2i(e.Val)), true
	case *lang.ParamRef:
		return known(a.x.m.Params[e.Param.Index]), true
	case *lang.VarRef:
		v := e.Var
		if v.Kind == lang.Local {
			return locals[v.Index], true
		}
		if v.Type == lang.IntArray {
			a.whole(&a.reads, v)
		} else {
			l, _ := a.x.m.GlobalLocs(v) // a scalar: its one location
			a.reads = append(a.reads, l)
		}
		return unknown, true
	case *lang.IndexExpr:
		i, ok := a.eval(e.Index, locals)
		if !ok {
			return unknown, false
		}
		return unknown, a.cell(&a.reads, e.Array, i)
	case *lang.UnaryExpr:
		v, ok := a.eval(e.X, locals)
		if !ok || !v.known {
			return unknown, ok
		}
		if e.Op == lang.OpNot {
			return known(1 - v.v), true
		}
		if v.v == math.MinInt64 {
			return unknown, false
		}
		return known(-v.v), true
	case *lang.BinaryExpr:
		return a.binary(e, locals)
	case *lang.CallExpr:
		f := e.Func
		callee := make([]absVal, len(f.Locals))
		for i, arg := range e.Args {
			v, ok := a.eval(arg, locals)
			if !ok {
				return unknown, false
			}
			callee[f.Params[i].Index] = v
		}
		for i := range callee {
			if !f.Locals[i].Param {
				callee[i] = known(0)
			}
		}
		if len(f.Nodes) > 0 {
			a.body(f.Nodes, absState{node: 0, locals: callee})
		}
		return unknown, true
	}
	a.over = true // an expression this run does not know: the static sets
	return unknown, true
}

// binary evaluates a binary expression abstractly (see eval): the right
// operand of && and || only where the left one does not decide, as the
// interpreter does.
func (a *absRun) binary(e *lang.BinaryExpr, locals []absVal) (absVal, bool) {
	x, ok := a.eval(e.X, locals)
	if !ok {
		return unknown, false
	}
	switch e.Op {
	case lang.OpAnd, lang.OpOr:
		if x.known && (x.v == 0) == (e.Op == lang.OpAnd) {
			return known(b2i(e.Op == lang.OpOr)), true
		}
		y, ok := a.eval(e.Y, locals)
		if !ok {
			if x.known {
				return unknown, false
			}
			// Only the runs where x decides go on.
			return known(b2i(e.Op == lang.OpOr)), true
		}
		if !y.known {
			return unknown, true
		}
		if x.known {
			return known(b2i(y.v != 0)), true
		}
		if (y.v == 0) == (e.Op == lang.OpAnd) {
			return known(b2i(e.Op == lang.OpOr)), true
		}
		return unknown, true
	}
	y, ok := a.eval(e.Y, locals)
	if !ok {
		return unknown, false
	}
	if (e.Op == lang.OpDiv || e.Op == lang.OpMod) && y.known && y.v == 0 {
		return unknown, false
	}
	if !x.known || !y.known {
		return unknown, true
	}
	var r int64
	ok = true
	switch e.Op {
	case lang.OpAdd:
		r, ok = lang.Add(x.v, y.v)
	case lang.OpSub:
		r, ok = lang.Sub(x.v, y.v)
	case lang.OpMul:
		r, ok = lang.Mul(x.v, y.v)
	case lang.OpDiv:
		r, ok = lang.Div(x.v, y.v)
	case lang.OpMod:
		r = lang.Mod(x.v, y.v)
	case lang.OpLt:
		r = b2i(x.v < y.v)
	case lang.OpLe:
		r = b2i(x.v <= y.v)
	case lang.OpGt:
		r = b2i(x.v > y.v)
	case lang.OpGe:
		r = b2i(x.v >= y.v)
	case lang.OpEq:
		r = b2i(x.v == y.v)
	case lang.OpNe:
		r = b2i(x.v != y.v)
	default:
		a.over = true
		return unknown, true
	}
	if !ok {
		return unknown, false
	}
	return known(r), true
}

// invariants adds the reads of every invariant that reads a global the
// run may write: the event checks it at its end (see State.StepInto).
func (a *absRun) invariants() {
	if len(a.writes) == 0 {
		return
	}
	for _, inv := range a.x.m.Prog.Invariants {
		if slices.ContainsFunc(inv.Reads, func(g *lang.Var) bool { return a.writesGlobal(g) }) {
			a.reads = append(a.reads, a.x.staticLocs(inv.Reads)...)
		}
	}
}

// writesGlobal reports whether the run may write a location of global g.
func (a *absRun) writesGlobal(g *lang.Var) bool {
	first, n := a.x.m.GlobalLocs(g)
	return slices.ContainsFunc(a.writes, func(l interp.Loc) bool { return l == interp.WholeLoc(g.Index) || l >= first && l < first+interp.Loc(n) })
}

// sets returns the run's reads and writes, sorted and without repeats.
func (a *absRun) sets() (reads, writes []interp.Loc) {
	slices.Sort(a.reads)
	slices.Sort(a.writes)
	return slices.Compact(a.reads), slices.Compact(a.writes)
}

// b2i is a boolean's value as the language's int: 1 or 0.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

package dporrt

import (
	"slices"

	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// The static dependency tells the cells of an array apart where blocks
// index it at a fixed index (lang.CellAccess): an expression of literals,
// params and locals the block does not assign, so its value is known
// before the block runs, from its process's locals. The event of such a
// block names those cells; a block that indexes the array otherwise names
// all of them. The sets are still the event's own and do not change with
// the state (the locals at its start are its process's, which no other
// process changes), which is what the source loop's sleep sequences, the
// wakeup trees and the constraint checks need of a static dependency.
//
// PS puts to node k and forwarded puts to node k+1 (m[k], got[k]) are then
// independent, where one location per array made every two puts dependent.

// maxCellList bounds the arrays whose every cell a set lists where an event
// may touch any cell: a larger array stands there as one location,
// WholeLoc, which meets every cell of the array (see explorer.intersect).
// Sets then cost in proportion to the cells events touch, whatever the
// arrays' sizes, and no array is taken whole for its size.
const maxCellList = 64

// splitArrays returns the arrays (by lang.Var.Index) whose cells the
// dependency tells apart: for the static one those some block indexes at
// fixed indices only (lang.CellAccess), for the locals one every array.
// Any other array is one location, its first.
func splitArrays(prog *lang.Program, dep DepMode) []bool {
	out := make([]bool, len(prog.Globals))
	if dep == Locals {
		for _, g := range prog.Globals {
			out[g.Index] = g.Type == lang.IntArray
		}
		return out
	}
	for _, b := range prog.Blocks {
		for _, c := range b.Cells {
			out[c.Array.Index] = true
		}
	}
	return out
}

// key is the location that stands for cell l in the static sets: l, for a
// scalar or an array whose cells are told apart, else the array's first
// location.
func (x *explorer) key(l interp.Loc) interp.Loc {
	g := x.m.GlobalOf(l)
	if x.split(g) {
		return l
	}
	first, _ := x.m.GlobalLocs(x.m.Prog.Globals[g])
	return first
}

// split reports whether the dependency tells apart the cells of the
// global of index g.
func (x *explorer) split(g int) bool { return x.cells != nil && x.cells[g] }

// staticLocs returns the static locations of the globals of vs, sorted: a
// scalar's location, every location of each array (see wholeLocs).
func (x *explorer) staticLocs(vs []*lang.Var) []interp.Loc {
	var out []interp.Loc
	for _, v := range vs {
		if v.Kind != lang.Global {
			continue
		}
		out = x.wholeLocs(out, v.Index)
	}
	slices.Sort(out)
	return out
}

// wholeLocs appends to out the locations that stand for every cell of the
// global of index g: a scalar's location; for an array whose cells are
// told apart, its cells, or WholeLoc past maxCellList cells; the first
// location of any other array.
func (x *explorer) wholeLocs(out []interp.Loc, g int) []interp.Loc {
	first, n := x.m.GlobalLocs(x.m.Prog.Globals[g])
	limit := maxCellList
	if x.opts.cellList > 0 {
		limit = x.opts.cellList
	}
	switch {
	case !x.split(g):
		n = 1
	case n > limit:
		return append(out, interp.WholeLoc(g))
	}
	for c := range n {
		out = append(out, first+interp.Loc(c))
	}
	return out
}

// eventSets returns the static read and write sets of the event of block b
// run by a process whose locals are locals: the block's (see blockSets),
// with the cells its fixed indices name in place of the whole of each
// array whose cells are told apart. An index that cannot be evaluated or
// is out of bounds leaves the array whole. The sets are shared (the
// block's, or those of the block's events at the same cells, kept in
// cellCache): callers must not change them.
func (x *explorer) eventSets(b *lang.Block, locals []int64) (reads, writes []interp.Loc) {
	s := x.blockSets(b)
	if len(b.Cells) == 0 {
		return s[0], s[1]
	}
	// The cells of each split array's reads then writes, or a -1 for an
	// array left whole: the key of the sets.
	key := x.cellKey[:0]
	for _, c := range b.Cells {
		if !x.split(c.Array.Index) {
			continue
		}
		mark := len(key)
		var ok, ok2 bool
		key, ok = x.cellsAt(c.Array, c.Reads, locals, key)
		key, ok2 = x.cellsAt(c.Array, c.Writes, locals, key)
		if !ok || !ok2 {
			key = append(key[:mark], -1)
		}
	}
	x.cellKey = key
	if len(key) == 0 { // no array of the block is split (WholeArrays, or too big)
		return s[0], s[1]
	}
	h := uint64(b.Index)
	for _, l := range key {
		h = interp.Mix(h ^ uint64(uint32(l)))
	}
	for _, e := range x.cellCache[h] {
		if e.block == b && slices.Equal(e.key, key) {
			return e.reads, e.writes
		}
	}
	reads, writes = s[0], s[1]
	k := 0
	for _, c := range b.Cells {
		if !x.split(c.Array.Index) {
			continue
		}
		if key[k] < 0 {
			k++
			continue
		}
		nr, nw := len(c.Reads), len(c.Writes)
		reads = x.withCells(reads, c.Array.Index, key[k:k+nr])
		writes = x.withCells(writes, c.Array.Index, key[k+nr:k+nr+nw])
		k += nr + nw
	}
	if x.cellCache == nil {
		x.cellCache = map[uint64][]cellSets{}
	}
	x.cellCache[h] = append(x.cellCache[h], cellSets{block: b, key: slices.Clone(key), reads: reads, writes: writes})
	return reads, writes
}

// cellSets are the static sets of the events of a block whose fixed
// indices name the cells key (see eventSets).
type cellSets struct {
	block         *lang.Block
	key           []interp.Loc
	reads, writes []interp.Loc
}

// cellsAt appends to out the cells of array g at the indices idx, with the
// locals given; ok is false when an index fails or is out of bounds (out
// then holds some of them).
func (x *explorer) cellsAt(g *lang.Var, idx []lang.Expr, locals []int64, out []interp.Loc) (_ []interp.Loc, ok bool) {
	first, n := x.m.GlobalLocs(g)
	for _, e := range idx {
		i, ok := x.cellEval.Eval(e, locals)
		if !ok || i < 0 || i >= int64(n) {
			return out, false
		}
		out = append(out, first+interp.Loc(i))
	}
	return out, true
}

// withCells returns the sorted set locs with the locations of the array of
// index g (its cells, or its WholeLoc) replaced by cells, in a new slice.
func (x *explorer) withCells(locs []interp.Loc, g int, cells []interp.Loc) []interp.Loc {
	first, size := x.m.GlobalLocs(x.m.Prog.Globals[g])
	n := interp.Loc(size)
	out := make([]interp.Loc, 0, len(locs)+len(cells))
	for _, l := range locs {
		if l != interp.WholeLoc(g) && (l < first || l >= first+n) {
			out = append(out, l)
		}
	}
	out = append(out, cells...)
	slices.Sort(out)
	return slices.Compact(out)
}

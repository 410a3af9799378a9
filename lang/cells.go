package lang

// CellAccess is a global array that a block touches only at cells fixed
// when it starts: every index of the array in the block's region (reads,
// writes, the await guard) is a fixed index (see fixedIndex). A run of the
// block then reads and writes the array only at the values those indices
// have at its start, whatever the globals hold, and a runtime can take the
// cells, not the whole array, as the block's event's locations.
type CellAccess struct {
	Array  *Var
	Reads  []Expr // the index expressions of its reads, in node order
	Writes []Expr // of its writes
}

// fixedIndex reports whether index expression e has the same value
// throughout a run of a block that assigns the locals assigned: it is
// built from literals, params and locals the block does not assign with
// operators, and reads no global, no array element and calls no func.
func fixedIndex(e Expr, assigned varSet) bool {
	switch e := e.(type) {
	case *IntLit, *BoolLit, *ParamRef:
		return true
	case *VarRef:
		return e.Var.Kind == Local && !assigned[e.Var]
	case *UnaryExpr:
		return fixedIndex(e.X, assigned)
	case *BinaryExpr:
		return fixedIndex(e.X, assigned) && fixedIndex(e.Y, assigned)
	}
	return false
}

// arrayCells sets b.Cells: the global arrays of b's reads and writes whose
// every access in b's region is at a fixed index. An array a func that b
// calls touches, or that an invariant reads (b may check it), is left out:
// those accesses are not in the region.
func arrayCells(prog *Program, pr *Proc, b *Block, sums map[*Func]*summary) {
	assigned := varSet{}
	for _, v := range b.Writes {
		if v.Kind == Local {
			assigned.add(v)
		}
	}
	out := varSet{} // arrays with an access that is not at a fixed index
	for _, f := range b.Calls {
		for v := range sums[f].reads {
			out.add(v)
		}
		for v := range sums[f].writes {
			out.add(v)
		}
	}
	for _, inv := range prog.Invariants {
		for _, v := range inv.Reads {
			out.add(v)
		}
	}
	acc := map[*Var]*CellAccess{}
	access := func(a *Var, idx Expr, write bool) {
		if a.Kind != Global || out[a] {
			return
		}
		if !fixedIndex(idx, assigned) {
			out.add(a)
			return
		}
		c := acc[a]
		if c == nil {
			c = &CellAccess{Array: a}
			acc[a] = c
		}
		if write {
			c.Writes = append(c.Writes, idx)
		} else {
			c.Reads = append(c.Reads, idx)
		}
	}
	for _, id := range b.Nodes {
		n := pr.Nodes[id]
		walkNode(n, func(e Expr) {
			switch e := e.(type) {
			case *IndexExpr:
				access(e.Array, e.Index, false)
			case *VarRef:
				if e.Var.Kind == Global && e.Var.Type == IntArray {
					out.add(e.Var) // the array as a whole
				}
			}
		})
		if n.Kind == NodeAssign && n.Target.Index != nil {
			access(n.Target.Var, n.Target.Index, true)
		}
	}
	for _, v := range prog.Globals {
		if c := acc[v]; c != nil && !out[v] {
			b.Cells = append(b.Cells, *c)
		}
	}
}

package lang

// Access returns the variables the nodes may read and write, including
// through the funcs they call (transitively): globals in declaration order,
// then locals by slot. It also reports whether any node spawns, asserts,
// divides, indexes an array or calls a func (so may record a violation or
// raise a runtime error other than overflow).
func (p *Program) Access(nodes []*Node) (reads, writes []*Var, effects Effects) {
	sums := funcSummaries(p.Funcs)
	rw := &rwCollector{reads: varSet{}, writes: varSet{}, sums: func(f *Func) *summary { return sums[f] }}
	for _, n := range nodes {
		rw.node(n)
		switch n.Kind {
		case NodeSpawn:
			effects.Spawns = true
		case NodeAssert:
			effects.Asserts = true
		}
		walkNode(n, func(e Expr) {
			switch e := e.(type) {
			case *BinaryExpr:
				switch e.Op {
				case OpDiv, OpMod:
					effects.MayErr = true
				case OpAdd, OpSub, OpMul:
					effects.Arith = true
				}
			case *UnaryExpr:
				if e.Op == OpNeg {
					effects.Arith = true
				}
			case *IndexExpr:
				effects.MayErr = true
			case *CallExpr:
				effects.MayErr, effects.Arith = true, true
				for _, g := range append([]*Func{e.Func}, sums[e.Func].calls...) {
					for _, fn := range g.Nodes {
						if fn.Kind == NodeAssert {
							effects.Asserts = true
						}
					}
				}
			}
		})
		if n.Kind == NodeAssign && n.Target.Index != nil {
			effects.MayErr = true
		}
	}
	return rw.reads.sorted(), rw.writes.sorted(), effects
}

// Effects summarizes what a piece of code may do besides reading and writing.
type Effects struct {
	Spawns  bool // spawns processes
	Asserts bool // has asserts (may record violations)
	MayErr  bool // divides, indexes or calls: may raise a runtime error
	Arith   bool // does arithmetic that may overflow
}

// Exprs yields the expressions n evaluates, in the order it evaluates them
// (docs/language.md, Evaluation order): an assignment's value, then the
// index of its target; a branch's or an assert's condition; a spawn's
// arguments, left to right; a call statement's call; a return's value; an
// await point's guard. It yields every expression field that is set, so
// whoever walks a body's expressions through it misses none
// (TestNodeExprs checks that every expression field of Node is yielded).
func (n *Node) Exprs(yield func(Expr) bool) {
	if n.Value != nil && !yield(n.Value) {
		return
	}
	if n.Target.Index != nil && !yield(n.Target.Index) {
		return
	}
	if n.Cond != nil && !yield(n.Cond) {
		return
	}
	for _, a := range n.Args {
		if !yield(a) {
			return
		}
	}
	if n.Call != nil && !yield(n.Call) {
		return
	}
	if n.Point != nil && n.Point.Guard != nil {
		yield(n.Point.Guard)
	}
}

// Inspect calls f on e, then on every expression inside it, depth first
// and left to right (an element's index, a call's arguments). It does not
// enter the body of a called func.
func Inspect(e Expr, f func(Expr)) {
	f(e)
	switch e := e.(type) {
	case *IndexExpr:
		Inspect(e.Index, f)
	case *UnaryExpr:
		Inspect(e.X, f)
	case *BinaryExpr:
		Inspect(e.X, f)
		Inspect(e.Y, f)
	case *CallExpr:
		for _, a := range e.Args {
			Inspect(a, f)
		}
	}
}

// walkNode calls f on every expression of n, subexpressions included.
func walkNode(n *Node, f func(Expr)) {
	for e := range n.Exprs {
		Inspect(e, f)
	}
}

// Inlined returns the size of the nodes with the funcs they call inlined:
// one per node, and at each call the inlined size of the func's body (funcs
// never recurse); loops reports whether any of those nodes heads a while
// loop.
func (p *Program) Inlined(nodes []*Node) (size int, loops bool) {
	memo := map[*Func]int{}
	loopy := map[*Func]bool{}
	var body func(nodes []*Node) (int, bool)
	body = func(nodes []*Node) (int, bool) {
		size, loops := 0, false
		for _, n := range nodes {
			size++
			loops = loops || n.Loop != nil
			walkNode(n, func(e Expr) {
				c, ok := e.(*CallExpr)
				if !ok {
					return
				}
				if _, done := memo[c.Func]; !done {
					memo[c.Func], loopy[c.Func] = body(c.Func.Nodes)
				}
				size += memo[c.Func]
				loops = loops || loopy[c.Func]
			})
		}
		return size, loops
	}
	return body(nodes)
}

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

// walkNode calls f on every expression of n, subexpressions included.
func walkNode(n *Node, f func(Expr)) {
	var walk func(e Expr)
	walk = func(e Expr) {
		if e == nil {
			return
		}
		f(e)
		switch e := e.(type) {
		case *IndexExpr:
			walk(e.Index)
		case *UnaryExpr:
			walk(e.X)
		case *BinaryExpr:
			walk(e.X)
			walk(e.Y)
		case *CallExpr:
			for _, a := range e.Args {
				walk(a)
			}
		}
	}
	walk(n.Value)
	walk(n.Cond)
	walk(n.Target.Index)
	for _, a := range n.Args {
		walk(a)
	}
	if n.Call != nil {
		walk(n.Call)
	}
	if n.Point != nil {
		walk(n.Point.Guard)
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

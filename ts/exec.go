package ts

import (
	"fmt"
	"sort"

	"github.com/icgen/icgen/lang"
)

// path is one symbolic execution path.
type path struct {
	steps  int // nodes run on this path
	cond   []Ref
	ovf    []Ref
	env    map[*lang.Var]Ref // current values of globals and of the process's locals
	spawns []Spawn
	viol   []lang.Pos
	fns    map[string]*Fn
}

func (p *path) clone() *path {
	q := &path{
		steps:  p.steps,
		cond:   append([]Ref(nil), p.cond...),
		ovf:    append([]Ref(nil), p.ovf...),
		env:    make(map[*lang.Var]Ref, len(p.env)),
		spawns: append([]Spawn(nil), p.spawns...),
		viol:   append([]lang.Pos(nil), p.viol...),
		fns:    make(map[string]*Fn, len(p.fns)),
	}
	for k, v := range p.env {
		q.env[k] = v
	}
	for k, v := range p.fns {
		q.fns[k] = v
	}
	return q
}

// alt is one outcome of evaluating an expression: a path and a value.
type alt struct {
	p *path
	v Ref
}

// executor runs one block of one event symbolically.
type executor struct {
	g      *Graph
	syms   *Symbols
	event  int
	proc   *lang.Proc
	paths  int
	work   int // nodes run, over all paths
	bnd    *boundsMemo
	failed string
	abs    map[string]bool
}

// Block builds the transition system of block b run by event e's process
// (e is 0 or 1 and only decides the names of locals: v or v'), with its
// terms in g.
func Block(b *lang.Block, e int, syms *Symbols, g *Graph) *System {
	x := &executor{g: g, syms: syms, event: e, proc: b.Proc, abs: map[string]bool{}, bnd: newBounds(g)}
	sys := &System{G: g, Blocks: [2]*lang.Block{b}, Events: 1}
	if e == 1 {
		sys.Blocks = [2]*lang.Block{nil, b}
		sys.Events = 2
	}
	start := &path{env: map[*lang.Var]Ref{}, fns: map[string]*Fn{}}
	var starts []*path
	if g := b.Point.Guard; g != nil {
		for _, a := range x.eval(g, start, nil) {
			a.p.cond = append(a.p.cond, a.v)
			starts = append(starts, a.p)
		}
	} else {
		starts = []*path{start}
	}
	var done []*path
	var ends []*lang.Point
	var ended []bool
	for _, p := range starts {
		x.run(b.Proc.Nodes, b.Proc.Nodes[b.Point.Node].Next, p, nil, func(p *path, pt *lang.Point, _ Ref) {
			done = append(done, p)
			ends = append(ends, pt)
			ended = append(ended, pt == nil)
		})
	}
	if x.failed != "" {
		sys.Unknown = x.failed
		return sys
	}
	for i, p := range done {
		t := x.transition(p, ends[i], ended[i])
		if g.IsFalse(t.Cond) {
			continue
		}
		sys.Transitions = append(sys.Transitions, t)
	}
	for k := range x.abs {
		sys.Abstracted = append(sys.Abstracted, k)
	}
	sort.Strings(sys.Abstracted)
	return sys
}

func (x *executor) transition(p *path, next *lang.Point, ended bool) *Transition {
	g := x.g
	t := &Transition{Cond: g.And(p.cond...), NoOverflow: g.And(p.ovf...), Fns: p.fns}
	for v, val := range p.env {
		if v.Kind != lang.Global {
			continue
		}
		t.Written = append(t.Written, v)
		if val != g.SymRef(x.syms.Global(v)) {
			t.Globals = append(t.Globals, Assign{v, val})
		}
	}
	sortAssigns(t.Globals)
	sortVars(t.Written)
	if next != nil {
		for _, v := range next.Live {
			t.Locals[x.event] = append(t.Locals[x.event], Assign{v, x.value(p, v)})
		}
	}
	t.Next[x.event] = next
	t.Ends[x.event] = ended
	t.Spawns = p.spawns
	t.Violations = p.viol
	sort.Slice(t.Violations, func(i, j int) bool { return t.Violations[i].Offset < t.Violations[j].Offset })
	return t
}

// value is the current value of a variable on a path.
func (x *executor) value(p *path, v *lang.Var) Ref {
	if t, ok := p.env[v]; ok {
		return t
	}
	if v.Kind == lang.Global {
		return x.g.SymRef(x.syms.Global(v))
	}
	return x.g.SymRef(x.syms.Local(v, x.event))
}

func (x *executor) fail(format string, args ...any) {
	if x.failed == "" {
		x.failed = fmt.Sprintf(format, args...)
	}
}

func (x *executor) fork(p *path) *path {
	x.paths++
	if x.paths > MaxPaths {
		x.fail("more than %d paths", MaxPaths)
	}
	return p.clone()
}

// frame holds a func activation's locals (nil for the process itself).
type frame struct {
	fn     *lang.Func
	locals map[*lang.Var]Ref
}

// abstractLoop abstracts in-block loop n on path p, in frame fr (Def. 7).
func (x *executor) abstractLoop(nodes []*lang.Node, n *lang.Node, p *path, fr *frame) *path {
	var fn *lang.Func
	if fr != nil {
		fn = fr.fn
	}
	abstractLoop(x.g, pathLoop{x, p, fr}, x.syms.prog, x.proc, fn, x.abs, nodes, n)
	return p
}

// pathLoop is path p, in frame fr, where the path executor abstracts a
// loop.
type pathLoop struct {
	x  *executor
	p  *path
	fr *frame
}

func (l pathLoop) input(v *lang.Var) Ref {
	if v.Kind == lang.Global {
		return l.x.value(l.p, v)
	}
	return l.x.local(l.p, l.fr, v)
}

// fn is the graph's function of f's name: the paths of a block, and the
// systems of the blocks of a pair built in one graph, apply one function
// per loop, so that equal applications are one term.
func (l pathLoop) fn(f *Fn) *Fn {
	f = l.x.g.namedFn(f)
	l.p.fns[f.Name] = f
	return f
}

func (l pathLoop) require(ok Ref) { l.p.cond = append(l.p.cond, ok) }

func (l pathLoop) set(v *lang.Var, t Ref) {
	if v.Kind == lang.Local && l.fr != nil {
		l.fr.locals[v] = t
	} else {
		l.p.env[v] = t
	}
}

func (l pathLoop) spawn(t Ref) {
	l.p.spawns = append(l.p.spawns, Spawn{Args: []Ref{t}, Event: l.x.event})
}

func (x *executor) local(p *path, fr *frame, v *lang.Var) Ref {
	if fr != nil {
		if t, ok := fr.locals[v]; ok {
			return t
		}
		return x.g.Int(0)
	}
	return x.value(p, v)
}

// known gives the values of the locals that are constants on path p.
func (x *executor) known(p *path, fr *frame) func(*lang.Var) (int64, bool) {
	return func(v *lang.Var) (int64, bool) {
		t := x.local(p, fr, v)
		return x.g.Val(t), x.g.Kind(t) == KConst && x.g.Sort(t) == SortInt
	}
}

// run executes nodes from id on path p; at a point, the end, or a return it
// calls done with the path, the point (nil at the end) and the returned value.
func (x *executor) run(nodes []*lang.Node, id int, p *path, fr *frame, done func(*path, *lang.Point, Ref)) {
	g := x.g
	for id != lang.End && x.failed == "" {
		p.steps++
		x.work++
		switch {
		case p.steps > MaxPathSteps:
			x.fail("a path runs more than %d steps (a loop that goes round without reaching its interleaving point?)", MaxPathSteps)
			return
		case x.work > MaxWork:
			x.fail("more than %d steps of symbolic execution", MaxWork)
			return
		}
		n := nodes[id]
		switch n.Kind {
		case lang.NodePoint:
			done(p, n.Point, -1)
			return
		case lang.NodeAssign:
			alts := x.eval(n.Value, p, fr)
			if len(alts) != 1 {
				for _, a := range alts {
					x.assign(a.p, fr, n.Target, a.v, func(q *path) { x.run(nodes, n.Next, q, fr.copy(), done) })
				}
				return
			}
			var q *path
			x.assign(alts[0].p, fr, n.Target, alts[0].v, func(r *path) { q = r })
			if q == nil {
				return
			}
			p = q
		case lang.NodeBranch:
			if n.Loop != nil && !n.Loop.Points {
				// A counted loop of few rounds runs as the interpreter
				// runs it (its condition is a constant each round);
				// any other is abstracted.
				if _, ok := tripCount(x.syms.prog, nodes, n, x.known(p, fr)); !ok {
					p = x.abstractLoop(nodes, n, p, fr)
					id = n.Else
					continue
				}
			}
			for _, a := range x.eval(n.Cond, p, fr) {
				yes, no := a.p, a.p
				if !g.IsTrue(a.v) && !g.IsFalse(a.v) {
					no = x.fork(a.p)
				}
				frYes, frNo := fr.copy(), fr.copy()
				if !g.IsFalse(a.v) {
					yes.cond = append(yes.cond, a.v)
					x.run(nodes, n.Next, yes, frYes, done)
				}
				if !g.IsTrue(a.v) {
					no.cond = append(no.cond, g.Not(a.v))
					x.run(nodes, n.Else, no, frNo, done)
				}
			}
			return
		case lang.NodeAssert:
			alts := x.eval(n.Cond, p, fr)
			for _, a := range alts {
				if !g.IsTrue(a.v) {
					bad := a.p
					if !g.IsFalse(a.v) {
						bad = x.fork(a.p)
					}
					bad.cond = append(bad.cond, g.Not(a.v))
					bad.viol = append(bad.viol, n.Pos)
					x.run(nodes, n.Next, bad, fr.copy(), done)
				}
				if !g.IsFalse(a.v) {
					a.p.cond = append(a.p.cond, a.v)
					x.run(nodes, n.Next, a.p, fr.copy(), done)
				}
			}
			return
		case lang.NodeSpawn:
			alts := x.evalList(n.Args, p, fr)
			if len(alts) != 1 {
				for _, a := range alts {
					a.p.spawns = append(a.p.spawns, Spawn{Proc: n.Proc, Args: a.vs, Event: x.event})
					x.run(nodes, n.Next, a.p, fr.copy(), done)
				}
				return
			}
			p = alts[0].p
			p.spawns = append(p.spawns, Spawn{Proc: n.Proc, Args: alts[0].vs, Event: x.event})
		case lang.NodeCall:
			alts := x.eval(n.Call, p, fr)
			if len(alts) != 1 {
				for _, a := range alts {
					x.run(nodes, n.Next, a.p, fr.copy(), done)
				}
				return
			}
			p = alts[0].p
		case lang.NodeReturn:
			if n.Value == nil {
				done(p, nil, -1)
				return
			}
			for _, a := range x.eval(n.Value, p, fr) {
				done(a.p, nil, a.v)
			}
			return
		}
		id = n.Next
	}
	if x.failed == "" {
		done(p, nil, -1)
	}
}

func (fr *frame) copy() *frame {
	if fr == nil {
		return nil
	}
	c := &frame{fn: fr.fn, locals: make(map[*lang.Var]Ref, len(fr.locals))}
	for k, v := range fr.locals {
		c.locals[k] = v
	}
	return c
}

// assign sets a target on path p (forking on index evaluation) and calls k
// with each resulting path.
func (x *executor) assign(p *path, fr *frame, t lang.LValue, v Ref, k func(*path)) {
	if t.Var.Kind == lang.Local {
		if fr != nil {
			fr.locals[t.Var] = v
		} else {
			p.env[t.Var] = v
		}
		k(p)
		return
	}
	if t.Index == nil {
		p.env[t.Var] = v
		k(p)
		return
	}
	for _, a := range x.eval(t.Index, p, fr) {
		x.inBounds(a.p, t.Var, a.v)
		a.p.env[t.Var] = x.g.Store(x.value(a.p, t.Var), a.v, v)
		k(a.p)
	}
}

// size is the symbolic size of a global array.
func (x *executor) size(g *lang.Var) Ref {
	switch s := g.Size.(type) {
	case *lang.IntLit:
		return x.g.Int(s.Val)
	case *lang.ParamRef:
		return x.g.SymRef(x.syms.Param(s.Param))
	}
	return x.g.Int(0)
}

func (x *executor) inBounds(p *path, g *lang.Var, i Ref) {
	if g.Unbounded() {
		return
	}
	p.cond = append(p.cond, x.g.Binary(lang.OpLe, x.g.Int(0), i), x.g.Binary(lang.OpLt, i, x.size(g)))
}

// altList is an outcome of evaluating a list of expressions.
type altList struct {
	p  *path
	vs []Ref
}

func (x *executor) evalList(es []lang.Expr, p *path, fr *frame) []altList {
	alts := []altList{{p: p}}
	for _, e := range es {
		var next []altList
		for _, a := range alts {
			for _, b := range x.eval(e, a.p, fr) {
				next = append(next, altList{p: b.p, vs: append(append([]Ref(nil), a.vs...), b.v)})
			}
		}
		alts = next
	}
	return alts
}

// mayFork reports whether evaluating e may add conditions or fork (it
// divides, indexes or calls).
func mayFork(e lang.Expr) bool {
	switch e := e.(type) {
	case *lang.IndexExpr, *lang.CallExpr:
		return true
	case *lang.UnaryExpr:
		return mayFork(e.X)
	case *lang.BinaryExpr:
		return e.Op == lang.OpDiv || e.Op == lang.OpMod || mayFork(e.X) || mayFork(e.Y)
	}
	return false
}

// eval evaluates e on p. Paths where evaluation would raise a runtime error
// (other than overflow) are dropped: their conditions are excluded.
func (x *executor) eval(e lang.Expr, p *path, fr *frame) []alt {
	switch e := e.(type) {
	case *lang.IntLit:
		return []alt{{p, x.g.Int(e.Val)}}
	case *lang.BoolLit:
		return []alt{{p, x.g.Bool(e.Val)}}
	case *lang.ParamRef:
		return []alt{{p, x.g.SymRef(x.syms.Param(e.Param))}}
	case *lang.VarRef:
		if e.Var.Kind == lang.Local {
			return []alt{{p, x.local(p, fr, e.Var)}}
		}
		return []alt{{p, x.value(p, e.Var)}}
	case *lang.IndexExpr:
		var out []alt
		for _, a := range x.eval(e.Index, p, fr) {
			x.inBounds(a.p, e.Array, a.v)
			out = append(out, alt{a.p, x.g.Select(x.value(a.p, e.Array), a.v)})
		}
		return out
	case *lang.UnaryExpr:
		var out []alt
		for _, a := range x.eval(e.X, p, fr) {
			v := x.g.Unary(e.Op, a.v)
			if e.Op == lang.OpNeg {
				x.noOverflow(a.p, v)
			}
			out = append(out, alt{a.p, v})
		}
		return out
	case *lang.BinaryExpr:
		return x.binary(e, p, fr)
	case *lang.CallExpr:
		return x.call(e, p, fr)
	}
	x.fail("unsupported expression %T", e)
	return nil
}

func (x *executor) noOverflow(p *path, v Ref) {
	if x.g.Kind(v) == KConst {
		return
	}
	p.ovf = append(p.ovf, x.bnd.rangeGuards(v)...)
}

func (x *executor) binary(e *lang.BinaryExpr, p *path, fr *frame) []alt {
	g := x.g
	if (e.Op == lang.OpAnd || e.Op == lang.OpOr) && mayFork(e.Y) {
		// Short-circuit: evaluate the right side only where the left does
		// not decide, so its error conditions apply only there.
		var out []alt
		for _, a := range x.eval(e.X, p, fr) {
			decides := a.v // && is decided by false, || by true
			if e.Op == lang.OpAnd {
				decides = g.Not(a.v)
			}
			if !g.IsFalse(decides) {
				q := a.p
				if !g.IsTrue(decides) {
					q = x.fork(a.p)
				}
				q.cond = append(q.cond, decides)
				out = append(out, alt{q, g.Bool(e.Op == lang.OpOr)})
			}
			if !g.IsTrue(decides) {
				a.p.cond = append(a.p.cond, g.Not(decides))
				out = append(out, x.eval(e.Y, a.p, fr)...)
			}
		}
		return out
	}
	var out []alt
	for _, a := range x.eval(e.X, p, fr) {
		for _, b := range x.eval(e.Y, a.p, fr) {
			q := b.p
			var v Ref
			switch e.Op {
			case lang.OpDiv, lang.OpMod:
				q.cond = append(q.cond, g.Binary(lang.OpNe, b.v, g.Int(0)))
				if e.Op == lang.OpDiv {
					v = g.Div(a.v, b.v)
					x.noOverflow(q, v)
				} else {
					v = g.Mod(a.v, b.v)
				}
			default:
				v = g.Binary(e.Op, a.v, b.v)
				if e.Op == lang.OpAdd || e.Op == lang.OpSub || e.Op == lang.OpMul {
					x.noOverflow(q, v)
				}
			}
			out = append(out, alt{q, v})
		}
	}
	return out
}

// call inlines a func: funcs do not recurse, so their bodies are executed
// symbolically in place, forking the caller's path where they branch.
func (x *executor) call(e *lang.CallExpr, p *path, fr *frame) []alt {
	var out []alt
	for _, a := range x.evalList(e.Args, p, fr) {
		callee := &frame{fn: e.Func, locals: map[*lang.Var]Ref{}}
		for i, v := range a.vs {
			callee.locals[e.Func.Params[i]] = v
		}
		start := 0
		if len(e.Func.Nodes) == 0 { // an empty body: the call returns at once
			start = lang.End
		}
		x.run(e.Func.Nodes, start, a.p, callee, func(q *path, _ *lang.Point, ret Ref) {
			if ret < 0 {
				ret = x.g.Int(0)
			}
			out = append(out, alt{q, ret})
		})
	}
	return out
}

package ts

import (
	"fmt"
	"sort"

	"github.com/icgen/icgen/lang"
)

// mstate is the symbolic state at a program point: the conjuncts of its
// path condition and the values reached so far.
type mstate struct {
	pc     []Ref
	pcRef  Ref // And(pc...), or -1 when not computed
	env    map[*lang.Var]Ref
	frame  *mframe
	spawns []*CondSpawn
	viol   map[int]Ref
}

type mframe struct {
	fn     *lang.Func
	locals map[*lang.Var]Ref
}

func (s *mstate) copy() *mstate {
	c := &mstate{pc: append([]Ref(nil), s.pc...), pcRef: s.pcRef, env: make(map[*lang.Var]Ref, len(s.env)),
		spawns: append([]*CondSpawn(nil), s.spawns...), viol: make(map[int]Ref, len(s.viol))}
	for k, v := range s.env {
		c.env[k] = v
	}
	for k, v := range s.viol {
		c.viol[k] = v
	}
	if s.frame != nil {
		c.frame = &mframe{fn: s.frame.fn, locals: make(map[*lang.Var]Ref, len(s.frame.locals))}
		for k, v := range s.frame.locals {
			c.frame.locals[k] = v
		}
	}
	return c
}

// mexec runs one block of one event with merging.
type mexec struct {
	g      *Graph
	syms   *Symbols
	event  int
	proc   *lang.Proc
	ok     []Ref // pc -> check, for every check that may fail
	ovf    []Ref // pc -> in range, for every arithmetic result
	bnd    *boundsMemo
	abs    map[string]bool
	fns    map[string]*Fn
	failed string
	// wrote holds the path conditions of the assignments to each global
	// an invariant reads (Merged.Written).
	wrote map[*lang.Var][]Ref
}

// write records an assignment to global v where s is reached, if an
// invariant reads v.
func (x *mexec) write(s *mstate, v *lang.Var) {
	if _, ok := x.wrote[v]; ok {
		x.wrote[v] = append(x.wrote[v], x.cond(s))
	}
}

type mexit struct {
	s   *mstate
	pt  *lang.Point
	ret Ref // -1: none
}

// MergeBlock builds the merged system of block b run by event e's process
// (0 or 1: it decides the names of locals), in graph g. A block whose
// reachable code holds a cycle (a loop with an interleaving point that may
// go round within the block) is Unknown: the path executor unrolls those.
func MergeBlock(b *lang.Block, e int, syms *Symbols, g *Graph) *Merged {
	x := &mexec{g: g, syms: syms, event: e, proc: b.Proc, bnd: newBounds(g), abs: map[string]bool{}, fns: map[string]*Fn{}, wrote: map[*lang.Var][]Ref{}}
	m := &Merged{G: g, Violations: map[int]Ref{}, Globals: map[*lang.Var]Ref{}, Written: map[*lang.Var]Ref{}}
	for _, inv := range syms.prog.Invariants {
		for _, v := range inv.Reads {
			x.wrote[v] = nil
		}
	}
	m.Blocks[e], m.HasEvent[e] = b, true
	m.Locals[e] = map[*lang.Var]Ref{}
	s := &mstate{pcRef: -1, env: map[*lang.Var]Ref{}, viol: map[int]Ref{}}
	if guard := b.Point.Guard; guard != nil {
		x.require(s, x.eval(guard, s))
	}
	var exits []mexit
	if start := b.Proc.Nodes[b.Point.Node].Next; start == lang.End {
		exits = []mexit{{s: s, ret: -1}}
	} else {
		exits = x.run(b.Proc.Nodes, start, s)
	}
	switch {
	case x.failed != "":
		m.Unknown = x.failed
		return m
	case g.Over:
		m.Unknown = fmt.Sprintf("more than %d terms", g.Limit)
		return m
	}
	m.OK, m.NoOverflow = g.And(x.ok...), g.And(x.ovf...)
	m.Fns = x.fns
	for k := range x.abs {
		m.Abstracted = append(m.Abstracted, k)
	}
	sort.Strings(m.Abstracted)
	if len(exits) == 0 { // no path gets through
		m.OK, m.Next[e] = g.False(), g.Int(-1)
		return m
	}
	seen := map[*lang.Point]bool{}
	var states []*mstate
	var codes []Ref
	for _, ex := range exits {
		code := int64(-1)
		if ex.pt != nil {
			code = int64(ex.pt.Index)
		}
		if !seen[ex.pt] {
			seen[ex.pt] = true
			m.Exits[e] = append(m.Exits[e], ex.pt)
		}
		states, codes = append(states, ex.s), append(codes, g.Int(code))
	}
	sort.Slice(m.Exits[e], func(i, j int) bool { return pointCode(m.Exits[e][i]) < pointCode(m.Exits[e][j]) })
	final, next := x.merge(states, codes)
	if final == nil {
		m.OK, m.Next[e] = g.False(), g.Int(-1)
		return m
	}
	m.Next[e] = next
	for _, v := range SortedVars(final.env) {
		val := final.env[v]
		switch {
		case v.Kind == lang.Global && val != g.SymRef(syms.Global(v)):
			m.Globals[v] = val
		case v.Kind == lang.Local:
			m.Locals[e][v] = val
		}
	}
	m.Spawns = final.spawns
	m.Violations = final.viol
	written := make([]*lang.Var, 0, len(x.wrote))
	for v, ws := range x.wrote {
		if len(ws) > 0 {
			written = append(written, v)
		}
	}
	sortVars(written) // graph ids must not depend on map order
	for _, v := range written {
		m.Written[v] = g.Or(x.wrote[v]...)
	}
	if g.Over {
		m.Unknown = fmt.Sprintf("more than %d terms", g.Limit)
	}
	return m
}

func (x *mexec) fail(format string, args ...any) {
	if x.failed == "" {
		x.failed = fmt.Sprintf(format, args...)
	}
}

func (x *mexec) cond(s *mstate) Ref {
	if s.pcRef < 0 {
		s.pcRef = x.g.And(s.pc...)
	}
	return s.pcRef
}

func (x *mexec) addPC(s *mstate, c Ref) {
	if x.g.IsTrue(c) {
		return
	}
	s.pc = append(s.pc, c)
	s.pcRef = -1
}

// require records that check c must hold wherever s is reached.
func (x *mexec) require(s *mstate, c Ref) {
	if x.g.IsTrue(c) {
		return
	}
	x.ok = append(x.ok, x.g.Implies(x.cond(s), c))
}

// run executes the nodes from start on s, merging states where paths
// join, and returns the states at the exits (points, the end, returns).
func (x *mexec) run(nodes []*lang.Node, start int, s *mstate) []mexit {
	_, exits := x.runTo(nodes, start, lang.End, s)
	return exits
}

// runTo is run that stops at node stop too (an unrolled loop's header,
// see unroll): back holds the states that reach it.
func (x *mexec) runTo(nodes []*lang.Node, start, stop int, s *mstate) (back []*mstate, exits []mexit) {
	order, ok := topo(nodes, start, stop)
	if !ok {
		x.fail("a loop holding an interleaving point may go round within the block")
		return nil, nil
	}
	in := map[int][]*mstate{start: {s}}
	push := func(to int, s *mstate) {
		switch to {
		case lang.End:
			exits = append(exits, mexit{s: s, ret: -1})
		case stop:
			back = append(back, s)
		default:
			in[to] = append(in[to], s)
		}
	}
	for _, id := range order {
		if x.failed != "" || x.g.Over {
			return nil, nil
		}
		sts := in[id]
		delete(in, id)
		s, _ := x.merge(sts, nil)
		if s == nil {
			continue
		}
		n := nodes[id]
		switch n.Kind {
		case lang.NodePoint:
			exits = append(exits, mexit{s: s, pt: n.Point, ret: -1})
		case lang.NodeAssign:
			v := x.eval(n.Value, s)
			x.assign(s, n.Target, v)
			push(n.Next, s)
		case lang.NodeBranch:
			if n.Loop != nil && !n.Loop.Points {
				if rounds, ok := tripCount(x.syms.prog, nodes, n, x.known(s)); ok {
					out, more := x.unroll(nodes, n, s, rounds)
					exits = append(exits, more...)
					if out != nil {
						push(n.Else, out)
					}
					continue
				}
				x.abstractLoop(nodes, n, s)
				push(n.Else, s)
				continue
			}
			c := x.eval(n.Cond, s)
			switch {
			case x.g.IsTrue(c):
				push(n.Next, s)
			case x.g.IsFalse(c):
				push(n.Else, s)
			default:
				yes := s.copy()
				x.addPC(yes, c)
				x.addPC(s, x.g.Not(c))
				push(n.Next, yes)
				push(n.Else, s)
			}
		case lang.NodeAssert:
			c := x.eval(n.Cond, s)
			if !x.g.IsTrue(c) {
				cnt, ok := s.viol[n.Pos.Offset]
				if !ok {
					cnt = x.g.Int(0)
				}
				s.viol[n.Pos.Offset] = x.g.Ite(c, cnt, x.g.Binary(lang.OpAdd, cnt, x.g.Int(1)))
			}
			push(n.Next, s)
		case lang.NodeSpawn:
			args := make([]Ref, len(n.Args))
			for i, a := range n.Args {
				args[i] = x.eval(a, s)
			}
			s.spawns = append(append([]*CondSpawn(nil), s.spawns...), &CondSpawn{Cond: x.cond(s), Proc: n.Proc, Args: args, Event: x.event})
			push(n.Next, s)
		case lang.NodeCall:
			x.eval(n.Call, s)
			push(n.Next, s)
		case lang.NodeReturn:
			ret := Ref(-1)
			if n.Value != nil {
				ret = x.eval(n.Value, s)
			}
			exits = append(exits, mexit{s: s, ret: ret})
		}
	}
	return back, exits
}

// unroll runs the body of the in-block loop n rounds times from s, as
// tripCount counted them: the state where the loop exits (nil where no
// path gets there) and the exits of the returns in its body.
func (x *mexec) unroll(nodes []*lang.Node, n *lang.Node, s *mstate, rounds int) (*mstate, []mexit) {
	var exits []mexit
	for range rounds {
		back, more := x.runTo(nodes, n.Next, n.ID, s)
		exits = append(exits, more...)
		if s, _ = x.merge(back, nil); s == nil {
			break
		}
	}
	return s, exits
}

// known gives the values of the locals that are constants in s.
func (x *mexec) known(s *mstate) func(*lang.Var) (int64, bool) {
	return func(v *lang.Var) (int64, bool) {
		r := x.local(s, v)
		return x.g.Val(r), x.g.Kind(r) == KConst && x.g.Sort(r) == SortInt
	}
}

func frameValue(g *Graph, s *mstate, v *lang.Var) Ref {
	if r, ok := s.frame.locals[v]; ok {
		return r
	}
	return g.Int(0)
}

// envValue is the current value of a global or process local.
func (x *mexec) envValue(s *mstate, v *lang.Var) Ref {
	if r, ok := s.env[v]; ok {
		return r
	}
	if v.Kind == lang.Global {
		return x.g.SymRef(x.syms.Global(v))
	}
	return x.g.SymRef(x.syms.Local(v, x.event))
}

func (x *mexec) local(s *mstate, v *lang.Var) Ref {
	if s.frame != nil {
		return frameValue(x.g, s, v)
	}
	return x.envValue(s, v)
}

func (x *mexec) assign(s *mstate, t lang.LValue, v Ref) {
	if t.Var.Kind == lang.Local {
		if s.frame != nil {
			s.frame.locals[t.Var] = v
		} else {
			s.env[t.Var] = v
		}
		return
	}
	if t.Index == nil {
		s.env[t.Var] = v
		x.write(s, t.Var)
		return
	}
	i := x.eval(t.Index, s)
	x.inBounds(s, t.Var, i)
	s.env[t.Var] = x.g.Store(x.envValue(s, t.Var), i, v)
	x.write(s, t.Var)
}

func (x *mexec) size(a *lang.Var) Ref {
	switch s := a.Size.(type) {
	case *lang.IntLit:
		return x.g.Int(s.Val)
	case *lang.ParamRef:
		return x.g.SymRef(x.syms.Param(s.Param))
	}
	return x.g.Int(0)
}

func (x *mexec) inBounds(s *mstate, a *lang.Var, i Ref) {
	if a.Unbounded() {
		return
	}
	x.require(s, x.g.And(x.g.Binary(lang.OpLe, x.g.Int(0), i), x.g.Binary(lang.OpLt, i, x.size(a))))
}

// eval evaluates e in state s, which calls and short-circuit operators
// may replace by a merged state. Checks that may fail are recorded.
func (x *mexec) eval(e lang.Expr, s *mstate) Ref {
	g := x.g
	switch e := e.(type) {
	case *lang.IntLit:
		return g.Int(e.Val)
	case *lang.BoolLit:
		return g.Bool(e.Val)
	case *lang.ParamRef:
		return g.SymRef(x.syms.Param(e.Param))
	case *lang.VarRef:
		if e.Var.Kind == lang.Local {
			return x.local(s, e.Var)
		}
		return x.envValue(s, e.Var)
	case *lang.IndexExpr:
		i := x.eval(e.Index, s)
		x.inBounds(s, e.Array, i)
		return g.Select(x.envValue(s, e.Array), i)
	case *lang.UnaryExpr:
		v := g.Unary(e.Op, x.eval(e.X, s))
		if e.Op == lang.OpNeg {
			x.noOverflow(s, v)
		}
		return v
	case *lang.BinaryExpr:
		return x.binary(e, s)
	case *lang.CallExpr:
		return x.call(e, s)
	}
	x.fail("unsupported expression %T", e)
	return g.Int(0)
}

func (x *mexec) binary(e *lang.BinaryExpr, s *mstate) Ref {
	g := x.g
	if (e.Op == lang.OpAnd || e.Op == lang.OpOr) && mayFork(e.Y) {
		// Short-circuit: the right side runs (its checks and effects
		// apply) only where the left does not decide.
		l := x.eval(e.X, s)
		decides := l
		if e.Op == lang.OpAnd {
			decides = g.Not(l)
		}
		switch {
		case g.IsTrue(decides):
			return g.Bool(e.Op == lang.OpOr)
		case g.IsFalse(decides):
			return x.eval(e.Y, s)
		}
		rest := s.copy()
		x.addPC(rest, g.Not(decides))
		r := x.eval(e.Y, rest)
		x.addPC(s, decides)
		m, v := x.merge([]*mstate{s, rest}, []Ref{g.Bool(e.Op == lang.OpOr), r})
		if m == nil {
			x.addPC(s, g.False())
			return g.Bool(false)
		}
		*s = *m
		return v
	}
	l := x.eval(e.X, s)
	r := x.eval(e.Y, s)
	switch e.Op {
	case lang.OpDiv, lang.OpMod:
		x.require(s, g.Binary(lang.OpNe, r, g.Int(0)))
		if e.Op == lang.OpMod {
			return g.Mod(l, r)
		}
		v := g.Div(l, r)
		x.noOverflow(s, v)
		return v
	}
	v := g.Binary(e.Op, l, r)
	if e.Op == lang.OpAdd || e.Op == lang.OpSub || e.Op == lang.OpMul {
		x.noOverflow(s, v)
	}
	return v
}

// call inlines a func, merging its paths at their joins and returns.
func (x *mexec) call(e *lang.CallExpr, s *mstate) Ref {
	g := x.g
	args := make([]Ref, len(e.Args))
	for i, a := range e.Args {
		args[i] = x.eval(a, s)
	}
	saved := s.frame
	callee := s.copy()
	callee.frame = &mframe{fn: e.Func, locals: map[*lang.Var]Ref{}}
	for i, v := range args {
		callee.frame.locals[e.Func.Params[i]] = v
	}
	var exits []mexit
	if len(e.Func.Nodes) == 0 {
		exits = []mexit{{s: callee, ret: -1}}
	} else {
		exits = x.run(e.Func.Nodes, 0, callee)
	}
	states := make([]*mstate, len(exits))
	rets := make([]Ref, len(exits))
	for i, ex := range exits {
		states[i], rets[i] = ex.s, ex.ret
		if ex.ret < 0 {
			rets[i] = g.Int(0)
		}
		ex.s.frame = &mframe{fn: e.Func, locals: map[*lang.Var]Ref{}} // the callee's locals die here
	}
	m, v := x.merge(states, rets)
	if m == nil {
		x.addPC(s, g.False())
		return g.Int(0)
	}
	m.frame = saved
	*s = *m
	return v
}

func (x *mexec) noOverflow(s *mstate, v Ref) {
	if x.g.isConst(v) {
		return
	}
	gs := x.bnd.rangeGuards(v)
	if len(gs) == 0 {
		return
	}
	x.ovf = append(x.ovf, x.g.Implies(x.cond(s), x.g.And(gs...)))
}

// abstractLoop abstracts in-block loop n where s is reached (Def. 7).
func (x *mexec) abstractLoop(nodes []*lang.Node, n *lang.Node, s *mstate) {
	var fn *lang.Func
	if s.frame != nil {
		fn = s.frame.fn
	}
	abstractLoop(x.g, mergedLoop{x, s}, x.syms.prog, x.proc, fn, x.abs, nodes, n)
}

// mergedLoop is state s where the merged executor abstracts a loop.
type mergedLoop struct {
	x *mexec
	s *mstate
}

func (l mergedLoop) input(v *lang.Var) Ref {
	if v.Kind == lang.Global {
		return l.x.envValue(l.s, v)
	}
	return l.x.local(l.s, v)
}

// fn is the graph's function of f's name, as for the path executor: the
// merged systems of both blocks of a pair apply one function per loop.
func (l mergedLoop) fn(f *Fn) *Fn {
	f = l.x.g.namedFn(f)
	l.x.fns[f.Name] = f
	return f
}

func (l mergedLoop) require(ok Ref) { l.x.require(l.s, ok) }

func (l mergedLoop) set(v *lang.Var, r Ref) {
	if v.Kind == lang.Local && l.s.frame != nil {
		l.s.frame.locals[v] = r
		return
	}
	l.s.env[v] = r
	l.x.write(l.s, v)
}

func (l mergedLoop) spawn(r Ref) {
	sp := &CondSpawn{Cond: l.x.cond(l.s), Args: []Ref{r}, Event: l.x.event}
	l.s.spawns = append(append([]*CondSpawn(nil), l.s.spawns...), sp)
}

package ts

import (
	"fmt"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// abstractLoop replaces in-block loop n, a node of nodes, by uninterpreted
// functions (CDPOR Def. 7), for either executor: each variable the loop
// writes gets the value f_y(X), where X are the values of the variables
// the loop reads or writes; spawns inside the loop become one opaque spawn
// term. The loop is deterministic, so equal inputs give equal outputs in
// both orders: sound, and exact only when inputs differ whenever the real
// outputs do, which we cannot know (the system is marked abstracted, in
// abs). Whether the loop finishes normally (within its step budget,
// lang.MaxSteps, with no runtime error, overflow included, and no failed
// assert) is a function ok(X) that every path through the loop requires:
// every loop may run out of steps. The runtime evaluates these functions by
// running the loop (interp.ICEnv.Apply). The loop belongs to proc's code,
// or to fn's when it is not nil (an inlined func's).
func abstractLoop(a *Graph, site loopSite, prog *lang.Program, proc *lang.Proc, fn *lang.Func, abs map[string]bool, nodes []*lang.Node, n *lang.Node) {
	owner, ownerLocals := proc.Name, proc.Locals
	if fn != nil {
		owner, ownerLocals = fn.Name, fn.Locals
	}
	sh := shapeOf(prog, owner, ownerLocals, nodes, n)
	var args []Ref
	for _, v := range sh.ins {
		args = append(args, site.input(v))
	}
	mk := func(kind FnKind, out *lang.Var) Ref {
		return a.Apply(site.fn(sh.fn(kind, out, proc)), args...)
	}
	abs[sh.abstracted()] = true
	site.require(mk(FnOK, nil))
	results := map[*lang.Var]Ref{}
	var outs []*lang.Var
	for _, v := range sh.outs {
		if _, ok := results[v]; !ok {
			outs = append(outs, v)
		}
		results[v] = mk(FnValue, v)
	}
	sortVars(outs) // declaration order, whatever the order of the writes
	for _, v := range outs {
		site.set(v, results[v])
	}
	if sh.spawns {
		site.spawn(mk(FnSpawns, nil))
	}
}

// loopSite is where an executor abstracts an in-block loop: the state the
// loop starts from and takes its effects.
type loopSite interface {
	// input is the value of v, a global or a local of the loop's owner.
	input(v *lang.Var) Ref
	// fn is the function to apply for f: f, or the one of its name the
	// executor already applies.
	fn(f *Fn) *Fn
	// require adds the loop's ok to what the state requires.
	require(ok Ref)
	// set gives v its value after the loop.
	set(v *lang.Var, t Ref)
	// spawn adds the loop's spawns.
	spawn(t Ref)
}

// loopShape is what abstracting an in-block loop makes of it (Def. 7),
// whichever executor abstracts it: the functions' names, inputs and
// outputs depend on the loop's code alone, never on the values it starts
// from, so [LoopFns] lists them from the program.
type loopShape struct {
	loop   *lang.Loop
	base   string      // loop:OWNER:LINE:COL
	owner  string      // the proc or func whose body holds the loop
	locals []*lang.Var // the owner's locals, by slot
	line   int
	col    int
	// ins: everything the loop reads or writes (a variable written on
	// some rounds only, or an array written element by element, keeps part
	// of its old value): the globals in declaration order, then the locals
	// its body does not declare, by slot.
	ins []*lang.Var
	// outs: the variables it writes, but the locals its body declares
	// (they die with the loop), in lang.Program.Access order.
	outs   []*lang.Var
	spawns bool
}

// shapeOf is the shape of in-block loop n, a node of nodes, the code of
// the proc or func owner (with its locals).
func shapeOf(prog *lang.Program, owner string, ownerLocals []*lang.Var, nodes []*lang.Node, n *lang.Node) *loopShape {
	l := n.Loop
	body := []*lang.Node{n}
	for _, id := range l.Body {
		body = append(body, nodes[id])
	}
	reads, writes, eff := prog.Access(body)
	declared := map[*lang.Var]bool{}
	for _, b := range body[1:] {
		if b.Kind == lang.NodeAssign && b.Target.Index == nil && b.Target.Var.Kind == lang.Local && b.Decl {
			declared[b.Target.Var] = true
		}
	}
	accessed := map[*lang.Var]bool{}
	for _, v := range append(append([]*lang.Var(nil), reads...), writes...) {
		accessed[v] = true
	}
	sh := &loopShape{loop: l, base: fmt.Sprintf("loop:%s:%d:%d", owner, n.Pos.Line, n.Pos.Col), owner: owner, locals: ownerLocals,
		line: n.Pos.Line, col: n.Pos.Col, spawns: eff.Spawns}
	for _, v := range prog.Globals {
		if accessed[v] {
			sh.ins = append(sh.ins, v)
		}
	}
	var locals []*lang.Var
	for v := range accessed {
		if v.Kind == lang.Local && !declared[v] {
			locals = append(locals, v)
		}
	}
	sort.Slice(locals, func(i, j int) bool { return locals[i].Index < locals[j].Index })
	sh.ins = append(sh.ins, locals...)
	for _, v := range writes {
		if !declared[v] {
			sh.outs = append(sh.outs, v)
		}
	}
	return sh
}

// fn is the function of the loop of the given kind (out: the variable of
// a value function), for a block of proc.
func (sh *loopShape) fn(kind FnKind, out *lang.Var, proc *lang.Proc) *Fn {
	f := &Fn{Kind: kind, Proc: proc, Owner: sh.owner, Locals: sh.locals, Line: sh.line, Col: sh.col, Loop: sh.loop, Out: out, Ins: sh.ins}
	switch kind {
	case FnOK:
		f.Name, f.Sort = sh.base+"?ok", SortBool
	case FnSpawns:
		f.Name, f.Sort = sh.base+"?spawns", SortInt
	default:
		f.Name, f.Sort = sh.base+"."+varName(sh.locals, out), SortOf(out.Type)
	}
	return f
}

// abstracted says what was abstracted, for a system's list.
func (sh *loopShape) abstracted() string {
	names := make([]string, len(sh.ins))
	for i, v := range sh.ins {
		names[i] = varName(sh.locals, v)
	}
	return fmt.Sprintf("loop at %s (line %d, column %d) as uninterpreted functions of {%s}", sh.owner, sh.line, sh.col, strings.Join(names, ", "))
}

// LoopFns returns the functions that abstracting each in-block loop of
// the program's procs and funcs makes (its ok, a value function per
// variable it writes, and its spawns when it spawns), sorted by name: the
// functions an IC file of the program may declare. A loop that symbolic
// execution runs round by round (tripCount) is listed too; a func's loop
// has no Proc (it belongs to every proc that calls the func).
func LoopFns(p *lang.Program) []*Fn {
	var out []*Fn
	add := func(owner string, locals []*lang.Var, nodes []*lang.Node, proc *lang.Proc) {
		for _, n := range nodes {
			if n.Loop == nil || n.Loop.Points {
				continue
			}
			sh := shapeOf(p, owner, locals, nodes, n)
			out = append(out, sh.fn(FnOK, nil, proc))
			for _, v := range sh.outs {
				out = append(out, sh.fn(FnValue, v, proc))
			}
			if sh.spawns {
				out = append(out, sh.fn(FnSpawns, nil, proc))
			}
		}
	}
	for _, pr := range p.Procs {
		add(pr.Name, pr.Locals, pr.Nodes, pr)
	}
	for _, fu := range p.Funcs {
		add(fu.Name, fu.Locals, fu.Nodes, nil)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// MaxUnroll bounds the rounds of an in-block loop that symbolic execution
// runs, as the interpreter does, instead of abstracting the loop: a counted
// loop (see tripCount) that goes round at most this many times from where
// it is entered is unrolled, and its pairs can be exact.
const MaxUnroll = 4

// MaxUnrollSize bounds the code an unrolled loop becomes: its rounds times
// its body's size, funcs inlined (lang.Program.Inlined). Each round's
// values are built on the last's: a body of 10 nodes that branches on
// globals and writes an array at computed indices, unrolled 3 times, made
// the formula of a pair 1.2 MB of text, which Z3 took minutes to read.
const MaxUnrollSize = 24

// tripCount returns how many rounds in-block loop n makes when entered with
// the locals whose values val knows, for a counted loop: its condition
// compares a local v with an expression e of constants and locals the body
// does not write (v op e or e op v, op one of < <= > >= !=), and its body
// changes v once per round, as its last statement, by a constant (v = v + c,
// v = v - c, v = c + v), which nothing else in the body writes. ok is false
// for any other loop; where v or e is not known; where the loop would go
// round more than MaxUnroll times (or overflow v), or its rounds times its
// body's size pass MaxUnrollSize; and where its body holds a loop or calls
// a func that does: an in-block loop's run has a step budget of its own,
// which the loops in it share (docs/language.md), and an inner loop's ok,
// abstracted, would judge its run on a budget of its own. A counted loop's
// few rounds with no loop in them cannot run out of it. Rounds that end the
// block by a return are not rounds: a loop with fewer rounds than counted
// still unrolls to the same code.
func tripCount(p *lang.Program, nodes []*lang.Node, n *lang.Node, val func(*lang.Var) (int64, bool)) (int, bool) {
	l := n.Loop
	c, ok := n.Cond.(*lang.BinaryExpr)
	if l == nil || l.Points || len(l.Body) == 0 || !ok {
		return 0, false
	}
	op, ve, be := c.Op, c.X, c.Y
	v := countedVar(ve)
	if v == nil {
		op, ve, be = mirror(op), c.Y, c.X
		if v = countedVar(ve); v == nil {
			return 0, false
		}
	}
	switch op {
	case lang.OpLt, lang.OpLe, lang.OpGt, lang.OpGe, lang.OpNe:
	default:
		return 0, false
	}
	// The body: every round passes through its last node, which steps v.
	last := nodes[l.Body[len(l.Body)-1]]
	step, ok := stepOf(last, v)
	if !ok || last.Next != n.ID {
		return 0, false
	}
	written := map[*lang.Var]bool{}
	for _, id := range l.Body {
		b := nodes[id]
		if b != last && (b.Next == n.ID || b.Kind == lang.NodeBranch && b.Else == n.ID) {
			return 0, false
		}
		if b.Kind == lang.NodeAssign && b.Target.Var.Kind == lang.Local {
			written[b.Target.Var] = true
			if b != last && b.Target.Var == v {
				return 0, false
			}
		}
	}
	cur, ok := val(v)
	if !ok {
		return 0, false
	}
	body := make([]*lang.Node, len(l.Body))
	for i, id := range l.Body {
		body[i] = nodes[id]
	}
	size, loops := p.Inlined(body)
	if loops {
		return 0, false
	}
	bound, ok := constValue(be, val, written)
	if !ok {
		return 0, false
	}
	rounds := 0
	for holds(op, cur, bound) {
		if rounds++; rounds > MaxUnroll || rounds*size > MaxUnrollSize {
			return 0, false
		}
		if cur, ok = fold(lang.OpAdd, cur, step); !ok {
			return 0, false
		}
	}
	return rounds, true
}

// countedVar is the int local that e reads, when e is one alone.
func countedVar(e lang.Expr) *lang.Var {
	r, ok := e.(*lang.VarRef)
	if !ok || r.Var.Kind != lang.Local || r.Var.Type != lang.Int {
		return nil
	}
	return r.Var
}

// mirror is the comparison op with its operands swapped.
func mirror(op lang.Op) lang.Op {
	switch op {
	case lang.OpLt:
		return lang.OpGt
	case lang.OpLe:
		return lang.OpGe
	case lang.OpGt:
		return lang.OpLt
	case lang.OpGe:
		return lang.OpLe
	}
	return op
}

// stepOf is the constant that node n adds to local v, when n is v = v + c,
// v = v - c or v = c + v.
func stepOf(n *lang.Node, v *lang.Var) (int64, bool) {
	if n.Kind != lang.NodeAssign || n.Target.Var != v || n.Target.Index != nil || n.Decl {
		return 0, false
	}
	b, ok := n.Value.(*lang.BinaryExpr)
	if !ok || b.Op != lang.OpAdd && b.Op != lang.OpSub {
		return 0, false
	}
	x, y := b.X, b.Y
	if b.Op == lang.OpAdd && countedVar(x) != v {
		x, y = y, x
	}
	lit, ok := y.(*lang.IntLit)
	if !ok || countedVar(x) != v {
		return 0, false
	}
	if b.Op == lang.OpSub {
		return fold(lang.OpSub, 0, lit.Val)
	}
	return lit.Val, true
}

// constValue evaluates e, an expression of integer literals and of locals
// that val knows and the loop does not write, with + - * and unary minus.
func constValue(e lang.Expr, val func(*lang.Var) (int64, bool), written map[*lang.Var]bool) (int64, bool) {
	switch e := e.(type) {
	case *lang.IntLit:
		return e.Val, true
	case *lang.VarRef:
		if countedVar(e) == nil || written[e.Var] {
			return 0, false
		}
		return val(e.Var)
	case *lang.UnaryExpr:
		if e.Op != lang.OpNeg {
			return 0, false
		}
		x, ok := constValue(e.X, val, written)
		if !ok {
			return 0, false
		}
		return fold(lang.OpSub, 0, x)
	case *lang.BinaryExpr:
		if e.Op != lang.OpAdd && e.Op != lang.OpSub && e.Op != lang.OpMul {
			return 0, false
		}
		x, ok := constValue(e.X, val, written)
		if !ok {
			return 0, false
		}
		y, ok := constValue(e.Y, val, written)
		if !ok {
			return 0, false
		}
		return fold(e.Op, x, y)
	}
	return 0, false
}

// holds is the comparison op of two integers.
func holds(op lang.Op, x, y int64) bool {
	b, _ := fold(op, x, y)
	return b == 1
}

package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/icgen/icgen/lang"
)

// This file proves, where it can, that no run of the program raises an
// integer overflow: then every overflow guard of the IC file holds in every
// state a constraint is used in (both orders of a pair from a reachable
// state are runs of the program), and the uniformity check U⇒ need ask
// nothing of the guards' globals, which is what --assume-no-overflow
// assumes without proof (see icIndex.uniformGuard). On the CDPOR
// benchmarks, whose counters many processes update, the proof gives back
// the papers' reductions soundly.
//
// The proof is an abstract run of every process the program can have, on
// intervals, in two parts.
//
//   - Counters. A global is a counter when every read of it, anywhere in
//     the program (blocks, funcs, await guards, asserts, invariants), is
//     the operand of an update l = l + e, l = e + l or l = l - e of a
//     process's block (an array: l[i] = l[j] + e, cells anywhere), every
//     write of it after init is such an update, and e reads no counter. Its
//     value then decides nothing but its own value: no branch, index,
//     spawn or other global depends on it. Each update moves it by e, so
//     its values lie within its initial ones widened by the most all the
//     updates of one run can add (and take away): the sum, over the
//     processes of the run, of what the updates along each one's path add,
//     counted over the processes each path spawns. This needs a bounded
//     count: a process whose path can come back to where it was (same
//     node, same locals) having added something on the way fails the proof
//     (a path that comes back having added nothing, as a wait on a global,
//     adds nothing more by going round again, and the walk stops it there),
//     and so does a spawn chain that comes back to a process it started
//     from.
//   - Everything else. Each other global gets an interval that holds in
//     every reachable state: from the state after init (run concretely),
//     every process the program can have runs abstractly, its locals known
//     where they are, reading the globals' intervals, and what it may write
//     widens them, round after round. Where one run makes at most n writes
//     of these globals (counted as the counters' updates are), n rounds
//     bound every value they can take, settled or not (see writeBound);
//     otherwise the rounds go on until the intervals settle (a fixpoint:
//     an invariant of every run, whatever its length). Where they do not
//     settle within maxOverflowRounds rounds, the proof fails.
//
// A last run, with the counters' bounds, checks every operation of every
// path: +, -, * and unary minus on intervals that fit in int64, and no
// MinInt64 / -1. Any operation that may overflow fails the proof; so does
// a program past the bounds below. A failed proof changes nothing: the
// guards count, as before.
//
// Every run walks every expression of every node it passes (exprs, over
// lang.Node.Exprs: values, indices on either side of an assignment,
// conditions, asserts, await guards, spawn and call arguments, return
// values), and into every func they call, so a func called anywhere
// counts, with its writes and with its operations
// (testdata/regress/ovf-func-spawn-arg.blk: the writes of a func called
// from a spawn's arguments). Init runs concretely. What the proof does not
// model fails it: an invariant that calls a func, a node or an expression
// of a kind it does not know.

const (
	maxOverflowRounds = 64      // fixpoint rounds before giving up
	maxBoundRounds    = 256     // rounds a bound on a run's writes may ask for
	maxOverflowForks  = 1 << 16 // undecided branches on one path (a Go stack of some 40 MB)
	maxOverflowSteps  = 1 << 22 // abstract nodes in all, per round
	maxBoundSteps     = 1 << 16 // abstract nodes in all, to bound the writes
	maxOverflowDescs  = 1 << 14 // distinct process descriptors, per round
	maxOverflowStore  = 1 << 16 // global locations
)

// overflowProof is the result of Machine.OverflowFree, computed once.
type overflowProof struct {
	once sync.Once
	ok   bool
	why  string
}

// OverflowFree reports whether no run of the program can raise an integer
// overflow (see above), and, when it cannot tell, why. Computed once per
// machine.
func (m *Machine) OverflowFree() (bool, string) {
	p := &m.overflow
	p.once.Do(func() {
		a := &ofa{m: m}
		p.ok = a.prove()
		p.why = a.why
	})
	return p.ok, p.why
}

// ofa is one overflow proof.
type ofa struct {
	m   *Machine
	why string // why the proof failed

	counter  []int               // by global index: its counter number, or -1
	counters int                 // how many
	sites    map[*lang.Node]site // the counters' updates

	env   []ival // by store location
	next  []ival // what this round may write, joined into env
	check bool   // the last run: flag every operation that may overflow
	steps int
	forks int // undecided branches on the current path

	// writes: the walks with a cost count the writes of the globals that
	// are not counters, with those of the funcs they call, and not the
	// counters' updates (see writeBound). callWrites is what the funcs
	// called so far by the innermost exprs under way write at most (see
	// call): exprs adds it to the path's cost.
	writes     bool
	callWrites int64

	descs map[string]*desc // this round's
	queue []*desc

	bodyExprs map[*lang.Node][][]lang.Expr // by a body's first node (see exprsOf)
}

// site is an update of a counter: l = l + e (sign 1) or l = l - e (-1),
// e being the left (operand 0) or the right (1) operand of the value.
type site struct {
	counter int
	sign    int
	operand int
}

// desc is a process the program can have: a proc started at a node with
// locals (intervals).
type desc struct {
	proc   *lang.Proc
	node   int
	locals []ival
	// cost: for each counter, what the paths of the process and of those
	// it spawns can add (2c) and take away (2c+1) at most, and last the
	// most writes of the other globals they make (see writeBound);
	// computed once (state: 1 under way, 2 done).
	cost  []int64
	state int
}

// fail keeps the first reason the proof failed for, and reports false.
func (a *ofa) fail(format string, args ...any) bool {
	if a.why == "" {
		a.why = fmt.Sprintf(format, args...)
	}
	return false
}

func (a *ofa) prove() bool {
	m := a.m
	if m.nstore > maxOverflowStore {
		return a.fail("the globals take %d locations (at most %d are analysed)", m.nstore, maxOverflowStore)
	}
	s, err := m.Initial()
	if err != nil {
		return a.fail("init raises a runtime error")
	}
	for _, inv := range m.Prog.Invariants {
		calls := false
		lang.Inspect(inv.Cond, func(e lang.Expr) {
			_, isCall := e.(*lang.CallExpr)
			calls = calls || isCall
		})
		if calls {
			// The interpreter evaluates an invariant after events, outside
			// the walks: what a call there writes is not followed.
			return a.fail("the invariant at %s calls a func", inv.Pos)
		}
	}
	if !a.findCounters() {
		return false
	}
	a.env = make([]ival, m.nstore)
	for l, v := range s.Values(0, m.nstore) {
		a.env[l] = pointIval(v)
	}
	counterInit := make([]ival, a.counters) // by counter number
	for _, g := range m.Prog.Globals {
		c := a.counter[g.Index]
		if c < 0 {
			continue
		}
		off, n := m.offset[g.Index], m.size[g.Index]
		counterInit[c] = a.env[off]
		for l := off; l < off+n; l++ {
			counterInit[c] = counterInit[c].join(a.env[l])
			a.env[l] = fullRange // decides nothing: see above
		}
	}
	// The other globals: rounds until what the processes may write adds
	// nothing, or, where a run makes at most so many writes, that many
	// rounds (see writeBound).
	bound := a.writeBound(s)
	for round := 0; ; round++ {
		if round == bound {
			break
		}
		if round == maxOverflowRounds && bound < 0 {
			return a.fail("the globals' values did not settle within %d rounds", maxOverflowRounds)
		}
		a.next = slices.Clone(a.env)
		if !a.runAll(s) {
			return false
		}
		if slices.Equal(a.next, a.env) {
			break
		}
		a.env = a.next
	}
	// The counters: their bounds from the most one run's updates can add.
	total, ok := a.costs(s)
	if !ok {
		return a.fail("the counters' updates may add up past int64")
	}
	for _, g := range m.Prog.Globals {
		c := a.counter[g.Index]
		if c < 0 {
			continue
		}
		init := counterInit[c]
		lo, ok1 := lang.Sub(init.lo, total[2*c+1])
		hi, ok2 := lang.Add(init.hi, total[2*c])
		if !ok1 || !ok2 {
			return a.fail("the updates of %s may take it past int64", g.Name)
		}
		off, n := m.offset[g.Index], m.size[g.Index]
		for l := off; l < off+n; l++ {
			a.env[l] = ival{lo, hi}
		}
	}
	// The last run checks every operation, and the invariants, which are
	// evaluated after events (an overflow there is a violation).
	a.check = true
	a.next = slices.Clone(a.env)
	if !a.runAll(s) {
		return false
	}
	for _, inv := range m.Prog.Invariants {
		if _, ok := a.eval(inv.Cond, nil); !ok {
			return false
		}
	}
	return true
}

// slots is the length of a cost: two per counter, and the writes.
func (a *ofa) slots() int { return 2*a.counters + 1 }

// writeBound returns the most writes of globals other than the counters
// that one run can make, or -1 when it cannot tell (maxBoundRounds at
// most). Where it is n, n rounds bound every value those globals can
// take, settled or not: by induction on a run, after its m-th such write
// every one of them holds a value of the intervals after round m, since
// every value the write computes comes from reads of values written
// before it (or by init), which round m read, and from locals computed
// from such reads. (A write that a process reads back in the same event
// was written before the read: the count is of writes, not of events.)
// The count is the cost walk's, each process's paths with the processes
// they spawn, over globals that may hold any value: a path that can come
// back to where it was, or a spawn chain back to its start, leaves it
// unknown, and so does a walk of more than maxBoundSteps nodes (the
// globals' values, where they settle, often decide what the walk forks
// on: on MS(220) it took 1.4 s to bound what settles in 14 ms). The
// counters need no rounds: their values decide nothing.
func (a *ofa) writeBound(s *State) int {
	env, next, descs := a.env, a.next, a.descs
	defer func() {
		a.env, a.next, a.descs, a.queue, a.why, a.steps, a.forks = env, next, descs, nil, "", 0, 0
		a.writes = false
	}()
	a.env = slices.Clone(env)
	for l := range a.env {
		a.env[l] = fullRange
	}
	a.writes = true
	total, ok := a.costs(s)
	if n := total[len(total)-1]; ok && n <= maxBoundRounds {
		return int(n)
	}
	return -1
}

// costs returns the costs of the processes of s (see costOf), summed;
// false when one fails. The walks' writes to a.next are not used.
func (a *ofa) costs(s *State) ([]int64, bool) {
	a.descs, a.steps = map[string]*desc{}, 0
	a.next = slices.Clone(a.env)
	total := make([]int64, a.slots())
	for _, p := range s.Procs {
		d := a.desc(p.Proc, p.Point.Node, intervals(p.Locals))
		if !a.costOf(d) || !addCosts(total, d.cost) {
			return total, false
		}
	}
	return total, true
}

// addCosts adds b into a, false on overflow.
func addCosts(a, b []int64) bool {
	for i := range a {
		s, ok := lang.Add(a[i], b[i])
		if !ok {
			return false
		}
		a[i] = s
	}
	return true
}

// runAll runs every process the program can have once, from the processes
// of the state after init and those they spawn (this round's descriptors).
func (a *ofa) runAll(s *State) bool {
	a.descs, a.queue, a.steps = map[string]*desc{}, nil, 0
	for _, p := range s.Procs {
		a.desc(p.Proc, p.Point.Node, intervals(p.Locals))
	}
	for len(a.queue) > 0 {
		d := a.queue[0]
		a.queue = a.queue[1:]
		if !a.walk(body{nodes: d.proc.Nodes, exprs: a.exprsOf(d.proc.Nodes), d: d}, d.node, slices.Clone(d.locals), nil, map[string]int{}) {
			return false
		}
	}
	return true
}

// desc returns the descriptor of proc started at node with locals, queued
// to run when new.
func (a *ofa) desc(proc *lang.Proc, node int, locals []ival) *desc {
	key := string(binary.LittleEndian.AppendUint64(nil, uint64(proc.Index))) + branchKey(node, locals, nil)
	if d, ok := a.descs[key]; ok {
		return d
	}
	d := &desc{proc: proc, node: node, locals: locals}
	a.descs[key] = d
	a.queue = append(a.queue, d)
	return d
}

// costOf computes d.cost: the paths of d are walked again, each adding the
// cost of what it spawns (see walk).
func (a *ofa) costOf(d *desc) bool {
	switch d.state {
	case 1:
		return a.fail("a process can spawn, through its children, one like itself (%s)", d.proc.Name)
	case 2:
		return true
	}
	d.state = 1
	d.cost = make([]int64, a.slots())
	if !a.walk(body{nodes: d.proc.Nodes, exprs: a.exprsOf(d.proc.Nodes), d: d}, d.node, slices.Clone(d.locals), make([]int64, len(d.cost)), map[string]int{}) {
		return false
	}
	d.state = 2
	return true
}

// body is what walk runs: a proc's nodes for its descriptor d, or a func's
// (d nil), whose returned values join into ret and, with a cost, whose
// paths' most costs go into most.
type body struct {
	nodes []*lang.Node
	exprs [][]lang.Expr // by node (see exprsOf)
	d     *desc
	ret   *ival
	most  []int64
}

func (b body) name() string {
	if b.d == nil {
		return "a func"
	}
	return b.d.proc.Name
}

// walk runs b abstractly from node with locals along every path, forking
// where a branch is not decided. With acc (the cost so far on this path),
// it counts the counters' updates, the writes of the other globals (with
// those of the funcs called: see call) and the costs of the processes
// spawned, and keeps the most of each at the path's ends in d.cost (a
// func's: b.most). seen marks the branch states of the walk: 1 on the
// current path, by node and locals and by node, locals and cost (see
// cycle), 2 done, by node, locals and cost (the same state again has the
// same future).
func (a *ofa) walk(b body, node int, locals []ival, acc []int64, seen map[string]int) bool {
	var buf [4]ival // the values of a node's expressions (see exprs)
	for node != lang.End {
		if a.steps++; a.steps > maxOverflowSteps || a.writes && a.steps > maxBoundSteps {
			return a.fail("the processes take more than %d steps to analyse", a.steps-1)
		}
		n := b.nodes[node]
		vals, ok := a.exprs(n, b.exprs[node], locals, acc, buf[:0])
		if !ok {
			return false
		}
		switch n.Kind {
		case lang.NodePoint, lang.NodeAssert, lang.NodeCall:
			// Their expressions are all they do.
		case lang.NodeAssign:
			if st, isSite := a.sites[n]; isSite {
				if !a.update(st, vals, acc) {
					return false
				}
				break
			}
			var index ival
			if n.Target.Index != nil {
				index = vals[1]
			}
			a.assign(n.Target, vals[0], index, locals)
			if a.writes && n.Target.Var.Kind != lang.Local && a.counter[n.Target.Var.Index] < 0 &&
				!a.addWrites(acc, 1) { // the write itself
				return false
			}
		case lang.NodeBranch:
			c := vals[0]
			if c.is(0) {
				node = n.Else
				continue
			}
			if !c.is(1) {
				loop, here := branchKey(node, locals, nil), branchKey(node, locals, acc)
				if again, ok := a.cycle(b, n, seen, loop, here); again || !ok {
					return ok
				}
				if a.forks++; a.forks > maxOverflowForks {
					return a.fail("a path of %s takes more than %d undecided branches (%s)", b.name(), maxOverflowForks, n.Pos)
				}
				seen[loop], seen[here] = 1, 1
				if !a.walk(b, n.Next, slices.Clone(locals), slices.Clone(acc), seen) ||
					!a.walk(b, n.Else, locals, acc, seen) {
					return false
				}
				a.forks--
				delete(seen, loop)
				seen[here] = 2
				return true
			}
			if n.Loop != nil && n.Loop.Points {
				// A loop decided by the locals that spans blocks: its
				// states come back only where it may never end. (One
				// inside a block that never ends is a runtime error,
				// when it runs out of steps; here it runs out of
				// maxOverflowSteps.)
				loop, here := branchKey(node, locals, nil), branchKey(node, locals, acc)
				if again, ok := a.cycle(b, n, seen, loop, here); again || !ok {
					return ok
				}
				seen[loop], seen[here] = 1, 1
				defer delete(seen, loop)
				defer delete(seen, here)
			}
		case lang.NodeSpawn:
			if !a.spawn(n, vals, acc) {
				return false
			}
		case lang.NodeReturn:
			if b.ret != nil && n.Value != nil {
				*b.ret = b.ret.join(vals[0])
			}
			node = lang.End
			continue
		default:
			return a.fail("the proof cannot analyse a node of kind %d (%s)", int(n.Kind), n.Pos)
		}
		node = n.Next
	}
	if acc != nil {
		most := b.most
		if b.d != nil {
			most = b.d.cost
		}
		for i, v := range acc {
			most[i] = max(most[i], v)
		}
	}
	return true
}

// cycle tells whether the walk of b is back at a branch state of its path
// (again): with the same cost (here, by node, locals and cost, on the path
// or done), the runs from it go on as those from its first visit do, which
// the walk explores, and this path adds nothing; with a greater one (loop,
// by node and locals alone), its cost may grow for ever, and the proof
// fails (ok false).
func (a *ofa) cycle(b body, n *lang.Node, seen map[string]int, loop, here string) (again, ok bool) {
	switch {
	case seen[here] != 0:
		return true, true
	case seen[loop] == 1:
		return true, a.fail("a loop of %s may not end (%s)", b.name(), n.Pos)
	}
	return false, true
}

// exprsOf returns the expressions of each of nodes, a body, by node:
// lang.Node.Exprs, collected once per proof.
func (a *ofa) exprsOf(nodes []*lang.Node) [][]lang.Expr {
	if len(nodes) == 0 {
		return nil
	}
	if es, ok := a.bodyExprs[nodes[0]]; ok {
		return es
	}
	es := make([][]lang.Expr, len(nodes))
	for i, n := range nodes {
		es[i] = slices.Collect(n.Exprs)
	}
	if a.bodyExprs == nil {
		a.bodyExprs = map[*lang.Node][][]lang.Expr{}
	}
	a.bodyExprs[nodes[0]] = es
	return es
}

// exprs evaluates es, every expression of n (lang.Node.Exprs, see
// exprsOf), in order, and appends their values to vals. This is the one place the walk evaluates
// a node's expressions: a func called from any of them (a spawn's
// argument, an index, a guard, a condition, a return value...) has its
// operations checked and its writes joined like any other, and what its
// costliest path writes (see call) is added to the cost acc here, before
// the node does anything else (a spawn walks its child for its cost). A
// counter's update l = l ± e evaluates its two operands, not their sum:
// the counter's bounds cover it (see update).
func (a *ofa) exprs(n *lang.Node, es []lang.Expr, locals []ival, acc []int64, vals []ival) ([]ival, bool) {
	outer := a.callWrites // an enclosing exprs's, when n is a called func's
	a.callWrites = 0
	isSite := false
	if n.Kind == lang.NodeAssign {
		_, isSite = a.sites[n]
	}
	ok := true
	for _, e := range es {
		if isSite && e == n.Value {
			b := e.(*lang.BinaryExpr) // l ± e (findCounters)
			var x, y ival
			if x, ok = a.eval(b.X, locals); ok {
				y, ok = a.eval(b.Y, locals)
			}
			vals = append(vals, x, y)
		} else {
			var v ival
			v, ok = a.eval(e, locals)
			vals = append(vals, v)
		}
		if !ok {
			break
		}
	}
	w := a.callWrites
	a.callWrites = outer
	if !ok {
		return nil, false
	}
	if w != 0 && !a.addWrites(acc, w) {
		return nil, false
	}
	return vals, true
}

// addWrites adds w writes to the cost acc, when there is one.
func (a *ofa) addWrites(acc []int64, w int64) bool {
	if acc == nil || w == 0 {
		return true
	}
	sum, ok := lang.Add(acc[len(acc)-1], w)
	if !ok {
		return a.fail("a run may make more writes than int64 counts")
	}
	acc[len(acc)-1] = sum
	return true
}

// spawn runs a spawn node, given its arguments' values: the child's
// descriptor, queued when new, and with acc its cost added.
func (a *ofa) spawn(n *lang.Node, args []ival, acc []int64) bool {
	pr := n.Proc
	cl := startLocals(pr.Locals, pr.Params, args)
	if len(a.descs) > maxOverflowDescs {
		return a.fail("the program has more than %d kinds of process to analyse", maxOverflowDescs)
	}
	child := a.desc(pr, pr.Points[0].Node, cl)
	if acc != nil && (!a.costOf(child) || !addCosts(acc, child.cost)) {
		return a.fail("the counters' updates may add up past int64")
	}
	return true
}

// update runs a counter's update st, given the values exprs gave its
// operands (and its target's index), which it checked: with acc, what the
// update may add and take away is counted. The addition itself is not
// checked: its result is a value the counter takes, within the bounds
// prove computes from these counts, which fit in int64, so it does not
// overflow. Nothing joins this round's writes: the counter's bounds come
// from its updates (see prove).
func (a *ofa) update(st site, vals []ival, acc []int64) bool {
	e := vals[st.operand]
	if acc != nil && !a.writes {
		up, down := max(0, e.hi), max(0, -e.lo)
		if e.lo == math.MinInt64 {
			down = math.MaxInt64
		}
		if st.sign < 0 {
			up, down = down, up
		}
		var ok1, ok2 bool
		acc[2*st.counter], ok1 = lang.Add(acc[2*st.counter], up)
		acc[2*st.counter+1], ok2 = lang.Add(acc[2*st.counter+1], down)
		if !ok1 || !ok2 {
			return a.fail("the updates of a counter may add up past int64")
		}
	}
	return true
}

func branchKey(node int, locals []ival, acc []int64) string {
	b := make([]byte, 0, 8+16*len(locals)+8*len(acc))
	b = binary.LittleEndian.AppendUint64(b, uint64(node))
	for _, v := range locals {
		b = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(b, uint64(v.lo)), uint64(v.hi))
	}
	for _, v := range acc {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return string(b)
}

// assign writes v to t, at index i when t is an element: a local of the
// walk, or the global locations t may name (joined into this round's
// writes).
func (a *ofa) assign(t lang.LValue, v, i ival, locals []ival) {
	if t.Var.Kind == lang.Local {
		locals[t.Var.Index] = v
		return
	}
	off, n := a.m.offset[t.Var.Index], a.m.size[t.Var.Index]
	first, last := off, off
	if t.Index != nil {
		lo, hi := max(i.lo, 0), min(i.hi, int64(n-1))
		if lo > hi {
			return // out of bounds on every value: a runtime error
		}
		first, last = off+int(lo), off+int(hi)
	}
	if a.counter[t.Var.Index] >= 0 {
		return // bounded by its updates (see prove)
	}
	for l := first; l <= last; l++ {
		a.next[l] = a.next[l].join(v)
	}
}

// eval evaluates e on intervals; false when the proof fails (an operation
// that may overflow, in the last run).
func (a *ofa) eval(e lang.Expr, locals []ival) (ival, bool) {
	switch e := e.(type) {
	case *lang.IntLit:
		return pointIval(e.Val), true
	case *lang.BoolLit:
		if e.Val {
			return pointIval(1), true
		}
		return pointIval(0), true
	case *lang.ParamRef:
		return pointIval(a.m.Params[e.Param.Index]), true
	case *lang.VarRef:
		if e.Var.Kind == lang.Local {
			return locals[e.Var.Index], true
		}
		return a.env[a.m.offset[e.Var.Index]], true
	case *lang.IndexExpr:
		i, ok := a.eval(e.Index, locals)
		if !ok {
			return ival{}, false
		}
		off, n := a.m.offset[e.Array.Index], a.m.size[e.Array.Index]
		lo, hi := max(i.lo, 0), min(i.hi, int64(n-1))
		if lo > hi {
			return pointIval(0), true // out of bounds: a runtime error
		}
		v := a.env[off+int(lo)]
		for l := off + int(lo) + 1; l <= off+int(hi); l++ {
			v = v.join(a.env[l])
		}
		return v, true
	case *lang.UnaryExpr:
		x, ok := a.eval(e.X, locals)
		if !ok {
			return ival{}, false
		}
		if e.Op == lang.OpNot {
			return ival{1 - x.hi, 1 - x.lo}, true
		}
		if x.lo == math.MinInt64 {
			return a.overflow(e.At)
		}
		return ival{-x.hi, -x.lo}, true
	case *lang.BinaryExpr:
		return a.binary(e, locals)
	case *lang.CallExpr:
		return a.call(e, locals)
	}
	return ival{}, a.fail("unknown expression %T", e)
}

// overflow is the result of an operation that may overflow: the proof
// fails in the last run; before it, the value is unknown.
func (a *ofa) overflow(at lang.Pos) (ival, bool) {
	if a.check {
		return ival{}, a.fail("the operation at %s may overflow", at)
	}
	return fullRange, true
}

func (a *ofa) binary(e *lang.BinaryExpr, locals []ival) (ival, bool) {
	x, ok := a.eval(e.X, locals)
	if !ok {
		return ival{}, false
	}
	switch e.Op {
	case lang.OpAnd, lang.OpOr:
		stop := int64(0) // x decides &&'s value when it is false, ||'s when true
		if e.Op == lang.OpOr {
			stop = 1
		}
		if x.is(stop) {
			return x, true
		}
		y, ok := a.eval(e.Y, locals)
		if !ok {
			return ival{}, false
		}
		if x.is(1 - stop) {
			return y, true
		}
		return y.join(pointIval(stop)), true
	}
	y, ok := a.eval(e.Y, locals)
	if !ok {
		return ival{}, false
	}
	switch e.Op {
	case lang.OpAdd:
		lo, ok1 := lang.Add(x.lo, y.lo)
		hi, ok2 := lang.Add(x.hi, y.hi)
		if !ok1 || !ok2 {
			return a.overflow(e.At)
		}
		return ival{lo, hi}, true
	case lang.OpSub:
		lo, ok1 := lang.Sub(x.lo, y.hi)
		hi, ok2 := lang.Sub(x.hi, y.lo)
		if !ok1 || !ok2 {
			return a.overflow(e.At)
		}
		return ival{lo, hi}, true
	case lang.OpMul:
		r := ival{math.MaxInt64, math.MinInt64}
		for _, p := range [][2]int64{{x.lo, y.lo}, {x.lo, y.hi}, {x.hi, y.lo}, {x.hi, y.hi}} {
			v, ok := lang.Mul(p[0], p[1])
			if !ok {
				return a.overflow(e.At)
			}
			r = ival{min(r.lo, v), max(r.hi, v)}
		}
		return r, true
	case lang.OpDiv:
		if x.lo == math.MinInt64 && y.lo <= -1 && -1 <= y.hi {
			return a.overflow(e.At)
		}
		return divIval(x, y), true
	case lang.OpMod:
		return modIval(x, y), true
	}
	return compareIval(e.Op, x, y), true
}

// startLocals returns the locals of a new activation (a process spawned,
// a func called): zero, but the params, which take the values of the args.
func startLocals(vars, params []*lang.Var, args []ival) []ival {
	out := make([]ival, len(vars))
	for i := range out {
		out[i] = pointIval(0)
	}
	for i, v := range args {
		out[params[i].Index] = v
	}
	return out
}

// call runs a func abstractly: its value is the join of what its paths
// return; what it writes joins this round's writes, and with a cost what
// its costliest path writes is added to a.callWrites, for the exprs under
// way to count (the func's own walk saves and restores it). Funcs never
// spawn, yield or recurse (lang), so every path ends.
func (a *ofa) call(e *lang.CallExpr, locals []ival) (ival, bool) {
	f := e.Func
	fl := startLocals(f.Locals, nil, nil)
	for i, x := range e.Args {
		v, ok := a.eval(x, locals)
		if !ok {
			return ival{}, false
		}
		fl[f.Params[i].Index] = v
	}
	ret := ival{math.MaxInt64, math.MinInt64}
	var acc, most []int64 // the most writes of the func's paths
	if a.writes {
		acc, most = make([]int64, a.slots()), make([]int64, a.slots())
	}
	if !a.walk(body{nodes: f.Nodes, exprs: a.exprsOf(f.Nodes), ret: &ret, most: most}, entry(f.Nodes), fl, acc, map[string]int{}) {
		return ival{}, false
	}
	if most != nil {
		w, ok := lang.Add(a.callWrites, most[len(most)-1])
		if !ok {
			return ival{}, a.fail("a run may make more writes than int64 counts")
		}
		a.callWrites = w
	}
	if ret.lo > ret.hi {
		return pointIval(0), true
	}
	return ret, true
}

// findCounters sets a.counter, a.counters and a.sites (see the counters
// above); false when an expression is of a kind it does not know.
func (a *ofa) findCounters() bool {
	prog := a.m.Prog
	a.counter = make([]int, len(prog.Globals))
	cand := make([]bool, len(prog.Globals))
	for _, g := range prog.Globals {
		cand[g.Index] = g.Type != lang.Bool
	}
	isRead := func(e lang.Expr, g *lang.Var) bool {
		switch e := e.(type) {
		case *lang.VarRef:
			return e.Var == g
		case *lang.IndexExpr:
			return e.Array == g
		}
		return false
	}
	a.sites = map[*lang.Node]site{}
	type found struct {
		g       *lang.Var
		n       *lang.Node
		sign    int
		read    lang.Expr // the operand that reads l
		operand int       // e's: 0 left, 1 right
	}
	var sites []found
	for _, pr := range prog.Procs {
		for _, n := range pr.Nodes {
			if n.Kind != lang.NodeAssign || n.Target.Var.Kind != lang.Global {
				continue
			}
			g := n.Target.Var
			b, ok := n.Value.(*lang.BinaryExpr)
			switch {
			case ok && b.Op == lang.OpAdd && isRead(b.X, g):
				sites = append(sites, found{g, n, 1, b.X, 1})
			case ok && b.Op == lang.OpAdd && isRead(b.Y, g):
				sites = append(sites, found{g, n, 1, b.Y, 0})
			case ok && b.Op == lang.OpSub && isRead(b.X, g):
				sites = append(sites, found{g, n, -1, b.X, 1})
			default:
				cand[g.Index] = false // written otherwise
			}
		}
	}
	siteRead := map[lang.Expr]bool{}
	for _, s := range sites {
		siteRead[s.read] = true
	}
	// Every other read of a global, and every write in a func, rules it
	// out: every expression of every node of the procs and funcs
	// (lang.Node.Exprs), and of the invariants. (Init runs before any
	// process: what it reads and writes is the initial state.)
	ok := true
	visit := func(e lang.Expr) {
		switch e := e.(type) {
		case *lang.VarRef:
			if e.Var.Kind == lang.Global && !siteRead[e] {
				cand[e.Var.Index] = false
			}
		case *lang.IndexExpr:
			if !siteRead[e] {
				cand[e.Array.Index] = false
			}
		case *lang.IntLit, *lang.BoolLit, *lang.ParamRef, *lang.UnaryExpr, *lang.BinaryExpr, *lang.CallExpr:
		default:
			ok = a.fail("unknown expression %T", e)
		}
	}
	nodes := func(ns []*lang.Node, inFunc bool) {
		for _, n := range ns {
			for e := range n.Exprs {
				lang.Inspect(e, visit)
			}
			if inFunc && n.Kind == lang.NodeAssign && n.Target.Var.Kind == lang.Global {
				cand[n.Target.Var.Index] = false
			}
		}
	}
	for _, pr := range prog.Procs {
		nodes(pr.Nodes, false)
	}
	for _, f := range prog.Funcs {
		nodes(f.Nodes, true)
	}
	for _, inv := range prog.Invariants {
		lang.Inspect(inv.Cond, visit)
	}
	// So an update's e reads no counter: every read but the operand the
	// update adds to rules its global out, reads in funcs too (e may call
	// one).
	c := 0
	for _, g := range prog.Globals {
		a.counter[g.Index] = -1
		if cand[g.Index] {
			a.counter[g.Index] = c
			c++
		}
	}
	a.counters = c
	for _, s := range sites {
		if cand[s.g.Index] {
			a.sites[s.n] = site{counter: a.counter[s.g.Index], sign: s.sign, operand: s.operand}
		}
	}
	return ok
}

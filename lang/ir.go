package lang

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// NodeKind is the kind of a CFG node.
type NodeKind int

// Node kinds. Every node but Branch has at most one successor, Next.
const (
	NodePoint  NodeKind = iota // an interleaving point: entry, yield or await
	NodeAssign                 // Target = Value
	NodeBranch                 // if Cond goto Next else goto Else
	NodeAssert                 // record a violation unless Cond
	NodeSpawn                  // spawn Proc(Args)
	NodeCall                   // call Call for its effects
	NodeReturn                 // end of the func (with Value) or process
)

var nodeKindText = [...]string{"point", "assign", "branch", "assert", "spawn", "call", "return"}

func (k NodeKind) String() string { return nodeKindText[k] }

// End is the successor of a node that finishes its proc, func or init.
const End = -1

// Node is one node of a lowered body. Only the fields of its Kind are set.
type Node struct {
	ID   int
	Kind NodeKind
	Pos  Pos
	Next int // successor, or End; for Branch the successor when Cond holds
	Else int // Branch only: successor when Cond does not hold

	Target LValue // Assign
	Decl   bool   // Assign from a local declaration
	Value  Expr   // Assign; Return (nil when no value)
	Cond   Expr   // Branch, Assert
	Msg    string // Assert
	Proc   *Proc  // Spawn
	Args   []Expr // Spawn
	Call   *CallExpr
	Point  *Point // Point
	Loop   *Loop  // Branch nodes that head a while loop
}

// Loop describes a while loop in a lowered body: its header branch, the
// nodes of its body, and whether the body holds an interleaving point (then
// the loop is not inside one block but spans several).
type Loop struct {
	Header int
	Body   []int
	Exit   int
	Points bool
}

// PointKind is the kind of an interleaving point.
type PointKind int

// Point kinds.
const (
	Entry PointKind = iota
	Yield
	Await
)

func (k PointKind) String() string { return [...]string{"entry", "yield", "await"}[k] }

// Point is an interleaving point of a proc. The block starting at an Await
// point is enabled only where Guard holds.
type Point struct {
	Index int // position in Proc.Points
	Kind  PointKind
	Node  int
	Pos   Pos
	Label string
	Guard Expr
	Live  []*Var // locals live at the point (their values matter afterwards)
	Block *Block
}

// Block is an atomic block: the code a process runs from an interleaving
// point to the next point or to its end.
type Block struct {
	ID    string
	Index int // position in Program.Blocks
	Proc  *Proc
	Point *Point
	Nodes []int // the nodes of the region, ascending (the start point included)

	Reads  []*Var // syntactic: globals (declaration order), then locals (slot order)
	Writes []*Var
	Next   []*Block // blocks of the same process that may follow
	MayEnd bool     // the process may finish in this block
	Spawns []*Proc  // procs this block may spawn
	Calls  []*Func  // funcs this block may call, transitively
	Loops  []*Loop  // while loops entirely inside the block
	// MustWrite are the scalar globals the block assigns on every path
	// from its point to its end (the next point or the process's end), in
	// declaration order: a run of the block that raises no runtime error
	// has written each of them. Writes inside called funcs are not
	// counted (fewer, never wrong).
	MustWrite []*Var
	// Cells are the global arrays the block touches only at indices fixed
	// when it starts (see CellAccess), in declaration order.
	Cells []CellAccess
}

func (b *Block) String() string { return b.ID }

// lower builds the CFGs of every body, the blocks of every proc, the func
// summaries they use, and the program's block list.
func lower(p *Program) {
	for _, f := range p.Funcs {
		f.Nodes = lowerBody(f.Body, nil)
	}
	p.Init.Nodes = lowerBody(p.Init.Body, nil)
	sums := funcSummaries(p.Funcs)
	for _, pr := range p.Procs {
		entry := &Point{Kind: Entry, Pos: pr.Pos}
		pr.Nodes = lowerBody(pr.Body, entry)
		for _, n := range pr.Nodes {
			if n.Kind == NodePoint {
				n.Point.Index = len(pr.Points)
				pr.Points = append(pr.Points, n.Point)
			}
		}
		live := liveness(pr.Nodes, len(pr.Locals))
		for _, pt := range pr.Points {
			for _, slot := range live[pt.Node].members() {
				pt.Live = append(pt.Live, pr.Locals[slot])
			}
		}
		buildBlocks(p, pr, sums)
	}
	for _, pr := range p.Procs {
		for _, b := range pr.Blocks {
			b.Index = len(p.Blocks)
			p.Blocks = append(p.Blocks, b)
			invariantReads(p, b)
		}
	}
}

// invariantReads adds to a block's reads the globals of every invariant
// that reads a global the block may write: the invariant is checked at the
// end of such a block (package interp), so the check is part of it.
func invariantReads(p *Program, b *Block) {
	reads := varSet{}
	for _, v := range b.Reads {
		reads.add(v)
	}
	grew := false
	for _, inv := range p.Invariants {
		touched := false
		for _, w := range b.Writes {
			if w.Kind == Global && slices.Contains(inv.Reads, w) {
				touched = true
			}
		}
		if !touched {
			continue
		}
		for _, v := range inv.Reads {
			if !reads[v] {
				reads.add(v)
				grew = true
			}
		}
	}
	if grew {
		b.Reads = reads.sorted()
	}
}

type lowerer struct {
	nodes   []*Node
	pending []*int // successor fields waiting for the next node
}

func lowerBody(body []Stmt, entry *Point) []*Node {
	l := &lowerer{}
	if entry != nil {
		l.emit(&Node{Kind: NodePoint, Pos: entry.Pos, Point: entry})
	}
	l.stmts(body)
	l.patch(End)
	return l.nodes
}

func (l *lowerer) patch(to int) {
	for _, p := range l.pending {
		*p = to
	}
	l.pending = nil
}

func (l *lowerer) emit(n *Node) *Node {
	n.ID = len(l.nodes)
	n.Next, n.Else = End, End
	l.patch(n.ID)
	l.nodes = append(l.nodes, n)
	if n.Kind == NodePoint {
		n.Point.Node = n.ID
	}
	if n.Kind != NodeReturn {
		l.pending = []*int{&n.Next}
	}
	return n
}

func (l *lowerer) stmts(ss []Stmt) {
	for _, s := range ss {
		l.stmt(s)
	}
}

func (l *lowerer) stmt(s Stmt) {
	switch s := s.(type) {
	case *AssignStmt:
		l.emit(&Node{Kind: NodeAssign, Pos: s.At, Target: s.Target, Value: s.Value, Decl: s.Decl})
	case *IfStmt:
		br := l.emit(&Node{Kind: NodeBranch, Pos: s.At, Cond: s.Cond})
		l.stmts(s.Then)
		thenOut := l.pending
		l.pending = []*int{&br.Else}
		l.stmts(s.Else)
		l.pending = append(l.pending, thenOut...)
	case *WhileStmt:
		br := l.emit(&Node{Kind: NodeBranch, Pos: s.At, Cond: s.Cond})
		l.stmts(s.Body)
		l.patch(br.ID)
		loop := &Loop{Header: br.ID, Exit: End}
		for id := br.ID + 1; id < len(l.nodes); id++ {
			loop.Body = append(loop.Body, id)
			if l.nodes[id].Kind == NodePoint {
				loop.Points = true
			}
		}
		br.Loop = loop
		l.pending = []*int{&br.Else}
		// The exit is known once the next node is emitted (or End).
		l.pending = append(l.pending, &loop.Exit)
	case *SpawnStmt:
		l.emit(&Node{Kind: NodeSpawn, Pos: s.At, Proc: s.Proc, Args: s.Args})
	case *AssertStmt:
		l.emit(&Node{Kind: NodeAssert, Pos: s.At, Cond: s.Cond, Msg: s.Msg})
	case *YieldStmt:
		l.emit(&Node{Kind: NodePoint, Pos: s.At, Point: &Point{Kind: Yield, Pos: s.At, Label: s.Label}})
	case *AwaitStmt:
		l.emit(&Node{Kind: NodePoint, Pos: s.At, Point: &Point{Kind: Await, Pos: s.At, Label: s.Label, Guard: s.Cond}})
	case *ReturnStmt:
		l.emit(&Node{Kind: NodeReturn, Pos: s.At, Value: s.Value})
	case *CallStmt:
		l.emit(&Node{Kind: NodeCall, Pos: s.At, Call: s.Call})
	}
}

// Successors returns the successors of n (End excluded).
func (n *Node) Successors() []int {
	var out []int
	if n.Kind == NodeReturn {
		return nil
	}
	if n.Next != End {
		out = append(out, n.Next)
	}
	if n.Kind == NodeBranch && n.Else != End {
		out = append(out, n.Else)
	}
	return out
}

// mayEnd reports whether control may leave the body from n.
func (n *Node) mayEnd() bool {
	return n.Kind == NodeReturn || n.Next == End || n.Kind == NodeBranch && n.Else == End
}

// varSet is a small set of variables (globals and locals), kept sorted on output.
type varSet map[*Var]bool

func (s varSet) add(v *Var) { s[v] = true }

func (s varSet) sorted() []*Var {
	out := make([]*Var, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Index < out[j].Index
	})
	return out
}

// summary is what a func may do to globals, transitively.
type summary struct {
	reads, writes varSet
	calls         []*Func
}

func funcSummaries(funcs []*Func) map[*Func]*summary {
	sums := map[*Func]*summary{}
	var get func(f *Func) *summary
	get = func(f *Func) *summary {
		if s, ok := sums[f]; ok {
			return s
		}
		s := &summary{reads: varSet{}, writes: varSet{}}
		sums[f] = s // the checker rejected recursion, so this never recurses back
		rw := &rwCollector{reads: s.reads, writes: s.writes, sums: get}
		for _, n := range f.Nodes {
			rw.node(n)
		}
		for v := range s.reads {
			if v.Kind == Local {
				delete(s.reads, v)
			}
		}
		for v := range s.writes {
			if v.Kind == Local {
				delete(s.writes, v)
			}
		}
		s.calls = rw.calls
		return s
	}
	for _, f := range funcs {
		get(f)
	}
	return sums
}

// rwCollector gathers the syntactic reads and writes of nodes and
// expressions, including those of the funcs they call.
type rwCollector struct {
	reads, writes varSet
	calls         []*Func
	sums          func(*Func) *summary
}

func (c *rwCollector) expr(e Expr) {
	switch e := e.(type) {
	case *VarRef:
		c.reads.add(e.Var)
	case *IndexExpr:
		c.reads.add(e.Array)
		c.expr(e.Index)
	case *UnaryExpr:
		c.expr(e.X)
	case *BinaryExpr:
		c.expr(e.X)
		c.expr(e.Y)
	case *CallExpr:
		for _, a := range e.Args {
			c.expr(a)
		}
		c.call(e.Func)
	}
}

func (c *rwCollector) call(f *Func) {
	s := c.sums(f)
	for v := range s.reads {
		c.reads.add(v)
	}
	for v := range s.writes {
		c.writes.add(v)
	}
	c.calls = appendFunc(c.calls, f)
	for _, g := range s.calls {
		c.calls = appendFunc(c.calls, g)
	}
}

func (c *rwCollector) node(n *Node) {
	for e := range n.Exprs {
		c.expr(e)
	}
	if n.Kind == NodeAssign {
		c.writes.add(n.Target.Var)
	}
}

// buildBlocks makes one block per point: its region is every node reachable
// from the point without passing through another point.
func buildBlocks(prog *Program, pr *Proc, sums map[*Func]*summary) {
	ids := blockIDs(pr)
	for _, pt := range pr.Points {
		pt.Block = &Block{ID: ids[pt], Proc: pr, Point: pt}
		pr.Blocks = append(pr.Blocks, pt.Block)
	}
	for _, b := range pr.Blocks {
		in := map[int]bool{b.Point.Node: true}
		work := []int{b.Point.Node}
		next := map[*Block]bool{}
		spawns := map[*Proc]bool{}
		for len(work) > 0 {
			id := work[len(work)-1]
			work = work[:len(work)-1]
			n := pr.Nodes[id]
			if n.mayEnd() {
				b.MayEnd = true
			}
			if n.Kind == NodeSpawn {
				spawns[n.Proc] = true
			}
			for _, s := range n.Successors() {
				if pr.Nodes[s].Kind == NodePoint {
					next[pr.Nodes[s].Point.Block] = true
					continue
				}
				if !in[s] {
					in[s] = true
					work = append(work, s)
				}
			}
		}
		for id := range in {
			b.Nodes = append(b.Nodes, id)
		}
		// Visit the nodes in order: Calls lists funcs in first-call order,
		// which must not depend on map iteration.
		sort.Ints(b.Nodes)
		rw := &rwCollector{reads: varSet{}, writes: varSet{}, sums: func(f *Func) *summary { return sums[f] }}
		for _, id := range b.Nodes {
			rw.node(pr.Nodes[id])
			if l := pr.Nodes[id].Loop; l != nil && !l.Points {
				b.Loops = append(b.Loops, l)
			}
		}
		b.Reads, b.Writes, b.Calls = rw.reads.sorted(), rw.writes.sorted(), rw.calls
		b.MustWrite = mustWrite(pr.Nodes, b.Point.Node, in)
		arrayCells(prog, pr, b, sums)
		for _, nb := range pr.Blocks {
			if next[nb] {
				b.Next = append(b.Next, nb)
			}
		}
		for _, p := range prog.Procs {
			if spawns[p] {
				b.Spawns = append(b.Spawns, p)
			}
		}
	}
}

// mustWrite returns the scalar globals assigned on every path through the
// region in (a block's nodes) from its start node to a node control leaves
// it from: the end of the body, or an edge to an interleaving point. It is
// a forward "definitely assigned" analysis, sets meeting by intersection;
// nil stands for a node not reached yet (every variable).
func mustWrite(nodes []*Node, start int, in map[int]bool) []*Var {
	meet := func(a, b varSet) varSet {
		if a == nil {
			return maps.Clone(b)
		}
		out := varSet{}
		for v := range a {
			if b[v] {
				out.add(v)
			}
		}
		return out
	}
	entry := map[int]varSet{start: {}}
	var exit varSet
	for changed := true; changed; {
		changed = false
		exit = nil
		for _, id := range slices.Sorted(maps.Keys(in)) {
			cur, ok := entry[id]
			if !ok {
				continue // not reached yet
			}
			out := maps.Clone(cur)
			if n := nodes[id]; n.Kind == NodeAssign && n.Target.Index == nil && n.Target.Var.Kind == Global && n.Target.Var.Type != IntArray {
				out.add(n.Target.Var)
			}
			n := nodes[id]
			if n.mayEnd() {
				exit = meet(exit, out)
			}
			for _, s := range n.Successors() {
				if nodes[s].Kind == NodePoint {
					exit = meet(exit, out)
					continue
				}
				old, seen := entry[s]
				next := out
				if seen {
					next = meet(old, out)
				}
				if !seen || len(next) != len(old) {
					entry[s] = next
					changed = true
				}
			}
		}
	}
	return exit.sorted()
}

// blockIDs names blocks: the proc name for its entry, proc@label for labeled
// points, proc@line otherwise, and proc@line:col when a line holds several
// unlabeled points.
func blockIDs(pr *Proc) map[*Point]string {
	perLine := map[int]int{}
	for _, pt := range pr.Points {
		if pt.Kind != Entry && pt.Label == "" {
			perLine[pt.Pos.Line]++
		}
	}
	ids := map[*Point]string{}
	for _, pt := range pr.Points {
		switch {
		case pt.Kind == Entry:
			ids[pt] = pr.Name
		case pt.Label != "":
			ids[pt] = pr.Name + "@" + pt.Label
		case perLine[pt.Pos.Line] > 1:
			ids[pt] = fmt.Sprintf("%s@%d:%d", pr.Name, pt.Pos.Line, pt.Pos.Col)
		default:
			ids[pt] = fmt.Sprintf("%s@%d", pr.Name, pt.Pos.Line)
		}
	}
	return ids
}

// bits is a fixed-size bit set over local slots.
type bits []uint64

func newBits(n int) bits { return make(bits, (n+63)/64) }

func (b bits) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bits) clear(i int)    { b[i/64] &^= 1 << (i % 64) }
func (b bits) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

func (b bits) members() []int {
	var out []int
	for i := 0; i < len(b)*64; i++ {
		if b.has(i) {
			out = append(out, i)
		}
	}
	return out
}

// liveness computes, for each node, the local slots live on entry to it.
func liveness(nodes []*Node, nlocals int) []bits {
	use := make([]bits, len(nodes))
	def := make([]int, len(nodes))
	for i, n := range nodes {
		use[i] = newBits(nlocals)
		def[i] = -1
		rw := &rwCollector{reads: varSet{}, writes: varSet{}, sums: func(*Func) *summary { return &summary{} }}
		rw.node(n)
		for v := range rw.reads {
			if v.Kind == Local {
				use[i].set(v.Index)
			}
		}
		if n.Kind == NodeAssign && n.Target.Var.Kind == Local && n.Target.Index == nil {
			def[i] = n.Target.Var.Index
		}
	}
	live := make([]bits, len(nodes))
	for i := range live {
		live[i] = newBits(nlocals)
	}
	for changed := true; changed; {
		changed = false
		for i := len(nodes) - 1; i >= 0; i-- {
			out := newBits(nlocals)
			for _, s := range nodes[i].Successors() {
				for w := range out {
					out[w] |= live[s][w]
				}
			}
			if def[i] >= 0 {
				out.clear(def[i])
			}
			for w := range out {
				out[w] |= use[i][w]
				if out[w] != live[i][w] {
					live[i][w] = out[w]
					changed = true
				}
			}
		}
	}
	return live
}

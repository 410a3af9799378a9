package interp

import (
	"fmt"
	"math"
	"slices"

	"github.com/icgen/icgen/lang"
)

// Event is the execution of one block by one process.
type Event struct {
	Proc       int         // index in State.Procs
	Block      *lang.Block // the block that ran
	Reads      []Loc       // globals read, including the await guard; sorted
	Writes     []Loc       // globals written; sorted
	Spawned    []int       // indices in State.Procs of the processes created
	Violations []Violation // asserts that failed in this event
	Err        *RuntimeError
}

// frame is one activation: a process's locals (logged, pi >= 0) or the
// temporary locals of a func call or of init (pi < 0).
type frame struct {
	locals []int64
	pi     int
}

// Initial returns the state after init ran. A runtime error in init is
// returned with the (partial) state.
func (m *Machine) Initial() (*State, *RuntimeError) {
	s := &State{m: m, store: newStore(m.nstore)}
	s.curBlock = "init" // errors in global initializers belong to init too
	if err := s.initGlobals(); err != nil {
		return s, err
	}
	in := m.Prog.Init
	s.run(in.Nodes, entry(in.Nodes), &frame{locals: make([]int64, len(in.Locals)), pi: -1})
	if s.err == nil {
		s.checkInvariants(^uint64(0))
	}
	s.cur, s.curBlock = nil, ""
	s.logging = true
	s.log = s.log[:0]
	s.store.settle()
	return s, s.err
}

// initGlobals sets the globals to their initializers' values (or the
// values Machine.New was given). It stops at an initializer that raises a
// runtime error, which it returns: that global and the later ones keep 0.
// An array filled with one value shares one page of it (see store.fill).
func (s *State) initGlobals() *RuntimeError {
	m := s.m
	defer s.store.rehash()
	for _, g := range m.Prog.Globals {
		off, n := m.offset[g.Index], m.size[g.Index]
		if v, ok := m.overInit[g]; ok {
			s.store.set(off, v)
			continue
		}
		if len(g.Init) == 0 {
			continue
		}
		if !g.InitList { // one constant fills the array: evaluated once
			n = 1
		}
		for i := 0; i < n; i++ {
			v := s.eval(g.Init[i], nil)
			if s.err != nil {
				// The global keeps its zero value: a failed
				// initializer computes no value.
				return s.err
			}
			s.store.set(off+i, v)
		}
		if !g.InitList && m.size[g.Index] > 1 {
			s.store.fill(off, m.size[g.Index], s.store.get(off))
		}
	}
	return nil
}

// Enabled reports whether process i can run its next block: it has not
// finished and its await guard, if any, holds. A guard that raises a runtime
// error counts as enabled: running the block reports the error.
func (s *State) Enabled(i int) bool {
	p := s.Procs[i]
	if p.Done {
		return false
	}
	g := p.Point.Guard
	if g == nil {
		return true
	}
	// The guard runs outside any block: it must not use up (nor be cut by)
	// the step budget of the block that ran last.
	mark, track, steps := s.Mark(), s.track, s.steps
	s.track, s.steps = false, 0
	v := s.eval(g, &frame{locals: p.Locals, pi: i})
	s.track, s.steps = track, steps
	s.Undo(mark)
	if s.err != nil {
		s.err = nil
		return true
	}
	return v != 0
}

// InvariantsHold reports whether every invariant of the program holds in
// the current state (one that cannot be evaluated does not); the state is
// left unchanged and nothing is recorded. The IC file's constraints hold
// only where the invariants do (docs/ic-format.md): cdpor, codpor and
// codpor-ob apply none elsewhere.
func (s *State) InvariantsHold() bool {
	if len(s.m.Prog.Invariants) == 0 {
		return true
	}
	track, steps, err := s.track, s.steps, s.err
	s.track, s.steps, s.err = false, 0, nil
	defer func() { s.track, s.steps, s.err = track, steps, err }()
	for _, inv := range s.m.Prog.Invariants {
		if v := s.eval(inv.Cond, nil); s.err != nil || v == 0 {
			return false
		}
	}
	return true
}

// GuardReads returns the global locations the await guard of process i
// reads in the current state (nil when it has no guard). The state is left
// unchanged.
func (s *State) GuardReads(i int) []Loc {
	p := s.Procs[i]
	if p.Done || p.Point.Guard == nil {
		return nil
	}
	var ev Event
	mark := s.Mark()
	s.begin(p, &ev)
	s.eval(p.Point.Guard, &frame{locals: p.Locals, pi: i})
	s.end(&ev)
	s.Undo(mark)
	return slices.Clone(ev.Reads)
}

// EnabledProcs appends the indices of the enabled processes to buf, in
// creation order. It looks at every process; [Machine.Run] and the
// explorers keep the enabled processes up to date instead.
func (s *State) EnabledProcs(buf []int) []int {
	for i, p := range s.Procs {
		if !p.Done && (p.Point.Guard == nil || s.Enabled(i)) {
			buf = append(buf, i)
		}
	}
	return buf
}

// Blocked returns the live processes that are not enabled, in creation
// order. It looks at the processes standing at an await only.
func (s *State) Blocked() []int {
	var out []int
	if s.at == nil {
		return nil
	}
	for _, id := range s.m.guarded {
		for _, i := range s.at[id] {
			if !s.Enabled(int(i)) {
				out = append(out, int(i))
			}
		}
	}
	slices.Sort(out)
	return out
}

// Affected appends to buf the processes whose enabledness an event may have
// changed: proc, which ran it, the processes it spawned, and the live
// processes standing at an await whose block reads a global of writes (the
// locations the event wrote, sorted, or a superset). Every other process is
// enabled, or not, as it was before the event: its guard reads nothing that
// changed. buf may repeat a process.
func (s *State) Affected(proc int, spawned []int, writes []Loc, buf []int) []int {
	buf = append(buf, proc)
	buf = append(buf, spawned...)
	if len(writes) == 0 || len(s.m.guarded) == 0 || s.at == nil {
		return buf
	}
	if s.wvars == nil {
		s.wvars = make([]uint64, (len(s.m.Prog.Globals)+63)/64)
	}
	clear(s.wvars)
	s.m.MarkVars(writes, s.wvars)
	for _, id := range s.m.guarded {
		if len(s.at[id]) == 0 || !overlaps(s.wvars, s.m.guardVars[id]) {
			continue
		}
		for _, i := range s.at[id] {
			buf = append(buf, int(i))
		}
	}
	return buf
}

// Touching appends to buf the live processes standing at an await whose
// block may touch what an event that read reads and wrote writes (both
// sorted) touched: read a global of writes, or write a global of either.
// buf may repeat a process.
func (s *State) Touching(reads, writes []Loc, buf []int) []int {
	if len(reads)+len(writes) == 0 || len(s.m.guarded) == 0 || s.at == nil {
		return buf
	}
	n := (len(s.m.Prog.Globals) + 63) / 64
	if s.wvars == nil {
		s.wvars = make([]uint64, n)
	}
	if s.rvars == nil {
		s.rvars = make([]uint64, n)
	}
	clear(s.wvars)
	clear(s.rvars)
	s.m.MarkVars(writes, s.wvars)
	s.m.MarkVars(reads, s.rvars)
	for _, id := range s.m.guarded {
		if len(s.at[id]) == 0 {
			continue
		}
		w := s.m.guardWrites[id]
		if !overlaps(s.wvars, s.m.guardVars[id]) && !overlaps(s.wvars, w) && !overlaps(s.rvars, w) {
			continue
		}
		for _, i := range s.at[id] {
			buf = append(buf, int(i))
		}
	}
	return buf
}

// IndexEval evaluates the expressions of literals, params and locals that
// index arrays at fixed indices (lang.CellAccess), with no state. It is
// not safe for concurrent use; Machine.IndexEval makes one.
type IndexEval struct {
	s  State
	fr frame
}

// IndexEval returns an evaluator of fixed indices over m's params.
func (m *Machine) IndexEval() *IndexEval {
	return &IndexEval{s: State{m: m}, fr: frame{pi: -1}}
}

// Eval returns the value of e with the locals given (by lang.Var.Index);
// ok is false where it raises a runtime error.
func (ev *IndexEval) Eval(e lang.Expr, locals []int64) (_ int64, ok bool) {
	ev.fr.locals = locals
	v := ev.s.eval(e, &ev.fr)
	if ev.s.err != nil {
		ev.s.err = nil
		return 0, false
	}
	return v, true
}

// overlaps reports whether two bit sets share a bit.
func overlaps(a, b []uint64) bool {
	for i := range min(len(a), len(b)) {
		if a[i]&b[i] != 0 {
			return true
		}
	}
	return false
}

// AnyEnabled reports whether a process other than skip1 and skip2 is
// enabled at a block for which at holds. It looks at the points of the
// program, and evaluates the guards of the processes waiting at the awaits
// whose block at holds, not at every process.
func (s *State) AnyEnabled(at func(*lang.Block) bool, skip1, skip2 int) bool {
	for id, c := range s.count {
		if c == 0 {
			continue
		}
		pt := s.m.points[id]
		if !at(pt.Block) {
			continue
		}
		if pt.Guard == nil {
			n := int(c)
			if skip1 >= 0 && s.Procs[skip1].Point == pt {
				n--
			}
			if skip2 >= 0 && skip2 != skip1 && s.Procs[skip2].Point == pt {
				n--
			}
			if n > 0 {
				return true
			}
			continue
		}
		for _, i := range s.at[id] {
			if int(i) != skip1 && int(i) != skip2 && s.Enabled(int(i)) {
				return true
			}
		}
	}
	return false
}

// Step runs the next block of process i, which must be enabled, and returns
// the event. The event's slices are fresh; use StepInto to reuse them.
func (s *State) Step(i int) *Event {
	ev := &Event{}
	s.StepInto(i, ev)
	return ev
}

// StepInto is Step writing into ev, reusing its slices' storage.
func (s *State) StepInto(i int, ev *Event) {
	p := s.Procs[i]
	*ev = Event{Proc: i, Reads: ev.Reads[:0], Writes: ev.Writes[:0], Spawned: ev.Spawned[:0], Violations: ev.Violations[:0]}
	if p.Done {
		ev.Err = &RuntimeError{Pos: p.Proc.Pos, Msg: "process has finished", Proc: p.Name()}
		return
	}
	pt := p.Point
	ev.Block = pt.Block
	s.begin(p, ev)
	fr := &frame{locals: p.Locals, pi: i}
	if pt.Guard != nil && s.eval(pt.Guard, fr) == 0 && s.err == nil {
		s.fail(pt.Pos, "process is not enabled (await condition is false)")
	}
	if s.err == nil {
		stop, _ := s.run(p.Proc.Nodes, p.Proc.Nodes[pt.Node].Next, fr)
		if s.err == nil {
			s.setPoint(i, stop)
		}
	}
	if s.err == nil && len(s.m.Prog.Invariants) > 0 && len(s.writes) > 0 {
		slices.Sort(s.writes)
		if mask := s.m.invariantsReading(s.writes); mask != 0 {
			s.checkInvariants(mask)
		}
	}
	s.end(ev)
}

// checkInvariants evaluates the invariants whose bits are in mask (those
// reading a location the event wrote: the others keep their value) and
// records a violation, at the invariant, for each one that is false or
// cannot be evaluated. Their reads count as the event's reads, as an
// assert's would.
func (s *State) checkInvariants(mask uint64) {
	for _, inv := range s.m.Prog.Invariants {
		if mask&invBit(inv.Index) == 0 {
			continue
		}
		v := s.eval(inv.Cond, nil)
		switch {
		case s.err != nil:
			msg := lang.ExprString(inv.Cond) + ": " + s.err.Msg
			s.err = nil
			s.record(Violation{Pos: inv.Pos, Msg: msg, Invariant: true})
		case v == 0:
			s.record(Violation{Pos: inv.Pos, Msg: lang.ExprString(inv.Cond), Invariant: true})
		}
	}
}

func (s *State) begin(p *Process, ev *Event) {
	s.cur, s.curBlock = p, p.Point.Block.ID
	s.track = true
	if s.m.nstore <= denseStamps {
		if len(s.stamp) != 2*s.m.nstore { // a clone has none yet
			s.stamp = make([]uint32, 2*s.m.nstore)
			s.epoch = 0
		}
		s.epoch++
		if s.epoch == 0 { // wrapped: clear stamps
			clear(s.stamp)
			s.epoch = 1
		}
	}
	s.reads, s.writes = ev.Reads, ev.Writes
	s.spawned, s.violations = ev.Spawned, ev.Violations
	s.steps = 0
}

func (s *State) end(ev *Event) {
	slices.Sort(s.reads)
	slices.Sort(s.writes)
	if s.stamp == nil { // large store: repeats were kept
		s.reads, s.writes = slices.Compact(s.reads), slices.Compact(s.writes)
	}
	ev.Reads, ev.Writes, ev.Spawned, ev.Violations = s.reads, s.writes, s.spawned, s.violations
	ev.Err = s.err
	s.err = nil
	s.track = false
	s.cur, s.curBlock = nil, ""
}

func (s *State) fail(p lang.Pos, format string, args ...any) {
	s.failKind(p, ErrOther, format, args...)
}

func (s *State) failKind(p lang.Pos, kind ErrKind, format string, args ...any) {
	if s.err != nil {
		return
	}
	e := &RuntimeError{Pos: p, Kind: kind, Msg: fmt.Sprintf(format, args...), Block: s.curBlock}
	if s.cur != nil {
		e.Proc = s.cur.Name()
	} else {
		e.Proc = "init"
	}
	s.err = e
}

// denseStamps is the largest store whose locations get a read and a write
// stamp each (8 bytes per location) to drop repeated reads and writes as
// they happen; in larger stores an event's lists keep repeats (but for
// consecutive ones) until it ends, so the store alone takes memory in
// proportion to its size.
const denseStamps = 1 << 14

func (s *State) noteRead(l int) {
	if !s.track {
		return
	}
	if s.stamp == nil {
		if n := len(s.reads); n == 0 || s.reads[n-1] != Loc(l) {
			s.reads = append(s.reads, Loc(l))
		}
		return
	}
	if s.stamp[2*l] != s.epoch {
		s.stamp[2*l] = s.epoch
		s.reads = append(s.reads, Loc(l))
	}
}

func (s *State) noteWrite(l int) {
	if !s.track {
		return
	}
	if s.stamp == nil {
		if n := len(s.writes); n == 0 || s.writes[n-1] != Loc(l) {
			s.writes = append(s.writes, Loc(l))
		}
		return
	}
	if s.stamp[2*l+1] != s.epoch {
		s.stamp[2*l+1] = s.epoch
		s.writes = append(s.writes, Loc(l))
	}
}

// entry is the first node of a func or init body, End when the body is empty.
func entry(nodes []*lang.Node) int {
	if len(nodes) == 0 {
		return lang.End
	}
	return 0
}

// run executes nodes from id until an interleaving point (returned), the
// end, or a return (value returned). It stops early on a runtime error.
func (s *State) run(nodes []*lang.Node, id int, fr *frame) (*lang.Point, int64) {
	pt, v, _ := s.runTo(nodes, id, lang.End, fr)
	return pt, v
}

// runTo is run stopping also when control reaches node stop; next is stop
// then, and End after a point, the end or a return.
//
// The step budget (lang.MaxSteps, Machine.MaxSteps): every node counts one
// step. An in-block loop (one without an interleaving point) entered from
// outside any such loop runs on a budget of its own (runLoop), so whether it
// finishes within the budget depends only on the values it starts from, as
// the loop's ok function in synthesis says; the block counts the rest.
func (s *State) runTo(nodes []*lang.Node, id, stop int, fr *frame) (pt *lang.Point, v int64, next int) {
	for id != lang.End {
		if id == stop {
			return nil, 0, stop
		}
		n := nodes[id]
		if n.Loop != nil && !n.Loop.Points && !s.inLoop {
			next, v := s.runLoop(nodes, id, fr)
			if s.err != nil || next == lang.End {
				return nil, v, lang.End
			}
			id = next
			continue
		}
		s.steps++
		if s.steps > s.m.MaxSteps {
			if s.inLoop {
				s.failKind(s.loopAt, ErrBudget, "loop did not finish within %d steps (an endless loop?)", s.m.MaxSteps)
			} else {
				s.failKind(n.Pos, ErrBudget, "block did not reach an interleaving point within %d steps (an endless loop?)", s.m.MaxSteps)
			}
			return nil, 0, lang.End
		}
		switch n.Kind {
		case lang.NodePoint:
			return n.Point, 0, lang.End
		case lang.NodeAssign:
			v := s.eval(n.Value, fr)
			if s.err != nil {
				return nil, 0, lang.End
			}
			s.assign(n.Target, v, fr, n.Pos)
		case lang.NodeBranch:
			c := s.eval(n.Cond, fr)
			if s.err != nil {
				return nil, 0, lang.End
			}
			if c == 0 {
				id = n.Else
				continue
			}
		case lang.NodeAssert:
			if s.eval(n.Cond, fr) == 0 && s.err == nil {
				s.violate(n)
			}
		case lang.NodeSpawn:
			s.spawn(n, fr)
		case lang.NodeCall:
			s.eval(n.Call, fr)
		case lang.NodeReturn:
			if n.Value != nil {
				return nil, s.eval(n.Value, fr), lang.End
			}
			return nil, 0, lang.End
		}
		if s.err != nil {
			return nil, 0, lang.End
		}
		id = n.Next
	}
	return nil, 0, lang.End
}

// runLoop runs the in-block loop headed by node header, on a step budget of
// its own, until it exits (next is the loop's exit node) or returns (next is
// End, v the returned value). Nested loops and the funcs it calls count
// against the same budget: synthesis abstracts the outermost in-block loop
// as a whole.
func (s *State) runLoop(nodes []*lang.Node, header int, fr *frame) (next int, v int64) {
	outer := s.steps
	s.steps, s.inLoop, s.loopAt = 0, true, nodes[header].Pos
	_, v, next = s.runTo(nodes, header, nodes[header].Loop.Exit, fr)
	s.steps, s.inLoop = outer, false
	return next, v
}

func (s *State) violate(n *lang.Node) { s.record(Violation{Pos: n.Pos, Msg: n.Msg}) }

// record records a violation of the running block (or of init).
func (s *State) record(v Violation) {
	v.Block, v.Proc = s.curBlock, "init"
	if s.cur != nil {
		v.Proc = s.cur.Name()
	}
	if s.logging {
		s.log = append(s.log, undo{kind: undoViol, a: int32(len(s.Violations))})
	}
	s.Violations = append(s.Violations, v)
	if s.track {
		s.violations = append(s.violations, v)
	}
}

func (s *State) spawn(n *lang.Node, fr *frame) {
	pr := n.Proc
	locals := make([]int64, len(pr.Locals))
	for i, a := range n.Args {
		locals[pr.Params[i].Index] = s.eval(a, fr)
		if s.err != nil {
			return
		}
	}
	var id PID
	if s.cur == nil {
		if s.logging {
			s.log = append(s.log, undo{kind: undoSpawned, a: -1, old: int64(s.rootSpawn)})
		}
		s.rootSpawn++
		id = s.m.pids.child(PID{}, s.rootSpawn)
	} else {
		parent := s.cur
		if s.logging {
			s.log = append(s.log, undo{kind: undoSpawned, a: int32(fr.pi), old: int64(parent.Spawned)})
		}
		parent.Spawned++
		id = s.m.pids.child(parent.ID, parent.Spawned)
	}
	if s.logging {
		s.log = append(s.log, undo{kind: undoProcs, a: int32(len(s.Procs))})
	}
	s.addProc(&Process{ID: id, Proc: pr, Point: pr.Points[0], Locals: locals})
	if s.track {
		s.spawned = append(s.spawned, len(s.Procs)-1)
	}
}

func (s *State) assign(t lang.LValue, v int64, fr *frame, at lang.Pos) {
	if t.Var.Kind == lang.Local {
		if fr.pi >= 0 {
			s.setLocal(fr.pi, t.Var.Index, v)
		} else {
			fr.locals[t.Var.Index] = v
		}
		return
	}
	l := s.m.offset[t.Var.Index]
	if t.Index != nil {
		i := s.eval(t.Index, fr)
		if s.err != nil {
			return
		}
		if j := s.m.sparse[t.Var.Index]; j >= 0 {
			s.setSparse(j, i, v)
			return
		}
		if i < 0 || i >= int64(s.m.size[t.Var.Index]) {
			s.failKind(at, ErrIndex, "index %d out of bounds for array %s of size %d", i, t.Var.Name, s.m.size[t.Var.Index])
			return
		}
		l += int(i)
	}
	s.noteWrite(l)
	s.setGlobal(l, v)
}

// eval evaluates e; bools are 0 or 1. After a runtime error it returns 0
// and s.err is set.
func (s *State) eval(e lang.Expr, fr *frame) int64 {
	if s.err != nil {
		return 0
	}
	switch e := e.(type) {
	case *lang.IntLit:
		return e.Val
	case *lang.BoolLit:
		if e.Val {
			return 1
		}
		return 0
	case *lang.ParamRef:
		return s.m.Params[e.Param.Index]
	case *lang.VarRef:
		v := e.Var
		if v.Kind == lang.Local {
			return fr.locals[v.Index]
		}
		l := s.m.offset[v.Index]
		s.noteRead(l)
		if v, ok := s.store.cached(l); ok {
			return v
		}
		return s.store.get(l)
	case *lang.IndexExpr:
		i := s.eval(e.Index, fr)
		if s.err != nil {
			return 0
		}
		g := e.Array
		if j := s.m.sparse[g.Index]; j >= 0 {
			return s.getSparse(j, i)
		}
		if i < 0 || i >= int64(s.m.size[g.Index]) {
			s.failKind(e.At, ErrIndex, "index %d out of bounds for array %s of size %d", i, g.Name, s.m.size[g.Index])
			return 0
		}
		l := s.m.offset[g.Index] + int(i)
		s.noteRead(l)
		if v, ok := s.store.cached(l); ok {
			return v
		}
		return s.store.get(l)
	case *lang.UnaryExpr:
		x := s.eval(e.X, fr)
		if e.Op == lang.OpNot {
			return 1 - x
		}
		if x == math.MinInt64 {
			s.failKind(e.At, ErrOverflow, "integer overflow in -(%d)", x)
			return 0
		}
		return -x
	case *lang.BinaryExpr:
		return s.binary(e, fr)
	case *lang.CallExpr:
		return s.call(e, fr)
	}
	s.fail(e.Pos(), "internal: unknown expression %T", e)
	return 0
}

func (s *State) binary(e *lang.BinaryExpr, fr *frame) int64 {
	x := s.eval(e.X, fr)
	switch e.Op {
	case lang.OpAnd:
		if x == 0 {
			return 0
		}
		return s.eval(e.Y, fr)
	case lang.OpOr:
		if x != 0 {
			return 1
		}
		return s.eval(e.Y, fr)
	}
	y := s.eval(e.Y, fr)
	if s.err != nil {
		return 0
	}
	switch e.Op {
	case lang.OpAdd:
		r, ok := lang.Add(x, y)
		if !ok {
			s.failKind(e.At, ErrOverflow, "integer overflow in %d + %d", x, y)
		}
		return r
	case lang.OpSub:
		r, ok := lang.Sub(x, y)
		if !ok {
			s.failKind(e.At, ErrOverflow, "integer overflow in %d - %d", x, y)
		}
		return r
	case lang.OpMul:
		r, ok := lang.Mul(x, y)
		if !ok {
			s.failKind(e.At, ErrOverflow, "integer overflow in %d * %d", x, y)
		}
		return r
	case lang.OpDiv, lang.OpMod:
		if y == 0 {
			s.failKind(e.At, ErrDivZero, "division by zero in %d %s 0", x, e.Op)
			return 0
		}
		if e.Op == lang.OpMod {
			return lang.Mod(x, y)
		}
		r, ok := lang.Div(x, y)
		if !ok {
			s.failKind(e.At, ErrOverflow, "integer overflow in %d / %d", x, y)
		}
		return r
	case lang.OpLt:
		return b2i(x < y)
	case lang.OpLe:
		return b2i(x <= y)
	case lang.OpGt:
		return b2i(x > y)
	case lang.OpGe:
		return b2i(x >= y)
	case lang.OpEq:
		return b2i(x == y)
	case lang.OpNe:
		return b2i(x != y)
	}
	s.fail(e.At, "internal: unknown operator %s", e.Op)
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (s *State) call(e *lang.CallExpr, fr *frame) int64 {
	f := e.Func
	callee := &frame{locals: make([]int64, len(f.Locals)), pi: -1}
	for i, a := range e.Args {
		callee.locals[f.Params[i].Index] = s.eval(a, fr)
	}
	if s.err != nil {
		return 0
	}
	_, v := s.run(f.Nodes, entry(f.Nodes), callee)
	return v
}

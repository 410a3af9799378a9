package interp

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/icgen/icgen/lang"
)

// Process is one process of a state. Processes are never removed from a
// state; a finished one has Done set.
type Process struct {
	ID      PID
	Proc    *lang.Proc
	Point   *lang.Point // where the process stands; nil once Done
	Locals  []int64     // by lang.Var.Index (slot) of Proc.Locals
	Spawned int32       // children spawned so far
	Done    bool
	key     string // ID.String(), cached
	pointID int32  // Machine.pointID(Point) while live, set by State.enter
}

// Key returns the process id as text ("1.2"), computed once.
func (p *Process) Key() string {
	if p.key == "" {
		p.key = p.ID.String()
	}
	return p.key
}

// Name renders the process as proc#id, e.g. "fib#1.2".
func (p *Process) Name() string { return p.Proc.Name + "#" + p.Key() }

// Violation is a failed assert, or a broken invariant: one that is false
// (or cannot be evaluated) after init or after an event. Pos is the site:
// the assert, or the invariant declaration.
type Violation struct {
	Pos       lang.Pos
	Msg       string // the assert's message, may be empty; an invariant's condition
	Proc      string // process name
	Block     string // block id ("init" for the init section)
	Invariant bool   // a broken invariant
}

func (v Violation) String() string {
	return fmt.Sprintf("%s: %s (%s in block %s)", v.Pos, v.Headline(), v.Proc, v.Block)
}

// Headline says what was violated: "assertion failed" or "invariant
// broken", with the message or condition.
func (v Violation) Headline() string {
	msg := "assertion failed"
	if v.Invariant {
		msg = "invariant broken"
	}
	if v.Msg != "" {
		msg += ": " + v.Msg
	}
	return msg
}

// RuntimeError is an error raised while running code: division by zero, an
// index out of bounds, an int64 overflow, or a block exceeding its step
// budget. It ends the execution.
type RuntimeError struct {
	Pos   lang.Pos
	Kind  ErrKind // one finding per kind and site
	Msg   string  // with the operand values, e.g. "integer overflow in 5 * 7"
	Proc  string
	Block string
}

// ErrKind classifies runtime errors.
type ErrKind uint8

// Kinds of runtime errors.
const (
	ErrOther    ErrKind = iota // running a process that is not enabled, or an internal failure
	ErrOverflow                // a result beyond int64
	ErrDivZero                 // division or remainder by zero
	ErrIndex                   // an array index out of bounds
	ErrBudget                  // a block or an in-block loop ran out of steps
)

func (k ErrKind) String() string {
	return [...]string{"other", "overflow", "division by zero", "index out of bounds", "step budget"}[k]
}

func (e *RuntimeError) Error() string {
	return fmt.Sprintf("%s: runtime error: %s (%s in block %s)", e.Pos, e.Msg, e.Proc, e.Block)
}

// undo kinds.
const (
	undoGlobal  uint8 = iota // store[a] = old
	undoLocal                // procs[a].Locals[b] = old
	undoPoint                // procs[a].Point = points[b] (b = -1: nil), Done = old != 0
	undoSpawned              // procs[a].Spawned = old (a = -1: the root)
	undoProcs                // len(procs) = a
	undoViol                 // len(violations) = a
	undoSparse               // sparse[a][sparseKeys[b]] = old; len(sparseKeys) = b
)

type undo struct {
	kind uint8
	a, b int32
	old  int64
}

// State is a concrete program state: globals, processes and recorded
// violations. Changes are logged so [State.Undo] can roll back to a
// [State.Mark] cheaply; this is how explorers save and restore states.
// A State is not safe for concurrent use, and [State.Clone] writes the
// state it copies (their store's pages become shared). Its exported
// fields are for reading: the state changes by running events
// ([State.Step]) and undoing them, which keeps its indexes right.
type State struct {
	m          *Machine
	store      store // the globals (see Value and Machine.GlobalLocs)
	Procs      []*Process
	Violations []Violation
	rootSpawn  int32
	// byPID finds a process's index by its id: by the id's serial number,
	// the index + 1 (0: none); nil until Find needs it. An entry left by a
	// process that Undo removed is not cleared: Find checks the process.
	byPID []int32
	// count has, by point (Machine.pointID), the number of live processes
	// standing there; at lists them for the points with an await guard,
	// and pos is each process's place in its list (-1 elsewhere). The
	// processes an event may enable or disable are found from them without
	// looking at the others (see affected).
	count []int32
	at    [][]int32
	pos   []int32

	// procs and locals hold a clone's processes and their locals (see
	// CloneInto); nil in a state that was not cloned.
	procs  []Process
	locals []int64

	// sparse holds the elements of the unbounded arrays (by
	// Machine.sparse) that are not 0; sparseKeys the keys of the undo
	// log's undoSparse entries.
	sparse     []map[int64]int64
	sparseKeys []int64

	log     []undo
	logging bool
	err     *RuntimeError
	steps   int      // nodes run by the current block outside its in-block loops, or by the current loop run
	inLoop  bool     // an in-block loop is running (its nodes count against the loop's own budget)
	loopAt  lang.Pos // where that loop is

	// dynamic read/write tracking of the running event
	track      bool
	stamp      []uint32 // per location, for stores of at most denseStamps locations
	epoch      uint32
	reads      []Loc
	writes     []Loc
	cur        *Process
	curBlock   string
	spawned    []int
	violations []Violation
	wvars      []uint64 // scratch of affected and touching: the globals written, as bits
	rvars      []uint64 // scratch of touching: the globals read
}

// Machine returns the machine the state belongs to.
func (s *State) Machine() *Machine { return s.m }

// Mark returns a point the state can be rolled back to with Undo.
func (s *State) Mark() int { return len(s.log) }

// Undo rolls the state back to a mark.
func (s *State) Undo(mark int) {
	for i := len(s.log) - 1; i >= mark; i-- {
		u := s.log[i]
		switch u.kind {
		case undoGlobal:
			if _, ok := s.store.setFlat(int(u.a), u.old); !ok {
				s.store.set(int(u.a), u.old)
			}
		case undoLocal:
			s.Procs[u.a].Locals[u.b] = u.old
		case undoPoint:
			p := s.Procs[u.a]
			s.leave(int(u.a))
			if u.b < 0 {
				p.Point = nil
			} else {
				p.Point = p.Proc.Points[u.b]
				s.enter(int(u.a))
			}
			p.Done = u.old != 0
		case undoSpawned:
			if u.a < 0 {
				s.rootSpawn = int32(u.old)
			} else {
				s.Procs[u.a].Spawned = int32(u.old)
			}
		case undoProcs:
			for j := len(s.Procs) - 1; j >= int(u.a); j-- {
				s.leave(j)
			}
			s.Procs, s.pos = s.Procs[:u.a], s.pos[:u.a]
		case undoViol:
			s.Violations = s.Violations[:u.a]
		case undoSparse:
			s.putSparse(int(u.a), s.sparseKeys[u.b], u.old)
			s.sparseKeys = s.sparseKeys[:u.b]
		}
	}
	s.log = s.log[:mark]
}

// Find returns the index in Procs of the process with id pid, or -1.
func (s *State) Find(pid PID) int {
	if pid.n == nil {
		return -1
	}
	if s.byPID == nil {
		s.byPID = []int32{}
		for i, p := range s.Procs {
			s.indexPID(p.ID, i)
		}
	}
	if n := pid.n.serial; int(n) < len(s.byPID) {
		// The entry may be stale (see byPID), and an id of another
		// machine may have the serial number of one of ours.
		if i := int(s.byPID[n]) - 1; i >= 0 && i < len(s.Procs) && s.Procs[i].ID == pid {
			return i
		}
	}
	return -1
}

// indexPID records that the process with id pid is Procs[i].
func (s *State) indexPID(pid PID, i int) {
	n := int(pid.n.serial)
	if l := len(s.byPID); n >= l {
		t := max(n+1, 2*l)
		s.byPID = slices.Grow(s.byPID, t-l)[:t]
		clear(s.byPID[l:]) // what a reused array held past its end
	}
	s.byPID[n] = int32(i + 1)
}

// addProc appends a process standing where its Point says.
func (s *State) addProc(p *Process) {
	if s.byPID != nil {
		s.indexPID(p.ID, len(s.Procs))
	}
	s.Procs = append(s.Procs, p)
	s.pos = append(s.pos, -1)
	s.enter(len(s.Procs) - 1)
}

// enter counts live process i at the point it stands at, and lists it
// there if the point has an await guard.
func (s *State) enter(i int) {
	p := s.Procs[i]
	if p.Point == nil {
		return
	}
	if s.count == nil {
		s.count = make([]int32, s.m.npoints)
		s.at = make([][]int32, s.m.npoints)
	}
	id := s.m.pointID(p.Point)
	p.pointID = int32(id)
	s.count[id]++
	if p.Point.Guard != nil {
		s.pos[i] = int32(len(s.at[id]))
		s.at[id] = append(s.at[id], int32(i))
	}
}

// leave undoes enter, before process i moves.
func (s *State) leave(i int) {
	p := s.Procs[i]
	if p.Point == nil {
		return
	}
	id := p.pointID
	s.count[id]--
	k := s.pos[i]
	if k < 0 {
		return
	}
	l := s.at[id]
	last := l[len(l)-1]
	l[k] = last
	s.pos[last] = k
	s.at[id] = l[:len(l)-1]
	s.pos[i] = -1
}

// Clone returns an independent copy of the state (without its undo log).
// It costs time and memory in proportion to the processes, not to the
// globals: a store of more than 512 locations is shared, page by page,
// until s or the copy writes a page (see store), so Clone changes s too.
func (s *State) Clone() *State { return s.CloneInto(nil) }

// CloneInto is Clone into c, whose memory it reuses where it is large
// enough (a state cloned before and no longer used); with c nil it
// allocates a new one. c must not be s.
func (s *State) CloneInto(c *State) *State {
	if c == nil {
		c = &State{}
	}
	st := c.store
	s.store.cloneInto(&st)
	*c = State{m: s.m, rootSpawn: s.rootSpawn, logging: s.logging,
		store: st, Violations: append(c.Violations[:0], s.Violations...),
		Procs: c.Procs[:0], procs: c.procs[:0], locals: c.locals[:0],
		pos: append(c.pos[:0], s.pos...), count: append(c.count[:0], s.count...), at: c.at}
	if s.byPID != nil {
		c.byPID = append(c.byPID[:0], s.byPID...)
	}
	if s.sparse != nil {
		c.sparse = make([]map[int64]int64, len(s.sparse))
		for i, a := range s.sparse {
			c.sparse[i] = maps.Clone(a)
		}
	}
	// The processes and their locals each in one array (c's own, so that
	// a later CloneInto can reuse them).
	n := 0
	for _, p := range s.Procs {
		n += len(p.Locals)
	}
	c.locals = slices.Grow(c.locals, n)[:n]
	c.procs = slices.Grow(c.procs, len(s.Procs))[:len(s.Procs)]
	locals := c.locals
	for i, p := range s.Procs {
		c.procs[i] = *p
		k := copy(locals, p.Locals)
		c.procs[i].Locals, locals = locals[:k:k], locals[k:]
		c.Procs = append(c.Procs, &c.procs[i])
	}
	if s.at != nil {
		if len(c.at) != len(s.at) {
			c.at = make([][]int32, len(s.at))
		}
		for _, id := range s.m.guarded {
			c.at[id] = append(c.at[id][:0], s.at[id]...)
		}
	} else {
		c.at = nil
	}
	return c
}

// Size estimates the bytes a clone of the state takes beyond the initial
// state's store: its processes and violations, and the pages of the store
// copied since (see store.fresh), which it may share with other states.
func (s *State) Size() int {
	n := s.store.bytes() + 100*len(s.Procs) + 64*len(s.Violations) + 4*len(s.byPID)
	for _, p := range s.Procs {
		n += 8 * len(p.Locals)
	}
	return n
}

func (s *State) setGlobal(l int, v int64) {
	old, ok := s.store.setFlat(l, v)
	if !ok {
		old = s.store.set(l, v)
	}
	if s.logging {
		s.log = append(s.log, undo{kind: undoGlobal, a: int32(l), old: old})
	}
}

// sparseOf is the map of unbounded array i (nil when no element is set).
func (s *State) sparseOf(i int) map[int64]int64 {
	if s.sparse == nil {
		return nil
	}
	return s.sparse[i]
}

// getSparse is element k of unbounded array i.
func (s *State) getSparse(i int, k int64) int64 { return s.sparseOf(i)[k] }

// putSparse sets element k of unbounded array i, holding only the
// elements that are not 0 (so that equal arrays are equal maps).
func (s *State) putSparse(i int, k, v int64) {
	if s.sparse == nil {
		if v == 0 {
			return
		}
		s.sparse = make([]map[int64]int64, s.m.nsparse)
	}
	if v == 0 {
		delete(s.sparse[i], k)
		return
	}
	if s.sparse[i] == nil {
		s.sparse[i] = map[int64]int64{}
	}
	s.sparse[i][k] = v
}

// setSparse is putSparse, logged for Undo.
func (s *State) setSparse(i int, k, v int64) {
	if s.logging {
		s.log = append(s.log, undo{kind: undoSparse, a: int32(i), b: int32(len(s.sparseKeys)), old: s.getSparse(i, k)})
		s.sparseKeys = append(s.sparseKeys, k)
	}
	s.putSparse(i, k, v)
}

// SetElement sets element i of the array g (a state being built, as
// PairState's, before it runs): for an unbounded array, any i.
func (s *State) SetElement(g *lang.Var, i, v int64) {
	if j := s.m.sparse[g.Index]; j >= 0 {
		s.putSparse(j, i, v)
		return
	}
	if i >= 0 && i < int64(s.m.size[g.Index]) {
		s.setGlobal(s.m.offset[g.Index]+int(i), v)
	}
}

// Element returns element i of the array g, false when out of its
// bounds (never for an unbounded array).
func (s *State) Element(g *lang.Var, i int64) (int64, bool) {
	if j := s.m.sparse[g.Index]; j >= 0 {
		return s.getSparse(j, i), true
	}
	if i < 0 || i >= int64(s.m.size[g.Index]) {
		return 0, false
	}
	return s.store.get(s.m.offset[g.Index] + int(i)), true
}

// Elements returns the elements of the unbounded array g that are not 0,
// by index.
func (s *State) Elements(g *lang.Var) map[int64]int64 {
	if j := s.m.sparse[g.Index]; j >= 0 {
		return maps.Clone(s.sparseOf(j))
	}
	return nil
}

func (s *State) setLocal(pi int, slot int, v int64) {
	p := s.Procs[pi]
	if s.logging {
		s.log = append(s.log, undo{kind: undoLocal, a: int32(pi), b: int32(slot), old: p.Locals[slot]})
	}
	p.Locals[slot] = v
}

// PointIndex is the index of the point the process stands at (its
// lang.Point.Index), or -1 once it has ended.
func (p *Process) PointIndex() int32 {
	if p.Point == nil {
		return -1
	}
	return int32(p.Point.Index)
}

func (s *State) setPoint(pi int, pt *lang.Point) {
	p := s.Procs[pi]
	if s.logging {
		done := int64(0)
		if p.Done {
			done = 1
		}
		s.log = append(s.log, undo{kind: undoPoint, a: int32(pi), b: p.PointIndex(), old: done})
	}
	s.leave(pi)
	p.Point = pt
	p.Done = pt == nil
	s.enter(pi)
}

// Global returns the value of a scalar global, or element i of an array.
func (s *State) Global(g *lang.Var, i int) int64 {
	return s.store.get(s.m.offset[g.Index] + i)
}

// Value returns the value at a location.
func (s *State) Value(l Loc) int64 { return s.store.get(int(l)) }

// Values returns a copy of the n values from location first on (see
// Machine.GlobalLocs).
func (s *State) Values(first Loc, n int) []int64 { return s.store.values(int(first), n) }

// Live reports whether a process has not finished.
func (p *Process) Live() bool { return !p.Done }

// Equal reports whether two states of the same machine are equal modulo
// process naming (DESIGN decision 4): same globals, same multiset of live
// processes as (proc, point, live locals), same multiset of violation sites.
func (s *State) Equal(t *State) bool {
	if !s.store.equal(&t.store) {
		return false
	}
	for i := range s.m.nsparse {
		if !maps.Equal(s.sparseOf(i), t.sparseOf(i)) {
			return false
		}
	}
	if !slices.EqualFunc(s.liveSorted(), t.liveSorted(), func(p, q *Process) bool { return compareKeys(p, q) == 0 }) {
		return false
	}
	return slices.Equal(s.violationKeys(), t.violationKeys())
}

// liveSorted returns the live processes sorted by their key (proc index,
// point index, live local values...): nil, allocating nothing, when none
// is live (a final state where every process ended).
func (s *State) liveSorted() []*Process {
	var live []*Process
	for _, p := range s.Procs {
		if !p.Done {
			live = append(live, p)
		}
	}
	slices.SortFunc(live, compareKeys)
	return live
}

// compareKeys orders two live processes by (proc index, point index, live
// local values...). Processes at the same point have the same live locals.
func compareKeys(p, q *Process) int {
	if c := cmp.Compare(p.Proc.Index, q.Proc.Index); c != 0 {
		return c
	}
	if c := cmp.Compare(p.Point.Index, q.Point.Index); c != 0 {
		return c
	}
	for _, v := range p.Point.Live {
		if c := cmp.Compare(p.Locals[v.Index], q.Locals[v.Index]); c != 0 {
			return c
		}
	}
	return 0
}

// violationKeys returns the sorted sites (line, col) of the violations.
func (s *State) violationKeys() [][2]int {
	keys := make([][2]int, len(s.Violations))
	for i, v := range s.Violations {
		keys[i] = [2]int{v.Pos.Line, v.Pos.Col}
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return slices.Compare(a[:], b[:]) })
	return keys
}

// Hash is a hash of the state consistent with Equal: equal states have
// equal hashes.
func (s *State) Hash() uint64 {
	h := Mix(0x9e3779b97f4a7c15 ^ s.store.sum())
	for i := range s.m.nsparse {
		var sum uint64 // a set: the sum of its elements' hashes
		for k, v := range s.sparseOf(i) {
			sum += Mix(uint64(k) ^ Mix(uint64(v)+uint64(i)))
		}
		h = Mix(h ^ sum)
	}
	var procs, viols uint64 // multisets: sums of element hashes
	for _, p := range s.Procs {
		if p.Done {
			continue
		}
		// The key of compareKeys: proc index, point index, live locals.
		e := Mix(uint64(0x12345) ^ uint64(p.Proc.Index))
		e = Mix(e ^ uint64(p.Point.Index))
		for _, v := range p.Point.Live {
			e = Mix(e ^ uint64(p.Locals[v.Index]))
		}
		procs += e
	}
	for _, v := range s.Violations {
		viols += Mix(uint64(v.Pos.Line)<<32 | uint64(v.Pos.Col))
	}
	return Mix(Mix(h^procs) ^ viols)
}

// Mix is the splitmix64 finalizer.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Live returns the processes that have not finished, in creation order.
func (s *State) Live() []*Process {
	var out []*Process
	for _, p := range s.Procs {
		if !p.Done {
			out = append(out, p)
		}
	}
	return out
}

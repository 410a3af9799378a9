package z3

/*
#include "bind.h"
*/
import "C"

import (
	"context"
	"errors"
	"math"
	"strconv"
	"time"
	"unsafe"
)

// Status is the answer of a check.
type Status int

// Answers. The zero Status is Unknown: no answer is never taken for one.
const (
	Unknown Status = iota // no answer; see Result.Reason
	Sat                   // satisfiable
	Unsat                 // unsatisfiable
)

func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Reasons of Unknown answers set by this package (other reasons are Z3's
// own text, such as "max. resource limit exceeded" or
// "(incomplete (theory arithmetic))", and are not stable).
const (
	ReasonTimeout     = "timeout"     // the deadline of CheckTimeout or CheckContext passed
	ReasonInterrupted = "interrupted" // Interrupt was called, or CheckContext's context was canceled
)

// Result is the answer of a check: Sat, Unsat, or Unknown with a reason.
// Unknown is neither: a caller must not read it as "no solution".
type Result struct {
	Status Status
	Reason string // why the answer is Unknown; "" otherwise
}

func (r Result) String() string {
	if r.Status == Unknown && r.Reason != "" {
		return "unknown (" + r.Reason + ")"
	}
	return r.Status.String()
}

// Solver is a Z3 solver of a context: Z3's "simple" solver, an incremental
// SMT core meant to be reused with Push/Pop or assumptions: on this
// package's benchmarks a check under assumptions takes about 4 µs and
// push, assert, check, pop about 16 µs, against 2.5 ms for Z3's default
// solver used non-incrementally. A Solver belongs to its context's
// goroutine.
type Solver struct {
	x     *Context
	s     C.Z3_solver // nil once closed
	last  Status      // answer of the last check
	model C.Z3_model  // model of the last check, fetched on demand
	gen   uint64      // counts checks and resets, to detect stale models

	// What was given to the solver, to build it again after a check that
	// did not answer (see [Solver.rebuild]): the asserted formulas, each
	// referenced, marks[i] the number of them before scope i+1 was opened,
	// and the parameters set on this solver.
	kept   []C.Z3_ast
	marks  []int
	params []solverParam
}

type solverParam struct {
	name string
	v    uint32
}

// NewSolver creates a solver. Its parameters are the context's options
// ([Rlimit], [Timeout]). On a closed context it returns a closed solver,
// whose methods return [ErrClosed].
func (x *Context) NewSolver() *Solver {
	s := &Solver{x: x}
	if x == nil || x.c == nil {
		return s
	}
	s.s = C.icg_mk_solver(x.c, x.params)
	if s.s == nil {
		x.fail(x.z3Error("NewSolver"))
		return s
	}
	x.open = append(x.open, s)
	return s
}

// Close frees the solver and its model. Closing twice is harmless.
func (s *Solver) Close() {
	if s == nil || s.s == nil {
		return
	}
	x := s.x
	s.dropModel()
	s.forget(0)
	s.marks = nil
	C.Z3_solver_dec_ref(x.c, s.s)
	s.s = nil
	for i, o := range x.open {
		if o == s {
			last := len(x.open) - 1
			x.open[i] = x.open[last]
			x.open[last] = nil
			x.open = x.open[:last]
			break
		}
	}
}

// ok reports whether the solver can be used, with the error if not.
func (s *Solver) ok(op string) error {
	if s == nil || s.s == nil || s.x.c == nil {
		return closedError(op)
	}
	return nil
}

func (s *Solver) dropModel() {
	if s.model != nil {
		C.Z3_model_dec_ref(s.x.c, s.model)
		s.model = nil
	}
	s.gen++
	s.last = Unknown
}

// Assert adds formulas to the solver. A zero Term, a term of another
// context or a non-Boolean term is an error, also recorded in the context
// (see [Context.Err]) so a later Check cannot answer without it.
func (s *Solver) Assert(fs ...Term) error {
	const op = "Solver.Assert"
	if err := s.ok(op); err != nil {
		return err
	}
	x := s.x
	if x.err != nil {
		return x.err
	}
	args, ok := x.args(op, fs)
	if !ok {
		return x.err
	}
	for _, a := range args {
		C.Z3_solver_assert(x.c, s.s, a)
		if C.icg_ok(x.c) == 0 {
			err := x.z3Error(op)
			x.fail(err)
			return err
		}
		C.Z3_inc_ref(x.c, a)
		s.kept = append(s.kept, a)
	}
	return nil
}

// forget releases the kept formulas from index n on.
func (s *Solver) forget(n int) {
	for _, a := range s.kept[n:] {
		C.Z3_dec_ref(s.x.c, a)
	}
	clear(s.kept[n:])
	s.kept = s.kept[:n]
}

// rebuild replaces the Z3 solver by a new one holding the same
// parameters, scopes and formulas. Z3 4.8.12's simple solver is not to be
// trusted after a check that was interrupted (by Interrupt, a deadline or
// a resource limit): preprocessing rewrites the asserted formulas in
// place, and stopped half-way it can lose some. Seen here: after an
// interrupted check of a > 1, b > 1, c > 1, a³ + b³ = c³, the solver's
// assertions were the last one alone, and with a < 0 pushed it answered
// sat (a = -1, b = 1, c = 0). A check that does not answer costs its
// budget anyway; building the solver again costs little beside it.
func (s *Solver) rebuild() {
	x := s.x
	n := C.icg_mk_solver(x.c, x.params)
	if n == nil {
		// The old solver cannot be trusted and no new one can be made:
		// close it, so that every later use answers ErrClosed.
		x.fail(x.z3Error("Solver.rebuild"))
		s.Close()
		return
	}
	C.Z3_solver_dec_ref(x.c, s.s)
	s.s = n
	for _, p := range s.params {
		if err := s.applyParam("Solver.rebuild", p.name, p.v); err != nil {
			x.fail(err)
			return
		}
	}
	at := 0
	for _, m := range s.marks {
		for ; at < m; at++ {
			C.Z3_solver_assert(x.c, s.s, s.kept[at])
		}
		C.Z3_solver_push(x.c, s.s)
	}
	for ; at < len(s.kept); at++ {
		C.Z3_solver_assert(x.c, s.s, s.kept[at])
	}
	if C.icg_ok(x.c) == 0 {
		x.fail(x.z3Error("Solver.rebuild"))
	}
}

// Push opens a scope: Pop removes what was asserted since.
func (s *Solver) Push() error {
	if err := s.ok("Solver.Push"); err != nil {
		return err
	}
	C.Z3_solver_push(s.x.c, s.s)
	s.marks = append(s.marks, len(s.kept))
	return nil
}

// Pop closes n scopes. Popping more scopes than are open is an error.
func (s *Solver) Pop(n int) error {
	const op = "Solver.Pop"
	if err := s.ok(op); err != nil {
		return err
	}
	if n < 0 || n > s.Scopes() {
		return &Error{Op: op, Msg: "cannot pop " + strconv.Itoa(n) + " of " + strconv.Itoa(s.Scopes()) + " scopes"}
	}
	if n > 0 {
		C.Z3_solver_pop(s.x.c, s.s, C.uint(n))
		at := len(s.marks) - n
		s.forget(s.marks[at])
		s.marks = s.marks[:at]
	}
	return nil
}

// Scopes returns the number of open scopes.
func (s *Solver) Scopes() int {
	if s.ok("") != nil {
		return 0
	}
	return len(s.marks)
}

// Reset removes all assertions and scopes (parameters stay).
func (s *Solver) Reset() error {
	if err := s.ok("Solver.Reset"); err != nil {
		return err
	}
	s.dropModel()
	C.Z3_solver_reset(s.x.c, s.s)
	s.forget(0)
	s.marks = nil
	return nil
}

// SetRlimit bounds the resources of each check (0: no bound); a check that
// hits the bound answers Unknown (Z3's reason varies: "canceled",
// "unknown", "(incomplete ...)"). Unlike a timeout it is deterministic and
// free, but it is not a time bound: Z3's non-linear arithmetic can run for
// seconds within a limit of 20000. Z3's limit is 32 bits.
func (s *Solver) SetRlimit(n uint64) error {
	const op = "Solver.SetRlimit"
	if n > math.MaxUint32 {
		return &Error{Op: op, Msg: "rlimit above 2^32-1"}
	}
	return s.setParam(op, "rlimit", uint32(n))
}

// Spent returns the resources the solver's context has spent so far, in
// the units of [Solver.SetRlimit] (Z3's "rlimit count"): every solver of
// the context counts into it, so it measures the context's work, and like
// the limit it is deterministic. ok is false when Z3 does not report it.
func (s *Solver) Spent() (n uint64, ok bool) {
	if s.ok("Solver.Spent") != nil {
		return 0, false
	}
	v := C.icg_spent(s.x.c, s.s)
	if v < 0 {
		return 0, false
	}
	return uint64(v), true
}

// SetTimeout bounds the time of each check, in milliseconds (0: none),
// inside Z3. It costs about 20 µs per check, and the Unknown answer's
// reason is Z3's (with this solver "(incomplete (theory arithmetic))", not
// "timeout"): prefer [Solver.CheckTimeout].
func (s *Solver) SetTimeout(d time.Duration) error {
	ms := millis(d)
	if ms == 0 {
		ms = math.MaxUint32 // Z3's "no timeout"
	}
	return s.setParam("Solver.SetTimeout", "timeout", ms)
}

// setParam sets a parameter of this solver, and keeps it for [Solver.rebuild].
func (s *Solver) setParam(op, name string, v uint32) error {
	if err := s.applyParam(op, name, v); err != nil {
		return err
	}
	for i, p := range s.params {
		if p.name == name {
			s.params[i].v = v
			return nil
		}
	}
	s.params = append(s.params, solverParam{name, v})
	return nil
}

func (s *Solver) applyParam(op, name string, v uint32) error {
	if err := s.ok(op); err != nil {
		return err
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if C.icg_set_param(s.x.c, s.s, cs, C.uint(v)) == 0 {
		return s.x.z3Error(op)
	}
	return nil
}

// Check decides the conjunction of the assertions.
func (s *Solver) Check() Result { return s.check("Solver.Check", nil, nil) }

// CheckAssumptions decides the assertions together with assumptions:
// Boolean formulas, typically constants or their negations, that hold for
// this check only. After Unsat, [Solver.UnsatCore] returns assumptions that
// suffice for it. A non-Boolean assumption is an error, recorded in the
// context, and the answer is Unknown.
func (s *Solver) CheckAssumptions(lits ...Term) Result {
	return s.check("Solver.CheckAssumptions", lits, nil)
}

// CheckTimeout is CheckAssumptions with a deadline d from now: past it the
// check is interrupted and answers Unknown with reason [ReasonTimeout]. A
// d of 0 means no deadline; a negative d (a deadline already past, as from
// time.Until) answers Unknown at once. The timer costs about 1 µs.
func (s *Solver) CheckTimeout(d time.Duration, lits ...Term) Result {
	if d < 0 {
		return Result{Unknown, ReasonTimeout}
	}
	if d == 0 {
		return s.check("Solver.CheckTimeout", lits, nil)
	}
	return s.check("Solver.CheckTimeout", lits, func(x *Context, run uint64) func() {
		t := time.AfterFunc(d, func() { x.interrupt(run, ReasonTimeout) })
		return func() { t.Stop() }
	})
}

// CheckContext is CheckAssumptions stopped when ctx is done: it then
// answers Unknown with reason [ReasonTimeout] if ctx's deadline passed and
// [ReasonInterrupted] if it was canceled. A ctx done before the call
// answers at once without checking.
func (s *Solver) CheckContext(ctx context.Context, lits ...Term) Result {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return Result{Unknown, ctxReason(err)}
	}
	if ctx.Done() == nil {
		return s.check("Solver.CheckContext", lits, nil)
	}
	return s.check("Solver.CheckContext", lits, func(x *Context, run uint64) func() {
		stop := context.AfterFunc(ctx, func() { x.interrupt(run, ctxReason(ctx.Err())) })
		return func() { stop() }
	})
}

func ctxReason(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return ReasonTimeout
	}
	return ReasonInterrupted
}

// check runs one check. watch, if not nil, arms an interrupt of the run
// and returns a function that disarms it.
func (s *Solver) check(op string, lits []Term, watch func(x *Context, run uint64) func()) Result {
	if err := s.ok(op); err != nil {
		return Result{Unknown, err.Error()}
	}
	x := s.x
	s.dropModel()
	if x.err != nil {
		return Result{Unknown, "not checked: " + x.err.Error()}
	}
	args, ok := x.args(op, lits)
	if !ok {
		return Result{Unknown, "not checked: " + x.err.Error()}
	}
	run := x.start()
	var disarm func()
	if watch != nil {
		disarm = watch(x, run)
	}
	r := C.icg_check(x.c, s.s, C.uint(len(args)), first(args))
	cause := x.stop()
	if disarm != nil {
		disarm()
	}
	if C.icg_ok(x.c) == 0 {
		err := x.z3Error(op)
		if cause == "" {
			x.fail(err)
			return Result{Unknown, err.Error()}
		}
		// Z3 can raise an error when it is interrupted (seen under load:
		// "max. memory exceeded"): the interrupt is the cause, and the
		// solver is built again below.
		r = C.Z3_L_UNDEF
	}
	switch r {
	case C.Z3_L_TRUE:
		s.last = Sat
		return Result{Status: Sat}
	case C.Z3_L_FALSE:
		s.last = Unsat
		return Result{Status: Unsat}
	}
	reason := cause
	if reason == "" {
		reason = C.GoString(C.Z3_solver_get_reason_unknown(x.c, s.s))
	}
	if reason == "" {
		reason = "unknown"
	}
	s.rebuild()
	return Result{Unknown, reason}
}

// UnsatCore returns, after an Unsat answer of CheckAssumptions, a subset
// of the assumptions that is unsatisfiable with the assertions (not
// necessarily minimal). The terms are the assumption terms themselves
// ([Term.IsEqual]), pushed again on the arena. It returns nil if the last
// check did not answer Unsat, or on errors (recorded in the context).
func (s *Solver) UnsatCore() []Term {
	const op = "Solver.UnsatCore"
	if s.live(op) != nil || s.last != Unsat {
		return nil
	}
	return s.terms(op, C.Z3_solver_get_unsat_core(s.x.c, s.s))
}

// Assertions returns the formulas of the open scopes, pushed on the arena
// (for printing with [Context.BenchmarkToSMTLIB]). They are the solver's
// own forms, equivalent to what was asserted but not the same terms: the
// simple solver simplifies formulas as they are asserted ((< v (- 1))
// comes back as (not (>= v (- 1)))) and splits them further during a check.
// Errors are recorded in the context, and give nil.
func (s *Solver) Assertions() []Term {
	const op = "Solver.Assertions"
	if s.live(op) != nil {
		return nil
	}
	return s.terms(op, C.Z3_solver_get_assertions(s.x.c, s.s))
}

// live is ok for methods that record their errors in the context.
func (s *Solver) live(op string) error {
	err := s.ok(op)
	if err != nil && s != nil && s.x != nil && s.x.c != nil {
		s.x.fail(err)
	}
	return err
}

func (s *Solver) terms(op string, v C.Z3_ast_vector) []Term {
	ts, err := s.x.take(op, v)
	if err != nil {
		s.x.fail(err)
		return nil
	}
	return ts
}

// Model is the model of a Sat answer. It stays valid until the solver
// checks again, resets or closes.
type Model struct {
	s   *Solver
	gen uint64
}

// Model returns the model of the last check, which must have answered Sat.
func (s *Solver) Model() (*Model, error) {
	const op = "Solver.Model"
	if err := s.ok(op); err != nil {
		return nil, err
	}
	if s.last != Sat {
		return nil, &Error{Op: op, Msg: "no model: the last check answered " + s.last.String()}
	}
	if s.model == nil {
		s.model = C.icg_model(s.x.c, s.s)
		if s.model == nil {
			return nil, s.x.z3Error(op)
		}
	}
	return &Model{s: s, gen: s.gen}, nil
}

func (m *Model) ok(op string) error {
	if m == nil {
		return &Error{Op: op, Msg: "nil model"}
	}
	if err := m.s.ok(op); err != nil {
		return err
	}
	if m.gen != m.s.gen || m.s.model == nil {
		return &Error{Op: op, Msg: "stale model: the solver checked again or was reset"}
	}
	return nil
}

// Eval returns the value of t in the model, pushed on the arena: a
// numeral, true or false, or an array value. With completion, constants
// the model leaves free get a default value (so the result is a value);
// without it they stay symbolic. Errors are recorded in the context as by
// a builder.
func (m *Model) Eval(t Term, completion bool) Term {
	const op = "Model.Eval"
	if err := m.ok(op); err != nil {
		if m != nil && m.s.x != nil && m.s.x.c != nil {
			m.s.x.fail(err)
		}
		return Term{}
	}
	x := m.s.x
	args, ok := x.args(op, []Term{t})
	if !ok {
		return Term{}
	}
	comp := C.int(0)
	if completion {
		comp = 1
	}
	return x.done(op, C.icg_eval(x.c, m.s.model, args[0], comp))
}

// String returns the model in Z3's syntax (for debugging).
func (m *Model) String() string {
	if m.ok("Model.String") != nil {
		return "<stale model>"
	}
	return C.GoString(C.Z3_model_to_string(m.s.x.c, m.s.model))
}

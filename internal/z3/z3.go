package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
#include <z3_version.h>

#if Z3_MAJOR_VERSION < 4 || (Z3_MAJOR_VERSION == 4 && Z3_MINOR_VERSION < 8)
#error "icgen needs Z3 4.8 or later (apt-get install libz3-dev)"
#endif

static Z3_context icgen_mk_context(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c) Z3_set_error_handler(c, NULL);
	return c;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"
)

// Context is a Z3 context: the owner of terms and solvers.
type Context struct {
	c       C.Z3_context
	running atomic.Bool // a check is running: Interrupt may reach it
	closed  bool
	solvers []*Solver
}

// Term is a Z3 term owned by a Context.
type Term struct{ a C.Z3_ast }

// NewContext creates a context.
func NewContext() (*Context, error) {
	c := C.icgen_mk_context()
	if c == nil {
		return nil, errors.New("z3: cannot create a context")
	}
	return &Context{c: c}, nil
}

// Close frees the context, its terms and its solvers.
func (x *Context) Close() {
	if x.closed {
		return
	}
	for _, s := range x.solvers {
		C.Z3_solver_dec_ref(x.c, s.s)
	}
	x.solvers = nil
	x.closed = true
	C.Z3_del_context(x.c)
}

// err returns the context's pending error, if any.
func (x *Context) err() error {
	code := C.Z3_get_error_code(x.c)
	if code == C.Z3_OK {
		return nil
	}
	msg := C.GoString(C.Z3_get_error_msg(x.c, code))
	C.Z3_set_error(x.c, C.Z3_OK)
	return errors.New("z3: " + msg)
}

// keep takes a reference to a new term so it lives as long as the context.
func (x *Context) keep(a C.Z3_ast) Term {
	if a != nil {
		C.Z3_inc_ref(x.c, a)
	}
	return Term{a}
}

// Parse reads SMT-LIB2 text (declarations and assertions) and returns its
// assertions in order.
func (x *Context) Parse(text string) ([]Term, error) {
	if x.closed {
		return nil, errors.New("z3: context closed")
	}
	cs := C.CString(text)
	defer C.free(unsafe.Pointer(cs))
	v := C.Z3_parse_smtlib2_string(x.c, cs, 0, nil, nil, 0, nil, nil)
	if err := x.err(); err != nil || v == nil {
		if err == nil {
			err = errors.New("z3: cannot parse")
		}
		return nil, err
	}
	C.Z3_ast_vector_inc_ref(x.c, v)
	defer C.Z3_ast_vector_dec_ref(x.c, v)
	n := int(C.Z3_ast_vector_size(x.c, v))
	out := make([]Term, n)
	for i := 0; i < n; i++ {
		out[i] = x.keep(C.Z3_ast_vector_get(x.c, v, C.uint(i)))
	}
	return out, nil
}

// Not returns the negation of a boolean term.
func (x *Context) Not(t Term) Term { return x.keep(C.Z3_mk_not(x.c, t.a)) }

// And returns the conjunction of boolean terms (true for none).
func (x *Context) And(ts ...Term) Term {
	if len(ts) == 0 {
		return x.keep(C.Z3_mk_true(x.c))
	}
	args := make([]C.Z3_ast, len(ts))
	for i, t := range ts {
		args[i] = t.a
	}
	return x.keep(C.Z3_mk_and(x.c, C.uint(len(args)), &args[0]))
}

// ID identifies a term within its context: equal terms have equal ids.
func (x *Context) ID(t Term) uint { return uint(C.Z3_get_ast_id(x.c, t.a)) }

// String renders a term in SMT-LIB2 syntax.
func (x *Context) String(t Term) string { return C.GoString(C.Z3_ast_to_string(x.c, t.a)) }

// Interrupt stops the check running in the context, if any. It is the only
// method that may be called from another goroutine.
func (x *Context) Interrupt() {
	if x.running.Load() {
		C.Z3_interrupt(x.c)
	}
}

// Status is the answer of a check.
type Status int

// Check answers.
const (
	Unknown Status = iota
	Sat
	Unsat
)

func (s Status) String() string { return [...]string{"unknown", "sat", "unsat"}[s] }

// Result is a check's answer; Reason says why when it is Unknown.
type Result struct {
	Status Status
	Reason string
}

// Solver is a Z3 solver (the "simple" solver, cheap to reuse).
type Solver struct {
	x *Context
	s C.Z3_solver
}

// NewSolver creates a solver in the context.
func (x *Context) NewSolver() *Solver {
	s := C.Z3_mk_simple_solver(x.c)
	C.Z3_solver_inc_ref(x.c, s)
	sv := &Solver{x: x, s: s}
	x.solvers = append(x.solvers, sv)
	return sv
}

// SetRlimit bounds the resources of each check (0: no bound); a check that
// hits it answers Unknown. Unlike a timeout it is deterministic.
func (s *Solver) SetRlimit(n uint64) error {
	p := C.Z3_mk_params(s.x.c)
	C.Z3_params_inc_ref(s.x.c, p)
	defer C.Z3_params_dec_ref(s.x.c, p)
	name := C.CString("rlimit")
	defer C.free(unsafe.Pointer(name))
	C.Z3_params_set_uint(s.x.c, p, C.Z3_mk_string_symbol(s.x.c, name), C.uint(n))
	C.Z3_solver_set_params(s.x.c, s.s, p)
	return s.x.err()
}

// Assert adds a boolean term.
func (s *Solver) Assert(t Term) error {
	C.Z3_solver_assert(s.x.c, s.s, t.a)
	return s.x.err()
}

// Check decides the assertions; a zero deadline means none. Past the
// deadline the check is interrupted and answers Unknown.
func (s *Solver) Check(deadline time.Time) Result {
	return s.CheckAssumptions(nil, deadline)
}

// CheckAssumptions decides the assertions together with assumption
// literals (boolean constants or their negations).
func (s *Solver) CheckAssumptions(lits []Term, deadline time.Time) Result {
	if !deadline.IsZero() {
		d := time.Until(deadline)
		if d <= 0 {
			return Result{Unknown, "timeout"}
		}
		t := time.AfterFunc(d, s.x.Interrupt)
		defer t.Stop()
	}
	s.x.running.Store(true)
	var r C.Z3_lbool
	if len(lits) == 0 {
		r = C.Z3_solver_check(s.x.c, s.s)
	} else {
		args := make([]C.Z3_ast, len(lits))
		for i, l := range lits {
			args[i] = l.a
		}
		r = C.Z3_solver_check_assumptions(s.x.c, s.s, C.uint(len(args)), &args[0])
	}
	s.x.running.Store(false)
	if err := s.x.err(); err != nil {
		return Result{Unknown, err.Error()}
	}
	switch r {
	case C.Z3_L_TRUE:
		return Result{Status: Sat}
	case C.Z3_L_FALSE:
		return Result{Status: Unsat}
	}
	reason := C.GoString(C.Z3_solver_get_reason_unknown(s.x.c, s.s))
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		reason = "timeout (" + reason + ")"
	}
	return Result{Unknown, reason}
}

// UnsatCore returns the assumption literals of the last Unsat answer that
// suffice for it.
func (s *Solver) UnsatCore() []Term {
	v := C.Z3_solver_get_unsat_core(s.x.c, s.s)
	if v == nil {
		return nil
	}
	C.Z3_ast_vector_inc_ref(s.x.c, v)
	defer C.Z3_ast_vector_dec_ref(s.x.c, v)
	n := int(C.Z3_ast_vector_size(s.x.c, v))
	out := make([]Term, n)
	for i := 0; i < n; i++ {
		out[i] = s.x.keep(C.Z3_ast_vector_get(s.x.c, v, C.uint(i)))
	}
	return out
}

// ModelValues evaluates boolean terms in the model of the last Sat
// answer, completing the model where needed: true where a term holds.
func (s *Solver) ModelValues(ts []Term) ([]bool, error) {
	m := C.Z3_solver_get_model(s.x.c, s.s)
	if m == nil {
		return nil, fmt.Errorf("z3: no model: %v", s.x.err())
	}
	C.Z3_model_inc_ref(s.x.c, m)
	defer C.Z3_model_dec_ref(s.x.c, m)
	out := make([]bool, len(ts))
	for i, t := range ts {
		var v C.Z3_ast
		if !C.Z3_model_eval(s.x.c, m, t.a, C.bool(true), &v) {
			return nil, fmt.Errorf("z3: cannot evaluate: %v", s.x.err())
		}
		out[i] = C.Z3_get_bool_value(s.x.c, v) == C.Z3_L_TRUE
	}
	return out, nil
}

// Version returns the library's version.
func Version() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d", major, minor, build)
}

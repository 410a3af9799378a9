package z3

/*
#cgo LDFLAGS: -lz3
#include "bind.h"
*/
import "C"

import (
	"errors"
	"math"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Context is a Z3 context: the owner of terms, solvers and models, and of
// the arena that keeps terms alive (see [Context.Mark]).
//
// A Context belongs to one goroutine. Only [Context.Interrupt] may be
// called from another one.
type Context struct {
	c      C.Z3_context // nil once closed
	arena  []C.Z3_ast   // referenced ASTs, released back to a mark
	buf    []C.Z3_ast   // scratch space for call arguments
	err    error        // the first error of a builder, until ClearErr
	sorts  [numSorts]C.Z3_sort
	params C.Z3_params // the parameters of every new solver
	open   []*Solver   // solvers to close with the context

	// mu orders Interrupt against the start and end of each run, so that
	// an interrupt meant for one run cannot reach the next.
	mu      sync.Mutex
	running bool
	run     uint64 // number of the current or last run
	cause   string // why the current run was interrupted, "" if it was not
}

// Option configures a new context.
type Option func(*options)

type options struct {
	rlimit  uint64
	timeout time.Duration
}

// Rlimit sets the resource limit of every solver of the context (see
// [Solver.SetRlimit]); 0 means no limit.
func Rlimit(n uint64) Option { return func(o *options) { o.rlimit = n } }

// Timeout sets the timeout of every solver of the context (see
// [Solver.SetTimeout]); 0 means none.
func Timeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// contexts serializes creating and deleting contexts: cheap next to the
// 0.5 ms they take, and Z3 has had races in its global state there.
var contexts sync.Mutex

// NewContext creates a context. Z3 errors in it never abort the process:
// the context has no error handler and failures become Go errors.
func NewContext(opts ...Option) (*Context, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.rlimit > math.MaxUint32 {
		return nil, &Error{Op: "NewContext", Msg: "rlimit above 2^32-1"}
	}
	contexts.Lock()
	c := C.icg_mk_context()
	contexts.Unlock()
	if c == nil {
		return nil, &Error{Op: "NewContext", Msg: "cannot create a Z3 context"}
	}
	x := &Context{c: c}
	if C.icg_sorts(c, &x.sorts[0]) == 0 {
		err := x.z3Error("NewContext")
		x.Close()
		return nil, err
	}
	x.params = C.icg_solver_params(c, 0, C.uint(o.rlimit), C.uint(millis(o.timeout)))
	if x.params == nil {
		err := x.z3Error("NewContext")
		x.Close()
		return nil, err
	}
	return x, nil
}

// millis converts a timeout to Z3's milliseconds, where 0 means none.
func millis(d time.Duration) uint32 {
	switch {
	case d <= 0:
		return 0
	case d < time.Millisecond:
		return 1
	case d >= time.Duration(math.MaxUint32-1)*time.Millisecond:
		return math.MaxUint32 - 1
	}
	return uint32(d / time.Millisecond)
}

// Close frees the context with all its terms, solvers and models. Closing
// twice is harmless; any later use returns [ErrClosed] or zero values.
func (x *Context) Close() {
	if x == nil || x.c == nil {
		return
	}
	for len(x.open) > 0 {
		x.open[len(x.open)-1].Close()
	}
	c := x.c
	if len(x.arena) > 0 {
		C.icg_release(c, &x.arena[0], C.size_t(len(x.arena)))
	}
	x.arena = nil
	for _, s := range x.sorts {
		if s != nil {
			C.Z3_dec_ref(c, C.Z3_sort_to_ast(c, s))
		}
	}
	if x.params != nil {
		C.Z3_params_dec_ref(c, x.params)
	}
	x.mu.Lock()
	x.c = nil
	x.mu.Unlock()
	contexts.Lock()
	C.Z3_del_context(c)
	contexts.Unlock()
}

// Errors.

// ErrClosed is the error of any use of a closed context or solver
// (errors.Is matches it).
var ErrClosed = errors.New("z3: closed")

// Error is a failure reported by Z3 or detected by this package, such as a
// sort mismatch or a syntax error in SMT-LIB2 input.
type Error struct {
	Op  string // the method that failed, such as "Add" or "Solver.Assert"
	Msg string // Z3's message, or this package's
	err error  // ErrClosed, for errors.Is
}

func (e *Error) Error() string { return "z3: " + e.Op + ": " + e.Msg }

// Unwrap returns [ErrClosed] for uses of a closed context.
func (e *Error) Unwrap() error { return e.err }

func closedError(op string) error { return &Error{Op: op, Msg: "closed", err: ErrClosed} }

// z3Error reads the error of the failed call just made. The message lives
// in a Z3 buffer: it is copied at once.
func (x *Context) z3Error(op string) error {
	code := C.Z3_get_error_code(x.c)
	if code == C.Z3_OK {
		return &Error{Op: op, Msg: "failed"}
	}
	msg := C.GoString(C.Z3_get_error_msg(x.c, code))
	C.Z3_set_error(x.c, C.Z3_OK)
	return &Error{Op: op, Msg: cleanMsg(msg)}
}

// cleanMsg unwraps the parser's `(error "line 1 column 2: ...")` form.
func cleanMsg(msg string) string {
	msg = strings.TrimSpace(msg)
	if inner, ok := strings.CutPrefix(msg, `(error "`); ok && strings.Count(msg, "(error ") == 1 {
		if inner, ok = strings.CutSuffix(inner, `")`); ok {
			return inner
		}
	}
	return msg
}

// Err returns the first error of a term builder, or nil. Builders cannot
// return errors: after one fails, it and every later builder return the
// zero [Term] without calling Z3, until [Context.ClearErr]. Solvers refuse
// to check while it is set (their answer would be about other formulas
// than the caller's). Build a query, then check Err once.
func (x *Context) Err() error {
	if x == nil {
		return closedError("Err")
	}
	return x.err
}

// ClearErr forgets the recorded error so the context can be used again.
// Terms built since the error are zero terms: rebuild them.
func (x *Context) ClearErr() {
	if x != nil {
		x.err = nil
	}
}

// fail records err if it is the first error and returns the zero Term.
func (x *Context) fail(err error) Term {
	if x.err == nil {
		x.err = err
	}
	return Term{}
}

// Arena.

// Mark returns the current height of the arena: the number of term
// references the context holds. Every term, function declaration and
// evaluated value the context returns is pushed on the arena;
// [Context.Release] drops those pushed after a mark.
func (x *Context) Mark() int {
	if x == nil {
		return 0
	}
	return len(x.arena)
}

// Release drops the references pushed since mark, in one C call. Terms
// returned after the mark are invalid afterwards (using one is a
// use-after-free in Z3, which this package cannot detect); terms returned
// before it stay valid. Solvers keep what they were asserted: releasing
// does not change them. A mark above the current height, or negative, is
// an error recorded as by a builder.
func (x *Context) Release(mark int) {
	if x == nil || x.c == nil {
		return
	}
	if mark < 0 || mark > len(x.arena) {
		x.fail(&Error{Op: "Release", Msg: "mark out of range"})
		return
	}
	if n := len(x.arena) - mark; n > 0 {
		C.icg_release(x.c, &x.arena[mark], C.size_t(n))
		x.arena = x.arena[:mark]
	}
}

// push adds a referenced AST to the arena and wraps it.
func (x *Context) push(a C.Z3_ast) Term {
	x.arena = append(x.arena, a)
	return Term{x: x, a: a}
}

// grow extends the arena by n slots for C to fill and returns their index.
func (x *Context) grow(n int) int {
	m := len(x.arena)
	x.arena = append(x.arena, make([]C.Z3_ast, n)...)
	return m
}

// terms wraps arena[m:] as terms.
func (x *Context) terms(m int) []Term {
	out := make([]Term, len(x.arena)-m)
	for i := range out {
		out[i] = Term{x: x, a: x.arena[m+i]}
	}
	return out
}

// take references the elements of a vector just returned by Z3 (and then
// drops the vector) into the arena.
func (x *Context) take(op string, v C.Z3_ast_vector) ([]Term, error) {
	n := int(C.icg_vec(x.c, v))
	if n < 0 {
		return nil, x.z3Error(op)
	}
	m := x.grow(n)
	C.icg_take(x.c, v, C.uint(n), first(x.arena[m:]))
	return x.terms(m), nil
}

// args copies terms into the scratch buffer for a C call, after checking
// that they are usable here. It reports false (and records the error) if
// not, or if an error is already recorded.
func (x *Context) args(op string, ts []Term) ([]C.Z3_ast, bool) {
	if x.err != nil {
		return nil, false
	}
	x.buf = x.buf[:0]
	for _, t := range ts {
		if t.a == nil {
			x.fail(&Error{Op: op, Msg: "zero Term argument"})
			return nil, false
		}
		if t.x != x {
			x.fail(&Error{Op: op, Msg: "term of another context"})
			return nil, false
		}
		x.buf = append(x.buf, t.a)
	}
	return x.buf, true
}

// first returns a pointer to the first element, or nil for none.
func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// live reports whether the context can be used by op, recording an error
// if it is closed.
func (x *Context) live(op string) bool {
	if x == nil {
		return false
	}
	if x.c == nil {
		x.fail(closedError(op))
		return false
	}
	return true
}

// Runs and interrupts.

// start marks the beginning of an interruptible run and returns its number.
func (x *Context) start() uint64 {
	x.mu.Lock()
	x.running = true
	x.run++
	x.cause = ""
	r := x.run
	x.mu.Unlock()
	return r
}

// stop marks the end of the run and returns why it was interrupted ("" if
// it was not). An Interrupt that is under way completes before stop does.
//
// An interrupted run is followed by a check of nothing (icg_settle): an
// interrupt that reaches Z3 after the run let go of it leaves the
// context's resource limit cancelled until the next check starts, and
// formulas asserted meanwhile are dropped (seen under load: a solver
// holding a > 1 and a < 0 answered sat, its assertions empty).
func (x *Context) stop() string {
	x.mu.Lock()
	x.running = false
	cause := x.cause
	x.mu.Unlock()
	if cause != "" {
		C.icg_settle(x.c, x.params)
	}
	return cause
}

// interrupt stops run (any run if 0) if it is still the current one. The
// first interrupt of a run also repeats itself until the run ends: with
// Z3 4.8.12 one interrupt can be lost when it lands as the check starts,
// and the check then runs on, deaf to Z3's own timeout as well (seen on a
// loaded machine: checks that ran for minutes). Another Z3_interrupt
// stops it.
func (x *Context) interrupt(run uint64, cause string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.c == nil || !x.running || (run != 0 && run != x.run) {
		return
	}
	if x.cause == "" {
		x.cause = cause
		go x.repeatInterrupt(x.run)
	}
	C.Z3_interrupt(x.c)
}

// repeatEvery is the period of repeated interrupts.
const repeatEvery = 10 * time.Millisecond

// repeatInterrupt interrupts run every repeatEvery until it ends.
func (x *Context) repeatInterrupt(run uint64) {
	t := time.NewTicker(repeatEvery)
	defer t.Stop()
	for range t.C {
		x.mu.Lock()
		live := x.c != nil && x.running && x.run == run
		if live {
			C.Z3_interrupt(x.c)
		}
		x.mu.Unlock()
		if !live {
			return
		}
	}
}

// Interrupt stops the check, tactic or simplification running in the
// context, if any: it answers [Unknown] with reason [ReasonInterrupted].
// It is the only method that may be called from another goroutine. An
// interrupt sent while nothing runs is dropped: it cannot hit the next
// query. (One sent just as a query starts may stop that query: use
// [Solver.CheckContext] to tie a cancellation to one query.)
func (x *Context) Interrupt() {
	if x != nil {
		x.interrupt(0, ReasonInterrupted)
	}
}

// Version returns the version of the Z3 library in use.
func Version() (major, minor, build, rev int) {
	var a, b, c, d C.uint
	C.Z3_get_version(&a, &b, &c, &d)
	return int(a), int(b), int(c), int(d)
}

// cstring passes a Go string to C without copying: p points into s and is
// not NUL-terminated (n bytes). The C side must not keep it.
func cstring(s string) (p *C.char, n C.size_t) {
	return (*C.char)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

package z3

/*
#include "bind.h"
*/
import "C"

import (
	"strings"
	"unsafe"
)

// ApplyTactic applies the Z3 tactic called name to the goal made of the
// formulas fs and returns the formulas of the result: their conjunction is
// what the tactic made of the goal's. (When a tactic splits the goal into
// several subgoals, their disjunction is returned as one formula; a goal
// the tactic refutes comes back as false.) Simplifying tactics such as
// "propagate-ineqs" give an equivalent result; tactics that eliminate
// variables ("solve-eqs") only an equisatisfiable one. Model converters
// are dropped. The returned terms are pushed on the arena.
//
// The tactic runs like a check: [Context.Interrupt] stops it, with an
// error.
func (x *Context) ApplyTactic(name string, fs ...Term) ([]Term, error) {
	const op = "ApplyTactic"
	if !x.live(op) {
		return nil, closedError(op)
	}
	if x.err != nil {
		return nil, x.err
	}
	if strings.IndexByte(name, 0) >= 0 {
		return nil, &Error{Op: op, Msg: "name contains a NUL byte"}
	}
	args, ok := x.args(op, fs)
	if !ok {
		return nil, x.err
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var cerr *C.char
	x.start()
	r := C.icg_apply_tactic(x.c, cname, C.uint(len(args)), first(args), &cerr)
	cause := x.stop()
	if r == nil {
		msg := cleanMsg(C.GoString(cerr))
		C.free(unsafe.Pointer(cerr))
		if cause != "" {
			msg = cause + " (" + msg + ")"
		}
		return nil, &Error{Op: op, Msg: msg}
	}
	defer C.Z3_apply_result_dec_ref(x.c, r)
	n := int(C.icg_num_subgoals(x.c, r))
	if n == 0 {
		f := x.False()
		return []Term{f}, x.err
	}
	goals := make([][]Term, n)
	for i := range goals {
		var g C.Z3_goal
		size := int(C.icg_subgoal(x.c, r, C.uint(i), &g))
		m := x.grow(size)
		C.icg_take_goal(x.c, g, C.uint(size), first(x.arena[m:]))
		goals[i] = x.terms(m)
	}
	if n == 1 {
		return goals[0], nil
	}
	disj := make([]Term, n)
	for i, g := range goals {
		disj[i] = x.And(g...)
	}
	f := x.Or(disj...)
	return []Term{f}, x.err
}

// Parse reads SMT-LIB2 text (declarations and assertions; commands such as
// check-sat are ignored) and returns its assertions in order, pushed on the
// arena. Declarations are local to the text, but a constant or function
// with the same name and sort as one of the context is the same symbol.
// Errors in the text are returned, not recorded in the context.
func (x *Context) Parse(text string) ([]Term, error) {
	const op = "Parse"
	if x == nil || x.c == nil {
		return nil, closedError(op)
	}
	if strings.IndexByte(text, 0) >= 0 {
		return nil, &Error{Op: op, Msg: "text contains a NUL byte"}
	}
	cs := C.CString(text)
	defer C.free(unsafe.Pointer(cs))
	return x.take(op, C.icg_parse(x.c, cs))
}

// BenchmarkToSMTLIB prints formulas as an SMT-LIB2 benchmark named name:
// declarations of their symbols, one assert each (with let-bindings for
// shared subterms), and check-sat. [Context.Parse] reads it back into
// equivalent formulas (not always textually identical: Z3 prints distinct
// as (and (distinct ...) true)). Print a solver's formulas with [Solver.Assertions] (Z3's
// own solver printing is not always valid SMT-LIB2). Errors are recorded
// in the context as by a builder, and give "".
func (x *Context) BenchmarkToSMTLIB(name string, assertions []Term) string {
	const op = "BenchmarkToSMTLIB"
	if !x.live(op) {
		return ""
	}
	if strings.IndexByte(name, 0) >= 0 {
		x.fail(&Error{Op: op, Msg: "name contains a NUL byte"})
		return ""
	}
	args, ok := x.args(op, assertions)
	if !ok {
		return ""
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	s := C.icg_benchmark(x.c, cname, C.uint(len(args)), first(args))
	if s == nil || C.icg_ok(x.c) == 0 {
		x.fail(x.z3Error(op))
		return ""
	}
	return C.GoString(s)
}

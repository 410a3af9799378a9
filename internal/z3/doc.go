// Package z3 is a small cgo binding of the Z3 SMT solver's C API (Debian's
// libz3-dev, Z3 4.8), with only what icgen uses: parsing SMT-LIB2 text into
// terms, negation and conjunction, and solvers with assumptions, unsat cores,
// model evaluation, resource limits and interrupts.
//
// # Contracts
//
//   - A [Context] belongs to one goroutine; only [Context.Interrupt] may be
//     called from another. Terms never cross contexts.
//   - Every term a context hands out stays valid until the context is
//     closed: the context keeps a reference to each and [Context.Close]
//     frees them all at once. Contexts are meant to be short-lived (one per
//     solved problem), which also makes the solver's answers independent of
//     earlier work.
//   - Z3 errors never abort the process: the context is created with no
//     error handler and every failing call is turned into a Go error.
//   - Check results are three-valued: [Unknown] (with Z3's reason) is
//     never taken for sat or unsat.
package z3

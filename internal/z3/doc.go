// Package z3 is a small cgo binding of the Z3 SMT solver's C API (Debian's
// libz3-dev, Z3 4.8.12), with only what icgen's synthesizer uses: integer,
// Boolean and (Array Int Int) terms with uninterpreted functions, the
// simplifier and tactics, incremental solvers with assumptions, unsat
// cores, models, resource limits and interrupts, and SMT-LIB2 printing and
// parsing. It is the only package of icgen that uses cgo; it imports only
// the standard library.
//
// # Contracts
//
// One context per goroutine. A [Context] and everything made from it
// (terms, solvers, models) belong to the goroutine that uses it and are not
// safe for concurrent use: Z3 crashes when two threads share a context.
// The one exception is [Context.Interrupt], which any goroutine may call.
// Terms never cross contexts (a term of another context is an error):
// rebuild formulas per context from Go data. Workers of a pool each keep one
// context and one or a few solvers and reuse them: a context costs about
// 1 ms to create, a check on a reused solver about 20 µs.
//
// Terms live in an arena. Z3 counts references; this package takes one for
// every term, declaration and value it returns and pushes it on the
// context's arena. [Context.Mark] returns the arena's height and
// [Context.Release] drops everything pushed since a mark, in one C call:
//
//	m := x.Mark()
//	defer x.Release(m)
//	... build terms, assert them, check, read the model ...
//
// A term released this way must not be used again (Z3 may free it; this
// package cannot detect the misuse). Solvers keep their own references to
// what they were asserted. Nothing is freed by the garbage collector:
// memory is released at Release and [Context.Close] only, so the same
// queries give the same term ids and the same solver behaviour from run to
// run.
//
// Errors are Go errors. The context runs without Z3's error handler (which
// exits the process), and every failing call becomes an [*Error]. Term
// builders ([Context.Add], [Context.Eq], ...) return no error so formulas
// can be written as nested calls: the first failure is recorded in the
// context ([Context.Err]), that builder and all later ones return the zero
// [Term], and solvers refuse to check (answering [Unknown]) until
// [Context.ClearErr]. Check Err once after building a query. Methods that
// return an error (Parse, ApplyTactic, Solver methods) report their own
// failures and do not record them, except [Solver.Assert], which does both
// so that a check cannot silently miss a formula. A closed context or
// solver fails with [ErrClosed]; misuse does not panic.
//
// Answers are three-valued. [Result] is [Sat], [Unsat], or [Unknown] with
// a reason: Z3 gave up (resource limit, incompleteness), the check was
// interrupted ([ReasonInterrupted]) or ran out of time ([ReasonTimeout]).
// Unknown is never a "no": callers must record it as such.
//
// Interrupts reach only the query they were meant for: [Context.Interrupt]
// does nothing when no check, tactic or simplification runs, and the
// timers of [Solver.CheckTimeout] and [Solver.CheckContext] are tied to
// their own check, so a late timer cannot stop the next query. Z3 4.8.12
// needs two more guards, both here: an interrupt that lands as a check
// ends leaves the context cancelled until the next check starts, and
// formulas asserted meanwhile are dropped, so every interrupted run is
// followed by a check of nothing, which clears it; and an interrupted
// (or otherwise unanswered) check can leave the solver without some of
// its formulas, so a [Solver] keeps what it was given and builds its Z3
// solver again after every Unknown answer. Without them, unsat formulas
// were seen answered sat.
//
// # Semantics
//
// Integers are mathematical (no overflow). [Context.Div] and [Context.Mod]
// are Z3's Euclidean division and modulus: (-7) div 2 = -4 and
// (-7) mod 2 = 1, where Go's / and % truncate (-3 and -1); [Context.Rem]
// takes the sign of the divisor. Division by zero is unspecified, not an
// error.
//
// # Limits
//
// Only Bool, Int and (Array Int Int) sorts can be built (parsed text may
// hold others: [OtherSort]). Quantifiers can be parsed and inspected, not
// built. Z3's "rlimit" is deterministic but is not a time bound: non-linear
// problems can run for a long time under a small limit; use
// [Solver.CheckTimeout] to bound time. Solvers are created with Z3's
// ctrl_c parameter off, so Z3 never installs its own SIGINT handler
// (by default Z3 4.8 does, around every check, process-wide).
package z3

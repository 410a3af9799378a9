// Package audit explains and checks independence constraints: it answers
// "do these blocks commute, and if not, show me a state where they do not"
// ([Run]) and "is this constraint, written by hand or by another tool,
// really an independence constraint" ([Checker]).
//
// It sits after package synth in the pipeline (lang <- ts <- encode <-
// allsat <- synth <- audit <- cli) and is, with allsat, a user of the
// solver binding (internal/z3); it runs concrete executions with package
// dporrt.
//
// [Run] classifies every pair of blocks as always, conditional, never or
// unknown (by synthesis) and, for each pair that does not always commute,
// looks for a [Witness]: a model of !F(a,b), asked first among the states
// where both orders run without runtime error (the orders then end in
// different states), then among the states where both blocks can run (an
// order may then raise an error, or disable its second block). Each model
// is run in both orders in the interpreter; only a state that really shows
// a difference is reported. A model that does not (loops abstracted as
// uninterpreted functions, an overflow) is blocked and the next one asked
// for, a few times; then the pair has no witness and says why.
//
// A [Checker] proves [Claim]s: C & !F(a,b) must be unsat, the rule every
// synthesized constraint obeys (allsat). A refuted claim is Unsound and
// comes with a witness in which C holds, as a runtime evaluates it. F
// reads over mathematical integers: [Checker.GuardNeeded] says whether
// proven claims hold at int64 only with their pair's overflow guard.
// [Checker.CheckFile] checks a whole IC file: its constraints, whether its
// written forms agree, each pair's no_overflow guard, W(b), and whether its
// functions table and invariants are the program's ([Mismatches], the
// check icgen explore --ics refuses a file by). Claims are
// plain values so that constraints from any source (an IC file, a
// program's own declarations) are checked the same way.
//
// F(a,b) is the path encoding (encode.Pair) where it can be built, and the
// merged encoding (encode.PairMerged) where the blocks have too many
// paths: proofs and witness searches read either.
//
// # Contracts
//
//   - Solver answers are three-valued: a claim the solver cannot decide is
//     Undecided, never Proven nor Unsound.
//   - A witness is always confirmed by execution: both blocks are enabled
//     in its state and the two orders do not end alike there (different
//     final states modulo process naming, a runtime error in one order
//     only or different errors, or a second block that is not enabled).
//   - Witness states need not be reachable from init: independence
//     constraints speak of every state. Params stay at the machine's values
//     unless no witness exists with them; then [Witness.Params] says which
//     values were used.
//   - Integers in witnesses are small when possible (|v| <= 100), else any
//     int64.
//   - With Options.Domain, witnesses are searched only where the pair's
//     domain holds (the states a source language such as Go can be in);
//     proofs and classes never read it.
//
// # Limits
//
// The search asks at most Options.Tries models per query: a difference
// hidden behind abstracted loops may be missed and reported as "no
// concrete witness found". Arrays longer than 16 elements are shown only
// by the elements that change.
package audit

// Package ts turns atomic blocks into deterministic transition systems by
// symbolic execution (CDPOR Sec. 4.1): each error-free path of a block is a
// [Transition] C -> (A, S): the condition under which the path is taken, the
// final values of the globals it writes and of the locals live at the point
// it reaches, the processes it spawns (S, as spawn_P(args) terms, Def. 6),
// and the asserts that fail on it.
//
// Terms live in one algebra: a hash-consed term graph ([Graph], terms named
// by integer ids, [Ref], never by printed text), whose constructors are
// the one simplifier. Both executors, the compositions, the bounds and the
// loop abstraction build refs of a graph; a [Term] is only a tree view of
// a graph's term ([Graph.Term], [Graph.Tree]), for printing.
//
// [Block] builds the system of one block for one of the two processes of a
// pair (event 0 or 1: the second's locals are primed, v'); [Compose] and
// [Pair] build T(a.b) and T(b.a) by binding the second block's inputs to the
// first's outputs.
//
// [MergeBlock] and [ComposeMerged] build the same systems by symbolic
// execution that merges at join points ([Merged]): one final state whose
// values are ite terms over the branch conditions, with error-freedom
// (OK), the overflow guard, spawns and failed asserts each kept under the
// condition where they happen. Its size is linear in the
// block's where the paths are exponentially many (k sequential ifs: 2^k
// paths). Blocks whose code may go round a loop holding an interleaving
// point are left to the path executor (Unknown says so).
//
// # Contracts
//
//   - The executor runs the same IR as the interpreter (package interp) and
//     gives every construct the same meaning (DESIGN decision 1). Division
//     and modulo are the language's truncated operations ([Div], [Mod]).
//   - Paths that would raise a runtime error other than overflow (division
//     by zero, an index out of bounds) are not transitions: their exclusion
//     conditions are part of Cond, so an erring path never counts as
//     commuting (decision 3). Whether a path overflows int64 is kept apart
//     in NoOverflow, so constraints read over mathematical integers while
//     the overflow check stays available to whoever uses them.
//   - Funcs are inlined (they never recurse). A counted while loop inside a
//     block that goes round at most [MaxUnroll] times, with no loop in its
//     body and at most [MaxUnrollSize] nodes unrolled, is run round by
//     round as the interpreter runs it (tripCount).
//     Any other while loop inside a block is replaced by uninterpreted
//     functions of everything it reads or writes
//     (Def. 7, [Fn]), one per variable it writes, plus ok(...) for "finishes
//     within its step budget (lang.MaxSteps), with no runtime error and no
//     failed assert", which every path through the loop requires, and one
//     opaque spawn term when it spawns; the system then lists what it
//     abstracted and is not exact. Function names hold the loop's line and
//     column and characters no identifier has (loop:p:7:3.x, loop:p:7:3?ok).
//     A function's inputs and output depend on its loop's code alone:
//     [LoopFns] lists every function of a program's in-block loops.
//   - Within a graph, structurally equal terms are equal refs, and the
//     applications of a loop's function are one function per name: the
//     paths of the blocks of a pair, built in one graph, share them. The
//     package knows nothing about SMT: encoders translate terms.
//
// # Limits
//
// Merged systems: at most [MaxGraph] terms per graph. Path systems: at
// most [MaxPaths] paths per system, [MaxPathSteps] nodes per path and
// [MaxWork] nodes in all; beyond that the system is unknown. The last two
// are far below the interpreter's block budget, so no path a system keeps
// could run out of it. Compositions of two path systems are not bounded by
// [Compose]; [ComposeBoth] builds both orders under a bound on the product
// of their sizes, which the path encoding of F(a,b) uses.
package ts

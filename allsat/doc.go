// Package allsat covers F(a,b) (package encode) with proven constraints:
// the last stage of synthesis (CDPOR Sec. 4.1: "a compact representation of
// all models over the atoms").
//
// [Cover] enumerates prime implicants over F's atoms with Z3: a model of F
// and the blocking clauses so far gives a cube of atom literals; the cube is
// shrunk with the unsat core of cube & !F and by dropping literals while
// cube & !F stays unsat, preferring literals that read fewer globals (the
// shrinking starts from the cheapest part of the cube that still refutes
// !F, and the literals reading the most globals are dropped first), so that
// a constraint over locals and params is found where one covers the
// region: the runtime can use such a constraint whatever other processes
// write; the implicant is put in canonical form
// ([ic.Canon], proven again, else the raw implicant is kept), emitted and
// blocked, until F has no model left.
//
// F is a term of a hash-consed graph in either encoding (package encode),
// printed for the solver with every shared subterm defined once. Its atoms
// ([Atoms]) are its leaves below and/or/not and the conditions of the ites
// inside them: with the merged encoding, its branch conditions and the
// comparisons left once ites are lifted out of atoms; with the path
// encoding, the path conditions and the comparisons of final states. An
// atom whose text passes [MaxAtomText] can be a literal of the enumeration
// but not of a constraint: such a region is left without one and the cover
// is incomplete.
//
// # Contracts
//
//   - Every emitted constraint C is proven: C & !F is unsat. Unknown is
//     never taken for unsat: a cube the solver cannot decide leaves its
//     region without a constraint, and the cover is then incomplete.
//   - A cover is Complete only when the enumeration finished: then the
//     disjunction of its constraints is equivalent to F.
//   - Each Cover uses a solver context of its own, so its result depends on
//     F only: synthesis output does not depend on the worker count.
//   - Budgets: Options.Timeout per pair, CheckTimeout per solver check
//     (non-linear arithmetic), Rlimit (deterministic, but not charged by
//     every Z3 procedure), MaxConstraints. A shrinking trial the solver
//     cannot decide keeps its literal (the implicant stays proven, only
//     less general), and the cube's later trials get a tenth of
//     CheckTimeout: on the mod-heavy testdata/regress/guard-error.blk that
//     took synthesis from 92 s to 65 s, with the same pairs exact.
//
// # Limits
//
// Blocking clauses accumulate in one solver per pair; pairs are small, and
// MaxConstraints bounds them, so no splitting or restarts are done.
// [ToExpr] cannot express array stores: constraints that would need them
// are not emitted.
//
// The users of the solver binding (internal/z3) are this package, package
// synth and package audit.
package allsat

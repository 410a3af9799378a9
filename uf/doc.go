// Package uf compares what symbolic execution leaves uninterpreted: the
// multisets of processes two orders of a pair spawn (CDPOR Def. 6), with
// loops already abstracted as uninterpreted functions by package ts
// (Def. 7).
//
// A spawned process is equal to another modulo process naming when they run
// the same proc and agree on the parameters live at its entry. [Spawns]
// builds the formula "the two multisets are equal": exactly, as a
// disjunction over the bijections between same-proc spawns, when each proc
// spawns at most [MaxExact] processes; otherwise by matching terms
// syntactically modulo associativity and commutativity ([Normalize]), which
// is sound (equal terms are equal values) but may miss equalities, and is
// reported as not exact.
package uf

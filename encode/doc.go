// Package encode builds F(a,b), the states where running block a then b and
// b then a are both possible, error-free and end in the same state (DESIGN
// decision 4), in one of two encodings ([Encoding]):
//
//   - [PairMerged] (the default, "merged"): both orders as merged systems
//     (package ts, [ts.MergeBlock]), F as their OK conditions and one
//     equality of their final states, over a hash-consed term graph. Ites
//     are then lifted out of atoms, so the cover's literals are branch
//     conditions and plain comparisons (ite(c, 0, 1) == 1 becomes !c).
//     [GraphSMT] prints it with every shared subterm defined once: linear
//     in the graph. What it does not model falls back to [Pair], with the
//     reason in Formula.Fallback.
//   - [Pair] ("paths", CDPOR Def. 5): a disjunction over pairs of paths of
//     the two orders, exponential in the number of branches; kept for
//     comparison. A test proves the two encodings equivalent on every pair
//     of the corpus (package allsat).
//
// Either way the [Formula] holds its conditions (F, the overflow guard,
// the invariants assumed, the swapped-state and invariant-free variants)
// as terms of one graph ([ts.Graph]), so its users read one
// representation. The path encoding builds them in the graph of the two
// orders' path systems, and copies what F keeps into a graph of the
// formula's own; equal terms there are one ref, and equalities of arrays
// become equalities of their elements as they are built (arrays.go).
//
// Both encodings compare the processes the two orders spawn as multisets
// modulo process naming (CDPOR Def. 6; spawns.go): exactly, by the
// bijections between same-proc spawns, up to [MaxExactSpawns] of one proc.
package encode

// Package ic is the model of IC files: the independence constraints of every
// pair of atomic blocks of a program, as written by `icgen synth` and read by
// the DPOR runtime and by other tools (docs/ic-format.md).
//
// [File] holds the program's hash (params excluded: one file serves every
// size), its blocks with their read/write sets and W(b) ([W], DESIGN
// decision 8), and one [Pair] per unordered pair of blocks, self pairs
// included, with its status, whether it is exact, and its constraints. Each
// [Constraint] has a canonical text form, an SMT-LIB2 form and an [Expr]
// tree that [Expr.Holds] evaluates on a concrete state through an [Env].
//
// # Contracts
//
//   - [Marshal] is deterministic: the same File gives the same bytes.
//   - [Parse] checks structure (version, known blocks and operators) and
//     rejects unknown fields; it does not re-prove constraints.
//   - Evaluation uses mathematical integers; an unavailable value, a
//     division by zero or a result beyond int64 is an error, and a
//     constraint that cannot be evaluated must be treated as not holding.
//   - The package does not use cgo and does not depend on the solver.
package ic

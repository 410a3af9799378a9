// Package lang is the front end of icgen: it parses programs written in the
// .blk language (docs/language.md), checks them, and lowers them to the IR
// every later stage runs on.
//
// # Pipeline
//
// [Compile] takes a file name and its source and returns a [Program] or an
// [ErrorList]. It runs three stages:
//
//   - parsing (a participle grammar, grammar.go), with a lexical pre-scan and
//     per-declaration recovery so that each broken declaration reports its
//     own syntax error;
//   - checking (check.go): name resolution, types (int, bool, int arrays),
//     arity of spawns and calls, where yield/await/spawn/return may appear,
//     recursion among funcs, missing returns. The result is the checked AST:
//     [Stmt] and [Expr] trees whose names point at [Var], [Param], [Proc] and
//     [Func] objects;
//   - lowering (ir.go): each body becomes a graph of [Node]s. Proc bodies get
//     explicit interleaving points ([Point]: entry, yield, await), and each
//     point starts a [Block]: the region a process runs atomically from that
//     point to the next point or to its end (DESIGN.md decision 5).
//
// # Contracts
//
//   - Compile never panics and reports every problem it finds, sorted by
//     position; a source with problems yields no program. Each message kind
//     has one constructor (errors.go). Syntax errors stop checking: once a
//     declaration does not parse, name errors elsewhere would be noise.
//   - [ErrorList.Format] prints each error with its source line and a
//     caret in time linear in the source and the number of errors (a long
//     line is cut to a window around the caret); [ErrorList.FormatMax]
//     prints the first [MaxShown] and says how many more there were.
//   - Block ids are stable and readable: the proc name for the entry block,
//     proc@label for labeled points ("ready: await(n > 0);"), proc@line
//     otherwise, and proc@line:col when a line holds several points.
//   - A block's Reads and Writes are syntactic over-approximations of what
//     it may touch, including what the funcs it calls touch; globals come
//     first in declaration order, then locals by slot.
//   - Point.Live lists the locals whose values may still be read after the
//     point: state equality compares those and only those.
//   - Declarations that are not code: [Invariant]s (conditions over globals
//     and params that every state must satisfy; a block that may write a
//     global an invariant reads also reads every global of that invariant,
//     since the interpreter checks it at the block's end) and [Commute]s
//     (declared independence constraints between two blocks, whose
//     conditions may read both processes' live locals, v and v'). Commute
//     declarations are checked after lowering, once the rest of the
//     program is free of errors, since they name blocks.
//   - Program.Hash is the sha256 of the source without param values and
//     commute declarations: one IC file serves every size, and declaring an
//     IC does not make it stale; an invariant changes the hash.
//   - The Program is immutable after Compile; the interpreter (dporrt) and
//     the symbolic executor share it and must give each construct the same
//     meaning (DESIGN.md decision 1).
//
// # Limits
//
// No local arrays, no pointers, no recursion among funcs, no break or
// continue; integer literals fit in int64 (write the minimum as
// -9223372036854775807 - 1).
package lang

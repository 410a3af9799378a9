// Package interp is icgen's concrete interpreter of the lowered IR of
// package lang: the runtime that package dporrt's explorers, the audit's
// witnesses and icgen run drive, and the proof that a program's integers
// cannot overflow ([Machine.OverflowFree]). It imports lang and ic only,
// and does not use cgo.
//
// A [Machine] is a program instantiated with concrete param values: the
// layout of its globals in a flat store of int64 locations ([Loc]), one per
// scalar and one per array element, at most [MaxStore] of them.
// [Machine.Initial] runs init and returns the initial [State]: its store is
// the only memory in proportion to the arrays' sizes, at most 8 bytes a
// location (an array filled with one value shares one page of it until
// written). A store of more than 512 locations is kept in pages of 512,
// which a state and its copies ([State.Clone]: the explorers' snapshots,
// final states and checks) share until one of them writes a page: a copy
// then costs what was written since, not the store.
// [State.Step] runs the next block of one enabled process and returns an
// [Event]: the block, the process, the global locations it read (await
// guard included) and wrote, the processes it spawned and the asserts that
// failed.
//
// # Semantics (shared with the symbolic executor, docs/language.md)
//
//   - Integers are int64; overflow of + - * / and unary minus is a runtime
//     error, as are division or modulo by zero and array indices out of
//     bounds. Division truncates toward zero; the remainder has the sign of
//     the dividend. A runtime error ends the execution ([RuntimeError]).
//   - A failing assert records a [Violation] and execution goes on.
//   - Process ids are hierarchical ([PID]): init's spawns are 1, 2, ...; the
//     k-th spawn of process 1.2 is 1.2.k. Ids do not depend on the
//     interleaving. A machine interns its ids: equal ids are ==, and a
//     spawn costs the same however deep the spawn tree is.
//   - [State.Equal] and [State.Hash] compare states modulo process naming:
//     globals, the multiset of live processes as (proc, point, live locals),
//     and the multiset of violation sites.
//
// # Contracts
//
//   - A Machine is immutable and may be shared (its table of process ids
//     is locked); a State belongs to one goroutine, and its exported
//     fields are read, not written: it changes by running and undoing
//     events, which keeps its indexes (processes by id, processes by the
//     point they stand at) right.
//   - An event costs time and memory in proportion to what it does, not to
//     the number of processes: [Machine.Run] keeps the enabled processes
//     up to date from the processes an event can have enabled or disabled
//     (its own, those it spawned, and those waiting at an await whose
//     block reads a global it wrote; [State.Affected]).
//
// # Known limits
//
//   - Process names (proc#1.2.1) grow with the depth of the spawn tree: a
//     run of a process that spawns one copy of itself n times prints Θ(n²)
//     characters of schedule, and a process caches its name once asked.
//   - Evaluating a loop function of an IC file ([ICEnv.Apply]) clones the
//     state, in time and memory proportional to the processes and the
//     pages the loop writes.
//   - Every change to a State after Initial is logged: [State.Undo] rolls
//     back to a [State.Mark] in time proportional to the changes, which is
//     how the explorers backtrack. [State.Clone] makes an independent copy,
//     which shares the store's pages with the state: it writes the state
//     too, so a state is not cloned by two goroutines at once.
package interp

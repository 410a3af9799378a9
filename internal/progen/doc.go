// Package progen generates small random .blk programs for differential
// testing of the DPOR explorers: every explorer must reach exactly the final
// states and violations that plain exhaustive exploration (dfs) reaches, and
// a seeded generator supplies programs on which to compare them.
//
// [Generate] is a pure function of a seed and [Options]: the same seed and
// options give the same text, which starts with a comment naming both so a
// failing program can be regenerated. [Default] enables every feature.
//
// # What a program looks like
//
// 2-3 shared int globals with small initial values (some set again by init),
// optionally an int array of size 2 or 3, 2-4 procs started by init with an
// int argument, and optionally a child proc spawned once or twice by them.
// Each proc has 1-3 atomic blocks separated by yield, await(cond) or a
// bounded loop with a yield inside; each block holds 1-3 statements:
// assignments mixing reads of several globals, locals (some live across a
// point), if/else on globals, bounded while loops, array stores, spawns,
// asserts over globals that fail in some interleavings, and calls of helper
// funcs that read and write globals.
//
// [Shapes] adds the shapes of programs that broke explorers from outside
// (shapes.go): a waiter whose guard reads two or three globals or array
// cells that processes of their own write independently (once or twice
// each), a lock built from await taken by two processes, or a handshake;
// compare-and-swap statements; one proc started twice with the same
// arguments; and a func that writes a global, called from spawn
// arguments, array indices, await guards, asserts and the conditions of
// ifs and loops. [Default] leaves them out, so that the seeds regression
// programs name keep their programs.
//
// [Mutate] makes small edits to any program (a spawn duplicated, a
// literal changed, a process added that writes what an await reads,
// statements deleted), for mutation runs over the regression programs.
//
// # Contracts
//
//   - Every generated program compiles (the tests compile thousands).
//   - Every execution terminates: loops count a local up to a constant bound
//     (nothing else assigns the counter), there is no recursion, and only
//     procs started by init spawn, outside loops.
//   - Exhaustive exploration stays small: a program has at most 12 events
//     per execution, and the multinomial bound on its interleavings (all
//     processes' blocks shuffled, spawned ones counted as if started at
//     once) is at most [MaxInterleavings]. Awaits only lower the real count.
//   - Array indices stay in range (constants, loop counters below the size,
//     or (e % n + n) % n), divisors are non-zero constants and values stay
//     small, so runtime errors come only from the operations [Options].Errors
//     adds on purpose (division by a global, an unchecked index), which
//     fail in some executions only.
//   - Deadlocks are allowed: an await may never hold.
//
// # Limits
//
// No bool globals or locals, no labeled points, no nested spawns (a spawned
// child spawns nothing), no func calling another func. Values are kept
// small by construction rather than proved bounded: additive expressions
// over at most a dozen events cannot come near int64 overflow.
package progen

// Package dporrt holds icgen's explorers of the interleavings of a program
// run by package interp ([Explore]: dfs, the oracle; sdpor, Source-DPOR with source sets and sleep sets; csdpor,
// with context-sensitive sleep sequences; cdpor, Constrained DPOR, sdpor
// using an IC file; odpor and odpor-ob, Optimal DPOR with wakeup trees,
// without and with observers; odpor-cs and odpor-cs-ob, with don't-do
// sets; codpor and codpor-ob, those with an IC file). [Algorithms] lists
// them; docs/algorithms.md says what each explores and preserves.
//
// The explorers run programs on package interp's [interp.Machine] and
// [interp.State]: an event is one block of one process ([interp.Event]),
// and the semantics are interp's.
//
// # Parts
//
// An explorer is assembled from the parts its row of [Algorithms] names
// (algo.go, assemble), and nothing else reads the row:
//
//   - the loop ([Info].Loop; loop.go): loop_dfs.go, loop_source.go
//     (back sets and sleep sets), loop_optimal.go (wakeup trees);
//   - the race check ([Info].Check; check.go): none, the state check
//     (check_state.go, with the optimal loop's don't-do sets in
//     dontdo.go), the constraints' (check_ics.go);
//   - how the optimal loop finds races ([Info].Observers; finder.go):
//     by the dependency alone, or with observers (observers.go);
//   - the dependency ([Options].Dep): the static sets (cells.go) or the
//     locals' (localsets.go), and happens-before over them (hb.go,
//     vclock.go).
//
// A new variant is a row and the part it adds, in files of its own.
//
// # Contracts
//
//   - An event costs time and memory in proportion to what it does, not to
//     the number of processes: the explorers keep the
//     enabled processes up to date from the processes an event can have
//     enabled or disabled (its own, those it spawned, and those waiting at
//     an await whose block reads a global it wrote); the explorers keep
//     vector clocks that share what they have in common ([Explore]).
//   - [Explore] keeps memory in proportion to the longest sequence it
//     explores (so [Options].MaxStates bounds it), plus the initial store
//     (at most 256 MiB), at most [MaxFinalBytes] of final states and 256
//     MiB of state snapshots, a kept state counting its processes and the
//     pages of its store written since the initial state; a
//     sequence is cut at [Options].MaxDepth events ([DefaultMaxDepth]), so
//     a program that never ends (a fork bomb) cannot use up the memory or
//     the stack. It reports findings by site ([Finding]): a violation by
//     its position, a runtime error by its position and kind, with a count.
//
// # Known limits
//
//   - A race scan goes back over the sequence until the event's clock covers
//     every earlier event: O(sequence length) for an event with no
//     predecessor near it.
//   - [Explore] with any algorithm reaches exactly the final states and
//     violations dfs reaches: the differential tests check it on the
//     example programs, on testdata/regress and on generated ones (40 in
//     make test, 400 in make test-full, thousands with ICGEN_SOAK=N),
//     cdpor with hand-written IC files (testdata/ics) and, in package
//     synth, with synthesized ones.
//     sdpor and odpor explore one trace per Mazurkiewicz class on programs
//     without awaits.
//   - The program's invariants are checked after init and after every
//     event that wrote what they read; a broken one is an [interp.Violation]
//     with Invariant set (its site is the declaration), and the check's reads
//     count as the event's. Execution goes on; constraints, proven under
//     the invariants, are applied only where they hold, and U⇒ asks of
//     their globals (see pairCheck).
//   - A runtime error ends the execution: its event is dependent on every
//     event of another process (the state it leaves depends on all of them)
//     and disables every other process, whose next events race with it.
//   - A process blocked at an await has a next event that is not in the
//     sequence; in every state where it is blocked, a virtual event reading
//     its guard takes part in race detection, so the orders where it ran
//     before the writes that blocked it are explored (a write made while
//     it was blocked already races with that event but does not hide the
//     write that blocked it behind happens-before). A reversal of such a
//     race puts the events after the write before the process's block,
//     which may depend on them by what it reads or writes besides the
//     guard: the process's races are looked at again after every event
//     that touched what its block may touch, and the source loop takes a
//     process asleep where a reversal starts for one of its initials only
//     when its sleeping event commutes with the events put before it.
//   - csdpor and cdpor put sequences in the sleep sets when a race's
//     reversed order ends in the same state as the explored one (csdpor by
//     running it, cdpor by a constraint that holds; Alg. 1, lines 11-14).
//     That is coverage by state, not by an equivalent trace: where such a
//     sequence has shrunk to one process, that process is covered, and its
//     event still takes part in race detection (as in ISSTA'19, Alg. 1,
//     lines 17-19 and 25-26). cdpor does so on entering every level where
//     a process is covered, and explores every other enabled process
//     there. csdpor does so where the covered process is not explored: at
//     a covered stop (every enabled process asleep or covered) and where a
//     reversal can start only with covered processes, and only there
//     explores every other awake process. Neither carries a cover past an
//     event it is dependent on because the two commute in the state they
//     meet: the runs such a cover skips have races that nothing else
//     reverses (see dporrt/testdata/regress/cs-carry-lost.blk and
//     docs/algorithms.md).
//   - An event's read and write sets, the dependency every explorer
//     judges races by, depend on its block and its process's locals, never
//     on the globals, so they are its own wherever a reversal puts it: the
//     blocks' static sets with the cells of fixed indices ([Static]), or
//     what the block can touch run abstractly from the locals ([Locals],
//     the default), for every algorithm. The locations an event really
//     touched change with the values it read, and the races and sleep sets
//     judged by them in one order do not hold in another (see
//     dporrt/testdata/regress/sdpor-dynamic.blk, csdpor-dynamic.blk and
//     testdata/regress/odpor-dynamic.blk).
//   - cdpor uses independence constraints as Alg. 1 of the CAV'18 paper
//     does: when a constraint holds uniformly in s[E'.û] (U⇒, with W(b)
//     from the IC file) the race needs no back-set entry and the
//     independence is recorded in the happens-before relation; when one
//     holds, û.n.e goes into sleep(E'); sleepers stay asleep when their
//     independence with the explored event is uniform. U⇒ asks of the
//     blocks' static sets under either dependency: a constraint is a
//     fact about two blocks, whatever their events touch.
//   - Two spawning events shown uniformly independent end in equal states
//     modulo process naming, but which of them spawns a later process can
//     depend on their order (in PS, the second put to reach a node forwards
//     the larger value). So n's process, or a process of û, may not exist
//     at s[E'.û]; then no constraint is checked there and the race is
//     reversed: another order may create n's process without e
//     (testdata/regress/spawn-either.blk). In PS this costs sleep-set-blocked
//     traces.
//   - A constraint holding uniformly from s[E'.û] on is not enough when an
//     event before e, not ordered before n, writes a global it reads: that
//     event can be moved after n in an equivalent trace, and two such drops
//     chained can hide an order (see testdata/regress/float-uniform.blk).
//     The race is then judged as one whose constraint holds, not as
//     uniform, when such an event writes a global of any constraint of the
//     pair, not only of the one that holds (see
//     testdata/regress/float-other.blk); this costs the CDPOR paper's
//     Example 5 one more sleep-set-blocked trace (p.r).
//   - A constraint that reads no global is checked on the locals the two
//     processes had before their events, without going to s[E'.û], when
//     n's process was created before e; it then holds uniformly.
//   - The package does not use cgo and does not depend on the solver.
package dporrt

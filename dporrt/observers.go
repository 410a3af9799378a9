package dporrt

import (
	"slices"

	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// This file holds what observers change in the optimal loop: Optimal DPOR
// with observers (Aronis, Jonsson, Lång, Sagonas, TACAS'18; the ISSTA'19
// paper's Sec. 2.2 and Fig. 1). Two events that write a common location
// are dependent only when a later event observes the second write: reads
// that location while the second write's value is still there. Reads
// against writes stay dependent, as do events of one process, a spawn and
// the process it creates, and a runtime error against everything.
//
// What observes, for our blocks: a block is one event that may read and
// write many locations; it observes every location in its read set (an
// assert's, an await guard's and the invariants' reads are among them, so
// violations are preserved), and a process blocked where the sequence ends
// observes its block's read set there (see observe). Observation is per
// location: a block that writes x and y, observed on x only, is dependent
// on another writer of x and independent of another writer of y. With the
// static dependency the read set is the block's syntactic one: a block that
// may read x observes it even in a run where its branch does not, which can
// only add dependencies.
//
// Observation depends on the events that come later, so the races of a
// sequence are known only once it is maximal: observedRaces then computes
// happens-before under the observer dependency, reverses the races, and
// puts back the plain happens-before the loop goes on with. Sleep sets and
// the wakeup trees' weak initials are those of the plain dependency, which
// does not depend on what comes later: a trace equivalent under it to an
// explored one is equivalent under the observer dependency too, so they
// drop nothing the observers need. On top of them, a reversal is dropped
// when a process done at some prefix is its weak initial under the
// observer dependency (the ISSTA'19 paper's redundant(E', done), Fig. 1,
// line 9; see redundantObserved). The paper drops sleep sets here; without
// them odpor-ob explored more traces than odpor.

// writeWriteObserved reports whether a and b, which neither read what the
// other writes, are dependent through a location both write and one of
// them wrote for an observer.
func (x *explorer) writeWriteObserved(a, b *event) bool {
	return x.intersect(a.writes, b.observed) || x.intersect(a.observed, b.writes)
}

// observe sets the observed locations of every event of the sequence:
// the static locations (see key: a cell of an array whose cells are told
// apart, else the global's first location) of which it wrote a cell that
// a later event may read before another event writes that cell. A read is
// judged on the static read set (a block may read any cell its static
// location stands for), an overwrite on what the event really wrote: the
// static write set of a block that writes arr[j] names all of arr, and
// taking it as an overwrite of arr[1] would lose an observation. With
// final (Options.ObserveFinal), the values left at the end are read by a
// virtual last event.
func (x *explorer) observe(final bool) {
	last := make(map[interp.Loc]int)         // a cell's last writer
	live := make(map[interp.Loc]map[int]int) // per static location: writers whose value is still in some of its cells, with how many
	mark := func(k int, g interp.Loc) { x.seq[k].observed = append(x.seq[k].observed, g) }
	for _, ev := range x.seq {
		ev.observed, ev.readFrom = ev.observed[:0], ev.readFrom[:0]
	}
	// readers calls f with each writer whose value is live in a location
	// read set r names (a WholeLoc names every cell of its array).
	readers := func(r []interp.Loc, f func(w int, g interp.Loc)) {
		for _, g := range r {
			if g >= 0 {
				for w := range live[g] {
					f(w, g)
				}
				continue
			}
			a := interp.WholeGlobal(g)
			for c, ws := range live {
				if x.m.GlobalOf(c) == a {
					for w := range ws {
						f(w, c)
					}
				}
			}
		}
	}
	for k, ev := range x.seq {
		readers(ev.reads, func(w int, g interp.Loc) {
			if w != k {
				mark(w, g)
				ev.readFrom = append(ev.readFrom, observation{w, g})
			}
		})
		for _, c := range ev.wrote {
			g := x.key(c)
			if live[g] == nil {
				live[g] = make(map[int]int)
			}
			if w, ok := last[c]; ok {
				if live[g][w]--; live[g][w] == 0 {
					delete(live[g], w)
				}
			}
			last[c] = k
			live[g][k]++
		}
	}
	if final {
		for g, ws := range live {
			for w := range ws {
				mark(w, g)
			}
		}
	}
	// A process blocked where the sequence ends reads its guard there, and
	// the values it reads keep it blocked: it observes them. Not taken as
	// an observer, the write that blocked it races with no other write of
	// that global, and the order where another write comes last, which may
	// let the process on, is never explored (see
	// dporrt/testdata/regress/ob-blocked-guard.blk).
	for i, p := range x.st.Procs {
		if p.Done || x.st.Enabled(i) {
			continue
		}
		r, _ := x.staticSets(p.Point.Block)
		readers(r, mark)
	}
	for _, ev := range x.seq {
		slices.Sort(ev.observed)
		ev.observed = slices.Compact(ev.observed)
	}
}

// observation is a write an event observes: the writer's position and
// the static location (see key).
type observation struct {
	writer int
	global interp.Loc
}

// observedRaces reverses the races of the maximal sequence under the
// observer dependency (ISSTA'19 Fig. 1, lines 3-10): for a race of two
// writes that is dependent only because e' is observed, v is
// notdep(e, E).ê'.ê.(notobs(e, e', E) \ ê').ô: e' and e reversed, then the
// events after e that neither observe the race nor follow an observer,
// then the last observer o, which now reads e's value (see observedTail);
// for any other race v is notdep(e, E).ê'. Every race of the sequence is
// looked at, not only those of its new events: a new event can observe an
// old write and make an old pair of writes a race.
//
// codpor-ob: a race a constraint shows uniformly independent is no race
// and no happens-before edge (see dropUniform and docs/algorithms.md for
// why U⇒ holds under observers), and a race of two events that are not
// only writes is reversed as codpor reverses it (see reverse).
func (x *explorer) observedRaces() {
	x.observe(x.opts.ObserveFinal)
	x.observing = true
	var races [][2]int
	for k := range x.seq {
		x.scan(k, func(i, k int) bool {
			if x.check.dropsUniform(x, i, k) {
				return true // codpor-ob: no race, no happens-before edge
			}
			races = append(races, [2]int{i, k})
			return false
		})
	}
	x.observing = false
	for _, r := range races {
		if x.outOfTime() {
			break
		}
		i, k := r[0], r[1]
		if fp := x.raceFingerprint(i, k); slices.Contains(x.seq[k].handled, fp) {
			continue
		} else {
			x.seq[k].handled = append(x.seq[k].handled, fp)
		}
		ww := !x.beyondWrites(x.seq[i], x.seq[k]) // two writes, dependent for an observer
		if ww {
			x.check.reverseWrites(x, i, k)
		} else {
			x.check.reverse(x, i, k) // codpor-ob: as codpor reverses it
		}
	}
	for k := range x.seq { // back to the plain happens-before
		x.scanOptimal(k)
	}
}

// raceFingerprint identifies what the reversal of the race of seq[i] with
// seq[k] depends on, so that a race seen again in a later maximal sequence
// is reversed once, as detectRaces does without observers: the events from
// e to the last one that observes e' (by identity, with what they observe,
// which fixes their dependencies and so happens-before among them: a
// chain between two of them passes only through events between them), the
// observers of e' (the virtual last event's observations are among the
// observed lists). What
// comes after the last observer changes only the end of v, which a wakeup
// tree leaves free (see detectRaces).
func (x *explorer) raceFingerprint(i, k int) uint64 {
	h := interp.Mix(uint64(x.seq[i].id)<<32 ^ uint64(x.seq[k].id))
	last := k
	for j := k + 1; j < len(x.seq); j++ {
		for _, r := range x.seq[j].readFrom {
			if r.writer == k {
				h = interp.Mix(h ^ x.seq[j].id)
				last = j
				break
			}
		}
	}
	for j := i; j <= last; j++ {
		h = interp.Mix(h ^ x.seq[j].id)
		for _, g := range x.seq[j].observed {
			h = interp.Mix(h ^ uint64(g))
		}
	}
	return h
}

// observedTail returns the positions of e', e, notobs(e, e', E) \ e' and
// the observer o, for the race of two writes e = seq[i] and e' = seq[k],
// and o's position: o is the last event that observes e”s write of a
// global e writes too and does not happen after another observer of it
// (it could not run without that one); notobs are the events that happen
// after e, observe nothing of the race, and happen after no observer.
//
// Where no event observes e', o is -1. Without ObserveFinal, e's write is
// then the one observed, and the tail is e' alone, odpor's reversal. With
// it, the virtual last event may observe e', and the tail ends with
// notobs, which are then every event after e that happens after it: the
// virtual event observes after all of them. With e' alone, the rest is left
// to the races below it, and the branch the reversal falls to may have
// dropped, as redundant against a done process, the run the reversed order
// needs; with e, the reversal names the order it stands for (see
// dporrt/testdata/regress/ob-error-overwrite.blk, and ob-cover-error.blk,
// where the reversal comes from a run a cover skips: see forceCovered).
func (x *explorer) observedTail(i, k int) (tail []int, o int) {
	e := x.seq[i]
	obs := x.observersOf(i, k)
	o = -1
	for a := len(obs) - 1; a >= 0 && o < 0; a-- {
		o = obs[a]
		for _, b := range obs {
			if b != o && hb(x.seq[b], x.seq[o]) {
				o = -1
				break
			}
		}
	}
	if o < 0 && !x.opts.ObserveFinal {
		return []int{k}, o // e's write is what is observed: odpor's reversal
	}
	tail = []int{k, i}
	for j := i + 1; j < len(x.seq); j++ {
		if j == k || slices.Contains(obs, j) || !hb(e, x.seq[j]) || o < 0 && x.seq[j].virtual {
			continue
		}
		after := false
		for _, b := range obs {
			if hb(x.seq[b], x.seq[j]) {
				after = true
				break
			}
		}
		if !after {
			tail = append(tail, j)
		}
	}
	if o >= 0 {
		tail = append(tail, o)
	}
	return tail, o
}

// redundantObserved reports whether v, a reversal to insert at level i
// (from E' = seq[:i]), repeats a class of traces already explored under
// the observer dependency (ISSTA'19 Fig. 1, line 9; TACAS'18): for some
// split E' = w.w', a process explored from w (done(w)) is a weak initial
// of w'.v under the observer dependency of w'.v. The explored subtree of
// that process then holds a trace equivalent to E'.v: the same events,
// every pair of dependent ones in the same order, so every block reads the
// same values. Sleep sets, which the plain dependency keeps (see
// observedRaces), see only w = E'; on LW(n), whose writes but the last are
// read by nobody, they leave n! orders where this check leaves n.
//
// The observer dependency of w'.v is taken from w'.v alone, erring towards
// dependence: a write is observed when a later event of the sequence may
// read its global before an event surely overwrites it (see overwrites:
// a cell of an array is known only from the run), or when it is still
// there at the end (what follows v is not known yet).
func (x *explorer) redundantObserved(i int, v []*event) bool {
	for j := i; j >= 0; j-- {
		f := x.levels[j]
		if len(f.doneEv) == 0 {
			continue
		}
		u := make([]*event, 0, i-j+len(v))
		for _, ev := range slices.Concat(x.seq[j:i], v) {
			if !ev.virtual {
				u = append(u, ev)
			}
		}
		for _, d := range f.doneEv {
			if x.weakInitialObserved(d, u) {
				return true
			}
		}
	}
	return false
}

// weakInitialObserved reports whether d's process is a weak initial of u
// under the observer dependency of u (see redundantObserved): its first
// event in u depends on no earlier one, or, where it has none, d, run
// before u, depends on none of u's events.
func (x *explorer) weakInitialObserved(d *event, u []*event) bool {
	_, ok := x.observedWI(d, u)
	return ok
}

// observedWI is weakInitialObserved with the position of d's process's
// first event in u (-1: none), as wakeup trees ask it. What u observes is
// worked out only for a pair that only writes in common.
func (x *explorer) observedWI(d *event, u []*event) (int, bool) {
	a := slices.IndexFunc(u, func(ev *event) bool { return ev.pid == d.pid })
	seq, pairs := u, func(yield func(b, c int) bool) {
		for b := range a {
			if !yield(b, a) {
				return
			}
		}
	}
	if a < 0 {
		seq = append([]*event{d}, u...)
		pairs = func(yield func(b, c int) bool) {
			for c := 1; c < len(seq); c++ {
				if !yield(0, c) {
					return
				}
			}
		}
	}
	var obs [][]interp.Loc
	for b, c := range pairs {
		if x.beyondWrites(seq[b], seq[c]) {
			return a, false
		}
		if !x.intersect(seq[b].writes, seq[c].writes) {
			continue
		}
		if obs == nil {
			obs = x.observedIn(seq)
		}
		if x.dependentObserved(seq, obs, b, c) {
			return a, false
		}
	}
	return a, true
}

// dependentObserved reports whether seq[a] and seq[b] (a < b) are
// dependent under the observer dependency whose observed writes are obs.
func (x *explorer) dependentObserved(seq []*event, obs [][]interp.Loc, a, b int) bool {
	if x.beyondWrites(seq[a], seq[b]) {
		return true
	}
	return x.intersect(seq[a].writes, obs[b]) || x.intersect(obs[a], seq[b].writes)
}

// observedIn returns, for each event of seq, the globals it writes that
// may be observed (see redundantObserved), sorted.
func (x *explorer) observedIn(seq []*event) [][]interp.Loc {
	obs := make([][]interp.Loc, len(seq))
	waits := x.waits(seq)
	// With ObserveFinal, where a runtime error is (see mayBeObserved).
	fail := -1
	if x.opts.ObserveFinal {
		fail = slices.IndexFunc(seq, func(ev *event) bool { return ev.err != nil })
	}
	for a, ev := range seq {
		for _, g := range ev.writes {
			if a < fail || x.mayBeObserved(seq, waits, a, g) {
				obs[a] = append(obs[a], g)
			}
		}
	}
	return obs
}

// wait is a window of a sequence where a process waits at an await: in
// every state from the one after seq[:from] to the one before seq[to],
// its event seq[to], its guard reads reads (see guardLocs).
type wait struct {
	from, to int
	reads    []interp.Loc
}

// waits returns the windows where the processes of seq wait at an await
// before an event of seq: from the event before it of the same process,
// or the one that spawned it (else the start of seq), to the event. A
// process that stands at an await in the current state and does not run
// its block in seq waits too, from its last event in seq (or the one that
// spawned it, else the start) to the end of seq: its await block is still
// to come, and its guard is read in every state of that window. Without it,
// a write that another overwrites while such a process waits commutes with
// the overwrite in the check against done, and a reversal that runs the
// await block between the two is dropped as redundant (see
// dporrt/testdata/regress/ob-waiting-later.blk, a mutant of
// ob-waiting-twins.blk).
func (x *explorer) waits(seq []*event) []wait {
	var out []wait
	since := func(pid interp.PID, b int) int {
		for a := b - 1; a >= 0; a-- {
			if seq[a].pid == pid || slices.Contains(seq[a].spawn, pid) {
				return a + 1
			}
		}
		return 0
	}
	for b, ev := range seq {
		if ev.block.Point.Guard == nil {
			continue
		}
		out = append(out, wait{since(ev.pid, b), b, x.guardLocs(ev.block)})
	}
	for _, p := range x.st.Procs {
		if p.Done || p.Point.Guard == nil {
			continue
		}
		if slices.ContainsFunc(seq, func(ev *event) bool { return ev.pid == p.ID && ev.block == p.Point.Block }) {
			continue
		}
		out = append(out, wait{since(p.ID, len(seq)), len(seq), x.guardLocs(p.Point.Block)})
	}
	return out
}

// guardLocs returns the static locations (see staticSets) the await guard
// of block b may read, with those of the funcs it calls; computed once per
// block.
func (x *explorer) guardLocs(b *lang.Block) []interp.Loc {
	if r, ok := x.guards[b]; ok {
		return r
	}
	if x.guards == nil {
		x.guards = map[*lang.Block][]interp.Loc{}
	}
	reads, _, _ := x.m.Prog.Access([]*lang.Node{b.Proc.Nodes[b.Point.Node]})
	r := x.staticLocs(reads)
	x.guards[b] = r
	return r
}

// mayBeObserved reports whether the write of static location g (see key)
// by seq[a] may be read: a process waits at an await whose guard reads g
// in the state after it (one of waits, seq's), a later event reads g
// before one surely overwrites it (see overwrites), or none does.
//
// A guard is read in every state its process waits in: whether the
// process may run there, and so which runs go on from there, depends on
// the values it reads. Two sequences that order such a write otherwise
// against another write of g give the guard other values in that window,
// and the races of the blocked process, whose reversals are what run it
// there, differ between them. Taken as equivalent under the observers of
// the events alone, they let the wakeup tree merge a reversal into a branch
// whose runs do not lead there, and the check against done drop a reversal
// as redundant against a process done in such a run (see
// dporrt/testdata/regress/ob-waiting-guard.blk and ob-waiting-twins.blk).
//
// With ObserveFinal, a write that a runtime error follows in seq is
// observed whatever overwrites it (observedIn sees to it): the error is
// dependent on every event, and the reversals of its races move it before
// the overwrite, where the write reaches the end (see
// dporrt/testdata/regress/ob-error-cut.blk).
//
// Race detection on a maximal sequence (observe) counts no such window:
// its observers define its class, in which every block reads the same
// values; the differential tests back this.
func (x *explorer) mayBeObserved(seq []*event, waits []wait, a int, g interp.Loc) bool {
	for _, w := range waits {
		if w.from <= a+1 && a < w.to && x.touches(w.reads, g) {
			return true
		}
	}
	for b := a + 1; b < len(seq); b++ {
		if x.touches(seq[b].reads, g) {
			return true
		}
		if x.overwrites(seq[b], g) {
			return false
		}
	}
	return true
}

// overwrites reports whether ev surely writes g, a scalar: it raises no
// runtime error and its block assigns g on every path
// (lang.Block.MustWrite), whatever values it reads. Its block's static
// write set is not enough: it names writes on branches a run may not take.
// Taken as an overwrite there, a loop's last block, which writes g only
// when it iterates again, hides the write before it from the virtual last
// event of ObserveFinal (see dporrt/testdata/regress/ob-must-write.blk).
// Nor is what the event wrote where it ran (ev.wrote): a reversal of a race
// with the event can make it read other values and write elsewhere, and the
// check against done would take a sequence for equivalent to an explored
// one that it is not (see dporrt/testdata/regress/ob-wrote.blk).
func (x *explorer) overwrites(ev *event, g interp.Loc) bool {
	if ev.err != nil {
		return false
	}
	_, must := slices.BinarySearch(x.mustWrites(ev.block), g)
	return must
}

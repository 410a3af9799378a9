package dporrt

import (
	"slices"
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
// violations are preserved). Observation is per location: a block that
// writes x and y, observed on x only, is dependent on another writer of x
// and independent of another writer of y. With the static dependency the
// read set is the block's syntactic one: a block that may read x observes
// it even in a run where its branch does not, which can only add
// dependencies.
//
// Observation depends on the events that come later, so the races of a
// sequence are known only once it is maximal: observedRaces then computes
// happens-before under the observer dependency, reverses the races, and
// puts back the plain happens-before the loop goes on with. There are no
// sleep sets (whether a process asleep would stay independent of what
// follows is not known when it is put to sleep): a reversal is redundant
// when a process already explored from its level is a weak initial of it
// (ISSTA'19 Fig. 1, redundant(E', done)). Weak initials, in the wakeup
// trees and there, are judged under the plain dependency, which has more
// dependencies than the observer one: fewer weak initials, so a reversal
// is kept in some cases the observer dependency would drop, never the
// other way.

// writeWriteObserved reports whether a and b, which neither read what the
// other writes, are dependent through a location both write and one of
// them wrote for an observer.
func writeWriteObserved(a, b *event) bool {
	return intersect(a.writes, b.observed) || intersect(a.observed, b.writes)
}

// observe sets the observed locations of every event of the sequence:
// the globals (named by their first location, as the static sets name
// them) of which it wrote a cell that a later event may read before
// another event writes that cell. A read is judged on the static read set
// (a block may read any cell of a global it names), an overwrite on what
// the event really wrote: the static write set of a block that writes
// arr[0] names all of arr, and taking it as an overwrite of arr[1] would
// lose an observation. With final (Options.ObserveFinal), the values left
// at the end are read by a virtual last event.
func (x *explorer) observe(final bool) {
	last := make(map[Loc]int)         // a cell's last writer
	live := make(map[Loc]map[int]int) // per global: writers whose value is still in some cell, with how many
	mark := func(k int, g Loc) { x.seq[k].observed = append(x.seq[k].observed, g) }
	for _, ev := range x.seq {
		ev.observed = ev.observed[:0]
	}
	for k, ev := range x.seq {
		for _, g := range ev.reads {
			for w := range live[g] {
				if w != k {
					mark(w, g)
				}
			}
		}
		for _, c := range ev.wrote {
			g := Loc(x.m.offset[x.m.global(c)])
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
	for _, ev := range x.seq {
		slices.Sort(ev.observed)
		ev.observed = slices.Compact(ev.observed)
	}
}

// observedRaces reverses the races of the maximal sequence under the
// observer dependency (ISSTA'19 Fig. 1, lines 3-10): for a race of two
// writes, dependent only because e' is observed, v ends with e' and then an
// observer o that reads e”s value, so that in the reversed order o reads
// e's; for any other race, v ends with e'. Every race of the sequence is
// looked at, not only those of its new events: a new event can observe an
// old write and make an old pair of writes a race.
func (x *explorer) observedRaces() {
	x.observe(x.opts.ObserveFinal)
	x.observing = true
	var races [][2]int
	for k := range x.seq {
		x.scan(k, func(i, k int) bool {
			races = append(races, [2]int{i, k})
			return false
		})
	}
	x.observing = false
	for _, r := range races {
		if x.timeUp() {
			x.cut("timeout")
			break
		}
		i, k := r[0], r[1]
		o := -1
		if !beyondWrites(x.seq[i], x.seq[k]) {
			o = x.observer(i, k) // two writes, dependent for an observer
		}
		x.reverse(i, k, o)
	}
	for k := range x.seq { // back to the plain happens-before
		x.clock(k)
	}
}

// observer returns the position of the first event after e' = seq[k] that
// observes e”s write of a location e = seq[i] also writes, and that can
// follow v = notdep(e, E).ê': each of its predecessors after e is in v or
// is e'. -1 when there is none such; the race is then reversed without an
// observer, which explores more but misses nothing.
func (x *explorer) observer(i, k int) int {
	e, n := x.seq[i], x.seq[k]
	for j := k + 1; j < len(x.seq); j++ {
		o := x.seq[j]
		if !x.readsFrom(o, n, e.writes, k, j) {
			continue
		}
		ok := true
		for m := i + 1; m < j && ok; m++ {
			if m != k && hb(x.seq[m], o) && hb(e, x.seq[m]) {
				ok = false
			}
		}
		if ok {
			return j
		}
	}
	return -1
}

// readsFrom reports whether o = seq[j] reads a location of locs that
// w = seq[k] wrote, with no write of it between them.
func (x *explorer) readsFrom(o, w *event, locs []Loc, k, j int) bool {
	for _, l := range o.reads {
		if !slices.Contains(locs, l) || !slices.Contains(w.writes, l) {
			continue
		}
		overwritten := false
		for m := k + 1; m < j && !overwritten; m++ {
			overwritten = slices.Contains(x.seq[m].writes, l)
		}
		if !overwritten {
			return true
		}
	}
	return false
}

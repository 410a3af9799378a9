package dporrt

import (
	"slices"
	"sort"

	"github.com/icgen/icgen/interp"
)

// This file holds the dependency between events and the happens-before
// relation built from it (vector clocks), with the race scan.

// dependent reports whether two events conflict: same process, one creates
// the other's process, one writes a location the other reads or writes, or
// one is a runtime error. An error ends the execution: the state it leaves
// depends on every event before it, and it disables every other process.
// With observers, two writes of a location conflict only when observed
// (see observers.go).
func (x *explorer) dependent(a, b *event) bool {
	if x.beyondWrites(a, b) {
		return true
	}
	if x.observing {
		return x.writeWriteObserved(a, b)
	}
	return x.intersect(a.writes, b.writes)
}

// beyondWrites reports whether a and b conflict otherwise than by writing a
// common location.
func (x *explorer) beyondWrites(a, b *event) bool {
	if a.pid == b.pid || a.err != nil || b.err != nil {
		return true
	}
	if slices.Contains(a.spawn, b.pid) || slices.Contains(b.spawn, a.pid) {
		return true
	}
	return x.intersect(a.writes, b.reads) || x.intersect(a.reads, b.writes)
}

// intersect reports whether two sorted location sets meet: share a
// location, or one has the WholeLoc of an array the other has the WholeLoc
// or a cell of. The wholeLocs come first in a sorted set (they are
// negative); without them this is a merge.
func (x *explorer) intersect(a, b []interp.Loc) bool {
	if len(a) > 0 && a[0] < 0 || len(b) > 0 && b[0] < 0 {
		if x.wholeMeets(a, b) || x.wholeMeets(b, a) {
			return true
		}
		a, b = cellsOf(a), cellsOf(b)
	}
	return intersectCells(a, b)
}

// wholeMeets reports whether a WholeLoc of a meets b: b has it too, or a
// cell of its array.
func (x *explorer) wholeMeets(a, b []interp.Loc) bool {
	cells := cellsOf(b)
	for _, l := range a {
		if l >= 0 {
			break
		}
		if slices.Contains(b[:len(b)-len(cells)], l) {
			return true
		}
		g := interp.WholeGlobal(l)
		first, n := x.m.GlobalLocs(x.m.Prog.Globals[g])
		end := first + interp.Loc(n)
		if i := sort.Search(len(cells), func(i int) bool { return cells[i] >= first }); i < len(cells) && cells[i] < end {
			return true
		}
	}
	return false
}

// cellsOf returns the sorted set a without its wholeLocs.
func cellsOf(a []interp.Loc) []interp.Loc {
	i := sort.Search(len(a), func(i int) bool { return a[i] >= 0 })
	return a[i:]
}

// touches reports whether the sorted set a meets location l.
func (x *explorer) touches(a []interp.Loc, l interp.Loc) bool {
	return x.intersect(a, []interp.Loc{l})
}

// intersectCells reports whether two sorted location lists share an
// element.
func intersectCells(a, b []interp.Loc) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// clock computes the vector clock of the event at position k from its
// direct predecessors: the previous event of its process, the event that
// created its process, and every earlier dependent event. races does the
// same while it finds the races, leaving out the events it proves
// uniformly independent; clock is for an event whose races are not wanted
// (the tests use it on dfs's events).
func (x *explorer) clock(k int) { x.scan(k, nil) }

// scan visits the events before position k, latest first, and builds the
// vector clock of n = seq[k] from its direct predecessors. An event already
// covered by the clock built so far happens before a later predecessor: it
// adds nothing to the clock and, when dependent on n, is not in a race
// with it (some event between them is after it and before n). A dependent
// event of another process not covered is in a race with n; with race set,
// the race is handled (see race) and, when it is shown uniformly
// independent, the event is left out of the clock, so earlier races are
// judged on the relation without it.
//
// For the virtual event of a blocked process (see blockedRaces), an event
// that ran while the process was blocked already is in a race with it (its
// guard is what they share) but not a predecessor: the process could not
// run before it, and the write that blocked it, earlier, is the race to
// reverse. Taken as a predecessor, a later write of the guard that keeps it
// blocked (the next block of the process that blocked it, say) would hide
// that race once the sequence goes on, while the events after the blocking
// write that the reversal must put first are still to come (see
// testdata/regress/blocked-kept.blk).
//
// While the scan runs, n's clock holds the predecessors seen so far, which
// is exact for every event after the one being looked at: what race needs
// to compare the events between e and n with n. n's own rank (n.seq) is set
// at the end, so hb(n, ·) must not be asked during the scan.
//
// The scan stops where n's clock covers every event left: the clock counts
// the events it covers, and those after the position looked at are
// counted as they are passed (a predecessor's clock covers only earlier
// events), so the rest are covered when the difference is their number.
func (x *explorer) scan(k int, race func(i, k int) bool) {
	n := x.seq[k]
	n.clock = vclock{}
	after := int64(0) // covered events after position i
	exists := true    // n's process exists before the event at position i
	for i := k - 1; i >= 0; i-- {
		if n.clock.total()-after == int64(i+1) {
			break // events 0..i are all covered
		}
		e := x.seq[i]
		spawner := slices.Contains(e.spawn, n.pid)
		if n.clock.get(e.proc) >= e.seq {
			after++
			exists = exists && !spawner
			continue
		}
		pred := e.proc == n.proc || spawner
		if !pred {
			if !x.dependent(e, n) {
				continue
			}
			if race != nil && !x.stopped && race(i, k) {
				continue // uniformly independent: not a predecessor
			}
			if n.blocked && exists && !x.enabledAt(n.proc, i) {
				continue // it was blocked before e too: not a predecessor
			}
		}
		n.clock = join(n.clock, e.clock)
		after++
		exists = exists && !spawner
	}
	n.seq = n.clock.get(n.proc) + 1
	n.clock = n.clock.set(n.proc, n.seq)
}

// hb reports whether a happens-before b (a earlier in the sequence).
func hb(a, b *event) bool { return b.clock.get(a.proc) >= a.seq }

// races finds the reversible races of the event at position k with earlier
// events and updates the source sets (the black code of Alg. 1); it also
// computes the event's vector clock (see scan).
func (x *explorer) races(k int) { x.scan(k, x.race) }

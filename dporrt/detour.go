package dporrt

import (
	"slices"

	"github.com/icgen/icgen/interp"
)

// This file holds the detours of the race checks: running from the state
// at an earlier level of the sequence, on a snapshot kept at that level.

// detour runs f with the explorer moved to E' = seq[:i], on a snapshot of
// s[E'] kept at level i, and moves it back: f may step and change the
// state, which is then rolled back. The snapshot is taken the first time a
// race at level i needs it (by undoing to E', cloning and replaying the
// suffix) and serves every later race at that level; it lives as long as
// the level. Apart from taking the snapshot, the current state is not
// changed, so no replay is needed per race, and the cost of a race no
// longer grows with its distance. Snapshots take at most maxSnapBytes
// together: past that, f runs on the current state undone to E', and the
// suffix is replayed after it.
//
// With prefix, f's events follow a copy of E' in the sequence, as a
// finding's schedule needs; without, they start an empty sequence (f must
// not look at E'), which saves copying E' for every race.
func (x *explorer) detour(i int, prefix bool, f func()) {
	lv := x.levels[i]
	var suffix []*event
	st, seq := x.st, x.seq
	if lv.snap == nil {
		suffix = slices.Clone(x.seq[i:])
		x.st.Undo(x.seq[i].mark)
		size := x.st.Size()
		if x.snapBytes+x.freeBytes+size > x.snapLimit {
			x.freeSnaps, x.freeBytes = nil, 0 // the bound counts them
		}
		if x.snapBytes+size <= x.snapLimit {
			lv.snap, lv.snapSize = x.st.CloneInto(x.reuseSnap()), size
			x.snapBytes += size
			x.restore(i, suffix)
			suffix = nil
		}
	}
	if suffix == nil {
		x.st = lv.snap
	}
	if prefix {
		x.seq = seq[:i:i] // appends go to a fresh array
	} else {
		x.seq = x.spare[:0]
	}
	mark := x.st.Mark()
	x.detouring = true
	f()
	x.detouring = false
	x.st.Undo(mark)
	if !prefix {
		clear(x.seq)
		x.spare = x.seq[:0]
	}
	x.st, x.seq = st, seq
	if suffix != nil {
		x.restore(i, suffix)
	}
}

// dropSnap frees the snapshot of a level that is left, keeping its memory
// for the next snapshot taken (see reuseSnap). Kept snapshots count
// against the bound on snapshots (maxSnapBytes) as the live ones do.
func (x *explorer) dropSnap(lv *level) {
	if lv.snap != nil {
		x.snapBytes -= lv.snapSize
		if len(x.freeSnaps) < maxFreeSnaps {
			x.freeSnaps = append(x.freeSnaps, freeSnap{lv.snap, lv.snapSize})
			x.freeBytes += lv.snapSize
		}
		lv.snap, lv.snapSize = nil, 0
	}
}

// maxFreeSnaps is how many dropped snapshots are kept for reuse.
const maxFreeSnaps = 4

// freeSnap is a dropped snapshot and the bytes it was counted for.
type freeSnap struct {
	st   *interp.State
	size int
}

// reuseSnap returns a dropped snapshot to clone into, or nil.
func (x *explorer) reuseSnap() *interp.State {
	n := len(x.freeSnaps)
	if n == 0 {
		return nil
	}
	f := x.freeSnaps[n-1]
	x.freeSnaps[n-1] = freeSnap{}
	x.freeSnaps = x.freeSnaps[:n-1]
	x.freeBytes -= f.size
	return f.st
}

// restore brings the state back to the sequence prefix..suffix after a
// detour from position i (execution is deterministic: same events, same
// undo marks).
//
// The events themselves are kept: re-running them changes the state the
// same way and leaves the same undo marks, so their sets and vector clocks
// stay right and need no recomputing.
func (x *explorer) restore(i int, suffix []*event) {
	x.st.Undo(suffix[0].mark)
	x.seq = x.seq[:i]
	for _, old := range suffix {
		if !old.virtual { // a virtual event was never executed
			x.st.StepInto(old.proc, &x.scratch)
		}
		x.seq = append(x.seq, old)
	}
}

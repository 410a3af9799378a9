package dporrt

// This file holds what a race check is. The loops find the races of the
// explored sequence; a check decides what is true of each one, and the loop
// decides where that goes (a back set or a wakeup tree; a sleep sequence or
// a don't-do entry).

// raceCheck decides what is true of a race besides "reverse it": the
// context-sensitive check (check_state.go), the independence-constraint check
// (check_ics.go). An algorithm without one reverses every race.
type raceCheck interface {
	// judge looks at the race of e = seq[i] with n = seq[k] (n is not a
	// runtime error: such a race is always reversed). It may detour to
	// earlier states, and must leave the explorer as it found it.
	judge(x *explorer, i, k int) verdict
}

// verdict is what a check found out about a race.
type verdict struct {
	// uniform: the two events are independent in every state the race
	// could be reversed from (a constraint holds uniformly, U⇒): the race
	// is not reversed and is no happens-before edge.
	uniform bool
	// covers are sequences of events from pre(E, e), the reversal of the
	// race, whose runs end where an explored run does: not to be explored
	// to their end (a sleep sequence of the source loop, a don't-do entry
	// of the optimal loop).
	covers [][]*event
}

// cover adds a covering sequence (nothing when seq is nil).
func (v *verdict) cover(seq []*event) {
	if seq != nil {
		v.covers = append(v.covers, seq)
	}
}

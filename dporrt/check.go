package dporrt

import "github.com/icgen/icgen/interp"

// This file holds what a race check is. The loops find the races of the
// explored sequence; a check decides what is true of each one, and the loop
// decides where that goes (a back set or a wakeup tree; a sleep sequence or
// a don't-do entry).

// raceCheck decides what is true of a race besides "reverse it": none
// (noCheck), the context-sensitive check (check_state.go), the
// independence-constraint check (check_ics.go).
type raceCheck interface {
	// judge looks at the race of e = seq[i] with n = seq[k] (n is not a
	// runtime error: such a race is always reversed). It may detour to
	// earlier states, and must leave the explorer as it found it.
	judge(x *explorer, i, k int) verdict
	// reverse reverses a race of the optimal loop's maximal sequence that
	// was not judged when found (see detectRaces).
	reverse(x *explorer, i, k int)
	// reverseWrites reverses a race of two writes that are dependent
	// because a later event observes the second (with observers: see
	// observedRaces).
	reverseWrites(x *explorer, i, k int)
	// covers reports whether the check can cover a sequence: a sleep
	// sequence of the source loop, a don't-do entry of the optimal loop.
	covers() bool
	// forcesSkipped reports whether the source loop forces the races of
	// a covered process only where it is not explored (the state check:
	// see sourceCoveredStop, forceSkipped), rather than reversing those
	// of every covered process on entering a level and exploring every
	// process awake there.
	forcesSkipped() bool
	// scan notes the races of the optimal loop's event at position k by
	// the plain dependency (scanOptimal), and scanObserved with observers.
	scan(x *explorer, k int)
	scanObserved(x *explorer, k int)
	// dropsUniform reports whether the race of seq[i] with seq[k] is no
	// race under observers, a constraint showing it uniformly independent
	// (see dropUniform).
	dropsUniform(x *explorer, i, k int) bool
	// early reports whether the optimal loop's reversal of the race of
	// seq[i] with tail puts e' right after the events it happens after,
	// rather than last (see reverse); reversed is called after it.
	early(x *explorer, i int, tail []int) bool
	reversed(x *explorer, i int, tail []int)
	// needsOrigins reports whether the events keep their process's locals
	// before them (event.pre) and the explorer the position where each
	// process was born (explorer.born), for the constraints.
	needsOrigins() bool
	// keptAsleep returns the single processes asleep at the source loop's
	// level f that stay asleep after pid runs (see uniformSleepers).
	keptAsleep(x *explorer, f *level, pid interp.PID) []sleeper
	// keptCovers returns the don't-do sequences of the optimal loop's
	// level f that its child after pid inherits besides childSleep's (see
	// uniformCovers).
	keptCovers(x *explorer, f *level, pid interp.PID) []sleeper
	// uniformAt reports whether a constraint shows the events a and b
	// uniformly independent at level i (see uniformAt).
	uniformAt(x *explorer, i int, a, b *event) bool
}

// noConstraints is what the checks but the constraints' do alike: races
// are recorded as found and judged once the sequence is maximal, no race
// is dropped as uniform, e' goes last in a reversal and nothing follows
// it, no origins are kept, no sleeper or cover is carried.
type noConstraints struct{}

func (noConstraints) scan(x *explorer, k int)                            { x.scan(k, x.recordRace) }
func (noConstraints) scanObserved(x *explorer, k int)                    { x.clock(k) }
func (noConstraints) dropsUniform(*explorer, int, int) bool              { return false }
func (noConstraints) early(*explorer, int, []int) bool                   { return false }
func (noConstraints) reversed(*explorer, int, []int)                     {}
func (noConstraints) needsOrigins() bool                                 { return false }
func (noConstraints) keptAsleep(*explorer, *level, interp.PID) []sleeper { return nil }
func (noConstraints) keptCovers(*explorer, *level, interp.PID) []sleeper { return nil }
func (noConstraints) uniformAt(*explorer, int, *event, *event) bool      { return false }

// noCheck reverses every race.
type noCheck struct{ noConstraints }

func (noCheck) judge(*explorer, int, int) verdict { return verdict{} }
func (noCheck) reverse(x *explorer, i, k int)     { x.reverse(i, []int{k}) }
func (noCheck) covers() bool                      { return false }
func (noCheck) forcesSkipped() bool               { return false }

func (noCheck) reverseWrites(x *explorer, i, k int) {
	tail, _ := x.observedTail(i, k)
	x.reverse(i, tail)
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

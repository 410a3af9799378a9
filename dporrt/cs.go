package dporrt

import (
	"slices"
)

// This file holds the context-sensitive check (CAV'17; ISSTA'19 Sec. 3.1):
// run a race's reversed order and compare the state it reaches with the
// explored one.

// stateCheck is the check of csdpor: see judge.
type stateCheck struct{}

// judge is updateSleepCS (CAV'17; CAV'18 Alg. 1, line 14) for the race of
// e = seq[i] with n = seq[k]: a reversal that ends where the explored
// order does covers it. A virtual event (a blocked or asleep process's next
// event, never run here) has no state to compare.
func (stateCheck) judge(x *explorer, i, k int) verdict {
	var v verdict
	if !x.seq[k].virtual {
		v.cover(x.stateCover(i, k))
	}
	return v
}

// stateCover runs e.û.n and the reversed û.n.e from E' = pre(E, e), for
// the race of e = seq[i] with n = seq[k], and returns the events of û.n.e
// when both end in the same state modulo process naming (nil otherwise).
// The reversed run's events count as states, as in the papers; the other
// run repeats explored events and does not.
func (x *explorer) stateCover(i, k int) []*event {
	e, n := x.seq[i], x.seq[k]
	u := x.between(i, k)
	var alt []*event
	x.detour(i, true, func() { alt = x.reversed(i, e, n, u) })
	return alt
}

// reversed is stateCover's work on the snapshot of s[E'].
func (x *explorer) reversed(i int, e, n *event, u []PID) []*event {
	mark := x.st.Mark()
	for _, pid := range append(append([]PID{e.pid}, u...), n.pid) {
		if ev, _ := x.step(pid, false); ev.err != nil {
			return nil
		}
	}
	orig := x.st.Clone()
	x.st.Undo(mark)
	x.seq = x.seq[:i]
	var alt []*event
	for _, pid := range append(append(slices.Clone(u), n.pid), e.pid) {
		p := x.procIndex(pid)
		if p < 0 || !x.st.Enabled(p) {
			return nil
		}
		ev, _ := x.step(pid, true)
		if ev.err != nil {
			return nil
		}
		alt = append(alt, ev)
	}
	if x.st.Equal(orig) {
		return alt
	}
	return nil
}

// between returns û for the race of seq[i] with seq[k]: the processes of
// the events between them that happen before seq[k], in order.
func (x *explorer) between(i, k int) []PID {
	var u []PID
	for j := i + 1; j < k; j++ {
		if hb(x.seq[j], x.seq[k]) {
			u = append(u, x.seq[j].pid)
		}
	}
	return u
}

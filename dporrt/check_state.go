package dporrt

import (
	"slices"

	"github.com/icgen/icgen/interp"
)

// This file holds the context-sensitive check (CAV'17; ISSTA'19 Sec. 3.1):
// run a race's reversed order and compare the state it reaches with the
// explored one.

// stateCheck is the check of csdpor: see judge.
type stateCheck struct{ noConstraints }

func (stateCheck) reverse(x *explorer, i, k int)       { x.reverseCS(i, k) }
func (stateCheck) reverseWrites(x *explorer, i, k int) { x.reverseObservedCS(i, k) }
func (stateCheck) covers() bool                        { return true }
func (stateCheck) forcesSkipped() bool                 { return true }

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
func (x *explorer) reversed(i int, e, n *event, u []interp.PID) []*event {
	mark := x.st.Mark()
	for _, pid := range append(append([]interp.PID{e.pid}, u...), n.pid) {
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
func (x *explorer) between(i, k int) []interp.PID { return x.pidsAt(x.before(i, k)) }

// before returns the positions of the events between seq[i] and seq[k]
// that happen before seq[k], in order.
func (x *explorer) before(i, k int) []int {
	var u []int
	for j := i + 1; j < k; j++ {
		if hb(x.seq[j], x.seq[k]) {
			u = append(u, j)
		}
	}
	return u
}

// sourceCoveredStop handles, for csdpor, a level f where every enabled
// process is asleep and some are covered (ISSTA'19 Alg. 1, lines 17-19):
// nothing is explored from it, and the races of each covered process's
// next event are reversed (see sleeperRaces). It reports false, doing
// nothing, when no enabled process is covered (f is sleep-set blocked).
func (x *explorer) sourceCoveredStop(f *level) bool {
	var covered []*event
	for _, sl := range f.sleep {
		q := sl.seq[0]
		if !sl.byState || len(sl.seq) != 1 || slices.ContainsFunc(covered, func(c *event) bool { return c.pid == q.pid }) {
			continue
		}
		if i := x.procIndex(q.pid); i >= 0 && x.isEnabled(i) {
			covered = append(covered, q)
		}
	}
	if len(covered) == 0 {
		return false
	}
	x.res.Covered++
	x.treeKind(f.node, NodeCovered)
	for _, q := range covered {
		if x.stopped {
			break
		}
		x.sleeperRaces(q)
	}
	return true
}

// forceSkipped reverses, for csdpor, the races of the next events of the
// processes covered at f that a reversal chose to start with since the
// loop at f last looked (ISSTA'19 Alg. 1, lines 25-26; see updateBack):
// they are not explored, but their races with the sequence up to f are
// still to be reversed. The sequence is f's again when the loop looks.
func (x *explorer) forceSkipped(f *level) {
	for _, pid := range f.skipped {
		for _, sl := range f.sleep {
			if sl.byState && len(sl.seq) == 1 && sl.seq[0].pid == pid {
				x.sleeperRaces(sl.seq[0])
				break
			}
		}
	}
	f.skipped = f.skipped[:0]
}

// coveredOnly reports whether process pid is covered at f and not asleep
// there otherwise: a sequence starting with it is not explored, but no
// explored sequence is equivalent to it.
func (x *explorer) coveredOnly(f *level, pid interp.PID) bool {
	covered := false
	for _, sl := range f.sleep {
		if len(sl.seq) != 1 || sl.seq[0].pid != pid {
			continue
		}
		if !sl.byState {
			return false
		}
		covered = true
	}
	return covered
}

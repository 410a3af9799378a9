package dporrt

import "slices"

// This file holds what cdpor adds to sdpor (CAV'18 Alg. 1, lines 9 and 17):
// independence constraints checked in the state where a race would be
// reversed, under the transitive-uniformity condition U⇒ (Def. 4) that
// makes using them in the back sets and sleep sets sound.

// icCheck evaluates the constraints of the pair of blocks of events a and b
// in the current state, a's process being the first of the pair. holds: some
// constraint (with the pair's overflow guard) holds; uniform: some holding
// constraint reads no global that the other enabled processes' blocks, or
// anything they lead to, may write (U⇒).
func (x *explorer) icCheck(aPID, aBlock, bPID, bBlock string) (holds, uniform bool) {
	pr, swapped := x.opts.ICs.Pair(aBlock, bBlock)
	if pr == nil || len(pr.Constraints) == 0 {
		return false, false
	}
	ai, bi := x.procIndex(aPID), x.procIndex(bPID)
	if ai < 0 || bi < 0 {
		return false, false
	}
	env := ICEnv{S: x.st, First: x.st.Procs[ai], Second: x.st.Procs[bi], Funcs: x.funcs}
	if swapped { // the file stores the pair as (bBlock, aBlock)
		env.First, env.Second = env.Second, env.First
	}
	if pr.NoOverflow != nil {
		if ok, err := pr.NoOverflow.Holds(env); err != nil || !ok {
			return false, false
		}
	}
	// W of the blocks the other enabled processes stand at.
	others := map[string]bool{}
	for _, i := range x.st.EnabledProcs(nil) {
		if i == ai || i == bi {
			continue
		}
		for g := range x.w[x.st.Procs[i].Point.Block.ID] {
			others[g] = true
		}
	}
	for _, c := range pr.Constraints {
		if ok, err := c.Expr.Holds(env); err != nil || !ok {
			continue
		}
		holds = true
		touched := false
		for _, g := range c.Globals {
			if others[g] {
				touched = true
				break
			}
		}
		if !touched {
			return true, true
		}
	}
	return holds, false
}

// constrainedRace handles the race of e = seq[i] with n = seq[k] (Alg. 1,
// line 9): in s[E'.û], where E' = pre(E, e) and û are the events between e
// and n that happen before n, a constraint of I(ē, n̄) that holds uniformly
// (U⇒) means the race needs no back-set entry; otherwise the race is
// reversed through the back set as in sdpor. It reports whether e and n
// were shown independent uniformly. The current state is restored by
// replaying the suffix (execution is deterministic).
//
// Lines 11-12 (putting û.n.e in sleep(E') whenever a constraint holds) are
// not used: with them the differential test against dfs found a missed
// final state on a generated program with awaits, not yet explained.
func (x *explorer) constrainedRace(i, k int) bool {
	e, n := x.seq[i], x.seq[k]
	if pr, _ := x.opts.ICs.Pair(e.block.ID, n.block.ID); pr == nil || len(pr.Constraints) == 0 {
		x.updateBack(i, k)
		return false
	}
	u := x.between(i, k)
	suffix := slices.Clone(x.seq[i : k+1])
	x.st.Undo(e.mark)
	x.seq = x.seq[:i]
	for _, pid := range u {
		x.step(pid, false)
	}
	_, uniform := x.icCheck(e.pid, e.block.ID, n.pid, n.block.ID)
	x.restore(i, suffix)
	if !uniform {
		x.updateBack(i, k)
	}
	return uniform
}

// between returns û for the race of seq[i] with seq[k]: the processes of
// the events between them that happen before seq[k], in order.
func (x *explorer) between(i, k int) []string {
	var u []string
	for j := i + 1; j < k; j++ {
		if hb(x.seq[j], x.seq[k]) {
			u = append(u, x.seq[j].pid)
		}
	}
	return u
}

// restore brings the state back to the sequence prefix..suffix after a
// detour from position i (execution is deterministic: same events, same
// undo marks).
func (x *explorer) restore(i int, suffix []*event) {
	x.st.Undo(suffix[0].mark)
	x.seq = x.seq[:i]
	for _, old := range suffix {
		x.stepIndep(old.pid, false, old.indep)
	}
}

// uniformSleepers returns the single processes asleep at f that stay asleep
// after p runs because their independence with p holds uniformly in the
// current state (Alg. 1, line 17).
func (x *explorer) uniformSleepers(f *level, pid string) [][]*event {
	if x.opts.Algo != CDPOR || x.opts.ICs == nil {
		return nil
	}
	pi := x.procIndex(pid)
	if pi < 0 {
		return nil
	}
	nBlock := x.st.Procs[pi].Point.Block.ID
	var out [][]*event
	for _, seq := range f.sleep {
		if len(seq) != 1 || seq[0].pid == pid {
			continue
		}
		m := seq[0]
		if _, uniform := x.icCheck(pid, nBlock, m.pid, m.block.ID); uniform {
			out = append(out, seq)
		}
	}
	return out
}

package interp

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Step is one entry of a schedule: which process ran which block.
type Step struct {
	PID   PID
	Name  string // process name, proc#id
	Block string // block id
}

// Schedule is a sequence of steps; its text form lists process names
// separated by spaces, e.g. "p#1 q#2 r#3".
type Schedule []Step

func (s Schedule) String() string {
	names := make([]string, len(s))
	for i, st := range s {
		names[i] = st.Name
	}
	return strings.Join(names, " ")
}

// Policy picks the next process to run: one of the enabled processes,
// given as a set of indices into State.Procs (in creation order: At(0) is
// the oldest). It returns the index of the one to run, or -1 to stop.
type Policy func(st *State, enabled *ProcSet) int

// First always runs the enabled process created first.
func First(_ *State, enabled *ProcSet) int { return enabled.At(0) }

// Random picks uniformly with a seeded generator: the same seed gives the
// same schedule.
func Random(seed uint64) Policy {
	r := rand.New(rand.NewPCG(seed, 0x1c6e))
	return func(_ *State, enabled *ProcSet) int { return enabled.At(r.IntN(enabled.Len())) }
}

// Replay follows a schedule of process names (proc#id) or bare ids, then
// stops. A name that is not enabled when its turn comes is an error.
func Replay(names []string) (Policy, *error) {
	var err error
	k := 0
	return func(st *State, enabled *ProcSet) int {
		if k >= len(names) || err != nil {
			return -1
		}
		want := names[k]
		k++
		proc, id, named := strings.Cut(want, "#")
		if !named {
			id = want
		}
		pid, perr := st.m.ParsePID(id)
		if perr != nil {
			err = fmt.Errorf("step %d: %q is not a process name (like p#1.2) or id (like 1.2)", k, want)
			return -1
		}
		if i := st.Find(pid); i >= 0 && enabled.Has(i) && (!named || st.Procs[i].Proc.Name == proc) {
			return i
		}
		err = fmt.Errorf("step %d: process %s is not enabled", k, want)
		return -1
	}, &err
}

// Outcome is the result of one complete execution.
type Outcome struct {
	Final    *State
	Schedule Schedule
	Events   []*Event
	Err      *RuntimeError // a runtime error that ended the execution
	Blocked  []int         // live processes left that are not enabled (deadlock when non-empty)
	Cut      bool          // stopped at maxEvents or by the policy, not at the end
}

// Run executes one interleaving from the initial state, choosing with
// policy, until no process is enabled, a runtime error occurs, the policy
// returns -1, or maxEvents events ran (maxEvents <= 0: no bound). The
// enabled processes are kept up to date from what each event changed, so
// an event costs the same whatever the number of processes.
func (m *Machine) Run(policy Policy, maxEvents int) *Outcome {
	st, err := m.Initial()
	out := &Outcome{Final: st, Err: err}
	if err != nil {
		return out
	}
	enabled := &ProcSet{}
	for _, i := range st.EnabledProcs(nil) {
		enabled.Add(i)
	}
	var affected []int
	for maxEvents <= 0 || len(out.Events) < maxEvents {
		if enabled.Len() == 0 {
			out.Blocked = st.Blocked()
			return out
		}
		i := policy(st, enabled)
		if i < 0 {
			out.Cut = true
			return out
		}
		if !enabled.Has(i) {
			panic(fmt.Sprintf("interp: the policy chose process %d, which is not enabled", i))
		}
		p := st.Procs[i]
		out.Schedule = append(out.Schedule, Step{PID: p.ID, Name: p.Name(), Block: p.Point.Block.ID})
		ev := st.Step(i)
		st.log = st.log[:0] // a run is not undone: its log would only grow
		out.Events = append(out.Events, ev)
		if ev.Err != nil {
			out.Err = ev.Err
			return out
		}
		affected = st.Affected(i, ev.Spawned, ev.Writes, affected[:0])
		for _, j := range affected {
			if st.Enabled(j) {
				enabled.Add(j)
			} else {
				enabled.Remove(j)
			}
		}
	}
	out.Cut = true
	return out
}

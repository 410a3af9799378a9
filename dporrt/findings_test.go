package dporrt

import (
	"context"
	"testing"
)

// TestFindingsBySite: a runtime error whose message carries operand values
// that differ between traces is one finding per site, with the first
// message and schedule, and a count of the events that raised it; a
// violation repeated within one event counts each time.
func TestFindingsBySite(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		algo      Algorithm
		msg       string // of the finding, the first found
		sched     string
		count     int
	}{
		// dfs runs dbl after 0, 1 or 2 incs, five traces in all, with
		// three different operands: one finding.
		{name: "overflow/dfs", src: `global int x = 4611686018427387904;
proc inc() { x = x + 1; }
proc dbl() { x = x * 2; }
init { spawn inc(); spawn inc(); spawn dbl(); }
`, algo: DFS, msg: "integer overflow in 4611686018427387906 * 2", sched: "inc#1 inc#2 dbl#3", count: 5},
		{name: "overflow/sdpor", src: `global int x = 4611686018427387904;
proc inc() { x = x + 1; }
proc dbl() { x = x * 2; }
init { spawn inc(); spawn inc(); spawn dbl(); }
`, algo: SDPOR, msg: "integer overflow in 4611686018427387906 * 2", sched: "inc#1 inc#2 dbl#3", count: 5},
		{name: "assert-in-loop", src: `proc p() { int i; while (i < 3) { assert(i < 0, "neg"); i = i + 1; } }
init { spawn p(); }
`, algo: DFS, msg: "neg", sched: "p#1", count: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, c.src, nil)
			r, err := Explore(context.Background(), m, Options{Algo: c.algo})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Findings) != 1 {
				t.Fatalf("%d findings, want 1: %+v", len(r.Findings), r.Findings)
			}
			f := r.Findings[0]
			msg := ""
			if f.Error != nil {
				msg = f.Error.Msg
			} else {
				msg = f.Violation.Msg
			}
			if msg != c.msg || f.Schedule.String() != c.sched || f.Count != c.count {
				t.Errorf("finding %q by %q seen %d times, want %q by %q, %d times", msg, f.Schedule, f.Count, c.msg, c.sched, c.count)
			}
			// Every algorithm finds the same sites.
			oracle, _ := Explore(context.Background(), m, Options{Algo: DFS})
			for _, info := range Algorithms {
				algo := info.Name
				o, _ := Explore(context.Background(), m, Options{Algo: algo})
				if ok, why := o.Agrees(oracle); !ok {
					t.Errorf("%s: %s", algo, why)
				}
			}
		})
	}
}

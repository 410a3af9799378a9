package dporrt

import (
	"context"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// TestInvariants: a broken invariant is a violation at its declaration,
// found after init and after the event that breaks it, by every algorithm
// (the check's reads are the event's, so partial order reduction keeps the
// orders that break it).
func TestInvariants(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		want      []string // findings of dfs, as "line:col msg"
	}{
		{"check then act",
			"global int c = 1;\ninvariant (c >= 0);\nproc dec() { bool ok = c > 0; yield; if (ok) { c = c - 1; } }\ninit { spawn dec(); spawn dec(); }\n",
			[]string{"2:1: invariant broken: (c >= 0)"}},
		{"an intermediate state only",
			"global int x, y;\ninvariant x <= y;\nproc p() { x = 1; }\nproc q() { y = 1; }\ninit { spawn p(); spawn q(); }\n",
			[]string{"2:1: invariant broken: (x <= y)"}},
		{"kept",
			"global int x, y;\ninvariant x <= y;\nproc p() { y = y + 1; }\nproc q() { if (x < y) { x = x + 1; } }\ninit { spawn p(); spawn q(); spawn p(); spawn q(); }\n",
			nil},
		{"broken by init",
			"global int c;\ninvariant c == 0;\ninit { c = 1; }\n",
			[]string{"2:1: invariant broken: (c == 0) (init in block init)"}}, // found with an empty schedule
		{"cannot be evaluated",
			"global int x = 1, y = 1;\ninvariant x / y > 0;\nproc p() { y = 0; }\ninit { spawn p(); }\n",
			[]string{"2:1: invariant broken: ((x / y) > 0): division by zero in 1 / 0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := testprog.Named(t, "inv.blk", tc.src)
			m, err := interp.New(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !differential(t, tc.name, m, 0, nil) {
				t.Fatal("dfs was cut")
			}
			r, err := Explore(context.Background(), m, Options{Algo: DFS})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range r.Findings {
				if f.Violation != nil {
					v := f.Violation
					got = append(got, strings.TrimPrefix(v.String(), "inv.blk:"))
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("findings %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("finding %q, want %q", got[i], tc.want[i])
				}
			}
		})
	}
	t.Run("initial state", func(t *testing.T) {
		p, _ := lang.Compile("inv.blk", []byte("global int c;\ninvariant c == 0;\ninit { c = 1; }\n"))
		m, _ := interp.New(p, nil)
		st, err := m.Initial()
		if err != nil || len(st.Violations) != 1 || !st.Violations[0].Invariant || st.Violations[0].Block != "init" {
			t.Fatalf("violations after init %v (error %v)", st.Violations, err)
		}
	})
}

// TestInvariantReads: the invariant check adds its reads to the event that
// wrote what it reads, and to no other.
func TestInvariantReads(t *testing.T) {
	t.Parallel()
	src := "global int x, y, z;\ninvariant x <= y;\nproc p() { x = 0; }\nproc q() { z = 1; }\ninit { spawn p(); spawn q(); }\n"
	p, _ := lang.Compile("inv.blk", []byte(src))
	m, _ := interp.New(p, nil)
	st, _ := m.Initial()
	ev := st.Step(0)
	if len(ev.Reads) != 2 {
		t.Errorf("p reads %v, want x and y", ev.Reads)
	}
	ev = st.Step(1)
	if len(ev.Reads) != 0 {
		t.Errorf("q reads %v, want nothing", ev.Reads)
	}
}

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// tickClock is a clock that moves on by step at every reading.
type tickClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *tickClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// TestProgressPrinter drives the printer by hand, at given times, in both
// modes.
func TestProgressPrinter(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	cases := []struct {
		name  string
		tty   bool
		width int
		// steps: at a time (from 0), "u line" updates, "n line" notes,
		// "c" clears, "d" is done.
		steps []string
		at    []time.Duration
		want  string
	}{
		{"plain lines once a second", false, 0,
			[]string{"u a", "u b", "u c", "u d", "u e", "u f"},
			[]time.Duration{0, 300 * ms, 999 * ms, 1000 * ms, 1500 * ms, 2100 * ms},
			"a\nd\nf\n"},
		{"plain notes are not throttled and keep the live line's pace", false, 0,
			[]string{"u a", "n run 1", "u b", "n run 2", "u c", "d", "u late", "n late"},
			[]time.Duration{0, 100 * ms, 200 * ms, 300 * ms, 1000 * ms, 1100 * ms, 5000 * ms, 5000 * ms},
			"a\nrun 1\nrun 2\nc\n"},
		{"terminal redraws in place, cut to the width", true, 8,
			[]string{"u abc", "u skipped", "u 0123456789", "d", "u late"},
			[]time.Duration{0, 50 * ms, 200 * ms, 300 * ms, 900 * ms},
			"\rabc\033[K\r0123456\033[K\r\033[K"},
		{"terminal notes replace the live line, which comes back", true, 0,
			[]string{"u a", "n run 1", "u b", "c", "u c"},
			[]time.Duration{0, 10 * ms, 20 * ms, 30 * ms, 40 * ms},
			"\ra\033[K\r\033[Krun 1\n\rb\033[K\r\033[K\rc\033[K"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
			var now time.Time
			p := &progress{w: &buf, tty: tc.tty, width: tc.width, now: func() time.Time { return now }}
			for i, s := range tc.steps {
				now = start.Add(tc.at[i])
				op, arg, _ := strings.Cut(s, " ")
				switch op {
				case "u":
					p.update(arg)
				case "n":
					p.note(arg)
				case "c":
					p.clear()
				case "d":
					p.done()
				}
			}
			if buf.String() != tc.want {
				t.Errorf("got %q, want %q", buf.String(), tc.want)
			}
		})
	}
	var none *progress // no progress: every method does nothing
	none.update("x")
	none.note("x")
	none.done()
}

// TestExploreProgressFlag runs explore through the command tree with a
// stderr that is not a terminal and a clock that moves 100 ms at each
// reading (one reading per progress report, one report per 10,000 states):
// without --progress stderr stays empty; with it, plain lines, one per
// second of that clock, and stdout as without it, JSON included.
func TestExploreProgressFlag(t *testing.T) {
	t.Parallel()
	base := []string{"--algo", "dfs", "--max-states", "300000", "../../testdata/fib.blk"}
	run := func(extra ...string) (string, string) {
		var out, errb bytes.Buffer
		c := &tickClock{t: time.Unix(0, 0), step: 100 * time.Millisecond}
		e := &env{stdout: &out, stderr: &errb, now: c.now}
		if code := executeIn(context.Background(), e, append(append([]string{"explore"}, extra...), base...)); code != 0 {
			t.Fatalf("%v: exit %d\n%s", extra, code, errb.String())
		}
		return out.String(), errb.String()
	}
	for _, asJSON := range []bool{false, true} {
		var flags []string
		if asJSON {
			flags = []string{"--json"}
		}
		quietOut, quietErr := run(flags...)
		if quietErr != "" {
			t.Errorf("%v without --progress: stderr %q, want nothing", flags, quietErr)
		}
		out, errOut := run(append(flags, "--progress")...)
		if asJSON {
			var v struct {
				States int `json:"states"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil || v.States != 300000 {
				t.Errorf("--json --progress: stdout is not the report (%v, %d states):\n%s", err, v.States, out)
			}
		}
		// Times and rates differ from run to run; the rest must not.
		if stable(out) != stable(quietOut) {
			t.Errorf("%v: --progress changed stdout:\n%s\nvs\n%s", flags, out, quietOut)
		}
		if strings.ContainsAny(errOut, "\r\033") {
			t.Errorf("%v --progress: carriage return or escape in plain lines: %q", flags, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		// 30 reports at 0.1 s, 0.2 s, ... 3.0 s: lines at 0.1, 1.1 and 2.1 s.
		if len(lines) != 3 {
			t.Errorf("%v --progress: %d lines, want 3 (one a second):\n%s", flags, len(lines), errOut)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "exploring: ") || !strings.Contains(l, " states (") ||
				!strings.Contains(l, "(estimate)") && !strings.HasSuffix(l, "no estimate yet") {
				t.Errorf("%v --progress: line %q", flags, l)
			}
		}
	}
}

// TestBenchProgressFlag: with --progress and a stderr that is not a
// terminal, bench prints a plain line per finished run; the table on
// stdout is the same JSON.
func TestBenchProgressFlag(t *testing.T) {
	t.Parallel()
	args := []string{"bench", "--algos", "sdpor,dfs", "--sizes", "fib=3", "--format", "json", "../../testdata/bench/fib.blk"}
	out, errOut, code := icgen(args...)
	if code != 0 || errOut != "" {
		t.Fatalf("without --progress: exit %d, stderr %q", code, errOut)
	}
	pout, perr, code := icgen(append([]string{"bench", "--progress"}, args[1:]...)...)
	if code != 0 {
		t.Fatalf("--progress: exit %d\n%s", code, perr)
	}
	var rows, prows []benchRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(pout), &prows); err != nil {
		t.Fatalf("--progress: stdout is not the table: %v\n%s", err, pout)
	}
	if len(prows) != 1 || prows[0].Runs["sdpor"].Traces != rows[0].Runs["sdpor"].Traces || prows[0].Runs["dfs"].Traces != rows[0].Runs["dfs"].Traces {
		t.Errorf("--progress changed the table:\n%s\nvs\n%s", pout, out)
	}
	if strings.ContainsAny(perr, "\r\033") {
		t.Errorf("carriage return or escape in plain lines: %q", perr)
	}
	for _, run := range []string{"fib N=3 sdpor: ", "fib N=3 dfs: "} {
		if !strings.Contains(perr, "\n"+run) && !strings.HasPrefix(perr, run) {
			t.Errorf("no line for the finished run %q in:\n%s", run, perr)
		}
	}
}

// stable drops the lines of explore's report that differ from run to run
// (time and memory).
func stable(report string) string {
	var keep []string
	for _, l := range strings.Split(report, "\n") {
		if !strings.Contains(l, "  time  ") && !strings.Contains(l, "peak memory") &&
			!strings.Contains(l, `"seconds"`) && !strings.Contains(l, `"memory_mib"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

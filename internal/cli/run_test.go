package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/dporrt"
)

// writeProgs writes programs into a temporary directory and returns their
// paths by name.
func writeProgs(t *testing.T, progs map[string]string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for name, src := range progs {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// TestLargePrograms: a program whose globals pass interp.MaxStore is bad
// input (exit 2) located at the global that goes over, with its line, for
// every command that runs programs; an array of 2^20 elements runs, and its
// final value prints as runs of equal values.
func TestLargePrograms(t *testing.T) {
	t.Parallel()
	p := writeProgs(t, map[string]string{
		"huge.blk": "param N = 16777216;\nglobal int a[N], b[N], c[N];\nproc p() { a[1] = 1; }\ninit { spawn p(); }\n",
		"big.blk":  "param N = 1048576;\nglobal int a[N] = 7, s[4] = {1, 1, 1, 2};\nproc p() { a[5] = 1; a[6] = 1; }\ninit { spawn p(); }\n",
	})
	const tooLarge = "huge.blk:2:24: program too large: with c the globals need 50331648 locations (384 MiB at 8 bytes each); at most 33554432 (256 MiB) fit"
	runCases(t, []cliCase{
		{"run too large", []string{"run", p["huge.blk"]}, ExitBadInput, nil, []string{tooLarge, "global int a[N], b[N], c[N];", "^"}},
		{"explore too large", []string{"explore", p["huge.blk"]}, ExitBadInput, nil, []string{tooLarge, "^"}},
		{"too large by -D", []string{"run", "-D", "N=4", p["huge.blk"]}, ExitOK, []string{"a = [0, 1, 0, 0]"}, nil},
		// Short arrays print element by element, long ones by runs.
		{"run big array", []string{"run", p["big.blk"]}, ExitOK, []string{"a = [7 ×5, 1 ×2, 7 ×1048569]", "s = [1, 1, 1, 2]"}, nil},
	})
	out, errOut, code := icgen("run", "--json", p["huge.blk"])
	var d struct {
		Errors []diagJSON `json:"errors"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != ExitBadInput || len(d.Errors) != 1 || d.Errors[0].Line != 2 || d.Errors[0].Col != 24 ||
		!strings.HasPrefix(d.Errors[0].Message, "program too large") || strings.Contains(errOut, "goroutine") {
		t.Errorf("json: exit %d, err %v, out:\n%s\nstderr:\n%s", code, err, out, errOut)
	}
}

// TestRunBounded: run stops a program that never ends at --max-events,
// by default explore's bound on a sequence, and says the run stopped
// early, with exit 0 as explore stopped by a bound; the end of a --replay
// schedule is told apart, and a run that ends says nothing of the kind.
func TestRunBounded(t *testing.T) {
	t.Parallel()
	p := writeProgs(t, map[string]string{"bomb.blk": "proc f() { spawn f(); spawn f(); }\ninit { spawn f(); }\n"})["bomb.blk"]
	cases := []struct {
		name   string
		args   []string
		events int
		cut    string // stopped_early; "" for a run that ends
	}{
		{"default bound", nil, dporrt.DefaultMaxDepth, fmt.Sprintf("--max-events %d reached", dporrt.DefaultMaxDepth)},
		{"given bound", []string{"--max-events", "10"}, 10, "--max-events 10 reached"},
		{"random, given bound", []string{"--schedule", "random", "--max-events", "7"}, 7, "--max-events 7 reached"},
		{"replay ends first", []string{"--replay", "f#1 f#1.1", "--max-events", "5"}, 2, "the --replay schedule ended"},
		{"bound over the replay", []string{"--replay", "f#1 f#1.1 f#1.2", "--max-events", "2"}, 2, "--max-events 2 reached"},
		{"a run that ends", nil, 3, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			file := p
			if tc.cut == "" {
				file = "../../testdata/fig1.blk"
			}
			if tc.events < 1000 { // the default bound in text only: its JSON takes seconds more
				out, errOut, code := icgen(append(append([]string{"run", "--json"}, tc.args...), file)...)
				var r struct {
					Status   string            `json:"status"`
					Cut      string            `json:"stopped_early"`
					Schedule []json.RawMessage `json:"schedule"`
				}
				if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitOK {
					t.Fatalf("exit %d, %v\n%s", code, err, errOut)
				}
				if len(r.Schedule) != tc.events || r.Cut != tc.cut || (r.Status == "cut") != (tc.cut != "") {
					t.Errorf("%d events, status %s, stopped_early %q; want %d events, %q", len(r.Schedule), r.Status, r.Cut, tc.events, tc.cut)
				}
			}
			out, _, code := icgen(append(append([]string{"run"}, tc.args...), file)...)
			head, _, _ := strings.Cut(out, "\n")
			want := fmt.Sprintf("%d events, stopped early (%s): the run is not complete", tc.events, tc.cut)
			if tc.cut == "" {
				want = "3 events, all processes finished"
			}
			if code != ExitOK || !strings.HasSuffix(head, want) {
				t.Errorf("exit %d, first line %q; want one ending %q", code, head, want)
			}
		})
	}
}

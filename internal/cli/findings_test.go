package cli

import (
	"encoding/json"
	"testing"
)

// TestFindingsBySite: explore reports a runtime error once per site, with
// how many times it was seen, in text and JSON; run groups a trace's
// violations by site.
func TestFindingsBySite(t *testing.T) {
	t.Parallel()
	p := writeProgs(t, map[string]string{
		"ovf.blk": "global int x = 4611686018427387904;\nproc inc() { x = x + 1; }\nproc dbl() { x = x * 2; }\ninit { spawn inc(); spawn inc(); spawn dbl(); }\n",
		"loop.blk": "proc p() { int i; while (i < 3) { assert(i < 0, \"neg\"); i = i + 1; } }\n" +
			"proc q() { assert(false, \"q\"); }\ninit { spawn p(); spawn q(); }\n",
	})
	runCases(t, []cliCase{
		{"explore text", []string{"explore", "--algo", "dfs", p["ovf.blk"]}, ExitFindings,
			[]string{"1 finding:", "ovf.blk:3:20: runtime error: integer overflow in 4611686018427387906 * 2 (dbl#3, block dbl)", "^",
				"seen 5 times; the first:", "schedule: inc#1 inc#2 dbl#3"}, nil},
		{"run groups by site", []string{"run", p["loop.blk"]}, ExitFindings,
			[]string{"4 violations at 2 sites:", "loop.blk:1:35: assertion failed: neg (p#1, block p)", "3 times at this site; the first is shown",
				"loop.blk:2:12: assertion failed: q (q#2, block q)"}, nil},
	})
	out, _, code := icgen("explore", "--json", "--algo", "dfs", p["ovf.blk"])
	var r struct {
		Findings []struct {
			Kind     string `json:"kind"`
			Line     int    `json:"line"`
			Message  string `json:"message"`
			Schedule string `json:"schedule"`
			Count    int    `json:"count"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitFindings || len(r.Findings) != 1 {
		t.Fatalf("exit %d, err %v:\n%s", code, err, out)
	}
	if f := r.Findings[0]; f.Kind != "runtime-error" || f.Line != 3 || f.Count != 5 || f.Schedule != "inc#1 inc#2 dbl#3" {
		t.Errorf("finding %+v", f)
	}
}

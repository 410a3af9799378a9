package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// TestLargePrograms: a program whose globals pass dporrt.MaxStore is bad
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

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// countsOnly is rows without what varies from run to run: times, memory,
// and the speedups made of times.
func countsOnly(rows []benchRow) []benchRow {
	for i := range rows {
		rows[i].SMT, rows[i].Speedup = 0, nil
		for a, r := range rows[i].Runs {
			r.Seconds, r.MiB = 0, 0
			rows[i].Runs[a] = r
		}
	}
	return rows
}

// TestBenchCells runs a table cell by cell, as a batch engine does: the
// cells --list-cells lists, each run alone (by index and by ID in this
// process, by --cell-from-env in a process of its own, as a job array
// task), then put together by --from-cells in any order. The table equals
// the table of one icgen bench run in every count, with the algorithm
// that synthesizes ICs among its columns. Then what --cell, --cell-from-env
// and --from-cells refuse, naming the cells or files.
func TestBenchCells(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "race.blk")
	os.WriteFile(prog, []byte(raceProgram), 0o644)
	flags := []string{"--algos", "sdpor,csdpor,cdpor", "--assume-no-overflow", "--timeout", "20s", prog}
	bench := func(args ...string) (string, string, int) {
		return icgen(append(append([]string{"bench"}, args...), flags...)...)
	}

	out, stderr, code := bench("--json")
	var whole []benchRow
	if code != ExitOK || json.Unmarshal([]byte(out), &whole) != nil {
		t.Fatalf("bench: exit %d\n%s%s", code, out, stderr)
	}

	// The list: the same indices and IDs as lines and as JSON.
	out, stderr, code = bench("--list-cells")
	want := "0 race/N=2/sdpor\n1 race/N=2/csdpor\n2 race/N=2/cdpor\n3 race/N=3/sdpor\n4 race/N=3/csdpor\n5 race/N=3/cdpor\n"
	if code != ExitOK || out != want {
		t.Fatalf("--list-cells: exit %d\n%s%s\nwant\n%s", code, out, stderr, want)
	}
	out, _, _ = bench("--list-cells", "--json")
	var refs []cellRef
	if err := json.Unmarshal([]byte(out), &refs); err != nil || len(refs) != 6 {
		t.Fatalf("--list-cells --json: %v\n%s", err, out)
	}
	for i, r := range refs {
		if line := fmt.Sprintf("%d %s", r.Index, r.ID); r.Index != i || !strings.Contains(want, line+"\n") || r.File != prog {
			t.Errorf("--list-cells --json: cell %d is %+v", i, r)
		}
	}

	// The cells, each a run of its own.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i, r := range refs {
		path := filepath.Join(dir, fmt.Sprintf("cell-%d.json", i))
		paths = append(paths, path)
		switch i % 3 {
		case 0:
			_, stderr, code = bench("--cell", strconv.Itoa(i), "-o", path)
		case 1:
			_, stderr, code = bench("--cell", r.ID, "-o", path)
		default:
			cmd := exec.Command(self, append([]string{"bench", "--cell-from-env", "ICGEN_TEST_TASK", "-o", path}, flags...)...)
			cmd.Env = append(os.Environ(), childEnv+"=1", fmt.Sprintf("ICGEN_TEST_TASK=%d", i))
			b, err := cmd.CombinedOutput()
			stderr, code = string(b), cmd.ProcessState.ExitCode()
			if err != nil && code == 0 {
				code = ExitInternal
			}
		}
		if code != ExitOK {
			t.Fatalf("cell %d: exit %d: %s", i, code, stderr)
		}
		data, _ := os.ReadFile(path)
		var c benchCell
		if err := json.Unmarshal(data, &c); err != nil || c.ID != r.ID || c.Index != i || c.Run.Algo != r.Algo || (c.SMT > 0) != (r.Algo == "cdpor") {
			t.Errorf("cell %d: %v\n%s", i, err, data)
		}
	}
	rev := slices.Clone(paths)
	slices.Reverse(rev)
	out, stderr, code = icgen(append([]string{"bench", "--from-cells", "--json"}, rev...)...)
	var joined []benchRow
	if code != ExitOK || json.Unmarshal([]byte(out), &joined) != nil {
		t.Fatalf("--from-cells: exit %d\n%s%s", code, out, stderr)
	}
	for _, r := range joined {
		if r.SMT <= 0 || r.Speedup["G^s"] == "" || r.Speedup["G^smt"] == "" {
			t.Errorf("--from-cells: N=%d: T^smt %v, speedups %v", r.N, r.SMT, r.Speedup)
		}
	}
	if a, b := countsOnly(whole), countsOnly(joined); !reflect.DeepEqual(a, b) {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		t.Errorf("the table of the cells differs from the table of one run:\n%s\nvs\n%s", jb, ja)
	}
	// --algos leaves an algorithm out, and its cells may be missing.
	out, stderr, code = icgen(append([]string{"bench", "--from-cells", "--algos", "sdpor,cdpor", "--format", "csv"}, paths[0], paths[2], paths[3], paths[5])...)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != ExitOK || len(lines) != 3 || !strings.HasPrefix(lines[0], "bench,N,sdpor Tr,sdpor S,sdpor T,cdpor Tr,") {
		t.Errorf("--from-cells --algos sdpor,cdpor: exit %d\n%s%s", code, out, stderr)
	}

	// Cells of other tables: another timeout, another source of race.blk.
	other := filepath.Join(dir, "other-timeout.json")
	if _, stderr, code := icgen("bench", "--cell", "0", "-o", other, "--algos", "sdpor,csdpor,cdpor", "--assume-no-overflow", "--timeout", "10s", prog); code != ExitOK {
		t.Fatal(stderr)
	}
	os.Mkdir(filepath.Join(dir, "b"), 0o755)
	prog2 := filepath.Join(dir, "b", "race.blk")
	os.WriteFile(prog2, []byte(raceProgram+"// another race\n"), 0o644)
	edited := filepath.Join(dir, "other-source.json")
	if _, stderr, code := icgen("bench", "--cell", "3", "-o", edited, "--algos", "sdpor,csdpor,cdpor", "--assume-no-overflow", "--timeout", "20s", prog2); code != ExitOK {
		t.Fatal(stderr)
	}
	t.Setenv("ICGEN_TEST_TASK", "five")
	t.Setenv("ICGEN_TEST_TASK_9", "9")
	result := filepath.Join(dir, "table.md")
	for _, tc := range []struct {
		name string
		args []string // after bench; flags are added to those without --from-cells
		want string
	}{
		{"index out of range", []string{"--cell", "6"}, "--cell 6: no such cell, the table has 6 (0 to 5; icgen bench --list-cells"},
		{"unknown ID", []string{"--cell", "race/N=4/sdpor"}, "--cell race/N=4/sdpor: no such cell in the table (icgen bench --list-cells"},
		{"variable not set", []string{"--cell-from-env", "ICGEN_TEST_UNSET"}, "--cell-from-env ICGEN_TEST_UNSET: ICGEN_TEST_UNSET is not set"},
		{"variable not an index", []string{"--cell-from-env", "ICGEN_TEST_TASK"}, `--cell-from-env ICGEN_TEST_TASK: ICGEN_TEST_TASK="five" is not a cell index (an integer from 0 to 5)`},
		{"variable out of range", []string{"--cell-from-env", "ICGEN_TEST_TASK_9"}, "--cell-from-env ICGEN_TEST_TASK_9: ICGEN_TEST_TASK_9=9: no such cell, the table has 6"},
		{"two modes", []string{"--list-cells", "--cell", "0"}, "--list-cells and --cell: give one of them"},
		{"a cell in md", []string{"--cell", "0", "--format", "md"}, "--cell writes its result as JSON"},
		{"two programs of one name", []string{"--list-cells", prog2}, prog2 + " and " + prog + " are both named race"},
		{"twice", append([]string{"--from-cells", "-o", result}, append(paths, paths[1])...), "cell race/N=2/csdpor given twice: " + paths[1] + " and " + paths[1]},
		{"missing", append([]string{"--from-cells", "-o", result}, slices.Delete(slices.Clone(paths), 4, 5)...), "cells missing, 1 of 6: race/N=3/csdpor (cell 4); icgen bench --cell INDEX runs one"},
		{"other options", []string{"--from-cells", "-o", result, paths[0], other}, paths[0] + " and " + other + " are cells of different tables: timeout 20s and 10s"},
		{"other source", []string{"--from-cells", "-o", result, paths[0], edited}, "are cells of different tables: race of different sources"},
		{"not a cell", []string{"--from-cells", "-o", result, paths[0], prog}, prog + " is not a bench cell"},
		{"algorithm not in the cells", []string{"--from-cells", "-o", result, "--algos", "odpor", paths[0]}, "--algos odpor: the cells' table has no odpor (its algorithms: sdpor, csdpor, cdpor)"},
		{"an option of the cells", []string{"--from-cells", "-o", result, "--timeout", "10s", paths[0]}, "--from-cells takes --timeout from the cells"},
	} {
		args := append([]string{"bench"}, tc.args...)
		if tc.args[0] != "--from-cells" {
			args = append(args, flags...)
		}
		_, stderr, code := icgen(args...)
		if code != ExitBadInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(result); err == nil {
		t.Error("a refused --from-cells wrote its output")
	}
}

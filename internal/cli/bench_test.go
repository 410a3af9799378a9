package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchISSTA19: --table issta19 runs a program at its issta19-sizes
// line with the table's algorithms, prints E and, for odpor-cs-ob, MD, MS
// and RSS, and the two speedups. Three adds that commute but are
// syntactically dependent: odpor-ob explores their 6 orders, odpor-cs-ob
// 2 (the Euler zigzag number of 3: a cover is not carried past an event
// it is dependent on, see docs/algorithms.md), csdpor 1.
func TestBenchISSTA19(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "adds.blk")
	os.WriteFile(prog, []byte("// sizes: 5\n// issta19-sizes: 3\nparam N = 2;\nglobal int c = 0;\nproc add() { c = c + 1; assert(c > 0); }\n"+
		"init { int i = 0; while (i < N) { spawn add(); i = i + 1; } }\n"), 0o644)
	out, stderr, code := icgen("bench", "--table", "issta19", "--algos", "csdpor,odpor-ob,odpor-cs-ob", "--timeout", "20s", prog)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitOK || len(lines) < 3 {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	want := "| bench | N | csdpor E | csdpor S | csdpor T | odpor-ob E | odpor-ob S | odpor-ob T | odpor-cs-ob E | odpor-cs-ob S | odpor-cs-ob T | odpor-cs-ob MD | odpor-cs-ob MS | odpor-cs-ob RSS | G_T^cs | G_T^ob |"
	if lines[0] != want {
		t.Errorf("header\n%s\nwant\n%s", lines[0], want)
	}
	cells := strings.Split(lines[2], " | ")
	if len(cells) != 16 || cells[1] != "3" || cells[5] != "6" || cells[8] != "2" || cells[12] != "4" {
		t.Errorf("row %q: want N 3, odpor-ob E 6, odpor-cs-ob E 2 and MS 4", lines[2])
	}
}

// TestMain lets icgen bench start this test binary as its child icgen.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if os.Getenv(readyEnv) == "1" { // tell the parent, on fd 3, when interrupts are caught
			ready := os.NewFile(3, "ready")
			listening = func() { ready.Write([]byte{1}); ready.Close() }
		}
		os.Exit(Execute(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// raceProgram is a benchmark program of two sizes: N processes add to one
// counter. Static sdpor explores N! orders, cdpor one where no overflow is
// assumed (otherwise each add may write the c that the overflow guard of
// two others reads).
const raceProgram = "// sizes: 2, 3\nparam N = 2;\nglobal int c = 0;\nproc add() { c = c + 1; }\n" +
	"proc start(int k) { if (k > 0) { spawn add(); spawn start(k - 1); } }\ninit { spawn start(N); }\n"

func TestBench(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "race.blk")
	os.WriteFile(prog, []byte(raceProgram), 0o644)
	out, stderr, code := icgen("bench", "--format", "json", "--algos", "sdpor,csdpor,cdpor", "--assume-no-overflow", "--timeout", "20s", prog)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []benchRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) != 2 || rows[0].N != 2 || rows[1].N != 3 {
		t.Fatalf("rows: %+v", rows)
	}
	for _, r := range rows {
		for _, a := range []string{"sdpor", "csdpor", "cdpor"} {
			if run := r.Runs[a]; run.Error != "" || run.Cut != "" || run.Finals != 1 {
				t.Errorf("N=%d %s: %+v", r.N, a, run)
			}
		}
		if cd := r.Runs["cdpor"]; cd.Traces != 1 || !cd.NoOverflow {
			t.Errorf("N=%d: cdpor explores %d traces, want 1; assume_no_overflow %v, want true", r.N, cd.Traces, cd.NoOverflow)
		}
		if r.Runs["sdpor"].NoOverflow { // it uses no constraints
			t.Errorf("N=%d: sdpor's run says assume_no_overflow", r.N)
		}
		if r.SMT <= 0 || r.Speedup["G^s"] == "" || r.Speedup["G^smt"] == "" {
			t.Errorf("N=%d: T^smt %v, speedups %v", r.N, r.SMT, r.Speedup)
		}
	}
	if sd := rows[1].Runs["sdpor"]; sd.Traces != 6 {
		t.Errorf("N=3: static sdpor explores %d traces, want 3! = 6", sd.Traces)
	}
	// CSV says on every row that no overflow was assumed, as the md footer does.
	out, stderr, code = icgen("bench", "--format", "csv", "--algos", "cdpor", "--assume-no-overflow", "--sizes", "race=2", "--timeout", "20s", prog)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != ExitOK || len(lines) != 2 ||
		!strings.HasSuffix(lines[0], ",assume_no_overflow") || !strings.HasSuffix(lines[1], ",true") {
		t.Errorf("csv: exit %d\n%s%s", code, out, stderr)
	}
	// The markdown table: a header, a rule and a row per size; a timeout
	// shows >X. sdpor's 12! = 479,001,600 orders of race=12 do not fit in
	// 50 ms on any machine.
	out, _, code = icgen("bench", "--algos", "sdpor,cdpor", "--sizes", "race=12", "--timeout", "50ms", prog)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitOK || len(lines) < 3 || !strings.HasPrefix(lines[0], "| bench | N | sdpor Tr | sdpor S | sdpor T | cdpor Tr") || !strings.Contains(lines[2], "| race | 12 | >") {
		t.Errorf("md: exit %d\n%s", code, out)
	}
	// -o writes the table to a file; the program is an input, never overwritten.
	table := filepath.Join(dir, "table.csv")
	if _, stderr, code := icgen("bench", "--algos", "sdpor", "--sizes", "race=2", "--format", "csv", "-o", table, prog); code != ExitOK {
		t.Errorf("-o: exit %d: %s", code, stderr)
	} else if data, _ := os.ReadFile(table); !strings.HasPrefix(string(data), "bench,N,sdpor Tr,") {
		t.Errorf("-o: the file holds %q", data)
	}
	for _, bad := range [][]string{{"--algos", "magic"}, {"--format", "xml"}, {"--sizes", "race"}, {"--sizes", "rice=3"}, {"--table", "tacas"}, {"-o", prog}} {
		if _, _, code := icgen(append(append([]string{"bench"}, bad...), prog)...); code != ExitBadInput {
			t.Errorf("%v: exit %d, want %d", bad, code, ExitBadInput)
		}
	}
}

// TestBenchChildFailures: bench gives each algorithm the flags it takes
// (--dep goes to every one, under its old name too), and a run whose child fails
// shows err, not a row of zeros read from the child's error report.
func TestBenchChildFailures(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "arr.blk")
	os.WriteFile(prog, []byte("param N = 2;\nglobal int a[N];\nproc p() { a[0] = 1; }\nproc q() { a[1] = a[0]; }\ninit { spawn p(); spawn q(); }\n"), 0o644)
	out, stderr, code := icgen("bench", "--dep", "dynamic", "--algos", "sdpor,odpor", "--format", "csv", "--sizes", "arr=2", prog)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if f := strings.Split(lines[len(lines)-1], ","); code != ExitOK || len(lines) != 2 || len(f) < 6 || f[2] != "2" || f[5] != "2" {
		t.Errorf("--dep dynamic (locals): want 2 traces for each algorithm: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = icgen("bench", "--algos", "sdpor", "--sizes", "arr=0", prog)
	if code != ExitOK || !strings.Contains(out, "| arr | 0 | err | err | err |") {
		t.Errorf("a size the program refuses: want err cells: exit %d\n%s%s", code, out, stderr)
	}
	// The JSON says why, located in the program.
	out, stderr, code = icgen("bench", "--algos", "sdpor", "--sizes", "arr=0", "--format", "json", prog)
	if code != ExitOK || !strings.Contains(out, "arr.blk:2:12: array a has size 0") {
		t.Errorf("a size the program refuses: want its error in the JSON: exit %d\n%s%s", code, out, stderr)
	}
}

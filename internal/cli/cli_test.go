package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// icgen runs the command tree in-process.
func icgen(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Execute(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestCommands(t *testing.T) {
	t.Parallel()
	runCases(t, []cliCase{
		{"parse fig1", []string{"parse", "../../testdata/fig1.blk"}, 0,
			[]string{"3 procs, 3 blocks", "p ", "{x}", "{x}", "q ", "{x, z}", "{z}", "r ", "{x, z}", "{x, z}"}, nil},
		{"run fig1", []string{"run", "../../testdata/fig1.blk"}, 0,
			[]string{"schedule: p#1 q#2 r#3", "x = 0", "z = -1", "violations: none"}, nil},
		{"run fig1 example 4", []string{"run", "-D", "z=-1", "../../testdata/fig1.blk"}, 0,
			[]string{"x = 0", "z = 0"}, nil},
		// Example 4 of the paper: from z = -1 the orders p.q.r and r.q.p end with different z.
		{"replay", []string{"run", "-D", "z=-1", "--replay", "r#3 q#2 p#1", "../../testdata/fig1.blk"}, 0,
			[]string{"schedule: r#3 q#2 p#1", "x = 0", "z = -1"}, nil},
		{"replay by id", []string{"run", "--replay", "3,2,1", "../../testdata/fig1.blk"}, 0,
			[]string{"schedule: r#3 q#2 p#1"}, nil},
		{"replay not enabled", []string{"run", "--replay", "p#1 p#1", "../../testdata/fig1.blk"}, 2,
			nil, []string{"--replay: step 2: process p#1 is not enabled"}},
		{"random is seeded", []string{"run", "--schedule", "random", "--seed", "5", "-D", "N=5", "../../testdata/fib.blk"}, 0,
			[]string{"N=5", "r = 5"}, nil},
		{"bad schedule", []string{"run", "--schedule", "lifo", "../../testdata/fig1.blk"}, 2, nil, []string{`--schedule "lifo"`}},
		{"bad define", []string{"run", "-D", "N", "../../testdata/fib.blk"}, 2, nil, []string{"want NAME=VALUE"}},
		{"unknown define", []string{"run", "-D", "Q=1", "../../testdata/fib.blk"}, 2, nil, []string{"no param or global named Q"}},
		{"missing file", []string{"parse", "nope.blk"}, 2, nil, []string{"nope.blk: no such file or directory"}},
		{"no args", []string{"parse"}, 2, nil, []string{"accepts 1 arg"}},
		{"unknown command", []string{"frobnicate"}, 2, nil, []string{`unknown command "frobnicate"`}},
		{"unknown flag", []string{"run", "--frob", "x"}, 2, nil, []string{"unknown flag: --frob"}},
		{"version", []string{"--version"}, 0, []string{"icgen " + Version}, nil},
		{"help has examples", []string{"run", "--help"}, 0, []string{"Examples:", "icgen run"}, nil},
		{"a finding exits 1 with the tree on stdout", []string{"explore", "--dot", "-", "-D", "c=-1", "../../testdata/counter.blk"}, 1, []string{"digraph explore"}, nil},
		// A -D given twice is refused, not last-wins.
		{"define twice", []string{"run", "-D", "z=1", "-D", "z=2", "../../testdata/fig1.blk"}, 2, nil, []string{"-D z is set twice (-D z=1 and -D z=2)"}},
		{"define twice, spaced", []string{"explore", "-D", "z=1", "-D", " z = 1", "../../testdata/fig1.blk"}, 2, nil, []string{"-D z is set twice"}},
		{"two defines", []string{"run", "-D", "z=-1", "-D", "x=0", "../../testdata/fig1.blk"}, 0, []string{"z = 0"}, nil},
		// Numeric flags below their floor name the flag; 0 stays allowed
		// where the help says what it means.
		{"jobs 0", []string{"synth", "-j", "0", "../../testdata/fig1.blk"}, 2, nil, []string{"-j/--jobs 0: must be at least 1"}},
		{"jobs negative", []string{"audit", "--jobs=-2", "../../testdata/fig1.blk"}, 2, nil, []string{"-j/--jobs -2: must be at least 1"}},
		{"synth timeout negative", []string{"synth", "--timeout", "-1s", "../../testdata/fig1.blk"}, 2, nil, []string{"--timeout -1s: must not be negative (0: none)"}},
		{"check-timeout 0", []string{"synth", "--check-timeout", "0", "../../testdata/fig1.blk"}, 2, nil, []string{"--check-timeout 0s: must be positive"}},
		{"tries 0", []string{"check", "--tries", "0", "../../testdata/counter.blk"}, 2, nil, []string{"--tries 0: must be at least 1"}},
		{"explore jobs negative", []string{"explore", "--algo", "dfs", "-j", "-1", "../../testdata/fig1.blk"}, 2, nil, []string{"-j/--jobs -1: must not be negative (0: all)"}},
		{"explore jobs for odpor", []string{"explore", "--algo", "odpor", "-j", "2", "../../testdata/fig1.blk"}, 2, nil, []string{"-j", "only for the algorithms that split their exploration (dfs, sdpor)"}},
		{"explore jobs with a tree", []string{"explore", "--algo", "dfs", "-j", "2", "--dot", "-", "../../testdata/fig1.blk"}, 2, nil, []string{"-j 2 with --dot: the execution tree is drawn on one core"}},
		{"max-states negative", []string{"explore", "--max-states", "-1", "../../testdata/fig1.blk"}, 2, nil, []string{"--max-states -1: must not be negative (0: no bound)"}},
		{"max-traces negative", []string{"explore", "--max-traces", "-1", "../../testdata/fig1.blk"}, 2, nil, []string{"--max-traces -1"}},
		{"explore timeout negative", []string{"explore", "--timeout", "-2s", "../../testdata/fig1.blk"}, 2, nil, []string{"--timeout -2s: must not be negative (0: no bound)"}},
		{"max-states 0 is no bound", []string{"explore", "--max-states", "0", "--algo", "dfs", "../../testdata/fig1.blk"}, 0, []string{"complete traces   6"}, nil},
		{"max-events negative", []string{"run", "--max-events", "-4", "../../testdata/fig1.blk"}, 2, nil, []string{"--max-events -4: must not be negative (0: no bound)"}},
		{"bench timeout 0", []string{"bench", "--timeout", "0", "../../testdata/fig1.blk"}, 2, nil, []string{"--timeout 0s: must be positive"}},
		{"bench max-memory 0", []string{"bench", "--max-memory", "0", "../../testdata/fig1.blk"}, 2, nil, []string{"--max-memory 0: must be at least 1"}},
		// --timeout counts from the start: a bound that runs out while
		// cdpor's ICs are synthesized stops explore as a timeout does.
		{"timeout during synthesis", []string{"explore", "--algo", "cdpor", "--timeout", "1ns", "../../testdata/fig1.blk"}, 0,
			[]string{"complete traces   0", "stopped early     timeout"}, []string{"--timeout 1ns ran out while synthesizing the ICs: nothing was explored"}},
		{"timeout during synthesis, json", []string{"explore", "--algo", "cdpor", "--timeout", "1ns", "--json", "../../testdata/fig1.blk"}, 0,
			[]string{`"traces": 0`, `"stopped_early": "timeout"`}, nil},
		{"dot and svg to one stdout", []string{"explore", "--dot", "-", "--svg", "-", "../../testdata/fig1.blk"}, 2, nil, []string{"--dot and --svg both write to standard output"}},
		{"help tells how files are written", []string{"synth", "--help"}, 0, []string{"Output files:", "stays what it is"}, nil},
	})

}

// cliCase is a command line with its exit code and what its outputs
// contain.
type cliCase struct {
	name string
	args []string
	code int
	out  []string // substrings of stdout, in order
	err  []string // substrings of stderr, in order
}

// runCases runs each case as a parallel subtest.
func runCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := icgen(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			containsInOrder(t, "stdout", out, tc.out)
			containsInOrder(t, "stderr", errOut, tc.err)
		})
	}
}

func containsInOrder(t *testing.T, what, s string, subs []string) {
	t.Helper()
	rest := s
	for _, sub := range subs {
		i := strings.Index(rest, sub)
		if i < 0 {
			t.Errorf("%s lacks %q (in order) in:\n%s", what, sub, s)
			return
		}
		rest = rest[i+len(sub):]
	}
}

func TestRunViolationAndRuntimeError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	viol := write("viol.blk", "global int x;\nproc p() { x = x + 1; assert(x == 2, \"x is two\"); }\ninit { spawn p(); }\n")
	out, _, code := icgen("run", viol)
	if code != ExitFindings || !strings.Contains(out, "viol.blk:2:23: assertion failed: x is two (p#1, block p)") || !strings.Contains(out, "^") {
		t.Errorf("violation: exit %d, out:\n%s", code, out)
	}
	div := write("div.blk", "global int x;\nproc p() { x = 1 / x; }\ninit { spawn p(); }\n")
	out, _, code = icgen("run", div)
	if code != ExitFindings || !strings.Contains(out, "div.blk:2:18: runtime error: division by zero") {
		t.Errorf("runtime error: exit %d, out:\n%s", code, out)
	}
	var res struct {
		Status string `json:"status"`
		Error  *struct {
			Line, Col int
			Message   string `json:"message"`
		} `json:"error"`
	}
	out, _, code = icgen("run", "--json", div)
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != ExitFindings || res.Status != "runtime-error" || res.Error == nil || res.Error.Line != 2 {
		t.Errorf("json runtime error: exit %d, err %v, out:\n%s", code, err, out)
	}
	dead := write("dead.blk", "global int x;\nproc p() { await(x > 0); }\ninit { spawn p(); }\n")
	out, _, code = icgen("run", dead)
	if code != ExitOK || !strings.Contains(out, "1 process blocked (deadlock)") || !strings.Contains(out, "p#1") {
		t.Errorf("deadlock: exit %d, out:\n%s", code, out)
	}
}

// TestMalformedPrograms runs parse and run on every malformed program: each
// must exit 2 with located diagnostics (file:line:col, a caret line), and
// never a panic or stack trace.
func TestMalformedPrograms(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../testdata/bad/*.blk")
	if len(files) < 15 {
		t.Fatalf("want at least 15 malformed programs in testdata/bad, have %d", len(files))
	}
	located := regexp.MustCompile(`(?m)^[^\s:]+\.blk:\d+:\d+: .+$`)
	for _, f := range files {
		for _, cmd := range []string{"parse", "run"} {
			t.Run(filepath.Base(f)+"/"+cmd, func(t *testing.T) {
				t.Parallel()
				out, errOut, code := icgen(cmd, f)
				if code != ExitBadInput {
					t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
				}
				if !located.MatchString(errOut) || !strings.Contains(errOut, "^") {
					t.Errorf("no located diagnostic with a caret:\n%s", errOut)
				}
				if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
					t.Errorf("stack trace or panic:\n%s", errOut)
				}
			})
		}
		t.Run(filepath.Base(f)+"/json", func(t *testing.T) {
			t.Parallel()
			out, _, code := icgen("parse", "--json", f)
			var d struct {
				Errors []diagJSON `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &d); err != nil || code != ExitBadInput || len(d.Errors) == 0 || d.Errors[0].Line == 0 {
				t.Errorf("json diagnostics: exit %d, err %v, out:\n%s", code, err, out)
			}
		})
	}
}

func TestParseJSON(t *testing.T) {
	t.Parallel()
	out, _, code := icgen("parse", "--json", "../../testdata/fig1.blk")
	var p struct {
		Hash   string      `json:"hash"`
		Blocks []blockJSON `json:"blocks"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil || code != 0 {
		t.Fatalf("exit %d, err %v:\n%s", code, err, out)
	}
	got := map[string]string{}
	for _, b := range p.Blocks {
		got[b.ID] = strings.Join(b.Reads, ",") + "/" + strings.Join(b.Writes, ",")
	}
	want := map[string]string{"p": "x/x", "q": "x,z/z", "r": "x,z/x,z"}
	for id, rw := range want {
		if got[id] != rw {
			t.Errorf("block %s: reads/writes %q, want %q", id, got[id], rw)
		}
	}
	if len(p.Hash) != 64 {
		t.Errorf("hash %q", p.Hash)
	}
}

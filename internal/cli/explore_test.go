package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestExploreCommand(t *testing.T) {
	t.Parallel()
	out, _, code := icgen("explore", "--algo", "dfs", "../../testdata/fig1.blk")
	if code != ExitOK || !strings.Contains(out, "complete traces   6") || !strings.Contains(out, "final states      1") {
		t.Errorf("dfs on fig1: exit %d\n%s", code, out)
	}
	out, _, code = icgen("explore", "--dep", "static", "--json", "../../testdata/fig1.blk")
	var r struct {
		Traces int `json:"traces"`
		Finals int `json:"final_states"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitOK || r.Traces != 6 || r.Finals != 1 {
		t.Errorf("sdpor --dep static --json: exit %d, %v, %+v", code, err, r)
	}

	dir := t.TempDir()
	src := filepath.Join(dir, "v.blk")
	os.WriteFile(src, []byte("global int x;\nproc a() { x = x + 1; }\nproc b() { assert(x == 0, \"b first\"); }\ninit { spawn a(); spawn b(); }\n"), 0o644)
	out, _, code = icgen("explore", src)
	if code != ExitFindings || !strings.Contains(out, "assertion failed: b first") || !strings.Contains(out, "schedule: a#1 b#2") {
		t.Fatalf("violation: exit %d\n%s", code, out)
	}
	// The schedule replays to the same violation.
	out, _, code = icgen("run", "--replay", "a#1 b#2", src)
	if code != ExitFindings || !strings.Contains(out, "assertion failed: b first") {
		t.Errorf("replay: exit %d\n%s", code, out)
	}

	// The paper's Example 5 (see synth.TestExample5), over its
	// mathematical integers: 1 complete trace, 6 events (the paper's 5 and
	// p.r, blocked: see dporrt's floatingWrites). By default the same: no
	// run overflows, which the report says; the default dependency,
	// locals, gives the static one's counts here.
	out, _, code = icgen("explore", "--algo", "cdpor", "--assume-no-overflow", "../../testdata/fig1.blk")
	if code != ExitOK || !strings.Contains(out, "cdpor (locals dependency, assuming no overflow)") || !strings.Contains(out, "complete traces   1") || !strings.Contains(out, "states            6") {
		t.Errorf("cdpor --assume-no-overflow on fig1: exit %d\n%s", code, out)
	}
	out, _, code = icgen("explore", "--algo", "cdpor", "--dep", "static", "../../testdata/fig1.blk")
	if code != ExitOK || !strings.Contains(out, "cdpor (static dependency, no overflow possible)") || !strings.Contains(out, "complete traces   1") || !strings.Contains(out, "blocked traces    2") || !strings.Contains(out, "states            6") {
		t.Errorf("cdpor on fig1: exit %d\n%s", code, out)
	}
	if _, stderr, code := icgen("explore", "--algo", "odpor", "--assume-no-overflow", "../../testdata/fig1.blk"); code != ExitBadInput || !strings.Contains(stderr, "only used by the algorithms that use independence constraints") {
		t.Errorf("--assume-no-overflow with odpor: exit %d\n%s", code, stderr)
	}
	for _, algo := range []string{"", "bogus"} { // dporrt.Options takes "" for sdpor; the flag does not
		if _, stderr, code := icgen("explore", "--algo", algo, "../../testdata/fig1.blk"); code != ExitBadInput || !strings.Contains(stderr, "want one of dfs, sdpor") {
			t.Errorf("--algo %q: exit %d\n%s", algo, code, stderr)
		}
	}
	// csdpor (the CDPOR paper's Example 2): 2 complete traces, p.q.r and
	// q.r.p, and 2 covered stops.
	out, _, code = icgen("explore", "--algo", "csdpor", "--json", "--dep", "dynamic", "../../testdata/fig1.blk")
	if code != ExitOK || !strings.Contains(out, `"algo": "csdpor"`) || !strings.Contains(out, `"dependency": "locals"`) || !strings.Contains(out, `"traces": 2,`) || !strings.Contains(out, `"covered": 2,`) {
		t.Errorf("csdpor on fig1: exit %d\n%s", code, out)
	}
	// An IC file for another program is refused.
	ics := filepath.Join(dir, "fib.ic.json")
	if _, stderr, code := icgen("synth", "-q", "-o", ics, "../../testdata/fib.blk"); code != ExitOK {
		t.Fatalf("synth: %s", stderr)
	}
	if _, stderr, code := icgen("explore", "--algo", "cdpor", "--ics", ics, "../../testdata/fig1.blk"); code != ExitBadInput || !strings.Contains(stderr, "was made for ../../testdata/fib.blk, not ../../testdata/fig1.blk") {
		t.Errorf("stale ICs: exit %d, %s", code, stderr)
	}
	if out, _, code := icgen("explore", "--algo", "cdpor", "--ics", ics, "-D", "N=3", "../../testdata/fib.blk"); code != ExitOK || !strings.Contains(out, "final states      1") {
		t.Errorf("cdpor with --ics on fib: exit %d\n%s", code, out)
	}
	out, _, code = icgen("explore", "--max-states", "3", "--algo", "dfs", "../../testdata/fig1.blk")
	if code != ExitOK || !strings.Contains(out, "stopped early     max states") {
		t.Errorf("bounded: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "no violations in the part explored") {
		t.Errorf("bounded: a stopped run must not claim no violations\n%s", out)
	}
	for _, bad := range [][]string{{"--algo", "magic"}, {"--dep", "psychic"},
		// Both would write to stdout.
		{"--json", "--dot", "-"}} {
		_, stderr, code := icgen(append([]string{"explore"}, append(bad, "../../testdata/fig1.blk")...)...)
		if code != ExitBadInput || !strings.Contains(stderr, bad[0]) {
			t.Errorf("%v: exit %d, %s", bad, code, stderr)
		}
	}
	// With --json, an error is JSON on stdout too.
	out, _, code = icgen("explore", "--json", filepath.Join(dir, "missing.blk"))
	var fail struct {
		Error string `json:"error"`
		Code  int    `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out), &fail); err != nil || code != ExitBadInput || fail.Code != ExitBadInput || !strings.Contains(fail.Error, "missing.blk") {
		t.Errorf("--json on a missing file: exit %d, %v\n%s", code, err, out)
	}
	out, _, code = icgen("explore", "--json") // a usage error: no FILE
	if err := json.Unmarshal([]byte(out), &fail); err != nil || code != ExitBadInput || fail.Code != ExitBadInput || !strings.Contains(fail.Error, "arg") {
		t.Errorf("--json without FILE: exit %d, %v\n%s", code, err, out)
	}
	// final_states_all is the run's promise: not when it stopped early,
	// nor when overflows were assumed away.
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--algo", "codpor", "../../testdata/regress/guard-float.blk"}, true},
		{[]string{"--algo", "codpor", "--assume-no-overflow", "../../testdata/regress/guard-float.blk"}, false},
		{[]string{"--algo", "dfs", "--max-states", "3", "../../testdata/fig1.blk"}, false},
	} {
		args, want := tc.args, tc.want
		out, _, _ := icgen(append([]string{"explore", "--json"}, args...)...)
		var r struct {
			All *bool `json:"final_states_all"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.All == nil || *r.All != want {
			t.Errorf("%v: final_states_all want %v: %v\n%s", args, want, err, out)
		}
	}
}

// TestExploreWholeArrays: the static dependency tells apart the cells PS's
// puts index by their param (odpor explores 288 traces, the CDPOR paper's
// SDPOR figure at PS(4));
// --whole-arrays takes every array as one location (1152), and the report
// says so.
func TestExploreWholeArrays(t *testing.T) {
	t.Parallel()
	var r struct {
		Traces int    `json:"traces"`
		Dep    string `json:"dependency"`
		Whole  bool   `json:"whole_arrays"`
	}
	for _, c := range []struct {
		args   []string
		traces int
		whole  bool
	}{{nil, 288, false}, {[]string{"--whole-arrays"}, 1152, true}} {
		args := append([]string{"explore", "--algo", "odpor", "--dep", "static", "--json", "-D", "N=4"}, c.args...)
		out, _, code := icgen(append(args, "../../testdata/bench/ps.blk")...)
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitOK || r.Traces != c.traces || r.Dep != "static" || r.Whole != c.whole {
			t.Errorf("%v: exit %d, %v, %+v; want %d traces, whole arrays %v", c.args, code, err, r, c.traces, c.whole)
		}
	}
	out, _, code := icgen("explore", "--algo", "odpor", "--dep", "static", "--whole-arrays", "-D", "N=3", "../../testdata/bench/ps.blk")
	if code != ExitOK || !strings.Contains(out, "odpor (static dependency, whole arrays)") {
		t.Errorf("text report: exit %d\n%s", code, out)
	}
	// icgen parse shows the cells.
	out, _, code = icgen("parse", "--json", "../../testdata/bench/ps.blk")
	var p struct {
		Blocks []blockJSON `json:"blocks"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil || code != ExitOK || len(p.Blocks) != 1 || strings.Join(p.Blocks[0].Cells, " ") != "m[k] got[k]" {
		t.Errorf("parse --json: exit %d, %v, %+v", code, err, p.Blocks)
	}
	out, _, _ = icgen("parse", "../../testdata/bench/ps.blk")
	if !strings.Contains(out, "CELLS") || !strings.Contains(out, "m[k], got[k]") {
		t.Errorf("parse:\n%s", out)
	}
}

// TestExploreInconsistentICs: explore --ics refuses an IC file in which a
// constraint's text or SMT-LIB form is not its expression's (the explorer
// evaluates the expression), naming the pair and the constraint, as icgen
// check reports it.
func TestExploreInconsistentICs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "fig1.ic.json")
	if _, stderr, code := icgen("synth", "-q", "-o", good, "../../testdata/fig1.blk"); code != ExitOK {
		t.Fatalf("synth: %s", stderr)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name, old, new string) string {
		t.Helper()
		if strings.Count(string(data), old) != 1 {
			t.Fatalf("%q is not once in the IC file", old)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	text := edit("text.ic.json", `"text": "z <= -1"`, `"text": "z <= -5"`)
	smt := edit("smt.ic.json", `"smtlib": "(<= z (- 1))"`, `"smtlib": "(<= z 7)"`)
	runCases(t, []cliCase{
		{"consistent", []string{"explore", "--algo", "cdpor", "--ics", good, "../../testdata/fig1.blk"}, 0, []string{"complete traces   1"}, nil},
		{"text", []string{"explore", "--algo", "cdpor", "--ics", text, "../../testdata/fig1.blk"}, 2, nil,
			[]string{text + ": 1 inconsistent entry", `I(p, q') constraint 1: its text "z <= -5" is not its expression, z <= -1`, "icgen check --ics " + text}},
		{"smtlib", []string{"explore", "--algo", "cdpor", "--ics", smt, "../../testdata/fig1.blk"}, 2, nil,
			[]string{`I(p, q') constraint 1: its SMT-LIB form (<= z 7) is not its expression's`}},
		// check reports the same problem as a finding.
		{"check", []string{"check", "--ics", text, "../../testdata/fig1.blk"}, 1, []string{`inconsistent: its text "z <= -5"`}, nil},
	})
}

// TestExploreJSONFieldsDocumented: every field of explore's --json output
// is named in its --help, with the fields of a finding (a run stopped
// early and with --assume-no-overflow has every optional one).
func TestExploreJSONFieldsDocumented(t *testing.T) {
	t.Parallel()
	help, _, _ := icgen("explore", "--help")
	out, _, _ := icgen("explore", "--json", "--algo", "codpor", "--assume-no-overflow", "--max-states", "1", "../../testdata/regress/guard-float.blk")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// A program proven free of overflow: its run says so.
	out, _, _ = icgen("explore", "--json", "--algo", "codpor", "-D", "N=4", "../../testdata/bench/fib.blk")
	var proven map[string]any
	if err := json.Unmarshal([]byte(out), &proven); err != nil || proven["overflow_free"] != true {
		t.Fatalf("codpor on fib: want overflow_free: %v\n%s", err, out)
	}
	r["overflow_free"] = true
	out, _, _ = icgen("explore", "--json", "--algo", "dfs", "../../testdata/regress/guard-float.blk")
	var f struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil || len(f.Findings) == 0 {
		t.Fatalf("dfs on guard-float: want a finding: %v\n%s", err, out)
	}
	keys := map[string]any{}
	for k, v := range r {
		keys[k] = v
	}
	for k, v := range f.Findings[0] {
		keys[k] = v
	}
	// The paragraph that lists them, as whole words.
	_, para, _ := strings.Cut(help, "--json prints one object")
	para, _, _ = strings.Cut(para, "\n\n")
	for k := range keys {
		if !regexp.MustCompile(`\b` + k + `\b`).MatchString(para) {
			t.Errorf("--json field %s is not in explore --help's paragraph on --json", k)
		}
	}
}

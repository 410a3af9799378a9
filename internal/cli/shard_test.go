package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shardFlags make a synthesis deterministic (the same file in every run,
// under any load): a budget, no time bound per cover, and a bound per
// check far above what the budget lets one take.
var shardFlags = []string{"-q", "--timeout", "0", "--check-timeout", "60s", "--budget", "2000000"}

// gnuParallel is the path of GNU parallel, or "" (moreutils has a
// parallel command of its own).
func gnuParallel() string {
	p, err := exec.LookPath("parallel")
	if err != nil {
		return ""
	}
	out, _ := exec.Command(p, "--version").Output()
	if !bytes.Contains(out, []byte("GNU parallel")) {
		return ""
	}
	return p
}

// TestShardParallel runs sharded synthesis through GNU parallel, as
// docs/scaling.md shows it: every program of testdata and testdata/bench
// (in -short, all but indexer.blk, whose pairs take seconds each) split in
// 1, 2, 3 and 7 parts, each part a process that parallel starts, then
// icgen merge of the parts, which must be byte for byte the file of an
// unsharded run. The icgen the jobs run is this test binary (TestMain).
func TestShardParallel(t *testing.T) {
	par := gnuParallel()
	if par == "" {
		t.Skip("GNU parallel is not installed (make deps installs it)")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var progs []string
	for _, pat := range []string{"../../testdata/*.blk", "../../testdata/bench/*.blk"} {
		fs, _ := filepath.Glob(pat)
		for _, f := range fs {
			if testing.Short() && filepath.Base(f) == "indexer.blk" {
				continue
			}
			progs = append(progs, f)
		}
	}
	if len(progs) < 20 {
		t.Fatalf("only %d programs", len(progs))
	}
	dir := t.TempDir()
	name := func(prog string) string {
		return filepath.Base(filepath.Dir(prog)) + "-" + strings.TrimSuffix(filepath.Base(prog), ".blk")
	}
	whole := map[string][]byte{}
	for _, prog := range progs {
		out := filepath.Join(dir, name(prog)+".whole.json")
		if _, stderr, code := icgen(append(append([]string{"synth"}, shardFlags...), "-o", out, prog)...); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", prog, code, stderr)
		}
		whole[prog], _ = os.ReadFile(out)
	}
	for _, n := range []int{1, 2, 3, 7} {
		// One parallel run for all programs: a job per program and part,
		// the columns the program, the part and the name of its files.
		var jobs strings.Builder
		for _, prog := range progs {
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&jobs, "%s %d %s\n", prog, i, name(prog))
			}
		}
		cmd := exec.Command(par, "--halt", "now,fail=1", "-j", "2", "--colsep", " ",
			self+" synth "+strings.Join(shardFlags, " ")+fmt.Sprintf(" --shard {2}/%d -o %s/{3}.part-{2}-of-%d.json {1}", n, dir, n))
		cmd.Env = append(os.Environ(), childEnv+"=1")
		cmd.Stdin = strings.NewReader(jobs.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("parallel, %d parts: %v\n%s", n, err, out)
		}
		for _, prog := range progs {
			parts, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%s.part-*-of-%d.json", name(prog), n)))
			if len(parts) != n {
				t.Fatalf("%s, %d parts: %d files: %v", prog, n, len(parts), parts)
			}
			slices.Reverse(parts) // the order of the parts does not matter
			merged := filepath.Join(dir, fmt.Sprintf("%s.merged-%d.json", name(prog), n))
			if _, stderr, code := icgen(append([]string{"merge", "-q", "-o", merged}, parts...)...); code != ExitOK {
				t.Fatalf("%s, %d parts: merge: exit %d: %s", prog, n, code, stderr)
			}
			got, _ := os.ReadFile(merged)
			if !bytes.Equal(got, whole[prog]) {
				t.Errorf("%s: the merge of %d parts differs from the unsharded file", prog, n)
			}
		}
	}
}

// TestMergeRefuses: icgen merge refuses what would not make the file of an
// unsharded run, naming the files; icgen explore refuses a part.
func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	part := func(prog, shard string, extra ...string) string {
		t.Helper()
		out := filepath.Join(dir, strings.NewReplacer("/", "-", ".", "-").Replace(filepath.Base(prog)+"-"+shard+strings.Join(extra, ""))+".json")
		args := append(append(append([]string{"synth"}, shardFlags...), extra...), "--shard", shard, "-o", out, prog)
		if _, stderr, code := icgen(args...); code != ExitOK {
			t.Fatalf("synth --shard %s %s: exit %d: %s", shard, prog, code, stderr)
		}
		return out
	}
	fig1, fib := "../../testdata/fig1.blk", "../../testdata/fib.blk"
	a1, a2, a3 := part(fig1, "1/3"), part(fig1, "2/3"), part(fig1, "3/3")
	b1 := part(fib, "1/3")
	c2 := part(fig1, "2/2")
	o2 := part(fig1, "2/3", "--budget", "3000000")
	whole := filepath.Join(dir, "whole.json")
	if _, stderr, code := icgen(append(append([]string{"synth"}, shardFlags...), "-o", whole, fig1)...); code != ExitOK {
		t.Fatal(stderr)
	}
	tampered := filepath.Join(dir, "tampered.json")
	data, _ := os.ReadFile(a2)
	os.WriteFile(tampered, bytes.Replace(data, []byte(`"pairs": [`), []byte(`"pairs": [0, `), 1), 0o644)
	for _, tc := range []struct {
		name  string
		parts []string
		want  string
	}{
		{"missing", []string{a1, a3}, "parts missing: 2 of 3"},
		{"twice", []string{a1, a2, a2, a3}, "shard 2/3 given twice: " + a2 + " and " + a2},
		{"another program", []string{a1, b1}, "are parts of different programs"},
		{"another split", []string{a1, c2}, "is a part of 3, " + c2 + " of 2"},
		{"other options", []string{a1, o2, a3}, "were made with different options: budget 2000000 and 3000000"},
		{"not a part", []string{a1, whole}, whole + " is not a part of a sharded synthesis"},
		{"tampered", []string{a1, tampered, a3}, tampered + ": "},
	} {
		_, stderr, code := icgen(append([]string{"merge", "-o", filepath.Join(dir, "out.json")}, tc.parts...)...)
		if code != ExitBadInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.json")); err == nil {
		t.Error("a refused merge wrote its output")
	}
	_, stderr, code := icgen("explore", "--algo", "cdpor", "--ics", a1, fig1)
	if code != ExitBadInput || !strings.Contains(stderr, "is shard 1/3 of a sharded synthesis") || !strings.Contains(stderr, "icgen merge") {
		t.Errorf("explore --ics PART: exit %d, %s", code, stderr)
	}
	_, stderr, code = icgen("synth", "--shard", "4/3", fig1)
	if code != ExitBadInput || !strings.Contains(stderr, "shard 4/3: want 1 <= I <= N") {
		t.Errorf("--shard 4/3: exit %d, %s", code, stderr)
	}
	_, stderr, code = icgen("synth", "--shard", "1/2", "--format", "text", fig1)
	if code != ExitBadInput || !strings.Contains(stderr, "--shard writes a part") {
		t.Errorf("--shard with text: exit %d, %s", code, stderr)
	}
}

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/z3"
)

func TestSynthCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "fig1.ic.json")
	stdout, stderr, code := icgen("synth", "-o", out, "../../testdata/fig1.blk")
	if code != ExitOK {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "6 pairs: 4 independent, 2 conditional, 0 dependent, 0 unknown (6 exact)") {
		t.Errorf("summary: %s", stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ic.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if pr, _ := f.Pair("p", "q"); pr == nil || len(pr.Constraints) != 1 || pr.Constraints[0].Text != "z <= -1" {
		t.Errorf("I(p, q) = %+v", pr)
	}
	// No temporary file is left behind.
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left in the output directory: %v", entries)
	}

	text, _, code := icgen("synth", "--format", "text", "-o", "-", "-q", "../../testdata/fib.blk")
	if code != ExitOK || !strings.Contains(text, "I(res, res') = {nr > 0, v == v'}  [conditional, exact]") {
		t.Errorf("text format, exit %d:\n%s", code, text)
	}

	_, stderr, code = icgen("synth", "--format", "yaml", "../../testdata/fib.blk")
	if code != ExitBadInput || !strings.Contains(stderr, `--format "yaml"`) {
		t.Errorf("bad format: exit %d, %s", code, stderr)
	}
}

// TestSynthSMTLIBRoundTrip loads the SMT-LIB export of the Fig. 1 ICs into
// Z3 and checks each define-fun is equivalent to its JSON constraint and
// the pair's no-overflow guard, and that the constraints are the paper's.
func TestSynthSMTLIBRoundTrip(t *testing.T) {
	t.Parallel()
	smt, _, code := icgen("synth", "--format", "smtlib", "-o", "-", "-q", "../../testdata/fig1.blk")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	js, _, code := icgen("synth", "--format", "json", "-o", "-", "-q", "../../testdata/fig1.blk")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	f, err := ic.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	equivalent := func(name, form string) {
		t.Helper()
		x, err := z3.NewContext()
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		ts, err := x.Parse(smt + "(assert (not (= " + name + " " + form + ")))")
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, smt)
		}
		s := x.NewSolver()
		for _, a := range ts {
			s.Assert(a)
		}
		if r := s.Check(); r.Status != z3.Unsat {
			t.Errorf("%s is not equivalent to %s: %v", name, form, r.Status)
		}
	}
	n := 0
	for _, p := range f.Pairs {
		guard := "true"
		if p.NoOverflow != nil {
			guard = ic.SMTLIB(p.NoOverflow)
		}
		for k, c := range p.Constraints {
			equivalent(fmt.Sprintf("|ic(%s,%s).%d|", p.A, p.B, k+1), "(and "+c.SMTLIB+" "+guard+")")
			n++
		}
	}
	if n != 8 {
		t.Errorf("%d constraints, want the paper's 8 (true for 4 pairs, z <= -1, and 3 for q, r)", n)
	}
	for name, form := range map[string]string{ // the paper's constraints, written by hand
		"|ic(p,q).1|": "(and (<= z (- 1)) |no_overflow(p,q)|)",
		"|ic(q,r).1|": "(and (= x z) |no_overflow(q,r)|)",
		"|ic(q,r).2|": "(and (<= z (- 2)) |no_overflow(q,r)|)",
		"|ic(q,r).3|": "(and (>= z 0) |no_overflow(q,r)|)",
		"|ic(q,q).1|": "true",
	} {
		equivalent(name, form)
	}
}

// TestSynthUnknownIsNotFailure: the non-linear pair is unknown at any
// speed, and the other two pairs take milliseconds against the 300 ms
// budget of a check, so a busy machine cannot change the output.
func TestSynthUnknownIsNotFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "nl.blk")
	os.WriteFile(src, []byte(`global int x, y, z, w;
proc a() { if (x*x*x + y*y*y == z*z*z && x > 1 && y > 1 && z > 1) { w = 0; } else { w = 1; } }
proc b() { w = 0; }
`), 0o644)
	out, stderr, code := icgen("synth", "--format", "text", "-o", "-", "--timeout", "3s", "--check-timeout", "300ms", src)
	if code != ExitOK || !strings.Contains(out, "I(a, b') = {}  [unknown]  reason: solver: timeout") || !strings.Contains(stderr, "1 unknown") {
		t.Errorf("exit %d:\n%s%s", code, out, stderr)
	}
}

// TestSynthBudget: with --budget and no time bound, the file is the same
// from run to run, -j 1 or -j 2; a budget too small for a pair leaves it
// unknown with the budget as the reason, in icgen synth and icgen audit.
func TestSynthBudget(t *testing.T) {
	t.Parallel()
	run := func(args ...string) string {
		t.Helper()
		out, stderr, code := icgen(append([]string{"synth", "--format", "text", "-q", "-o", "-", "--timeout", "0"}, args...)...)
		if code != ExitOK && code != ExitFindings {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	first := run("--budget", "200000", "-j", "1", "../../testdata/fib.blk")
	if again := run("--budget", "200000", "-j", "2", "../../testdata/fib.blk"); again != first {
		t.Errorf("two runs with one budget differ:\n%s\n%s", first, again)
	}
	if !strings.Contains(first, "[independent, exact]") || strings.Contains(first, "[unknown]") {
		t.Errorf("a budget of 200000 does not cover fib's pairs:\n%s", first)
	}
	tiny := run("--budget", "1", "../../testdata/fib.blk")
	if !strings.Contains(tiny, "[unknown]  reason: resource budget of 1 spent") {
		t.Errorf("budget 1:\n%s", tiny)
	}
	// icgen audit classifies pairs with the same budget.
	out, stderr, code := icgen("audit", "--budget", "1", "--timeout", "0", "../../testdata/fig1.blk")
	if code != ExitOK || !strings.Contains(out, "2 unknown") || !strings.Contains(out, "reason: resource budget of 1 spent") {
		t.Errorf("audit --budget 1: exit %d:\n%s%s", code, out, stderr)
	}
}

func TestSmtCommand(t *testing.T) {
	t.Parallel()
	out, _, code := icgen("smt", "../../testdata/fib.blk", "res", "res")
	if code != ExitOK || !strings.Contains(out, "(declare-const |v'| Int)") || !strings.Contains(out, "(define-fun |F(res,res)| () Bool") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	x, _ := z3.NewContext()
	defer x.Close()
	if _, err := x.Parse(out); err != nil {
		t.Errorf("the benchmark does not parse: %v", err)
	}
	paths, _, code := icgen("smt", "--encoding", "paths", "../../testdata/fib.blk", "res", "res")
	if code != ExitOK || paths == out || !strings.Contains(out, "(define-fun |@t") {
		t.Errorf("--encoding paths: exit %d, the same text as merged: %v\n%s", code, paths == out, paths)
	}
	if _, err := x.Parse(paths); err != nil {
		t.Errorf("the paths benchmark does not parse: %v", err)
	}
	_, stderr, code := icgen("smt", "../../testdata/fib.blk", "res", "nope")
	if code != ExitBadInput || !strings.Contains(stderr, `has no block "nope" (blocks: fib, res)`) {
		t.Errorf("unknown block: exit %d, %s", code, stderr)
	}
	_, stderr, code = icgen("smt", "--encoding", "tree", "../../testdata/fib.blk", "res", "res")
	if code != ExitBadInput || !strings.Contains(stderr, `unknown encoding "tree"`) {
		t.Errorf("--encoding tree: exit %d, %s", code, stderr)
	}
}

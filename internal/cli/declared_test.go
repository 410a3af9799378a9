package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeclared: icgen check proves a program's commute declarations (with
// a witness for an unsound one, located at the declaration), and cdpor
// uses the proven ones when no IC file is given.
func TestDeclared(t *testing.T) {
	t.Parallel()
	out, stderr, code := icgen("check", "../../testdata/counter.blk")
	// inc adds to c, so its pairs need the overflow guard; dec, dec does
	// not: under c >= 0, c - 1 cannot overflow.
	if code != ExitOK || !strings.Contains(out, "3 constraints: 3 proven (2 where no_overflow holds), 0 unsound") ||
		!strings.Contains(out, "I(inc, dec'): c > 0: proven where no_overflow holds\n") || !strings.Contains(out, "I(dec, dec'): true: proven\n") {
		t.Errorf("counter: exit %d\n%s%s", code, out, stderr)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "decl.blk")
	os.WriteFile(src, []byte(`global int x = -2, z = -2;
proc p() { x = x + 1; }
proc q() { if (z >= 0) { z = x; } }
proc r() { x = x + 1; z = z + 1; }
commute p, q when (z <= -1);
commute q, r when (z <= 0);
init { spawn p(); spawn q(); spawn r(); }
`), 0o644)
	out, _, code = icgen("check", src)
	for _, want := range []string{"decl.blk:5:1: I(p, q'): z <= -1: proven", "decl.blk:6:1: I(q, r'): z <= 0: unsound", "    commute q, r when (z <= 0);\n    ^", "witness: the orders end in different states (z)", "* z"} {
		if !strings.Contains(out, want) {
			t.Errorf("check: no %q in:\n%s", want, out)
		}
	}
	if code != ExitFindings {
		t.Errorf("check with an unsound declaration: exit %d, want %d", code, ExitFindings)
	}
	if _, stderr, code := icgen("check", "../../testdata/fig1.blk"); code != ExitBadInput || !strings.Contains(stderr, "declares no commute") {
		t.Errorf("no declarations, no --ics: exit %d, %s", code, stderr)
	}

	// cdpor without --ics uses the proven declarations, and reaches dfs's final states.
	out, stderr, code = icgen("explore", "--algo", "cdpor", "../../testdata/counter.blk")
	if code != ExitOK || !strings.Contains(stderr, "using the 3 proven commute declarations") || !strings.Contains(out, "final states      3") {
		t.Errorf("cdpor on counter: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = icgen("explore", "--algo", "dfs", "../../testdata/counter.blk")
	if !strings.Contains(out, "final states      3") {
		t.Errorf("dfs on counter:\n%s", out)
	}

	// A broken invariant is a finding of its own kind.
	inv := filepath.Join(dir, "inv.blk")
	os.WriteFile(inv, []byte("global int c = 0;\ninvariant (c >= 0);\nproc inc() { c = c + 1; }\nproc dec() { c = c - 1; }\ninit { spawn dec(); spawn inc(); }\n"), 0o644)
	out, _, code = icgen("explore", inv)
	if code != ExitFindings || !strings.Contains(out, "inv.blk:2:1: invariant broken: (c >= 0) (dec#1, block dec)") || !strings.Contains(out, "schedule: dec#1") {
		t.Errorf("invariant: exit %d\n%s", code, out)
	}
	out, _, _ = icgen("explore", "--json", inv)
	if !strings.Contains(out, `"kind": "invariant"`) {
		t.Errorf("invariant --json:\n%s", out)
	}
	// Broken by init: found with an empty schedule.
	os.WriteFile(inv, []byte("global int c = 0;\ninvariant (c >= 0);\nproc p() { c = 1; }\ninit { c = -1; spawn p(); }\n"), 0o644)
	out, _, code = icgen("explore", inv)
	if code != ExitFindings || !strings.Contains(out, "invariant broken") || !strings.Contains(out, "schedule: (in init, before any process runs)") {
		t.Errorf("invariant broken by init: exit %d\n%s", code, out)
	}
}

// TestDeclaredOneJudgement: check calls a declaration proven exactly when
// explore --algo cdpor uses it, on declarations over blocks with loops
// (once proven by one and invalid for the other).
func TestDeclaredOneJudgement(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "loops.blk")
	os.WriteFile(src, []byte(`global int x = 0, a = 0;
proc w(int n) { int i = 0; while (i < n) { i = i + 1; a = a + 1; } yield; x = i; }
proc inc() { x = x + 1; }
proc bump() { a = a + 1; }
commute w, inc when (n < 5);
commute w, w;
commute w@2, inc when (i == 0);
commute w, w@2;
commute w@2, bump;
commute inc, bump;
init { spawn w(2); spawn inc(); spawn bump(); }
`), 0o644)
	for _, file := range []string{src, "../../testdata/counter.blk"} {
		out, _, _ := icgen("check", file)
		proven := strings.Count(out, ": proven")
		_, stderr, code := icgen("explore", "--algo", "cdpor", file)
		if code != ExitOK || !strings.Contains(stderr, fmt.Sprintf("using the %d proven commute declaration", proven)) {
			t.Errorf("%s: check proves %d declarations, explore says: %s\n%s", file, proven, stderr, out)
		}
		if proven == 0 {
			t.Errorf("%s: nothing proven:\n%s", file, out)
		}
	}
}

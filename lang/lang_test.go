package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/golden"
)

// TestProgramsIR lowers every example program and compares the IR with its
// golden file in testdata/ir.
func TestProgramsIR(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p, errs := Compile(filepath.Base(file), src)
			if errs != nil {
				t.Fatal(errs.Format(src))
			}
			sanity(t, p)
			golden.File(t, filepath.Join("testdata", "ir", strings.TrimSuffix(filepath.Base(file), ".blk")+".ir"), FormatIR(p))
		})
	}
}

// TestLoweringCases runs the txtar cases in testdata/ir: each has an
// input.blk and the expected IR.
func TestLoweringCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/ir/*.txtar")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar := golden.Open(t, file)
			src := ar.Get("input.blk")
			p, errs := Compile("input.blk", src)
			if errs != nil {
				t.Fatal(errs.Format(src))
			}
			sanity(t, p)
			ar.Check(t, "ir", FormatIR(p))
		})
	}
}

// TestDiagnostics compiles every malformed program in testdata/bad and
// compares all its diagnostics, with source lines and carets, with the
// .errors golden beside it.
func TestDiagnostics(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bad/*.blk")
	if len(files) < 15 {
		t.Fatalf("%d malformed programs, want at least 15", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(file)
			p, errs := Compile(name, src)
			if p != nil || len(errs) == 0 {
				t.Fatal("compiled without errors")
			}
			lines := strings.Count(string(src), "\n") + 1
			for i, e := range errs {
				if e.Pos.File != name || e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
					t.Errorf("error %q has position %v outside the file", e.Msg, e.Pos)
				}
				if i > 0 && (errs[i-1].Pos.Line > e.Pos.Line || errs[i-1].Pos.Line == e.Pos.Line && errs[i-1].Pos.Col > e.Pos.Col) {
					t.Errorf("errors not sorted: %v before %v", errs[i-1].Pos, e.Pos)
				}
			}
			out := errs.Format(src)
			if strings.Count(out, "^\n") != len(errs) {
				t.Errorf("%d errors but %d carets:\n%s", len(errs), strings.Count(out, "^\n"), out)
			}
			golden.File(t, strings.TrimSuffix(file, ".blk")+".errors", out)
		})
	}
}

// TestCompiles: programs at the edges of the rules that must be accepted.
func TestCompiles(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, check string }{
		{"else-if chain", "global int x; proc p() { if (x < 0) { x = 0; } else if (x < 5) { x = 1; } else { x = 2; } }", ""},
		{"bool locals and ==", "global bool b; proc p() { bool c = !b; b = c == b; }", ""},
		{"sibling scopes reuse names", "proc p() { if (true) { int t = 1; } else { int t = 2; } }", ""},
		{"func calls func", "func int f(int v) { return g(v) + 1; } func int g(int v) { return v; } global int x; proc p() { x = f(x); }", ""},
		{"void func statement", "global int x; func bump() { x = x + 1; } proc p() { bump(); }", ""},
		{"negative literals", "param N = -3; global int x = -5; proc p() { x = -x - -1; }", ""},
		{"precedence", "global int x; global bool b; proc p() { b = 1 + 2 * 3 == 7 && !false || x < 0; }",
			"b = ((((1 + (2 * 3)) == 7) && !false) || (x < 0))"},
		{"left associativity", "global int x; proc p() { x = 10 - 3 - 2; x = 8 / 2 / 2; }", "x = ((10 - 3) - 2)"},
		{"labels", "global int x; proc p() { ready: await(x > 0); again: yield; }", "block p@ready"},
		{"no init", "global int x; proc p() { x = 1; }", ""},
		{"return in proc", "global int x; proc p() { if (x > 0) { return; } x = 1; }", ""},
		{"comments", "/* a */ global int x; // b\nproc p() { /* c */ x = 1; }", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, errs := Compile("ok.blk", []byte(tc.src))
			if errs != nil {
				t.Fatal(errs.Format([]byte(tc.src)))
			}
			sanity(t, p)
			if ir := FormatIR(p); tc.check != "" && !strings.Contains(ir, tc.check) {
				t.Errorf("IR lacks %q:\n%s", tc.check, ir)
			}
		})
	}
}

// sanity checks invariants of a lowered program.
func sanity(t testing.TB, p *Program) {
	t.Helper()
	if err := checkIR(p); err != nil {
		t.Error(err)
	}
}

func checkIR(p *Program) error {
	ids := map[string]bool{}
	for i, b := range p.Blocks {
		if b.Index != i {
			return fmt.Errorf("block %s has index %d at %d", b.ID, b.Index, i)
		}
		if ids[b.ID] {
			return fmt.Errorf("block id %s twice", b.ID)
		}
		ids[b.ID] = true
		for k, id := range b.Nodes {
			if id < 0 || id >= len(b.Proc.Nodes) || k > 0 && b.Nodes[k-1] >= id {
				return fmt.Errorf("block %s: nodes %v not sorted or out of range", b.ID, b.Nodes)
			}
		}
		for _, n := range b.Next {
			if n.Proc != b.Proc {
				return fmt.Errorf("block %s continues into %s of another proc", b.ID, n.ID)
			}
		}
		for _, set := range [][]*Var{b.Reads, b.Writes, b.Point.Live} {
			for k := 1; k < len(set); k++ {
				a, c := set[k-1], set[k]
				if a.Kind > c.Kind || a.Kind == c.Kind && a.Index >= c.Index {
					return fmt.Errorf("block %s: set %v not sorted", b.ID, VarSetText(set))
				}
			}
		}
	}
	for _, pr := range p.Procs {
		if len(pr.Points) == 0 || pr.Points[0].Kind != Entry || pr.Nodes[0].Point != pr.Points[0] {
			return fmt.Errorf("proc %s does not start with its entry point", pr.Name)
		}
		for i, pt := range pr.Points {
			if pt.Index != i || pt.Block == nil || pt.Block.Point != pt || pr.Nodes[pt.Node].Point != pt {
				return fmt.Errorf("proc %s: point %d is inconsistent", pr.Name, i)
			}
		}
		for _, n := range pr.Nodes {
			for _, s := range []int{n.Next, n.Else} {
				if s != End && (s < 0 || s >= len(pr.Nodes)) {
					return fmt.Errorf("proc %s: node %d has successor %d", pr.Name, n.ID, s)
				}
			}
		}
	}
	return nil
}

package progen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/lang"
)

// TestMutate: each kind of edit changes a program that has what it edits,
// as it says (one spawn more, one literal changed, a process writing what
// an await reads, statements fewer), is a pure function of its seed, and
// most mutants of the regression programs compile.
func TestMutate(t *testing.T) {
	t.Parallel()
	src := `global int g = 1, h = 1;
proc p() { g = 0; }
proc q() { await(g > 0 && h > 0); assert(false, "q ran first"); }
init { spawn p(); spawn q(); }
`
	checks := []struct {
		kind int
		ok   func(m string) bool
	}{
		{MutateSpawn, func(m string) bool { return strings.Count(m, "spawn ") == 3 }},
		{MutateLiteral, func(m string) bool { return m != src && strings.Count(m, "\n") == strings.Count(src, "\n") }},
		{MutateDisabler, func(m string) bool {
			return strings.Contains(m, "proc mutant_disabler(int v) {") &&
				(strings.Contains(m, "  g = v;") || strings.Contains(m, "  h = v;")) &&
				strings.Contains(m, "spawn mutant_disabler(")
		}},
	}
	for _, c := range checks {
		for seed := range uint64(20) {
			m := Mutate(src, seed, c.kind)
			if m != Mutate(src, seed, c.kind) {
				t.Fatalf("kind %d, seed %d: two mutants", c.kind, seed)
			}
			if !c.ok(m) {
				t.Fatalf("kind %d, seed %d: not the edit of its kind:\n%s", c.kind, seed, m)
			}
			if _, errs := lang.Compile("m.blk", []byte(m)); errs != nil {
				t.Fatalf("kind %d, seed %d: does not compile:\n%s\n%s", c.kind, seed, errs.Format([]byte(m)), m)
			}
		}
	}
	files, _ := filepath.Glob("../../dporrt/testdata/regress/*.blk")
	more, _ := filepath.Glob("../../testdata/regress/*.blk")
	files = append(files, more...)
	total, compiled := 0, 0
	for i, f := range files {
		b := readFile(t, f)
		for kind := range mutationKinds {
			m := Mutate(b, uint64(i), kind)
			if m == b {
				continue
			}
			total++
			if _, errs := lang.Compile(f, []byte(m)); errs == nil {
				compiled++
			}
		}
	}
	if total < len(files) || compiled < total/2 {
		t.Errorf("of %d mutants of %d programs, %d compile", total, len(files), compiled)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

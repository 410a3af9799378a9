package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/synth"
)

// TestICFileMismatches: an IC file synthesized for a program, then edited
// where no proof reads it (a function's entry, an invariant, a
// constraint's globals), is refused by explore --ics (exit 2) and reported
// by check --ics (exit 1), each naming the entry and what differs; the
// file as synthesized passes both. The moved loop entry is unsound, not
// only untidy: cdpor with it misses a final state of dfs.
func TestICFileMismatches(t *testing.T) {
	t.Parallel()
	const moved = "../../testdata/regress/loop-entry-moved.blk"
	cases := []struct {
		name, prog string
		// edit changes the synthesized file; nil leaves it as it is.
		edit func(t *testing.T, f *ic.File)
		// entry and msg: the mismatch, as explore names it; check prints a
		// constraint's under the constraint, and every other's as
		// "entry: inconsistent: msg". Empty for a file that passes.
		entry, msg string
	}{
		{"as synthesized", moved, nil, "", ""},
		{"loop entry moved to another loop", moved, func(t *testing.T, f *ic.File) {
			q := function(t, f, "loop:q:11:23.t")
			for i := range f.Functions {
				if fn := &f.Functions[i]; fn.Proc == "p" {
					fn.Proc, fn.Line, fn.Col, fn.Ins = q.Proc, q.Line, q.Col, q.Ins
					if fn.Out != "" {
						fn.Out = q.Out
					}
				}
			}
		}, "function loop:p:10:23.s", "has proc q, line 11, out t, ins [y, t], where the program's function of this name has proc p, line 10, out s, ins [x, s]"},
		{"loop entry of no loop", moved, func(t *testing.T, f *ic.File) {
			fn := *function(t, f, "loop:q:11:23?ok")
			fn.Name, fn.Col = "loop:q:11:24?ok", 24
			f.Functions = append(f.Functions, fn)
		}, "function loop:q:11:24?ok", "no in-block loop of the program has a function of this name"},
		{"invariant changed", "../../testdata/counter.blk", func(t *testing.T, f *ic.File) {
			f.Invariants[0] = ic.NewConstraint(&ic.Expr{Op: ">=", Args: []*ic.Expr{{Op: "global", Name: "c"}, ic.Int(1)}})
		}, "invariant 1", "its expression, c >= 1, is not the program's invariant 1, c >= 0"},
		{"invariants dropped", "../../testdata/counter.blk", func(t *testing.T, f *ic.File) {
			f.Invariants = nil
		}, "invariants", "the file has 0, the program 1"},
		{"invariant text", "../../testdata/counter.blk", func(t *testing.T, f *ic.File) {
			f.Invariants[0].Text = "c >= 1"
		}, "invariant 1", `its text "c >= 1" is not its expression, c >= 0`},
		{"constraint globals", "../../testdata/fig1.blk", func(t *testing.T, f *ic.File) {
			pr, _ := f.Pair("p", "q")
			pr.Constraints[0].Globals = nil
		}, "I(p, q') constraint 1", "its globals {} are not those its expression reads, {z}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(tc.prog)
			if err != nil {
				t.Fatal(err)
			}
			p, errs := lang.Compile(tc.prog, src)
			if errs != nil {
				t.Fatal(errs)
			}
			f, _, err := synth.Run(context.Background(), p, synth.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.edit != nil {
				tc.edit(t, f)
			}
			data, err := ic.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "edited.ic.json")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var check, explore []string
			switch {
			case tc.entry == "":
			case strings.HasPrefix(tc.entry, "I("):
				check, explore = []string{"inconsistent: " + tc.msg}, []string{tc.entry + ": " + tc.msg}
			default:
				check, explore = []string{tc.entry + ": inconsistent: " + tc.msg}, []string{tc.entry + ": " + tc.msg}
			}
			out, errOut, code := icgen("check", "--ics", path, tc.prog)
			if want := map[bool]int{true: ExitOK, false: ExitFindings}[tc.entry == ""]; code != want {
				t.Errorf("check: exit %d, want %d\n%s%s", code, want, out, errOut)
			}
			containsInOrder(t, "check's stdout", out, check)
			out, errOut, code = icgen("explore", "--algo", "cdpor", "--ics", path, tc.prog)
			if want := map[bool]int{true: ExitOK, false: ExitBadInput}[tc.entry == ""]; code != want {
				t.Errorf("explore: exit %d, want %d\n%s%s", code, want, out, errOut)
			}
			containsInOrder(t, "explore's stderr", errOut, explore)
		})
	}
	t.Run("moved entry misses a final state", func(t *testing.T) {
		t.Parallel()
		src, _ := os.ReadFile(moved)
		p, errs := lang.Compile(moved, src)
		if errs != nil {
			t.Fatal(errs)
		}
		m, err := interp.New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := synth.Run(context.Background(), p, synth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cases[1].edit(t, f)
		dfs, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.DFS})
		if err != nil {
			t.Fatal(err)
		}
		cd, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.CDPOR, ICs: f})
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := cd.Agrees(dfs); ok {
			t.Errorf("cdpor with the moved entries reaches dfs's %d final states: the edit no longer shows why entries are checked", dfs.FinalCount)
		}
	})
}

// function is the entry of f's functions table named name.
func function(t *testing.T, f *ic.File, name string) *ic.Function {
	t.Helper()
	for i := range f.Functions {
		if f.Functions[i].Name == name {
			return &f.Functions[i]
		}
	}
	t.Fatalf("no function %s in %v", name, f.Functions)
	return nil
}

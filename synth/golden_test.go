package synth

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/golden"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/ts"
)

// The golden files of behaviour: what every explorer does on every frozen
// program, and the IC file synthesis writes for each program of testdata.
// They hold still while the code is rearranged (a move, a split, a package
// of its own): a byte of difference is a change of behaviour. When a change
// of behaviour is meant (a new rule of synthesis, an algorithm that
// explores less), regenerate both with make golden, and say why in the
// commit.

// goldenProgram is a program of the golden files, with the params it runs
// at and whether its ICs are synthesized.
type goldenProgram struct {
	path   string // from the repository's root
	params map[string]int64
	// synth: the IC-based algorithms get the program's synthesized IC
	// file; without, they run with none (dporrt.Options.ICs).
	synth bool
}

// goldenSizes are the params of the programs that take some: small sizes,
// those of the differential tests and of make bench-quick.
var goldenSizes = map[string]map[string]int64{
	"testdata/fib.blk":               {"N": 3},
	"testdata/prodcons.blk":          {"ITEMS": 1, "SIZE": 1},
	"testdata/bench/abs.blk":         {"N": 2},
	"testdata/bench/bb.blk":          {"N": 2},
	"testdata/bench/dbp.blk":         {"N": 2},
	"testdata/bench/fib.blk":         {"N": 3},
	"testdata/bench/fr.blk":          {"N": 3},
	"testdata/bench/fra.blk":         {"N": 3},
	"testdata/bench/indexer.blk":     {"N": 2, "SIZE": 8},
	"testdata/bench/lam.blk":         {"N": 2},
	"testdata/bench/lastzero.blk":    {"N": 2},
	"testdata/bench/lw.blk":          {"N": 3},
	"testdata/bench/ms.blk":          {"N": 4},
	"testdata/bench/pi.blk":          {"N": 3},
	"testdata/bench/ps.blk":          {"N": 3},
	"testdata/bench/qs.blk":          {"N": 4},
	"testdata/bench/reg.blk":         {"N": 3},
	"bench/variants/bb-local.blk":    {"N": 2},
	"bench/variants/dbp-local.blk":   {"N": 2},
	"bench/variants/fr-pos.blk":      {"N": 3},
	"bench/variants/qs-nocount.blk":  {"N": 3},
	"dporrt/testdata/fast-mutex.blk": nil,
}

// goldenTimed are the programs of testdata whose IC file depends on the
// machine's load: some solver checks of their covers run into
// allsat.Options.CheckTimeout (non-linear arithmetic, mod-heavy), which is
// wall-clock time. The golden files take no IC file of theirs: their
// IC-based rows run with none, and ics.golden lists them without a digest.
var goldenTimed = map[string]bool{
	"testdata/regress/guard-error.blk":  true,
	"testdata/regress/codpor-cells.blk": true,
	"testdata/bench/indexer.blk":        true,
	"testdata/features.blk":             true,
}

// goldenPrograms lists the programs of the golden files, in a stable order:
// those synthesis runs on (testdata, testdata/regress, testdata/bench),
// then the runtime's own (dporrt/testdata, its regress and open programs,
// bench/variants), which synthesis does not run on (some take minutes).
func goldenPrograms(t *testing.T) []goldenProgram {
	t.Helper()
	var out []goldenProgram
	for _, g := range []struct {
		pattern string
		synth   bool
	}{
		{"testdata/*.blk", true},
		{"testdata/regress/*.blk", true},
		{"testdata/bench/*.blk", true},
		{"dporrt/testdata/*.blk", false},
		{"dporrt/testdata/regress/*.blk", false},
		{"dporrt/testdata/open/*.blk", false},
		{"bench/variants/*.blk", false},
	} {
		files, err := filepath.Glob(filepath.Join("..", g.pattern))
		if err != nil || len(files) == 0 {
			t.Fatalf("no programs in %s", g.pattern)
		}
		for _, f := range files {
			rel := filepath.ToSlash(strings.TrimPrefix(f, "../"))
			out = append(out, goldenProgram{rel, goldenSizes[rel], g.synth && !goldenTimed[rel]})
		}
	}
	return out
}

// goldenBound is the events each exploration of the golden file may run:
// enough for most programs at their small sizes to finish, with the cut
// ones recorded as cut where the bound stopped them.
func goldenBound() (bound int, file string) {
	bound = testsize.Pick(20000, 200000)
	if testing.Short() {
		return bound, "testdata/explore-short.golden"
	}
	return bound, "testdata/explore.golden"
}

// TestExploreGolden runs every algorithm of the registry, in both
// dependencies (and the observers algorithms with and without
// ObserveFinal), on every program of goldenPrograms, and compares the
// counts, the final states and the findings with the golden file: its
// short form under go test -short (make test), its full form, at a larger
// bound, without.
func TestExploreGolden(t *testing.T) {
	t.Parallel()
	bound, file := goldenBound()
	progs := goldenPrograms(t)
	rows := make([]string, len(progs))
	t.Run("programs", func(t *testing.T) {
		for i, pg := range progs {
			t.Run(pg.path, func(t *testing.T) {
				t.Parallel()
				rows[i] = goldenExplore(t, pg, bound)
			})
		}
	})
	if t.Failed() {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, `# What every explorer does on every frozen program: a row per program,
# algorithm, dependency (locals or static) and, for the observers
# algorithms, ObserveFinal (+final). Written by synth's TestExploreGolden;
# regenerate with make golden.
#
# Bound: MaxStates %d per exploration (cut=states: the bound stopped it).
# ICs: the IC-based algorithms (cdpor, codpor, codpor-ob) get the
# program's IC file from synth.Run(ctx, p, synth.Options{}) (the tests'
# shared synthesized, synth/icfiles_test.go; ics.golden holds the files'
# digests) on testdata, testdata/regress and testdata/bench (ics=synth);
# no IC file (ics=none) on the runtime's own programs (dporrt/testdata,
# bench/variants), which synthesis does not run on, nor on those whose IC
# file depends on the machine's load (goldenTimed).
# Params: each program's declared values but those of goldenSizes.
# Step budget: Machine.MaxSteps = 2 * ts.MaxPathSteps (%d).
#
# Columns: traces blocked covered states longest maxdnd; finals: the
# number of distinct final states and a digest of their set (globals, live
# processes modulo naming, violations); findings: their number and a
# digest of their sites, kinds and counts.
`, bound, 2*ts.MaxPathSteps)
	for _, r := range rows {
		b.WriteString(r)
	}
	golden.File(t, file, b.String())
}

// goldenExplore explores one program with every algorithm and dependency
// and returns its rows.
func goldenExplore(t *testing.T, pg goldenProgram, bound int) string {
	path := filepath.Join("..", pg.path)
	p := testprog.File(t, path)
	m, err := interp.New(p, pg.params)
	if err != nil {
		t.Fatal(err)
	}
	// A small step budget keeps the endless loops of some programs
	// quick; ICs hold for any budget a path of a block fits in (see
	// TestSoundness).
	m.MaxSteps = 2 * ts.MaxPathSteps
	var ics *ic.File
	route := "none"
	if pg.synth {
		ics, route = synthesized(t, path), "synth"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s %s ics=%s\n", pg.path, goldenParams(m), route)
	for _, info := range dporrt.Algorithms {
		for _, dep := range []dporrt.DepMode{dporrt.Locals, dporrt.Static} {
			runs := []bool{false}
			if info.Observers {
				runs = append(runs, true)
			}
			for _, fin := range runs {
				opts := dporrt.Options{Algo: info.Name, Dep: dep, MaxStates: bound, ObserveFinal: fin}
				if info.NeedsICs {
					opts.ICs = ics
				}
				r, err := dporrt.Explore(context.Background(), m, opts)
				if err != nil {
					t.Fatalf("%s %s: %v", info.Name, dep, err)
				}
				name := fmt.Sprintf("%s %s", info.Name, dep)
				if fin {
					name += " +final"
				}
				fmt.Fprintf(&b, "  %-26s %s\n", name, goldenRow(r))
			}
		}
	}
	return b.String()
}

// goldenParams prints the machine's params, or "-" without.
func goldenParams(m *interp.Machine) string {
	if s := m.ParamString(); s != "" {
		return strings.ReplaceAll(s, " ", ",")
	}
	return "-"
}

// goldenRow prints one exploration's counts, final states and findings.
func goldenRow(r *dporrt.Result) string {
	var finals []string
	for _, s := range r.Finals {
		finals = append(finals, goldenState(s))
	}
	var findings []string
	for _, f := range r.Findings {
		if f.Violation != nil {
			findings = append(findings, fmt.Sprintf("%d:%d violation %d", f.Violation.Pos.Line, f.Violation.Pos.Col, f.Count))
		} else {
			findings = append(findings, fmt.Sprintf("%d:%d %s %d", f.Error.Pos.Line, f.Error.Pos.Col, f.Error.Kind, f.Count))
		}
	}
	cut := ""
	if r.Cut {
		cut = " cut=" + r.CutBy
	}
	return fmt.Sprintf("%d %d %d %d %d %d finals=%d/%d:%s findings=%d:%s%s",
		r.Traces, r.Blocked, r.Covered, r.States, r.Longest, r.MaxDnD,
		r.FinalCount, len(r.Finals), goldenDigest(finals), len(findings), goldenDigest(findings), cut)
}

// goldenState prints a final state as State.Equal compares it: the
// globals, the live processes by procedure, point and live locals (not by
// id), and the violations' sites.
func goldenState(s *interp.State) string {
	m := s.Machine()
	var procs []string
	for _, p := range s.Procs {
		if p.Done {
			continue
		}
		var locals []int64
		for _, v := range p.Point.Live {
			locals = append(locals, p.Locals[v.Index])
		}
		procs = append(procs, fmt.Sprintf("%s@%d%v", p.Proc.Name, p.Point.Index, locals))
	}
	slices.Sort(procs)
	var viols []string
	for _, v := range s.Violations {
		viols = append(viols, fmt.Sprintf("%d:%d", v.Pos.Line, v.Pos.Col))
	}
	slices.Sort(viols)
	return fmt.Sprintf("%v %v %v", s.Values(0, m.Locs()), procs, viols)
}

// goldenDigest is a short digest of a set of lines, whatever their order.
func goldenDigest(lines []string) string {
	if len(lines) == 0 {
		return "-"
	}
	lines = slices.Clone(lines)
	slices.Sort(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return fmt.Sprintf("%x", sum[:6])
}

// TestICFilesGolden compares the IC file synthesis writes for every
// program of testdata, testdata/regress and testdata/bench (the tests'
// shared synthesized: synth.Run with synth.Options{}) with ics.golden: a
// digest of its bytes (ic.Marshal) and what its pairs are. Regenerate
// with make golden.
func TestICFilesGolden(t *testing.T) {
	t.Parallel()
	var progs []goldenProgram
	for _, pg := range goldenPrograms(t) {
		if pg.synth || goldenTimed[pg.path] {
			progs = append(progs, pg)
		}
	}
	rows := make([]string, len(progs))
	t.Run("programs", func(t *testing.T) {
		for i, pg := range progs {
			t.Run(pg.path, func(t *testing.T) {
				if goldenTimed[pg.path] {
					rows[i] = pg.path + " timed: depends on the machine's load\n"
					return
				}
				t.Parallel()
				f := synthesized(t, filepath.Join("..", pg.path))
				data, err := ic.Marshal(f)
				if err != nil {
					t.Fatal(err)
				}
				sum := f.Summary()
				exact, constraints := 0, 0
				for _, pr := range f.Pairs {
					constraints += len(pr.Constraints)
					if pr.Exact {
						exact++
					}
				}
				rows[i] = fmt.Sprintf("%s sha256:%x bytes=%d pairs=%d independent=%d conditional=%d dependent=%d unknown=%d exact=%d constraints=%d\n",
					pg.path, sha256.Sum256(data), len(data), len(f.Pairs), sum[ic.Independent], sum[ic.Conditional], sum[ic.Dependent], sum[ic.Unknown], exact, constraints)
			})
		}
	})
	if t.Failed() {
		return
	}
	golden.File(t, "testdata/ics.golden", `# The IC file of every program synthesis runs on in the tests:
# ic.Marshal of synth.Run(ctx, p, synth.Options{}) (synth/icfiles_test.go's
# synthesized; the program compiled from its path relative to synth/), but
# for the programs of goldenTimed, whose files depend on the machine's load.
# Written by synth's TestICFilesGolden; regenerate with make golden.
`+strings.Join(rows, ""))
}

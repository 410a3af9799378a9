package allsat

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/ts"
)

// TestMergedEquivalent checks, for every pair of every program in testdata
// (bench and regress included) whose path encoding is built, that the
// merged encoding says the same as the path encoding (CDPOR Def. 5): F,
// the overflow guard, the invariants assumed and the swapped-state
// condition are each equivalent, proven by Z3 both ways (each side and the
// negation of the other is unsat). Pairs where the merged encoding falls
// back to paths are counted, and exactness must be the same. The inputs
// are int64 values (see implies).
func TestMergedEquivalent(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/*.blk", "../testdata/bench/*.blk", "../testdata/regress/*.blk"} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d programs", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(filepath.Dir(file))+"/"+filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			p := testprog.File(t, file)
			syms := ts.NewSymbols(p)
			sess, err := newSession(Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer sess.close()
			pairs, fellBack, undecided := 0, 0, 0
			for i, a := range p.Blocks {
				for _, b := range p.Blocks[i:] {
					fp := encode.Pair(a, b, syms, p.Invariants...)
					fm := encode.PairMerged(a, b, syms, p.Invariants...)
					if fp.Unknown != "" {
						continue
					}
					pairs++
					if !fm.IsMerged() {
						fellBack++
						t.Logf("(%s, %s): merged falls back to paths: %s", a.ID, b.ID, fm.Fallback)
						continue
					}
					if fp.Exact != fm.Exact {
						t.Errorf("(%s, %s): exact %v with paths, %v merged", a.ID, b.ID, fp.Exact, fm.Exact)
					}
					for _, c := range []struct {
						what string
						tp   *ts.Term
						rm   ts.Ref
					}{{"F", fp.F, fm.FR}, {"no_overflow", fp.NoOverflow, fm.NoOverflowR}, {"invariants", fp.Assume, fm.AssumeR}, {"swapped", fp.Swapped, fm.SwappedR}} {
						for _, dir := range []string{"paths -> merged", "merged -> paths"} {
							st, why := sess.implies(fp, fm, c.tp, c.rm, dir == "paths -> merged")
							switch st {
							case sat:
								t.Errorf("(%s, %s): %s: %s fails", a.ID, b.ID, c.what, dir)
							case unknown:
								undecided++
								t.Logf("(%s, %s): %s: %s undecided: %s", a.ID, b.ID, c.what, dir, why)
							}
						}
					}
				}
			}
			t.Logf("%d pairs compared, %d fall back to paths, %d checks undecided", pairs, fellBack, undecided)
		})
	}
}

// implies checks tp -> rm (or rm -> tp) where the path invariants hold:
// unsat of the invariants, one side and the negation of the other.
func (s *session) implies(fp, fm *encode.Formula, tp *ts.Term, rm ts.Ref, fromPaths bool) (status, string) {
	dp := encode.Collect(tp, fp.Assume)
	dm := encode.CollectGraph(fm.Graph, rm)
	var text strings.Builder
	seen := map[string]bool{}
	for _, line := range strings.Split(dp.Declarations()+dm.Declarations(), "\n") {
		if line != "" && !seen[line] {
			seen[line] = true
			text.WriteString(line + "\n")
		}
	}
	// The int inputs are int64 values: an overflow guard that one encoding
	// leaves out where interval reasoning shows it holds (v + 2 - 2 >= MIN,
	// v + 2 <= MAX guarded) is needed by the other only for inputs outside
	// that range (an ite of g0 and v + 2, minus 2).
	for _, d := range []encode.Decls{dp, dm} {
		for _, sym := range d.Syms {
			if sym.Sort == ts.SortInt {
				n := encode.Symbol(sym.Name)
				fmt.Fprintf(&text, "(assert (and (<= (- 9223372036854775808) %s) (<= %s 9223372036854775807)))\n", n, n)
			}
		}
	}
	defs, exprs := encode.GraphSMT(fm.Graph, rm)
	text.WriteString(defs)
	p, m := encode.SMT(tp), exprs[0]
	if fromPaths {
		fmt.Fprintf(&text, "(assert (and %s %s (not %s)))\n", encode.SMT(fp.Assume), p, m)
	} else {
		fmt.Fprintf(&text, "(assert (and %s %s (not %s)))\n", encode.SMT(fp.Assume), m, p)
	}
	hs, err := s.parse(text.String())
	if err != nil {
		return unknown, err.Error()
	}
	v := s.newSolver()
	for _, h := range hs {
		v.assert(h)
	}
	return v.check(time.Now().Add(10 * time.Second))
}

// TestBenchmarkEncodings checks `icgen smt`'s text (encode's Benchmark) in
// both encodings: Z3 reads each, and the two assert equivalent formulas
// (F, with the invariants where the program has them).
func TestBenchmarkEncodings(t *testing.T) {
	for _, tc := range []struct{ file, a, b string }{
		{"../testdata/fig1.blk", "q", "r"},
		{"../testdata/fig1.blk", "p", "q"},
		{"../testdata/fib.blk", "res", "res"},
		{"../testdata/arrays.blk", "shift", "shift@36"},
		{"../testdata/regress/guard-error.blk", "p3", "p3"},
		{"../testdata/counter.blk", "inc", "dec"}, // invariants asserted too
	} {
		p, a, b := pairOf(t, tc.file, tc.a, tc.b)
		syms := ts.NewSymbols(p)
		fm := encode.Build(encode.Merged, a, b, syms, p.Invariants...)
		fp := encode.Build(encode.Paths, a, b, syms, p.Invariants...)
		if !fm.IsMerged() || fp.IsMerged() || fp.Unknown != "" {
			t.Fatalf("%s (%s, %s): merged %v, paths unknown %q", tc.file, tc.a, tc.b, fm.IsMerged(), fp.Unknown)
		}
		sess, err := newSession(Options{})
		if err != nil {
			t.Fatal(err)
		}
		asserted := func(f *encode.Formula) handle {
			hs, err := sess.parse(f.Benchmark())
			if err != nil {
				t.Fatalf("%s (%s, %s) %v: Z3 does not read the benchmark: %v\n%s", tc.file, tc.a, tc.b, f.Encoding(), err, f.Benchmark())
			}
			return sess.and(hs...)
		}
		m, q := asserted(fm), asserted(fp)
		v := sess.newSolver()
		v.assert(sess.not(sess.ctx.Eq(m, q)))
		if st, why := v.check(time.Now().Add(10 * time.Second)); st != unsat {
			t.Errorf("%s (%s, %s): the two benchmarks are not equivalent: %v %s", tc.file, tc.a, tc.b, st, why)
		}
		sess.close()
	}
}

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
					if fm.Encoding() != encode.Merged {
						fellBack++
						t.Logf("(%s, %s): merged falls back to paths: %s", a.ID, b.ID, fm.Fallback)
						continue
					}
					if fp.Exact != fm.Exact {
						t.Errorf("(%s, %s): exact %v with paths, %v merged", a.ID, b.ID, fp.Exact, fm.Exact)
					}
					for _, c := range []struct {
						what string
						rp   ts.Ref
						rm   ts.Ref
					}{{"F", fp.F, fm.F}, {"no_overflow", fp.NoOverflow, fm.NoOverflow}, {"invariants", fp.Assume, fm.Assume}, {"swapped", fp.Swapped, fm.Swapped}} {
						for _, dir := range []string{"paths -> merged", "merged -> paths"} {
							st, why := sess.implies(fp, fm, c.rp, c.rm, dir == "paths -> merged")
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

// implies checks rp -> rm (or rm -> rp) where the path invariants hold:
// unsat of the invariants, one side and the negation of the other. The
// terms of both formulas are copied into one graph.
func (s *session) implies(fp, fm *encode.Formula, rp, rm ts.Ref, fromPaths bool) (status, string) {
	g := ts.NewGraph()
	assume, p, m := g.Import(fp.Graph, fp.Assume), g.Import(fp.Graph, rp), g.Import(fm.Graph, rm)
	d := encode.CollectGraph(g, assume, p, m)
	var text strings.Builder
	text.WriteString(d.Declarations())
	// The int inputs are int64 values: an overflow guard that one encoding
	// leaves out where interval reasoning shows it holds (v + 2 - 2 >= MIN,
	// v + 2 <= MAX guarded) is needed by the other only for inputs outside
	// that range (an ite of g0 and v + 2, minus 2).
	for _, sym := range d.Syms {
		if sym.Sort == ts.SortInt {
			n := encode.Symbol(sym.Name)
			fmt.Fprintf(&text, "(assert (and (<= (- 9223372036854775808) %s) (<= %s 9223372036854775807)))\n", n, n)
		}
	}
	defs, exprs := encode.GraphSMT(g, assume, p, m)
	text.WriteString(defs)
	if !fromPaths {
		exprs[1], exprs[2] = exprs[2], exprs[1]
	}
	fmt.Fprintf(&text, "(assert (and %s %s (not %s)))\n", exprs[0], exprs[1], exprs[2])
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
		if fm.Encoding() != encode.Merged || fp.Encoding() != encode.Paths || fp.Unknown != "" {
			t.Fatalf("%s (%s, %s): merged built as %v, paths unknown %q", tc.file, tc.a, tc.b, fm.Encoding(), fp.Unknown)
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

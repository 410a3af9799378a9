package synth

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// guardProgram generates a program whose block p has k statements of a
// family, each adding a different constant (or global) to one
// accumulator acc, most under a branch of their own, beside a block q of
// two branches over another global:
//
//	ifs:    if (gi > i) { acc = acc + (i+1); } else { gi = gi + 1; }
//	cells:  if (a[i] > i) { acc = acc + (i+2); } else { a[i] = a[i] + 1; }
//	nested: if (gi > i) { acc = acc + (i+1); <the next one> } else { gi = gi + 1; }
//	chain:  acc = acc + i;
//	sums:   acc = acc + gi;
//
// Every order of two of these blocks ends alike where nothing overflows.
// The exact guard of the first three lists the sums of the subsets of the
// constants; sums reads k + 1 values that an interval guard bounds on
// both sides.
func guardProgram(family string, k int) string {
	var b strings.Builder
	globals := func() {
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "global int g%d;\n", i)
		}
	}
	switch family {
	case "ifs":
		globals()
		b.WriteString("global int acc, h;\nproc p() {\n")
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "  if (g%d > %d) { acc = acc + %d; } else { g%d = g%d + 1; }\n", i, i, i+1, i, i)
		}
	case "cells":
		fmt.Fprintf(&b, "global int a[%d];\nglobal int acc, h;\nproc p() {\n", k)
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "  if (a[%d] > %d) { acc = acc + %d; } else { a[%d] = a[%d] + 1; }\n", i, i, i+2, i, i)
		}
	case "nested":
		globals()
		b.WriteString("global int acc, h;\nproc p() {\n  ")
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "if (g%d > %d) { acc = acc + %d; ", i, i, i+1)
		}
		for i := k; i >= 1; i-- {
			fmt.Fprintf(&b, "} else { g%d = g%d + 1; } ", i, i)
		}
		b.WriteString("\n")
	case "chain":
		b.WriteString("global int acc, h;\nproc p() {\n")
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "  acc = acc + %d;\n", i)
		}
	case "sums":
		globals()
		b.WriteString("global int acc, h;\nproc p() {\n")
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "  acc = acc + g%d;\n", i)
		}
	}
	b.WriteString("}\nproc q() { if (h > 0) { h = h - 1; } else { h = h + 2; } }\ninit { spawn p(); spawn p(); spawn q(); }\n")
	return b.String()
}

var guardFamilies = []string{"ifs", "cells", "nested", "chain", "sums"}

// TestGuardFamilies: every pair of the guard families (k = 16; 16, 32 and
// 64 at full size) is decided, exact, with an interval guard that bounds
// acc alone (sums: 64 characters a value it reads, two bounds); and the
// interpreter, run from states drawn at the int64
// edges and at the guard's bounds and their neighbours, finds that both
// orders run without overflow to one state wherever a constraint and the
// guard hold. The same with exact guards asked for: written with a let,
// they are written at every k.
func TestGuardFamilies(t *testing.T) {
	t.Parallel()
	ks := []int{16}
	if !testing.Short() {
		ks = []int{16, 32, 64}
	}
	type run struct {
		kind GuardKind
		k    int
	}
	var runs []run
	for _, k := range ks {
		runs = append(runs, run{GuardInterval, k}, run{GuardExact, k})
	}
	for _, fam := range guardFamilies {
		for _, r := range runs {
			t.Run(fmt.Sprintf("%s/k=%d/%s", fam, r.k, r.kind), func(t *testing.T) {
				t.Parallel()
				src := guardProgram(fam, r.k)
				p, errs := lang.Compile(fam+".blk", []byte(src))
				if errs != nil {
					t.Fatal(errs.Format([]byte(src)))
				}
				f, _, err := Run(context.Background(), p, Options{Workers: 1, Budget: 50_000_000, Guard: r.kind})
				if err != nil {
					t.Fatal(err)
				}
				for _, pr := range f.Pairs {
					if pr.Status == ic.Unknown || !pr.Exact {
						t.Errorf("I(%s, %s) = %s, exact %v: %s", pr.A, pr.B, pr.Status, pr.Exact, pr.Reason)
					}
					if pr.NoOverflow == nil {
						continue
					}
					if pr.NoOverflowKind != r.kind.String() {
						t.Errorf("I(%s, %s): a guard of kind %q, want %s", pr.A, pr.B, pr.NoOverflowKind, r.kind)
					}
					// Where a branch's condition keeps a counter from
					// overflowing, the guard bounds acc alone; sums reads
					// k + 1 values added to each other, two bounds each.
					limit := len("acc <= 9223372036854775807")
					if fam == "sums" {
						limit = 64 * (r.k + 1)
					}
					if n := len(pr.NoOverflow.String()); r.kind == GuardInterval && n > limit {
						t.Errorf("I(%s, %s): the guard takes %d characters", pr.A, pr.B, n)
					}
				}
				states := guardSamples(t, p, f)
				if states == 0 {
					t.Error("no state checked")
				}
				t.Logf("%d states checked", states)
			})
		}
	}
}

// guardSamples runs both orders of every pair of f from random states
// where a constraint and the pair's guard hold, drawn at the int64 edges
// and at the guard's bounds and their neighbours, and reports how many it
// checked: the orders must run without overflow to one state.
func guardSamples(t *testing.T, p *lang.Program, f *ic.File) int {
	t.Helper()
	m, err := interp.New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.MaxSteps = 2 * ts.MaxPathSteps
	checked := 0
	for i, pr := range f.Pairs {
		a, b := p.Block(pr.A), p.Block(pr.B)
		s := &sampler{m: m, rng: rand.New(rand.NewPCG(47, uint64(i))), edgy: true, near: boundsNear(pr.NoOverflow)}
		hits := 0
		for tries := 0; hits < samples() && tries < 50*samples(); tries++ {
			st := s.state(a, b)
			env := interp.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1]}
			if pr.NoOverflow != nil {
				if ok, err := pr.NoOverflow.Holds(env); err != nil || !ok {
					continue
				}
			}
			holds := false
			for _, c := range pr.Constraints {
				if ok, err := c.Expr.Holds(env); err == nil && ok {
					holds = true
					break
				}
			}
			if !holds {
				continue
			}
			hits++
			if ok, why := commute(st); !ok {
				t.Errorf("I(%s, %s): a constraint and the %s guard hold at globals %v, but %s", pr.A, pr.B, pr.NoOverflowKind, st.Values(0, m.Locs()), why)
				break
			}
		}
		checked += hits
	}
	return checked
}

// boundsNear are the literals of a guard and their neighbours within 2,
// and the int64 edges.
func boundsNear(g *ic.Expr) []int64 {
	var out []int64
	if g != nil {
		g.Walk(func(e *ic.Expr) {
			if e.Op == "int" {
				for d := int64(-2); d <= 2; d++ {
					if v := *e.Value + d; (d > 0) == (v > *e.Value) || d == 0 {
						out = append(out, v)
					}
				}
			}
		})
	}
	return append(out, math.MinInt64, math.MaxInt64)
}

// BenchmarkGuardFamilies synthesizes the programs of the guard families
// for growing k, one worker: the most time a pair took, the longest
// guard's text, the IC file's size, the pairs decided (not unknown) and
// those whose guard is exact.
// Run with -benchtime=1x.
func BenchmarkGuardFamilies(b *testing.B) {
	for _, fam := range guardFamilies {
		for _, k := range []int{16, 32, 64} {
			for _, kind := range []GuardKind{GuardInterval, GuardExact} {
				b.Run(fmt.Sprintf("%s/k=%d/%s", fam, k, kind), func(b *testing.B) {
					src := guardProgram(fam, k)
					p, errs := lang.Compile(fam+".blk", []byte(src))
					if errs != nil {
						b.Fatal(errs.Format([]byte(src)))
					}
					var f *ic.File
					var st *Stats
					for i := 0; i < b.N; i++ {
						var err error
						if f, st, err = Run(context.Background(), p, Options{Workers: 1, Guard: kind}); err != nil {
							b.Fatal(err)
						}
					}
					slowest, guard, decided, exact := 0.0, 0, 0, 0
					for i, pr := range f.Pairs {
						slowest = max(slowest, st.PairTimes[i].Seconds()*1000)
						if pr.NoOverflow != nil {
							guard = max(guard, len(pr.NoOverflow.String()))
						}
						if pr.NoOverflowKind == ic.Exact {
							exact++
						}
						if pr.Status != ic.Unknown {
							decided++
						}
					}
					data, err := ic.Marshal(f)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(slowest, "ms/slowest-pair")
					b.ReportMetric(float64(guard), "guard-chars")
					b.ReportMetric(float64(len(data)), "file-bytes")
					b.ReportMetric(float64(decided), "decided")
					b.ReportMetric(float64(exact), "exact-guards")
					b.ReportMetric(float64(len(f.Pairs)), "pairs")
				})
			}
		}
	}
}

// BenchmarkGuardEval evaluates the guard of (p, p) of the guard families
// at k = 64, of both kinds, as the explorer does (ic.Expr.Holds in the
// runtime's environment), from the state where every value is 0: an
// exact guard reads each of its let's definitions once.
func BenchmarkGuardEval(b *testing.B) {
	for _, fam := range guardFamilies {
		for _, kind := range []GuardKind{GuardInterval, GuardExact} {
			b.Run(fmt.Sprintf("%s/k=64/%s", fam, kind), func(b *testing.B) {
				src := guardProgram(fam, 64)
				p, errs := lang.Compile(fam+".blk", []byte(src))
				if errs != nil {
					b.Fatal(errs.Format([]byte(src)))
				}
				f, _, err := Run(context.Background(), p, Options{Workers: 1, Guard: kind})
				if err != nil {
					b.Fatal(err)
				}
				pr, _ := f.Pair("p", "p")
				if pr.NoOverflow == nil {
					b.Skip("no guard")
				}
				m, err := interp.New(p, nil)
				if err != nil {
					b.Fatal(err)
				}
				a := p.Block("p")
				st := m.PairState(make([]int64, m.Locs()), a, make([]int64, len(a.Proc.Locals)), a, make([]int64, len(a.Proc.Locals)))
				env := interp.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1]}
				b.ReportMetric(float64(len(pr.NoOverflow.String())), "guard-chars")
				b.ResetTimer()
				for b.Loop() {
					if ok, err := pr.NoOverflow.Holds(env); err != nil || !ok {
						b.Fatalf("the guard does not hold at 0: %v", err)
					}
				}
			})
		}
	}
}

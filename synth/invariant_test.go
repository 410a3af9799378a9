package synth

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/ts"
)

// TestInvariantGuard checks what a constraint and its pair's overflow
// guard mean under invariants (docs/ic-format.md), for every testdata
// program that declares some, with both encodings, by concrete execution:
// from states near the int64 edges where a constraint, the guard and the
// file's invariants (over mathematical integers) hold, both orders run
// error-free and end in the same state with the same violations. The
// interpreter evaluates an invariant over int64 after every event that
// writes a global it reads, one whose value the event leaves unchanged
// included (testdata/regress/invariant-rewrite.blk): unless the guard
// covers each of those evaluations, one order records an overflow as a
// broken invariant where the other does not.
func TestInvariantGuard(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	regress, _ := filepath.Glob("../testdata/regress/*.blk")
	n := 300 // states per constraint
	if testing.Short() {
		n = 100
	}
	programs := 0
	for _, file := range append(files, regress...) {
		p := testprog.File(t, file)
		if len(p.Invariants) == 0 {
			continue
		}
		programs++
		for _, enc := range []encode.Encoding{encode.Merged, encode.Paths} {
			t.Run(filepath.Base(file)+"/"+enc.String(), func(t *testing.T) {
				t.Parallel()
				f, _, err := Run(context.Background(), p, Options{Workers: 1, Encoding: enc})
				if err != nil {
					t.Fatal(err)
				}
				m, err := interp.New(p, nil)
				if err != nil {
					t.Fatal(err)
				}
				m.MaxSteps = 2 * ts.MaxPathSteps // as in TestSoundness
				s := &sampler{m: m, rng: rand.New(rand.NewPCG(2, uint64(len(file)))), edgy: true}
				funcs := map[string]ic.Function{}
				for _, fn := range f.Functions {
					funcs[fn.Name] = fn
				}
				for _, pr := range f.Pairs {
					a, b := p.Block(pr.A), p.Block(pr.B)
					for _, c := range pr.Constraints {
						conds := []*ic.Expr{c.Expr}
						if pr.NoOverflow != nil {
							conds = append(conds, pr.NoOverflow)
						}
						for _, inv := range f.Invariants {
							conds = append(conds, inv.Expr)
						}
						hits := 0
						for tries := 0; hits < n && tries < 100*n; tries++ {
							st := s.state(a, b)
							env := interp.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1], Funcs: funcs}
							if !allHold(t, env, conds) {
								continue
							}
							hits++
							if ok, why := commute(st); !ok {
								t.Errorf("I(%s, %s) has %s, and its guard and the invariants hold, but from globals %v, locals %v / %v: %s",
									pr.A, pr.B, c.Text, st.Values(0, st.Machine().Locs()), st.Procs[0].Locals, st.Procs[1].Locals, why)
								break
							}
						}
						if hits == 0 {
							t.Errorf("I(%s, %s): %s, its guard and the invariants held in no sampled state: nothing checked", pr.A, pr.B, c.Text)
						}
					}
				}
			})
		}
	}
	if programs < 3 {
		t.Fatalf("only %d testdata programs with invariants", programs)
	}
}

func allHold(t *testing.T, env interp.ICEnv, conds []*ic.Expr) bool {
	for _, c := range conds {
		if ok, _ := holds(t, c, env); !ok {
			return false
		}
	}
	return true
}

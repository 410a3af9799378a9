package synth

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// samples is the number of random states per constraint (and per exact pair
// outside its constraints). ICGEN_SOUNDNESS_SAMPLES raises it for soaks.
func samples() int {
	if n, err := strconv.Atoi(os.Getenv("ICGEN_SOUNDNESS_SAMPLES")); err == nil && n > 0 {
		return n
	}
	return 1000
}

func compileFile(t testing.TB, path string) *lang.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, errs := lang.Compile(path, src)
	if errs != nil {
		t.Fatal(errs.Format(src))
	}
	return p
}

// sampler draws random pair states of a program: globals, array elements
// and the live locals of both processes in a small range, where
// coincidences (x == z) are frequent enough.
type sampler struct {
	m   *dporrt.Machine
	rng *rand.Rand
}

func (s *sampler) value(v *lang.Var) int64 {
	if v.Type == lang.Bool {
		return s.rng.Int64N(2)
	}
	return s.rng.Int64N(13) - 6
}

func (s *sampler) state(a, b *lang.Block) *dporrt.State {
	store := make([]int64, s.m.Locs())
	for _, g := range s.m.Prog.Globals {
		first, n := s.m.GlobalLocs(g)
		for i := 0; i < n; i++ {
			store[int(first)+i] = s.value(g)
		}
	}
	locals := func(bl *lang.Block) []int64 {
		l := make([]int64, len(bl.Proc.Locals))
		for _, v := range bl.Point.Live {
			l[v.Index] = s.value(v)
		}
		return l
	}
	return s.m.PairState(store, a, locals(a), b, locals(b))
}

// outcome runs first then second (process indices) and reports whether both
// ran, error-free; the final state is returned.
func outcome(st *dporrt.State, first, second int) (*dporrt.State, bool) {
	for _, i := range []int{first, second} {
		if !st.Enabled(i) {
			return st, false
		}
		if ev := st.Step(i); ev.Err != nil {
			return st, false
		}
	}
	return st, true
}

// commute reports whether both orders run error-free and reach equal states.
func commute(st *dporrt.State) (bool, string) {
	ab, ok1 := outcome(st.Clone(), 0, 1)
	ba, ok2 := outcome(st.Clone(), 1, 0)
	switch {
	case !ok1 || !ok2:
		return false, fmt.Sprintf("an order is not possible or errs (a.b: %v, b.a: %v)", ok1, ok2)
	case !ab.Equal(ba):
		return false, fmt.Sprintf("different final states: a.b %v, b.a %v", ab.Store, ba.Store)
	}
	return true, ""
}

func holds(t *testing.T, c *ic.Expr, env dporrt.ICEnv) (bool, bool) {
	ok, err := c.Holds(env)
	if err != nil {
		return false, false // not evaluable here (e.g. a loop function)
	}
	return ok, true
}

// TestSoundness checks every constraint of every pair of every testdata
// program by concrete execution (DESIGN "How we know it is right"):
//   - random states satisfying the constraint (and the pair's overflow
//     guard) run both orders in the interpreter and reach equal states;
//   - for exact pairs, random states satisfying no constraint do not commute;
//   - every constraint is proven again by a fresh solver.
func TestSoundness(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	if len(files) < 3 {
		t.Fatalf("only %d testdata programs", len(files))
	}
	n := samples()
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			p := compileFile(t, file)
			f, _, err := Run(context.Background(), p, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			m, err := dporrt.New(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := &sampler{m: m, rng: rand.New(rand.NewPCG(1, uint64(len(file))))}
			funcs := map[string]ic.Function{}
			for _, fn := range f.Functions {
				funcs[fn.Name] = fn
			}
			skipped := 0
			syms := ts.NewSymbols(p)
			checked := 0
			for _, pr := range f.Pairs {
				a, b := p.Block(pr.A), p.Block(pr.B)
				fm := encode.Pair(a, b, syms, p.Invariants...)
				// Constraints speak of the states where the invariants hold.
				invariant := func(env dporrt.ICEnv) bool {
					for _, c := range f.Invariants {
						if ok, _ := holds(t, c.Expr, env); !ok {
							return false
						}
					}
					return true
				}
				for _, c := range pr.Constraints {
					if ok, err := allsat.Prove(fm, c.Expr, allsat.Options{}); err != nil || !ok {
						t.Errorf("I(%s, %s): %s is not proven again (err %v)", pr.A, pr.B, c.Text, err)
					}
					hits := 0
					for tries := 0; hits < n && tries < 200*n; tries++ {
						st := s.state(a, b)
						env := dporrt.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1], Funcs: funcs}
						ok, evaluable := holds(t, c.Expr, env)
						if !evaluable {
							skipped++
							break
						}
						if !ok || !invariant(env) {
							continue
						}
						if pr.NoOverflow != nil {
							if g, ok := holds(t, pr.NoOverflow, env); !ok || !g {
								continue
							}
						}
						hits++
						if ok, why := commute(st); !ok {
							t.Errorf("I(%s, %s) has %s, but from globals %v, locals %v / %v: %s",
								pr.A, pr.B, c.Text, st.Store, st.Procs[0].Locals, st.Procs[1].Locals, why)
							break
						}
					}
					checked += hits
				}
				if !pr.Exact {
					continue
				}
				// Exact: outside every constraint the pair must not commute.
				for k := 0; k < n; k++ {
					st := s.state(a, b)
					env := dporrt.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1], Funcs: funcs}
					any := false
					for _, c := range pr.Constraints {
						if ok, _ := holds(t, c.Expr, env); ok {
							any = true
							break
						}
					}
					if any || !invariant(env) {
						continue
					}
					if ok, _ := commute(st); ok {
						t.Errorf("I(%s, %s) is exact, but the pair commutes from globals %v, locals %v / %v where no constraint holds",
							pr.A, pr.B, st.Store, st.Procs[0].Locals, st.Procs[1].Locals)
						break
					}
					checked++
				}
			}
			t.Logf("%d pairs, %d states checked, %d constraints not evaluable", len(f.Pairs), checked, skipped)
		})
	}
}

package allsat

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// pointEnv is a point of a small domain: every name has a value.
type pointEnv map[string]int64

func (p pointEnv) Global(n string) (int64, bool) { return p.get("g:" + n) }
func (p pointEnv) Element(a string, i int64) (int64, bool) {
	return p.get("a:" + a + ":" + string(rune('0'+i%10)))
}
func (p pointEnv) Local(e int, n string) (int64, bool) {
	return p.get("l:" + n + strings.Repeat("'", e))
}
func (p pointEnv) Param(n string) (int64, bool) { return p.get("p:" + n) }
func (p pointEnv) Apply(string, []*ic.Expr) (int64, error) {
	return 0, errors.New("functions are not evaluated here")
}

func (p pointEnv) get(k string) (int64, bool) {
	if v, ok := p[k]; ok {
		return v, true
	}
	return 0, true // unconstrained names read 0
}

// TestCoverBruteForce checks covers against F on random points of a small
// domain: each constraint implies F, and a complete cover is implied by F.
func TestCoverBruteForce(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			p := testprog.File(t, file)
			syms := ts.NewSymbols(p)
			rng := rand.New(rand.NewPCG(7, 7))
			for i, a := range p.Blocks {
				for _, b := range p.Blocks[i:] {
					f := encode.Pair(a, b, syms)
					res, err := Cover(f, Options{})
					if err != nil {
						t.Fatal(err)
					}
					tf, ok := f.Graph.Term(f.F, 1<<22)
					if !ok {
						t.Fatalf("(%s, %s): F does not print", a.ID, b.ID)
					}
					fe, err := ToExpr(tf)
					if err != nil {
						continue // F mentions arrays whole: not evaluable here
					}
					names := encode.CollectGraph(f.Graph, f.F).Syms
					for k := 0; k < 400; k++ {
						pt := pointEnv{}
						for _, s := range names {
							v := rng.Int64N(9) - 4
							if s.Sort == ts.SortBool {
								v = rng.Int64N(2)
							}
							switch s.Kind {
							case ts.SymGlobal:
								pt["g:"+s.Var.Name] = v
								for e := 0; e < 10; e++ {
									pt["a:"+s.Var.Name+":"+string(rune('0'+e))] = rng.Int64N(9) - 4
								}
							case ts.SymLocal:
								pt["l:"+s.Name] = v
							case ts.SymParam:
								pt["p:"+s.Param.Name] = rng.Int64N(4) + 1
							}
						}
						inF, err := fe.Holds(pt)
						if err != nil {
							continue
						}
						anyC := false
						for _, c := range res.Constraints {
							h, err := c.Expr.Holds(pt)
							if err != nil {
								continue
							}
							if h && !inF {
								t.Fatalf("F(%s, %s): %s holds at %v but F does not", a.ID, b.ID, c.Text, pt)
							}
							anyC = anyC || h
						}
						if res.Complete && inF && !anyC {
							t.Fatalf("F(%s, %s) holds at %v, but no constraint of the complete cover does", a.ID, b.ID, pt)
						}
					}
				}
			}
		})
	}
}

func TestAtoms(t *testing.T) {
	t.Parallel()
	g := ts.NewGraph()
	x := g.SymRef(&ts.Sym{Name: "x"})
	y := g.SymRef(&ts.Sym{Name: "y"})
	b := g.SymRef(&ts.Sym{Name: "b", Sort: ts.SortBool})
	f := g.Or(g.And(g.Binary(lang.OpLt, x, g.Int(0)), g.Not(g.Binary(lang.OpEq, x, y))),
		g.Binary(lang.OpGt, g.Div(x, y), g.Int(1)),
		g.Binary(lang.OpEq, g.Ite(b, x, g.Int(2)), y))
	var got []string
	for _, a := range Atoms(g, f) {
		t, _ := g.Term(a, 1<<10)
		got = append(got, t.Key())
	}
	// x / y hides the sign test x >= 0 of truncated division, and the ite
	// its condition b: they are atoms too.
	want := "x < 0; x != y; (x / y) > 1; x >= 0; ite(b, x, 2) == y; b"
	if strings.Join(got, "; ") != want {
		t.Errorf("atoms %q, want %q", strings.Join(got, "; "), want)
	}
}

// pairOf compiles a program file and returns it with its blocks a and b.
func pairOf(t *testing.T, file, a, b string) (*lang.Program, *lang.Block, *lang.Block) {
	t.Helper()
	p := testprog.File(t, file)
	ba, bb := p.Block(a), p.Block(b)
	if ba == nil || bb == nil {
		t.Fatalf("%s: no blocks %s, %s", file, a, b)
	}
	return p, ba, bb
}

// TestCoverPrefersFewerGlobals checks that an implicant over locals and
// params is chosen over one reading globals when both cover a region of F.
func TestCoverPrefersFewerGlobals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, a, b string
		want       string // the constraints, joined by "; "
	}{
		{"../testdata/bench/dbp.blk", "client@23", "update", "0 <= i && i < N && 0 <= i' && i' < N && i != i'"},
		{"../testdata/bbmany.blk", "producer@14", "producer@14", "0 <= tail && tail <= 1 && count <= 0 && v == v'"},
		{"../testdata/fig1.blk", "q", "r", "x == z; z <= -2; z >= 0"},
	}
	for _, tc := range cases {
		p, a, b := pairOf(t, tc.file, tc.a, tc.b)
		res, err := Cover(encode.Pair(a, b, ts.NewSymbols(p)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range res.Constraints {
			got = append(got, c.Text)
		}
		if strings.Join(got, "; ") != tc.want || !res.Complete {
			t.Errorf("%s: cover of F(%s, %s) = %q [complete %v], want %q [complete]", tc.file, tc.a, tc.b, strings.Join(got, "; "), res.Complete, tc.want)
		}
	}
}

func TestGlobals(t *testing.T) {
	t.Parallel()
	gr := ts.NewGraph()
	g := gr.SymRef(&ts.Sym{Name: "g", Kind: ts.SymGlobal})
	arr := gr.SymRef(&ts.Sym{Name: "a", Kind: ts.SymGlobal, Sort: ts.SortArray})
	l := gr.SymRef(&ts.Sym{Name: "i", Kind: ts.SymLocal})
	l2 := gr.SymRef(&ts.Sym{Name: "i'", Kind: ts.SymLocal, Event: 1})
	cases := []struct {
		t    ts.Ref
		want string
	}{
		{gr.Binary(lang.OpNe, l, l2), ""},
		{gr.Binary(lang.OpLt, g, l), "g"},
		{gr.Binary(lang.OpEq, gr.Select(arr, l), gr.Ite(gr.Binary(lang.OpEq, l, l2), g, gr.Select(arr, l))), "a, g"},
	}
	for _, tc := range cases {
		if got := strings.Join(Globals(gr.Tree(tc.t)), ", "); got != tc.want {
			t.Errorf("Globals(%s) = %q, want %q", gr.Text(tc.t), got, tc.want)
		}
	}
}

// TestCoverBudget checks the resource budget of a cover: the same budget
// gives the same cover every time; the full cover's cost is what a cover
// spends; a budget below it leaves the cover incomplete with the budget as
// its reason, keeping only proven constraints.
func TestCoverBudget(t *testing.T) {
	t.Parallel()
	p, a, b := pairOf(t, "../testdata/fig1.blk", "q", "r")
	f := encode.Pair(a, b, ts.NewSymbols(p))
	full, err := Cover(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !full.Complete || full.Spent == 0 {
		t.Fatalf("unbounded cover: complete %v, spent %d", full.Complete, full.Spent)
	}
	texts := func(r *Result) string {
		var out []string
		for _, c := range r.Constraints {
			out = append(out, c.Text)
		}
		return strings.Join(out, "; ")
	}
	if r, err := Cover(f, Options{Budget: 2 * full.Spent}); err != nil || !r.Complete || texts(r) != texts(full) {
		t.Fatalf("budget twice the cost: %v, complete %v, %q, want %q", err, r.Complete, texts(r), texts(full))
	}
	for _, budget := range []uint64{1, full.Spent / 2, full.Spent - full.Spent/10} {
		r1, err := Cover(f, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := Cover(f, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if texts(r1) != texts(r2) || r1.Complete != r2.Complete || r1.Spent != r2.Spent {
			t.Errorf("budget %d: %q (spent %d), then %q (spent %d)", budget, texts(r1), r1.Spent, texts(r2), r2.Spent)
		}
		if r1.Complete || !strings.Contains(r1.Reason, "resource budget") {
			t.Errorf("budget %d of %d: complete %v, reason %q", budget, full.Spent, r1.Complete, r1.Reason)
		}
		sess, err := newSession(Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range r1.Constraints {
			if ok, err := sess.proves(coverProblem(f).formula, c.Expr, time.Time{}); err != nil || !ok {
				t.Errorf("budget %d: constraint %q does not imply F (%v)", budget, c.Text, err)
			}
		}
		sess.close()
	}
}

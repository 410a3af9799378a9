package synth

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

const counter = `global int c = 0, r = 0;
invariant (c >= 0);
proc inc() { c = c + 1; }
proc dec() { if (c != 0) { c = c - 1; } }
proc sign() { if (c >= 0) { r = 1; } else { r = -1; } }
init { spawn inc(); spawn dec(); spawn sign(); }
`

func withoutInvariants(src string) string {
	var keep []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(l, "invariant") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestInvariantSynthesis: under c >= 0, the counter's pairs get weaker
// constraints than without it, and they are sound where the invariant
// holds: both orders, run in the interpreter from random states satisfying
// the invariant and the constraint, reach the same state.
func TestInvariantSynthesis(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		want      map[[2]string]string // pair -> constraints, joined by ", "
	}{
		{"with the invariant", counter, map[[2]string]string{
			{"inc", "dec"}: "c > 0", {"inc", "sign"}: "true", {"dec", "sign"}: "true"}},
		{"without it", withoutInvariants(counter), map[[2]string]string{
			{"inc", "dec"}: "c != -1 && c != 0", {"inc", "sign"}: "c <= -2, c >= 0", {"dec", "sign"}: "true"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := testprog.Source(t, tc.src)
			f, _, err := Run(context.Background(), p, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Invariants) != len(p.Invariants) {
				t.Fatalf("the file records %d invariants, the program has %d", len(f.Invariants), len(p.Invariants))
			}
			for pair, want := range tc.want {
				pr, _ := f.Pair(pair[0], pair[1])
				var got []string
				for _, c := range pr.Constraints {
					got = append(got, c.Text)
				}
				if strings.Join(got, ", ") != want {
					t.Errorf("I(%s, %s') = {%s}, want {%s}", pair[0], pair[1], strings.Join(got, ", "), want)
				}
			}
			checkSound(t, p, f)
		})
	}
}

// checkSound runs both orders of every pair of f from random states where
// the file's invariants, a constraint and the overflow guard hold.
func checkSound(t *testing.T, p *lang.Program, f *ic.File) {
	t.Helper()
	m, err := interp.New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &sampler{m: m, rng: rand.New(rand.NewPCG(7, 7))}
	for _, pr := range f.Pairs {
		a, b := p.Block(pr.A), p.Block(pr.B)
		for _, c := range pr.Constraints {
			hits := 0
			for tries := 0; hits < 300 && tries < 30000; tries++ {
				st := s.state(a, b)
				env := interp.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1]}
				conds := []*ic.Expr{c.Expr}
				for _, inv := range f.Invariants {
					conds = append(conds, inv.Expr)
				}
				if pr.NoOverflow != nil {
					conds = append(conds, pr.NoOverflow)
				}
				all := true
				for _, e := range conds {
					if ok, err := e.Holds(env); err != nil || !ok {
						all = false
					}
				}
				if !all {
					continue
				}
				hits++
				if ok, why := commute(st); !ok {
					t.Errorf("I(%s, %s') has %s, but from globals %v: %s", pr.A, pr.B, c.Text, st.Values(0, st.Machine().Locs()), why)
					break
				}
			}
			if hits == 0 {
				t.Errorf("I(%s, %s'): no state satisfies %s and the invariants", pr.A, pr.B, c.Text)
			}
		}
	}
}

// TestDeclared proves and refutes commute declarations; a refutation's
// counterexample, run in the interpreter, really tells the orders apart.
// TestInvariantBreaker: F asks both orders of a pair to keep the
// invariants, but two orders that break one alike commute (the same
// violation, the same state). Two brk processes setting c to -1 commute
// everywhere and have no constraint: the pair is not exact, in both
// encodings, and a declaration that they commute is not refuted. Pairs
// whose orders keep the invariant wherever they commute stay exact.
func TestInvariantBreaker(t *testing.T) {
	t.Parallel()
	src := `global int c = 0;
invariant (c >= 0);
proc inc() { c = c + 1; }
proc dec() { if (c != 0) { c = c - 1; } }
proc brk() { c = -1; }
commute brk, brk;
init { spawn inc(); spawn dec(); spawn brk(); spawn brk(); }
`
	p := testprog.Source(t, src)
	for _, enc := range []encode.Encoding{encode.Merged, encode.Paths} {
		f, _, err := Run(context.Background(), p, Options{Workers: 1, Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		brk, _ := f.Pair("brk", "brk")
		if brk.Exact || len(brk.Constraints) != 0 || !slices.ContainsFunc(brk.Notes, func(n string) bool { return strings.Contains(n, "break an invariant") }) {
			t.Errorf("%s: I(brk, brk') = %v, exact %v, notes %q; want no constraint, not exact, a note that an order may break an invariant", enc, brk.Constraints, brk.Exact, brk.Notes)
		}
		if inc, _ := f.Pair("inc", "dec"); !inc.Exact || len(inc.Constraints) != 1 || inc.Constraints[0].Text != "c > 0" {
			t.Errorf("%s: I(inc, dec') = %v, exact %v; want {c > 0}, exact", enc, inc.Constraints, inc.Exact)
		}
		rs, err := Declared(context.Background(), p, Options{Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 1 || rs[0].Verdict != allsat.Unknown || !strings.Contains(rs[0].Reason, "break an invariant") {
			t.Errorf("%s: commute brk, brk: %+v; want unknown, as an order may break the invariant", enc, rs)
		}
	}
}

func TestDeclared(t *testing.T) {
	t.Parallel()
	fig1, err := os.ReadFile("../testdata/fig1.blk")
	if err != nil {
		t.Fatal(err)
	}
	fib := "global int nr = 0, r = 0;\nproc res(int v) { if (nr > 0) { nr = 0; r = v; } else { spawn res(r + v); r = 0; nr = 1; } }\ninit { spawn res(1); spawn res(2); }\n"
	cases := []struct {
		name, src, decl string
		want            allsat.Verdict
		pair, text      string // the pair and the constraint as the IC file has them
	}{
		{"fig1 p q proven", string(fig1), "commute p, q when (z <= -1);", allsat.Proven, "p q", "z <= -1"},
		{"fig1 p q refuted", string(fig1), "commute p, q when (z <= 0);", allsat.Refuted, "p q", "z <= 0"},
		{"fig1 swapped", string(fig1), "commute q, p when (z < 0);", allsat.Proven, "p q", "z < 0"},
		{"fig1 always", string(fig1), "commute r, p;", allsat.Proven, "p r", "true"},
		{"fig1 always refuted", string(fig1), "commute q, r;", allsat.Refuted, "q r", "true"},
		{"fig1 unrelated global", string(fig1), "commute p, q when (z <= -1 && x > 100);", allsat.Proven, "p q", "z <= -1 && x > 100"},
		{"locals of both", fib, "commute res, res when (v == v');", allsat.Proven, "res res", "v == v'"},
		{"locals refuted", fib, "commute res, res when (v != v' && nr <= 0);", allsat.Refuted, "res res", "v != v' && nr <= 0"},
		{"under an invariant", counter, "commute inc, dec when (c != 0);", allsat.Proven, "inc dec", "c != 0"},
		{"without it", withoutInvariants(counter), "commute inc, dec when (c != 0);", allsat.Refuted, "inc dec", "c != 0"},
		{"invariant kept", counter, "commute dec, sign;", allsat.Proven, "dec sign", "true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := testprog.Source(t, tc.src+tc.decl+"\n")
			rs, err := Declared(context.Background(), p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 1 {
				t.Fatalf("%d results", len(rs))
			}
			r := rs[0]
			if r.Verdict != tc.want || r.A+" "+r.B != tc.pair || r.Constraint.Text != tc.text {
				t.Fatalf("%s (%s) for (%s, %s) with %s, want %s for (%s) with %s", r.Verdict, r.Reason, r.A, r.B, r.Constraint.Text, tc.want, tc.pair, tc.text)
			}
			if r.Verdict != allsat.Refuted {
				return
			}
			t.Logf("counterexample %v", r.Counterexample)
			st := counterexample(t, p, r)
			env := interp.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1]}
			if ok, err := r.Constraint.Expr.Holds(env); err != nil || !ok {
				t.Fatalf("the condition does not hold in the counterexample %v", r.Counterexample)
			}
			if ok, _ := commute(st); ok {
				t.Errorf("the orders agree from the counterexample %v", r.Counterexample)
			}
		})
	}
}

// counterexample builds the pair state of a refuted declaration.
func counterexample(t *testing.T, p *lang.Program, r DeclaredResult) *interp.State {
	t.Helper()
	params := map[string]int64{}
	for _, v := range r.Counterexample {
		if v.Sym.Kind == ts.SymParam {
			params[v.Sym.Param.Name] = v.Int
		}
	}
	m, err := interp.New(p, params)
	if err != nil {
		t.Fatal(err)
	}
	a, b := p.Block(r.A), p.Block(r.B)
	store := make([]int64, m.Locs())
	locals := [2][]int64{make([]int64, len(a.Proc.Locals)), make([]int64, len(b.Proc.Locals))}
	for _, v := range r.Counterexample {
		switch v.Sym.Kind {
		case ts.SymGlobal:
			if v.Sym.Var.Type == lang.IntArray {
				t.Fatalf("array in a counterexample: %s", v.Text)
			}
			first, _ := m.GlobalLocs(v.Sym.Var)
			store[first] = v.Int
		case ts.SymLocal:
			locals[v.Sym.Event][v.Sym.Var.Index] = v.Int
		}
	}
	return m.PairState(store, a, locals[0], b, locals[1])
}

// TestDeclaredFile: the proven declarations make an IC file that cdpor
// explores with, reaching what dfs reaches; undeclared pairs are dependent.
func TestDeclaredFile(t *testing.T) {
	t.Parallel()
	fig1, err := os.ReadFile("../testdata/fig1.blk")
	if err != nil {
		t.Fatal(err)
	}
	src := string(fig1) + "commute p, q when (z <= -1);\ncommute q, r when (z >= 0);\ncommute q, r when (z <= -2);\ncommute p, r when (z == 5);\ncommute q, q when (x > 0);\n"
	p := testprog.Source(t, src)
	rs, err := Declared(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := DeclaredFile(p, rs)
	if err != nil {
		t.Fatal(err)
	}
	data, err := ic.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if f, err = ic.Parse(data); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"p p": "dependent ", "p q": "conditional z <= -1", "p r": "conditional z == 5",
		"q q": "conditional x > 0", "q r": "conditional z <= -2, z >= 0", "r r": "dependent "}
	for _, pr := range f.Pairs {
		var texts []string
		for _, c := range pr.Constraints {
			texts = append(texts, c.Text)
		}
		if got := string(pr.Status) + " " + strings.Join(texts, ", "); got != want[pr.A+" "+pr.B] {
			t.Errorf("(%s, %s): %s, want %s", pr.A, pr.B, got, want[pr.A+" "+pr.B])
		}
	}
	checkSound(t, p, f)
	for _, z := range []int64{-2, -1, 0, 5} {
		m, err := interp.New(p, map[string]int64{"z": z})
		if err != nil {
			t.Fatal(err)
		}
		oracle, _ := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.DFS})
		r, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.CDPOR, ICs: f})
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := r.Agrees(oracle); !ok {
			t.Errorf("z = %d: cdpor with the declared ICs differs from dfs: %s", z, why)
		}
		if r.Traces >= oracle.Traces && z == -2 {
			t.Errorf("z = %d: cdpor explores %d traces, dfs %d", z, r.Traces, oracle.Traces)
		}
	}
}

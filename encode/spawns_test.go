package encode

import (
	"testing"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

func TestPathSpawnsEqual(t *testing.T) {
	t.Parallel()
	src := `
proc p(int a, int b) { int c = a; }
proc q(int d) { }
proc r(int e) { yield; assert(e > 0); }
`
	prog, errs := lang.Compile("s.blk", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	syms := ts.NewSymbols(prog)
	g := ts.NewGraph()
	x := g.SymRef(syms.Global(&lang.Var{Name: "x", Kind: lang.Global, Type: lang.Int}))
	y := g.SymRef(syms.Global(&lang.Var{Name: "y", Kind: lang.Global, Type: lang.Int, Index: 1}))
	p, q, r := prog.Proc("p"), prog.Proc("q"), prog.Proc("r")
	sp := func(pr *lang.Proc, args ...ts.Ref) ts.Spawn { return ts.Spawn{Proc: pr, Args: args} }
	sum := func(a, b ts.Ref) ts.Ref { return g.Binary(lang.OpAdd, a, b) }
	type spawns = []ts.Spawn
	cases := []struct {
		name   string
		s1, s2 spawns
		want   string
		exact  bool
	}{
		{"empty", nil, nil, "true", true},
		{"count differs", spawns{sp(q, x)}, nil, "false", true},
		{"procs differ", spawns{sp(q, x)}, spawns{sp(r, x)}, "false", true},
		// p's b is dead at entry (never read): only a is compared.
		{"dead parameter ignored", spawns{sp(p, x, x)}, spawns{sp(p, y, y)}, "x == y", true},
		// q's d is dead too: any two q spawns are equal modulo naming.
		{"all dead", spawns{sp(q, x)}, spawns{sp(q, y)}, "true", true},
		{"bijection", spawns{sp(r, x), sp(r, y)}, spawns{sp(r, y), sp(r, x)},
			"true", true},
		{"AC equal", spawns{sp(r, sum(x, y))}, spawns{sp(r, sum(y, x))}, "(x + y) == (y + x)", true},
	}
	for _, tc := range cases { // one graph: not in parallel
		f, exact := pathSpawnsEqual(g, tc.s1, tc.s2)
		if g.Text(f) != tc.want || exact != tc.exact {
			t.Errorf("%s: pathSpawnsEqual = %s (exact %v), want %s (exact %v)", tc.name, g.Text(f), exact, tc.want, tc.exact)
		}
	}
	// More than MaxExactSpawns spawns of one proc: AC-normalized syntax, not exact.
	var many1, many2 spawns
	for i := 0; i <= MaxExactSpawns; i++ {
		many1 = append(many1, sp(r, sum(x, g.Int(int64(i)))))
		many2 = append(spawns{sp(r, sum(g.Int(int64(i)), x))}, many2...)
	}
	if f, exact := pathSpawnsEqual(g, many1, many2); !g.IsTrue(f) || exact {
		t.Errorf("large AC-equal multisets: %s exact %v, want true, not exact", g.Text(f), exact)
	}
	many2[0] = sp(r, y)
	if f, exact := pathSpawnsEqual(g, many1, many2); !g.IsFalse(f) || exact {
		t.Errorf("large different multisets: %s exact %v, want false, not exact", g.Text(f), exact)
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	g := ts.NewGraph()
	a := g.SymRef(&ts.Sym{Name: "a"})
	b := g.SymRef(&ts.Sym{Name: "b"})
	c := g.SymRef(&ts.Sym{Name: "c"})
	n := &normalizer{g: g, memo: map[ts.Ref]ts.Ref{}, text: map[ts.Ref]string{}}
	add := func(x, y ts.Ref) ts.Ref { return g.Binary(lang.OpAdd, x, y) }
	l := n.term(add(add(c, a), b))
	r := n.term(add(a, add(b, c)))
	if l != r {
		t.Errorf("(c + a) + b and a + (b + c) normalize to %s and %s", g.Text(l), g.Text(r))
	}
	if n.term(g.Binary(lang.OpEq, b, a)) != n.term(g.Binary(lang.OpEq, a, b)) {
		t.Error("== is not normalized")
	}
	if n.term(g.Binary(lang.OpSub, a, b)) == n.term(g.Binary(lang.OpSub, b, a)) {
		t.Error("- treated as commutative")
	}
}

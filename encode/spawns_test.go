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
	x := ts.SymTerm(syms.Global(&lang.Var{Name: "x", Kind: lang.Global, Type: lang.Int}))
	y := ts.SymTerm(syms.Global(&lang.Var{Name: "y", Kind: lang.Global, Type: lang.Int, Index: 1}))
	p, q, r := prog.Proc("p"), prog.Proc("q"), prog.Proc("r")
	sp := func(pr *lang.Proc, args ...*ts.Term) treeSpawn { return treeSpawn{Proc: pr, Args: args} }
	sum := func(a, b *ts.Term) *ts.Term { return ts.Binary(lang.OpAdd, a, b) }
	cases := []struct {
		name   string
		s1, s2 []treeSpawn
		want   string
		exact  bool
	}{
		{"empty", nil, nil, "true", true},
		{"count differs", []treeSpawn{sp(q, x)}, nil, "false", true},
		{"procs differ", []treeSpawn{sp(q, x)}, []treeSpawn{sp(r, x)}, "false", true},
		// p's b is dead at entry (never read): only a is compared.
		{"dead parameter ignored", []treeSpawn{sp(p, x, x)}, []treeSpawn{sp(p, y, y)}, "x == y", true},
		// q's d is dead too: any two q spawns are equal modulo naming.
		{"all dead", []treeSpawn{sp(q, x)}, []treeSpawn{sp(q, y)}, "true", true},
		{"bijection", []treeSpawn{sp(r, x), sp(r, y)}, []treeSpawn{sp(r, y), sp(r, x)},
			"true", true},
		{"AC equal", []treeSpawn{sp(r, sum(x, y))}, []treeSpawn{sp(r, sum(y, x))}, "(x + y) == (y + x)", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, exact := pathSpawnsEqual(tc.s1, tc.s2)
			if f.Key() != tc.want || exact != tc.exact {
				t.Errorf("pathSpawnsEqual = %s (exact %v), want %s (exact %v)", f.Key(), exact, tc.want, tc.exact)
			}
		})
	}
	// More than MaxExactSpawns spawns of one proc: AC-normalized syntax, not exact.
	var many1, many2 []treeSpawn
	for i := 0; i <= MaxExactSpawns; i++ {
		many1 = append(many1, sp(r, sum(x, ts.Int(int64(i)))))
		many2 = append([]treeSpawn{sp(r, sum(ts.Int(int64(i)), x))}, many2...)
	}
	if f, exact := pathSpawnsEqual(many1, many2); !f.IsTrue() || exact {
		t.Errorf("large AC-equal multisets: %s exact %v, want true, not exact", f, exact)
	}
	many2[0] = sp(r, y)
	if f, exact := pathSpawnsEqual(many1, many2); !f.IsFalse() || exact {
		t.Errorf("large different multisets: %s exact %v, want false, not exact", f, exact)
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	a := ts.SymTerm(&ts.Sym{Name: "a"})
	b := ts.SymTerm(&ts.Sym{Name: "b"})
	c := ts.SymTerm(&ts.Sym{Name: "c"})
	add := func(x, y *ts.Term) *ts.Term { return ts.Binary(lang.OpAdd, x, y) }
	l := normalize(add(add(c, a), b))
	r := normalize(add(a, add(b, c)))
	if l.Key() != r.Key() {
		t.Errorf("(c + a) + b and a + (b + c) normalize to %s and %s", l, r)
	}
	if normalize(ts.Binary(lang.OpEq, b, a)).Key() != normalize(ts.Binary(lang.OpEq, a, b)).Key() {
		t.Error("== is not normalized")
	}
	if normalize(ts.Binary(lang.OpSub, a, b)).Key() == normalize(ts.Binary(lang.OpSub, b, a)).Key() {
		t.Error("- treated as commutative")
	}
}

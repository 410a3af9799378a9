package ts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/icgen/icgen/lang"
)

func TestGraphHashConsing(t *testing.T) {
	t.Parallel()
	g := NewGraph()
	x := g.SymRef(&Sym{Name: "x", Sort: SortInt})
	y := g.SymRef(&Sym{Name: "y", Sort: SortInt})
	c := g.Binary(lang.OpGt, x, y)
	if g.Binary(lang.OpAdd, x, y) != g.Binary(lang.OpAdd, x, y) {
		t.Error("x + y built twice has two ids")
	}
	if g.Not(g.Not(c)) != c || g.Not(c) != g.Binary(lang.OpLe, x, y) {
		t.Error("negation is not pushed into the comparison")
	}
	if !g.IsFalse(g.And(c, g.Not(c))) || !g.IsTrue(g.Or(c, g.Not(c))) {
		t.Error("c && !c or c || !c not decided")
	}
	b := g.SymRef(&Sym{Name: "b", Sort: SortBool})
	if g.Ite(c, x, x) != x || g.Ite(g.Not(b), x, y) != g.Ite(b, y, x) {
		t.Error("ite not simplified")
	}
	// Read over write through an ite of stores at constant indices.
	a := g.SymRef(&Sym{Name: "a", Sort: SortArray})
	arr := g.Ite(c, g.Store(a, g.Int(1), x), g.Store(a, g.Int(2), y))
	if got := g.Select(arr, g.Int(1)); got != g.Ite(c, x, g.Select(a, g.Int(1))) {
		t.Errorf("a'[1] is node %d, want ite(c, x, a[1])", got)
	}
	// A doubling chain is a DAG of k nodes whose tree is 2^k long.
	r := x
	for i := 0; i < 40; i++ {
		r = g.Binary(lang.OpAdd, r, r)
	}
	if _, ok := g.Term(r, 1<<16); ok {
		t.Error("the tree of a 40-fold doubling fits in 64 KiB")
	}
	// A chain of 63 products is printed in a few characters a link: the
	// budget bounds its text (a few hundred characters), not the sum of its
	// subterms' texts, which grows with the square of the chain
	// (testdata/regress/mul-chain-63.blk).
	m := x
	for i := 0; i < 63; i++ {
		m = g.Binary(lang.OpMul, m, y)
	}
	tm, ok := g.Term(m, 1<<11)
	if !ok {
		t.Fatal("a chain of 63 products does not fit in 2 KiB")
	}
	if _, ok := g.Term(m, len(tm.Key())-1); ok {
		t.Errorf("the chain fits in one character less than its text (%d)", len(tm.Key()))
	}
}

// TestMergeLinear: k sequential ifs have 2^k paths; their merged system
// stays linear in k.
func TestMergeLinear(t *testing.T) {
	t.Parallel()
	size := func(k int) int {
		var b strings.Builder
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "global int g%d;\n", i)
		}
		b.WriteString("proc p(int v) {\n")
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "  if (g%d > v) { g%d = g%d - v; } else { g%d = v; }\n", i, i, i, i)
		}
		b.WriteString("}\n")
		prog, errs := lang.Compile("k.blk", []byte(b.String()))
		if errs != nil {
			t.Fatal(errs)
		}
		syms := NewSymbols(prog)
		g := NewGraph()
		m := ComposeMerged(MergeBlock(prog.Blocks[0], 0, syms, g), MergeBlock(prog.Blocks[0], 1, syms, g), syms)
		if m.Unknown != "" || len(m.Globals) != k {
			t.Fatalf("k = %d: unknown %q, %d globals written", k, m.Unknown, len(m.Globals))
		}
		return g.Len()
	}
	s8, s64 := size(8), size(64)
	if s64 > 10*s8 {
		t.Errorf("graph of T(p.p): %d nodes at k = 8, %d at k = 64: not linear", s8, s64)
	}
}

// TestTextLen: the length of a tree view's text, computed over the graph,
// is that of the text, for every kind of node.
func TestTextLen(t *testing.T) {
	t.Parallel()
	g := NewGraph()
	x := g.SymRef(&Sym{Name: "x", Sort: SortInt})
	y := g.SymRef(&Sym{Name: "y'", Sort: SortInt})
	a := g.SymRef(&Sym{Name: "a", Sort: SortArray})
	f := &Fn{Name: "loop:p:7:3.x", Sort: SortInt}
	c := g.Binary(lang.OpLt, g.Binary(lang.OpAdd, x, g.Int(-12)), y)
	terms := []Ref{
		g.True(), g.False(), g.Int(-7), x, c, g.Not(g.Binary(lang.OpLt, a, a)), g.Neg(g.Binary(lang.OpMul, x, y)),
		g.And(c, g.Binary(lang.OpEq, x, g.Int(3)), g.Or(g.Binary(lang.OpGe, y, x), g.Binary(lang.OpNe, x, y))),
		g.Div(g.Binary(lang.OpSub, x, y), g.Mod(y, g.Int(3))), g.Ite(c, g.Apply(f, x, y), g.Select(g.Store(a, x, y), y)),
		g.Store(g.Store(a, x, g.Int(1)), g.Div(x, y), g.Ite(c, x, y)), g.Apply(f),
	}
	memo := map[Ref]int{}
	for _, r := range terms {
		if got, want := g.TextLen(r, memo), len(g.Text(r)); got != want {
			t.Errorf("TextLen(%s) = %d, want %d", g.Text(r), got, want)
		}
	}
	r := x
	for i := 0; i < 70; i++ {
		r = g.Binary(lang.OpAdd, r, r)
	}
	if n := g.TextLen(r, memo); n != maxTextLen {
		t.Errorf("TextLen of a doubling chain of 70 = %d, want the saturated %d", n, maxTextLen)
	}
}

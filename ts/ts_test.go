package ts

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/golden"
	"github.com/icgen/icgen/lang"
)

// systems renders the system of every block and both compositions of every
// pair, the golden format of ts/testdata/*.txtar.
func systems(p *lang.Program) string {
	var b strings.Builder
	syms := NewSymbols(p)
	for _, bl := range p.Blocks {
		b.WriteString("T(" + bl.ID + "):\n" + Block(bl, 0, syms, NewGraph()).String())
	}
	for i, x := range p.Blocks {
		for _, y := range p.Blocks[i:] {
			ab, ba := Pair(x, y, syms)
			b.WriteString("T(" + x.ID + "." + y.ID + "'):\n" + ab.String())
			b.WriteString("T(" + y.ID + "'." + x.ID + "):\n" + ba.String())
		}
	}
	return b.String()
}

// TestGolden checks the systems of each archive in testdata: the paper's
// T_q, T_r, T_q.r, T_r.q (CDPOR Sec. 4.1) in fig1.txtar and T^u_fib, T^u_res
// and T(res.res) (Sec. 4.2, Example 7) in fib.txtar.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar := golden.Open(t, file)
			src := ar.Get("input.blk")
			p, errs := lang.Compile("input.blk", src)
			if errs != nil {
				t.Fatal(errs.Format(src))
			}
			ar.Check(t, "ts", systems(p))
		})
	}
}

func TestRangeGuards(t *testing.T) {
	g := NewGraph()
	x := g.SymRef(&Sym{Name: "x"})
	y := g.SymRef(&Sym{Name: "y"})
	cases := []struct {
		t    Ref
		want string
	}{
		{g.Binary(lang.OpAdd, x, g.Int(1)), "[(x + 1) <= 9223372036854775807]"},
		{g.Binary(lang.OpSub, x, g.Int(1)), "[-9223372036854775808 <= (x - 1)]"},
		{g.Binary(lang.OpAdd, x, y), "[-9223372036854775808 <= (x + y) (x + y) <= 9223372036854775807]"},
		{g.Neg(x), "[-x <= 9223372036854775807]"},
		{g.Binary(lang.OpMul, g.Int(0), x), "[]"},
	}
	for _, tc := range cases {
		var got []string
		for _, r := range newBounds(g).rangeGuards(tc.t) {
			got = append(got, g.Text(r))
		}
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("rangeGuards(%s) = %s, want %s", g.Text(tc.t), s, tc.want)
		}
	}
}

// TestEmptyFunc: a call of a func whose body is empty returns at once, in
// the path executor (Block) as in the merged one (a generated program cut
// down to such a func made Block index the empty body).
func TestEmptyFunc(t *testing.T) {
	src := []byte("global int x;\nfunc none(int a) { }\n" +
		"proc p(int v) { none(v); x = v; }\ninit { spawn p(1); }\n")
	p, errs := lang.Compile("empty.blk", src)
	if errs != nil {
		t.Fatal(errs.Format(src))
	}
	got := Block(p.Blocks[0], 0, NewSymbols(p), NewGraph()).String()
	if want := "true -> x := v\n"; got != want {
		t.Errorf("T(p) =\n%swant\n%s", got, want)
	}
}

// TestComposeBoth: ComposeBoth builds what Compose builds in each order
// when the product of their transition counts, and each count, is within
// its bound, and otherwise stops with both systems unknown (what stopping
// early saves is held by encode's TestPairTooLarge).
func TestComposeBoth(t *testing.T) {
	// p has 8 paths, q 2: 16 transitions in each order.
	src := []byte(`global int a, b, c, x, y, z, w;
proc p() { if (a > 0) { x = 1; } if (b > 0) { y = 1; } if (c > 0) { z = 1; } }
proc q() { if (w > 0) { w = 0; } }
init { spawn p(); spawn q(); }
`)
	prog, errs := lang.Compile("both.blk", src)
	if errs != nil {
		t.Fatal(errs.Format(src))
	}
	syms := NewSymbols(prog)
	g := NewGraph()
	ta, tb := Block(prog.Block("p"), 0, syms, g), Block(prog.Block("q"), 1, syms, g)
	wantAB, wantBA := Compose(ta, tb, syms), Compose(tb, ta, syms)
	if len(wantAB.Transitions) != 16 || len(wantBA.Transitions) != 16 {
		t.Fatalf("the compositions have %d and %d transitions, want 16 and 16", len(wantAB.Transitions), len(wantBA.Transitions))
	}
	for _, tc := range []struct {
		maxPairs int
		fits     bool
	}{{0, true}, {256, true}, {1000, true}, {255, false}, {15, false}, {1, false}} {
		ab, ba, fits := ComposeBoth(ta, tb, syms, tc.maxPairs)
		if fits != tc.fits {
			t.Errorf("bound %d: fits = %v, want %v", tc.maxPairs, fits, tc.fits)
			continue
		}
		if !fits {
			if ab.Unknown == "" || ba.Unknown == "" || len(ab.Transitions)+len(ba.Transitions) != 0 {
				t.Errorf("bound %d: cut systems must be unknown and empty: %q %q, %d and %d transitions", tc.maxPairs, ab.Unknown, ba.Unknown, len(ab.Transitions), len(ba.Transitions))
			}
			continue
		}
		if ab.String() != wantAB.String() || ba.String() != wantBA.String() {
			t.Errorf("bound %d: ComposeBoth differs from Compose:\n%s%s\nwant\n%s%s", tc.maxPairs, ab, ba, wantAB, wantBA)
		}
	}
}

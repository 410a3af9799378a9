package lang

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// roundTripSrc declares the names the random expressions use. An
// expression E of type T is compiled as the result of "func T e(int v,
// bool w) { return E; }" (calls allowed), or, with primes, as the condition
// of "commute p, p when (E);" (no calls; v and w are live at p's entry).
const roundTripSrc = `param N = 3;
global int g, h;
global bool b;
global int a[4];
func int f(int k, int l) { return k; }
func bool t(int k) { return k > 0; }
proc p(int v, bool w) { if (w) { g = v; } }
`

// exprGen builds random well-typed expressions over the names of
// roundTripSrc.
type exprGen struct {
	r                *rand.Rand
	primes           bool // commute condition: v' and w' allowed, calls not
	g, h, b, a, v, w *Var
	n                *Param
	f, t             *Func
}

func newExprGen(seed uint64, primes bool) *exprGen {
	return &exprGen{
		r: rand.New(rand.NewPCG(seed, 7)), primes: primes,
		g: &Var{Name: "g", Type: Int}, h: &Var{Name: "h", Type: Int}, b: &Var{Name: "b", Type: Bool},
		a: &Var{Name: "a", Type: IntArray},
		v: &Var{Name: "v", Kind: Local, Type: Int}, w: &Var{Name: "w", Kind: Local, Type: Bool},
		n: &Param{Name: "N"},
		f: &Func{Name: "f", Result: Int}, t: &Func{Name: "t", Result: Bool},
	}
}

func (x *exprGen) local(v *Var) Expr {
	return &VarRef{Var: v, Second: x.primes && x.r.IntN(2) == 0}
}

func (x *exprGen) intExpr(depth int) Expr {
	if depth <= 0 || x.r.IntN(4) == 0 {
		switch x.r.IntN(7) {
		case 0:
			return &IntLit{Val: int64(x.r.IntN(10))}
		case 1:
			return &IntLit{Val: x.r.Int64()} // up to MaxInt64
		case 2:
			return &VarRef{Var: x.g}
		case 3:
			return &VarRef{Var: x.h}
		case 4:
			return &ParamRef{Param: x.n}
		case 5:
			return x.local(x.v)
		}
		return &IndexExpr{Array: x.a, Index: x.intExpr(depth - 1)}
	}
	ops := []Op{OpAdd, OpSub, OpMul, OpDiv, OpMod}
	switch k := x.r.IntN(len(ops) + 2); {
	case k < len(ops):
		return &BinaryExpr{Op: ops[k], X: x.intExpr(depth - 1), Y: x.intExpr(depth - 1)}
	case k == len(ops) && !x.primes:
		return &CallExpr{Func: x.f, Args: []Expr{x.intExpr(depth - 1), x.intExpr(depth - 1)}}
	}
	return &UnaryExpr{Op: OpNeg, X: x.intExpr(depth - 1)}
}

func (x *exprGen) boolExpr(depth int) Expr {
	if depth <= 0 || x.r.IntN(5) == 0 {
		switch x.r.IntN(3) {
		case 0:
			return &BoolLit{Val: x.r.IntN(2) == 0}
		case 1:
			return &VarRef{Var: x.b}
		}
		return x.local(x.w)
	}
	switch k := x.r.IntN(6); k {
	case 0:
		return &UnaryExpr{Op: OpNot, X: x.boolExpr(depth - 1)}
	case 1:
		return &BinaryExpr{Op: []Op{OpAnd, OpOr}[x.r.IntN(2)], X: x.boolExpr(depth - 1), Y: x.boolExpr(depth - 1)}
	case 2:
		return &BinaryExpr{Op: []Op{OpEq, OpNe}[x.r.IntN(2)], X: x.boolExpr(depth - 1), Y: x.boolExpr(depth - 1)}
	case 3:
		if !x.primes {
			return &CallExpr{Func: x.t, Args: []Expr{x.intExpr(depth - 1)}}
		}
	}
	ops := []Op{OpLt, OpLe, OpGt, OpGe, OpEq, OpNe}
	return &BinaryExpr{Op: ops[x.r.IntN(len(ops))], X: x.intExpr(depth - 1), Y: x.intExpr(depth - 1)}
}

// tree renders an expression as an S-expression, independently of the
// printer under test: (op x y), (neg x), (not x), (idx a i), (call f x y),
// names primed as v'.
func tree(e Expr) string {
	switch e := e.(type) {
	case *IntLit:
		return strconv.FormatInt(e.Val, 10)
	case *BoolLit:
		return strconv.FormatBool(e.Val)
	case *ParamRef:
		return "$" + e.Param.Name
	case *VarRef:
		if e.Second {
			return e.Var.Name + "'"
		}
		return e.Var.Name
	case *IndexExpr:
		return "(idx " + e.Array.Name + " " + tree(e.Index) + ")"
	case *UnaryExpr:
		return "(" + map[Op]string{OpNeg: "neg", OpNot: "not"}[e.Op] + " " + tree(e.X) + ")"
	case *BinaryExpr:
		return "(" + e.Op.String() + " " + tree(e.X) + " " + tree(e.Y) + ")"
	case *CallExpr:
		s := "(call " + e.Func.Name
		for _, a := range e.Args {
			s += " " + tree(a)
		}
		return s + ")"
	}
	return "?"
}

// reparse compiles text as an expression of type typ (see roundTripSrc)
// and returns the checked tree, or the diagnostics.
func reparse(text string, typ Type, primes bool) (Expr, string) {
	src := roundTripSrc
	if primes {
		src += "commute p, p when (" + text + ");\n"
	} else {
		src += "func " + typ.String() + " e(int v, bool w) { return " + text + "; }\n"
	}
	p, errs := Compile("rt.blk", []byte(src))
	if errs != nil {
		return nil, errs.Format([]byte(src))
	}
	if primes {
		return p.Commutes[0].Cond, ""
	}
	for _, fn := range p.Funcs {
		if fn.Name == "e" {
			return fn.Body[len(fn.Body)-1].(*ReturnStmt).Value, ""
		}
	}
	return nil, "no func e"
}

// checkRoundTrip prints e, parses the text back and compares the trees.
func checkRoundTrip(t *testing.T, e Expr, primes bool) {
	t.Helper()
	text := ExprString(e)
	got, msg := reparse(text, e.Type(), primes)
	if msg != "" {
		t.Fatalf("%s (tree %s) does not compile:\n%s", text, tree(e), msg)
	}
	if tree(got) != tree(e) {
		t.Fatalf("%s parses as\n%s\nwant\n%s", text, tree(got), tree(e))
	}
}

// TestExprStringRoundTrip: random expression trees print to text that
// parses back to the same tree: funcs' results (with calls) and commute
// conditions (with primed locals), 6,000 trees from a fixed seed.
func TestExprStringRoundTrip(t *testing.T) {
	t.Parallel()
	for _, primes := range []bool{false, true} {
		x := newExprGen(1, primes)
		for i := 0; i < 3000; i++ {
			depth := 1 + i%6
			var e Expr
			if primes || i%2 == 0 {
				e = x.boolExpr(depth)
			} else {
				e = x.intExpr(depth)
			}
			checkRoundTrip(t, e, primes)
		}
	}
}

// TestExprString: the cases the round trip cannot show, and the shapes
// the printer must get right.
func TestExprString(t *testing.T) {
	t.Parallel()
	x := newExprGen(1, false)
	lit := func(v int64) Expr { return &IntLit{Val: v} }
	neg := func(e Expr) Expr { return &UnaryExpr{Op: OpNeg, X: e} }
	bin := func(op Op, a, b Expr) Expr { return &BinaryExpr{Op: op, X: a, Y: b} }
	g := &VarRef{Var: x.g}
	cases := []struct {
		e    Expr
		want string
	}{
		{bin(OpMul, bin(OpDiv, g, lit(3)), bin(OpDiv, g, lit(3))), "((g / 3) * (g / 3))"},
		{bin(OpSub, g, bin(OpSub, g, lit(1))), "(g - (g - 1))"},
		{neg(neg(g)), "-(-g)"},
		{neg(lit(5)), "-5"},
		{neg(lit(-5)), "-(-5)"}, // a negative literal is not built by the parser
		{lit(-5), "-5"},
		{lit(math.MinInt64), "(-9223372036854775807 - 1)"},
		{neg(lit(math.MinInt64)), "-(-9223372036854775807 - 1)"},
		{bin(OpSub, g, lit(-5)), "(g - -5)"},
		{&UnaryExpr{Op: OpNot, X: &UnaryExpr{Op: OpNot, X: &VarRef{Var: x.b}}}, "!(!b)"},
	}
	for _, tc := range cases {
		if got := ExprString(tc.e); got != tc.want {
			t.Errorf("ExprString(%s) = %s, want %s", tree(tc.e), got, tc.want)
		}
	}
	// Negative literals read back as negations of the same value.
	for _, v := range []int64{-5, math.MinInt64} {
		got, msg := reparse(ExprString(lit(v)), Int, false)
		if msg != "" {
			t.Fatalf("%d: %s", v, msg)
		}
		if c, ok := constValue(got); !ok || c != v {
			t.Errorf("%s reads back as %s", ExprString(lit(v)), tree(got))
		}
	}
}

// constValue evaluates a constant expression of literals, negation and
// subtraction.
func constValue(e Expr) (int64, bool) {
	switch e := e.(type) {
	case *IntLit:
		return e.Val, true
	case *UnaryExpr:
		v, ok := constValue(e.X)
		return -v, ok && e.Op == OpNeg
	case *BinaryExpr:
		a, ok1 := constValue(e.X)
		b, ok2 := constValue(e.Y)
		return a - b, ok1 && ok2 && e.Op == OpSub
	}
	return 0, false
}

// FuzzExprString: the round trip of TestExprStringRoundTrip on trees
// drawn from the fuzzer's seeds. Run it with
//
//	go test ./lang -run '^$' -fuzz FuzzExprString -fuzztime 1m
func FuzzExprString(f *testing.F) {
	for _, s := range []string{"", "seed", "\x00\x01\x02\x03\x04\x05\x06\x07\x08"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var seed [8]byte
		copy(seed[:], data)
		n := binary.LittleEndian.Uint64(seed[:])
		primes := len(data) > 8 && data[8]&1 == 1
		x := newExprGen(n, primes)
		depth := 1 + int(n%7)
		var e Expr = x.boolExpr(depth)
		if !primes && n&(1<<63) != 0 {
			e = x.intExpr(depth)
		}
		checkRoundTrip(t, e, primes)
	})
}

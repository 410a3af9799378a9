package ic

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/icgen/icgen/lang"
)

// textSrc declares the names of the random constraints; a constraint C is
// compiled as the condition of "commute p, p when (C);", where v and w are
// the first process's locals and v' and w' the second's.
const textSrc = `param N = 3;
global int g, h;
global bool b;
global int a[4];
proc p(int v, bool w) { if (w) { g = v; } }
`

// textGen builds random well-typed constraints with the language's
// operators (no div, mod, ite or functions: the language has none).
type textGen struct{ r *rand.Rand }

func (x textGen) args(n int, f func(int) *Expr, depth int) []*Expr {
	out := make([]*Expr, n)
	for i := range out {
		out[i] = f(depth - 1)
	}
	return out
}

func (x textGen) intExpr(depth int) *Expr {
	if depth <= 0 || x.r.IntN(4) == 0 {
		switch x.r.IntN(8) {
		case 0:
			return Int(int64(x.r.IntN(10)))
		case 1:
			return Int(-int64(x.r.IntN(10)))
		case 2:
			return Int([]int64{math.MinInt64, math.MaxInt64, -math.MaxInt64}[x.r.IntN(3)])
		case 3:
			return &Expr{Op: "global", Name: []string{"g", "h"}[x.r.IntN(2)]}
		case 4:
			return &Expr{Op: "param", Name: "N"}
		case 5:
			return &Expr{Op: "local", Name: "v", Event: x.r.IntN(2)}
		}
		return &Expr{Op: "select", Name: "a", Args: []*Expr{x.intExpr(depth - 1)}}
	}
	switch k := x.r.IntN(7); k {
	case 0:
		return &Expr{Op: "-", Args: []*Expr{x.intExpr(depth - 1)}}
	case 1, 2, 3: // + - * with two or three operands
		return &Expr{Op: []string{"+", "-", "*"}[k-1], Args: x.args(2+x.r.IntN(2), x.intExpr, depth)}
	}
	return &Expr{Op: []string{"/", "%", "-"}[x.r.IntN(3)], Args: x.args(2, x.intExpr, depth)}
}

func (x textGen) boolExpr(depth int) *Expr {
	if depth <= 0 || x.r.IntN(5) == 0 {
		switch x.r.IntN(4) {
		case 0:
			return &Expr{Op: []string{"true", "false"}[x.r.IntN(2)]}
		case 1:
			return &Expr{Op: "global", Name: "b", Sort: "bool"}
		}
		return &Expr{Op: "local", Name: "w", Event: x.r.IntN(2), Sort: "bool"}
	}
	switch x.r.IntN(5) {
	case 0:
		return &Expr{Op: "!", Args: []*Expr{x.boolExpr(depth - 1)}}
	case 1: // && and || with one to three operands
		return &Expr{Op: []string{"&&", "||"}[x.r.IntN(2)], Args: x.args(1+x.r.IntN(3), x.boolExpr, depth)}
	case 2:
		return &Expr{Op: []string{"==", "!="}[x.r.IntN(2)], Args: x.args(2, x.boolExpr, depth)}
	}
	ops := []string{"<", "<=", ">", ">=", "==", "!="}
	return &Expr{Op: ops[x.r.IntN(len(ops))], Args: x.args(2, x.intExpr, depth)}
}

// shape renders a constraint as an S-expression of binary operations, the
// shape the language reads its text as: n-ary operations nest to the left,
// && and || of one operand are that operand, and a negative literal is the
// negation of a positive one.
func shape(e *Expr) string {
	switch e.Op {
	case "int":
		switch v := *e.Value; {
		case v == math.MinInt64:
			return "(- (neg 9223372036854775807) 1)"
		case v < 0:
			return "(neg " + strconv.FormatInt(-v, 10) + ")"
		default:
			return strconv.FormatInt(v, 10)
		}
	case "true", "false", "global", "param":
		return e.Op + ":" + e.Name
	case "local":
		return "local:" + e.Name + []string{"", "'"}[e.Event]
	case "select":
		return "(idx " + e.Name + " " + shape(e.Args[0]) + ")"
	case "!":
		return "(not " + shape(e.Args[0]) + ")"
	}
	if e.Op == "-" && len(e.Args) == 1 {
		return "(neg " + shape(e.Args[0]) + ")"
	}
	s := shape(e.Args[0])
	for _, a := range e.Args[1:] {
		s = "(" + e.Op + " " + s + " " + shape(a) + ")"
	}
	return s
}

// langShape renders a checked expression of the language the way shape
// renders constraints.
func langShape(e lang.Expr) string {
	switch e := e.(type) {
	case *lang.IntLit:
		return strconv.FormatInt(e.Val, 10)
	case *lang.BoolLit:
		return strconv.FormatBool(e.Val) + ":"
	case *lang.ParamRef:
		return "param:" + e.Param.Name
	case *lang.VarRef:
		if e.Var.Kind == lang.Local {
			return "local:" + e.Var.Name + map[bool]string{false: "", true: "'"}[e.Second]
		}
		return "global:" + e.Var.Name
	case *lang.IndexExpr:
		return "(idx " + e.Array.Name + " " + langShape(e.Index) + ")"
	case *lang.UnaryExpr:
		if e.Op == lang.OpNot {
			return "(not " + langShape(e.X) + ")"
		}
		return "(neg " + langShape(e.X) + ")"
	case *lang.BinaryExpr:
		return "(" + e.Op.String() + " " + langShape(e.X) + " " + langShape(e.Y) + ")"
	}
	return "?"
}

// TestTextRoundTrip: the canonical text of a constraint is a condition of
// the language that reads back as the same tree. 5,000 random constraints
// from a fixed seed, each compiled as a commute condition.
func TestTextRoundTrip(t *testing.T) {
	t.Parallel()
	x := textGen{rand.New(rand.NewPCG(11, 12))}
	for i := 0; i < 5000; i++ {
		e := x.boolExpr(1 + i%6)
		text := e.String()
		src := textSrc + "commute p, p when (" + text + ");\n"
		p, errs := lang.Compile("t.blk", []byte(src))
		if errs != nil {
			t.Fatalf("%s (shape %s) does not compile:\n%s", text, shape(e), errs.Format([]byte(src)))
		}
		if got, want := langShape(p.Commutes[0].Cond), shape(e); got != want {
			t.Fatalf("%s reads as\n%s\nwant\n%s", text, got, want)
		}
	}
}

// TestTextParentheses: the shapes the former printer got wrong, and the
// unary cases.
func TestTextParentheses(t *testing.T) {
	t.Parallel()
	x := &Expr{Op: "global", Name: "x"}
	y := &Expr{Op: "global", Name: "y"}
	op := func(o string, args ...*Expr) *Expr { return &Expr{Op: o, Args: args} }
	cases := []struct {
		e    *Expr
		want string
	}{
		{op("*", op("/", x, Int(3)), op("/", x, Int(3))), "x / 3 * (x / 3)"},
		{op("*", Int(2), op("/", x, Int(3))), "2 * (x / 3)"},
		{op("/", op("*", Int(2), x), Int(3)), "2 * x / 3"},
		{op("+", x, op("-", y, Int(1))), "x + (y - 1)"},
		{op("+", op("-", y, Int(1)), x), "y - 1 + x"},
		{op("*", x, op("%", y, Int(2)), y), "x * (y % 2) * y"},
		{op("-", op("-", x)), "-(-x)"},
		{op("-", Int(-3)), "-(-3)"},
		{op("-", Int(3)), "-3"},
		{op("-", x, Int(-3)), "x - -3"},
		{op("<", Int(math.MinInt64), x), "(-9223372036854775807 - 1) < x"},
		{op("!", op("!", &Expr{Op: "global", Name: "b", Sort: "bool"})), "!(!b)"},
		{op("==", op("<", x, y), op("<", y, x)), "x < y == y < x"},
		{op("==", &Expr{Op: "true"}, op("==", x, y)), "true == (x == y)"},
	}
	for _, tc := range cases {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("%s prints as %s, want %s", shape(tc.e), got, tc.want)
		}
	}
}

// TestCanonDistinctTerms: Canon keys non-linear terms by their text, so
// terms that differ must print differently. With the former printer,
// x * (y / 3) and x * y / 3 both printed as x * y / 3, and Canon folded
// x * (y / 3) == x * y / 3 (false for x = y = 2) to true.
func TestCanonDistinctTerms(t *testing.T) {
	t.Parallel()
	x := &Expr{Op: "global", Name: "x"}
	y := &Expr{Op: "global", Name: "y"}
	op := func(o string, args ...*Expr) *Expr { return &Expr{Op: o, Args: args} }
	cases := []struct {
		e    *Expr
		want string
	}{
		{op("==", op("*", x, op("/", y, Int(3))), op("/", op("*", x, y), Int(3))), "x * (y / 3) == x * y / 3"},
		{op("<", op("*", op("/", x, Int(3)), op("/", x, Int(3))), op("/", op("*", op("/", x, Int(3)), x), Int(3))),
			"x / 3 * (x / 3) + 1 <= x / 3 * x / 3"},
	}
	for _, tc := range cases {
		if got := Canon(tc.e).String(); got != tc.want {
			t.Errorf("Canon(%s) = %s, want %s", tc.e, got, tc.want)
		}
	}
}

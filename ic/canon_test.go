package ic

import (
	"math"
	"testing"
)

// pow2 is x * 2 * ... * 2, n times.
func pow2(x *Expr, n int) *Expr {
	for range n {
		x = op("*", x, Int(2))
	}
	return x
}

func TestCanon(t *testing.T) {
	t.Parallel()
	x, z, v, v1 := g("x"), g("z"), l("v", 0), l("v", 1)
	cases := []struct {
		in   *Expr
		want string
	}{
		{op("<", op("+", z, Int(1)), Int(0)), "z <= -2"},
		{op("==", op("+", x, Int(1)), op("+", z, Int(1))), "x == z"},
		{op("==", op("+", z, Int(1)), op("+", x, Int(1))), "x == z"},
		{op(">=", z, Int(0)), "z >= 0"},
		{op("!", op("<", z, Int(0))), "z >= 0"},
		{op(">", g("nr"), Int(0)), "nr > 0"},
		{op(">=", &Expr{Op: "param", Name: "SIZE"}, op("+", g("count"), Int(1))), "count + 1 <= SIZE"},
		{op(">=", g("nr"), Int(1)), "nr > 0"},
		{op("<", g("z"), Int(0)), "z <= -1"},
		{op("==", v1, v), "v == v'"},
		{op("==", op("*", Int(2), x), Int(1)), "false"},
		{op("<=", op("*", Int(2), x), Int(3)), "x <= 1"},
		{op(">=", op("*", Int(2), x), Int(3)), "x >= 2"},
		{op("<=", x, x), "true"},
		{op("&&", op(">=", z, Int(0)), op("<=", op("-", z, Int(5)), Int(0)), op(">=", z, Int(0))), "0 <= z && z <= 5"},
		// Index bounds: 0 <= i - 1 < N is canonically i > 0 && i <= N, and
		// is written back in the index's form.
		{op("&&", op("<=", Int(0), op("-", l("i", 0), Int(1))), op("<", op("-", l("i", 0), Int(1)), &Expr{Op: "param", Name: "N"})), "0 <= i - 1 && i - 1 < N"},
		{op("&&", op("<", l("i", 1), &Expr{Op: "param", Name: "N"}), op(">=", l("i", 1), Int(0)), op(">", x, Int(2))), "0 <= i' && i' < N && x >= 3"},
		{op("&&", op(">", z, Int(0)), op("<=", z, Int(1))), "z == 1"},
		// Inside opaque terms, integer arguments are linear sums.
		{op("==", sel("a", op("-", op("-", l("i", 0), Int(1)), Int(1))), Int(0)), "a[i - 2] == 0"},
		{op("==", sel("a", op("-", op("-", l("i", 0), Int(1)), Int(1))), sel("a", op("+", Int(-2), l("i", 0)))), "true"},
		{op("==", sel("a", op("-", Int(1), l("i", 0))), x), "a[1 - i] == x"},
		{op("==", sel("a", op("-", op("+", l("i", 0), Int(1)), Int(1))), x), "a[i] == x"},
		{op("==", sel("a", op("-", l("i", 0))), x), "a[-i] == x"},
		{op("<=", op("+", x, op("*", Int(-1), z)), Int(0)), "x <= z"},
		{op("!=", op("-", x, z), Int(3)), "x != z + 3"},
		{op("==", op("true"), g("flag")), "flag"},
		{op("!=", g("flag"), op("true")), "!flag"},
		{op("==", g("flag"), op("false")), "!flag"},
		{op("&&", op("!=", g("d"), Int(0)), op("==", l("d", 1), Int(0))), "d != 0 && d' == 0"},
		// 2^63 * x <= 5 divides by 2^63; 2^63 * x + 3 * z <= 5 has a
		// coefficient beyond int64: the atom is kept as it is ("").
		{op("<=", pow2(x, 63), Int(5)), "x <= 0"},
		{op("==", op("-", pow2(x, 63), pow2(z, 63)), Int(0)), "x == z"},
		{op("<=", op("+", pow2(x, 63), op("*", Int(3), z)), Int(5)), ""},
		{op("<=", op("+", pow2(x, 62), op("*", Int(3), z)), Int(5)), "4611686018427387904 * x + 3 * z <= 5"},
		// x + MinInt64 >= 0 is x >= 2^63, a constant beyond int64: kept.
		{op(">=", op("+", x, Int(math.MinInt64)), Int(0)), ""},
	}
	for _, tc := range cases {
		if tc.want == "" {
			tc.want = tc.in.String()
		}
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			if got := Canon(tc.in).String(); got != tc.want {
				t.Errorf("Canon(%s) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

package lang

import "math"

// The arithmetic of the language on int64 (docs/language.md), shared by the
// interpreter and by constant folding in the symbolic executor: overflow is
// an error; division truncates toward zero and the remainder has the sign
// of the dividend, as in C and Go.

// Add returns x+y and whether it did not overflow.
func Add(x, y int64) (int64, bool) {
	r := x + y
	return r, (r > x) == (y > 0)
}

// Sub returns x-y and whether it did not overflow.
func Sub(x, y int64) (int64, bool) {
	r := x - y
	return r, (r < x) == (y > 0)
}

// Mul returns x*y and whether it did not overflow.
func Mul(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	r := x * y
	if r/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
		return r, false
	}
	return r, true
}

// Div returns x/y truncated toward zero and whether it did not overflow
// (MinInt64 / -1). y must not be 0.
func Div(x, y int64) (int64, bool) {
	if x == math.MinInt64 && y == -1 {
		return 0, false
	}
	return x / y, true
}

// Mod returns the remainder of the truncated division x/y (sign of x).
// y must not be 0. MinInt64 % -1 is 0.
func Mod(x, y int64) int64 {
	if y == -1 {
		return 0
	}
	return x % y
}

package interp

import (
	"math"

	"github.com/icgen/icgen/lang"
)

// Intervals of int64, the abstract values of the overflow proof
// (overflow.go): each operation bounds what its concrete counterpart
// computes from any values of its operands' intervals.

// ival is a closed interval of int64.
type ival struct{ lo, hi int64 }

var fullRange = ival{math.MinInt64, math.MaxInt64}

func pointIval(v int64) ival { return ival{v, v} }

func (a ival) join(b ival) ival { return ival{min(a.lo, b.lo), max(a.hi, b.hi)} }

// is reports whether a holds the single value v.
func (a ival) is(v int64) bool { return a.lo == v && a.hi == v }

func intervals(vs []int64) []ival {
	out := make([]ival, len(vs))
	for i, v := range vs {
		out[i] = pointIval(v)
	}
	return out
}

// divIval bounds x / y for the nonzero values of y (zero is a runtime
// error): truncated division is monotone in each operand where the divisor
// keeps its sign, so the corners of each sign's part bound it.
func divIval(x, y ival) ival {
	r := ival{math.MaxInt64, math.MinInt64}
	part := func(lo, hi int64) {
		if lo > hi {
			return
		}
		for _, a := range []int64{x.lo, x.hi} {
			for _, b := range []int64{lo, hi} {
				v := a / b // MinInt64 / -1 is excluded by the caller
				r = ival{min(r.lo, v), max(r.hi, v)}
			}
		}
	}
	part(y.lo, min(y.hi, -1))
	part(max(y.lo, 1), y.hi)
	if r.lo > r.hi {
		return pointIval(0) // y is 0: always a runtime error
	}
	return r
}

// modIval bounds x % y: the remainder has x's sign, and its size is below
// |y| and at most |x|.
func modIval(x, y ival) ival {
	bound := max(absU(y.lo), absU(y.hi))
	if bound == 0 {
		return pointIval(0) // y is 0: always a runtime error
	}
	m := min(bound-1, max(absU(x.lo), absU(x.hi)))
	r := ival{0, 0}
	if x.lo < 0 {
		r.lo = -int64(m)
	}
	if x.hi > 0 {
		r.hi = int64(m)
	}
	return r
}

// absU is |v| as a uint64 (|MinInt64| fits).
func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// compareIval is a comparison on intervals: 0 or 1 where every pair of
// values decides it the same way, else both.
func compareIval(op lang.Op, x, y ival) ival {
	var yes, no bool // some pair makes it true, some false
	switch op {
	case lang.OpLt:
		yes, no = x.lo < y.hi, x.hi >= y.lo
	case lang.OpLe:
		yes, no = x.lo <= y.hi, x.hi > y.lo
	case lang.OpGt:
		yes, no = x.hi > y.lo, x.lo <= y.hi
	case lang.OpGe:
		yes, no = x.hi >= y.lo, x.lo < y.hi
	case lang.OpEq:
		yes, no = x.lo <= y.hi && y.lo <= x.hi, !(x.lo == x.hi && y.lo == y.hi && x.lo == y.lo)
	case lang.OpNe:
		no, yes = x.lo <= y.hi && y.lo <= x.hi, !(x.lo == x.hi && y.lo == y.hi && x.lo == y.lo)
	}
	switch {
	case yes && !no:
		return pointIval(1)
	case no && !yes:
		return pointIval(0)
	}
	return ival{0, 1}
}

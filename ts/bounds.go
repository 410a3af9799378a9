package ts

import (
	"math/big"

	"github.com/icgen/icgen/lang"
)

// interval is a range of integer values; nil bounds are unbounded.
type interval struct{ lo, hi *big.Int }

var (
	bigMin = big.NewInt(minInt)
	bigMax = big.NewInt(maxInt)
)

// boundsMemo computes the bounds of terms and remembers them: a term built
// step by step (x + 1 + 1 + ... in an unrolled loop) would otherwise be
// walked again at every step.
type boundsMemo struct {
	a    *Graph
	memo map[Ref]interval
}

func newBounds(g *Graph) *boundsMemo {
	return &boundsMemo{a: g, memo: map[Ref]interval{}}
}

// bounds over-approximates the values an integer term can take when every
// input is an int64 (params, globals, locals and array elements are).
func (m *boundsMemo) bounds(t Ref) interval {
	if b, ok := m.memo[t]; ok {
		return b
	}
	b := m.compute(t)
	m.memo[t] = b
	return b
}

func (m *boundsMemo) compute(t Ref) interval {
	a, bounds := m.a, m.bounds
	switch a.Kind(t) {
	case KConst:
		v := big.NewInt(a.Val(t))
		return interval{v, v}
	case KSym, KSelect:
		return interval{bigMin, bigMax}
	case KIte:
		x, y := bounds(a.Args(t)[1]), bounds(a.Args(t)[2])
		if x.lo == nil || x.hi == nil || y.lo == nil || y.hi == nil {
			return interval{}
		}
		return interval{minBig(x.lo, y.lo), maxBig(x.hi, y.hi)}
	case KOp:
		args := a.Args(t)
		switch a.Op(t) {
		case lang.OpNeg:
			x := bounds(args[0])
			return interval{neg(x.hi), neg(x.lo)}
		case lang.OpAdd, lang.OpSub:
			x, y := bounds(args[0]), bounds(args[1])
			if a.Op(t) == lang.OpSub {
				y = interval{neg(y.hi), neg(y.lo)}
			}
			return interval{add(x.lo, y.lo), add(x.hi, y.hi)}
		case lang.OpMul:
			x, y := bounds(args[0]), bounds(args[1])
			if x.lo == nil || x.hi == nil || y.lo == nil || y.hi == nil {
				return interval{}
			}
			ps := []*big.Int{mul(x.lo, y.lo), mul(x.lo, y.hi), mul(x.hi, y.lo), mul(x.hi, y.hi)}
			lo, hi := ps[0], ps[0]
			for _, p := range ps[1:] {
				lo, hi = minBig(lo, p), maxBig(hi, p)
			}
			return interval{lo, hi}
		}
	}
	return interval{}
}

// rangeGuards returns the conditions under which t fits in int64, leaving
// out the bounds t cannot cross.
func (m *boundsMemo) rangeGuards(t Ref) []Ref {
	b := m.bounds(t)
	var out []Ref
	if b.lo == nil || b.lo.Cmp(bigMin) < 0 {
		out = append(out, m.a.Binary(lang.OpLe, m.a.Int(minInt), t))
	}
	if b.hi == nil || b.hi.Cmp(bigMax) > 0 {
		out = append(out, m.a.Binary(lang.OpLe, t, m.a.Int(maxInt)))
	}
	return out
}

func neg(a *big.Int) *big.Int {
	if a == nil {
		return nil
	}
	return new(big.Int).Neg(a)
}

func add(a, b *big.Int) *big.Int {
	if a == nil || b == nil {
		return nil
	}
	return new(big.Int).Add(a, b)
}

func mul(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) > 0 {
		return a
	}
	return b
}

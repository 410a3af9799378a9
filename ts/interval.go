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

// boundsMemo remembers the bounds of terms: a term built step by step
// (x + 1 + 1 + ... in an unrolled loop) would otherwise be walked again at
// every step.
type boundsMemo map[*Term]interval

// bounds over-approximates the values an integer term can take when every
// input is an int64 (params, globals, locals and array elements are).
func (m boundsMemo) bounds(t *Term) interval {
	if b, ok := m[t]; ok {
		return b
	}
	b := m.compute(t)
	m[t] = b
	return b
}

func (m boundsMemo) compute(t *Term) interval {
	bounds := m.bounds
	switch t.Kind {
	case KConst:
		v := big.NewInt(t.Val)
		return interval{v, v}
	case KSym, KSelect:
		return interval{bigMin, bigMax}
	case KOp:
		switch t.Op {
		case lang.OpNeg:
			x := bounds(t.Args[0])
			return interval{neg(x.hi), neg(x.lo)}
		case lang.OpAdd, lang.OpSub:
			x, y := bounds(t.Args[0]), bounds(t.Args[1])
			if t.Op == lang.OpSub {
				y = interval{neg(y.hi), neg(y.lo)}
			}
			return interval{add(x.lo, y.lo), add(x.hi, y.hi)}
		case lang.OpMul:
			x, y := bounds(t.Args[0]), bounds(t.Args[1])
			if x.lo == nil || x.hi == nil || y.lo == nil || y.hi == nil {
				return interval{}
			}
			ps := []*big.Int{mul(x.lo, y.lo), mul(x.lo, y.hi), mul(x.hi, y.lo), mul(x.hi, y.hi)}
			lo, hi := ps[0], ps[0]
			for _, p := range ps[1:] {
				if p.Cmp(lo) < 0 {
					lo = p
				}
				if p.Cmp(hi) > 0 {
					hi = p
				}
			}
			return interval{lo, hi}
		}
	}
	return interval{}
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

// rangeGuards returns the conditions under which t fits in int64, leaving
// out the bounds t cannot cross.
func (m boundsMemo) rangeGuards(t *Term) []*Term {
	b := m.bounds(t)
	var out []*Term
	if b.lo == nil || b.lo.Cmp(bigMin) < 0 {
		out = append(out, Binary(lang.OpLe, Int(minInt), t))
	}
	if b.hi == nil || b.hi.Cmp(bigMax) > 0 {
		out = append(out, Binary(lang.OpLe, t, Int(maxInt)))
	}
	return out
}

func (x *mexec) bounds(r Ref) interval {
	if b, ok := x.bnd[r]; ok {
		return b
	}
	g := x.g
	var b interval
	switch g.Kind(r) {
	case KConst:
		v := big.NewInt(g.Val(r))
		b = interval{v, v}
	case KSym, KSelect:
		b = interval{bigMin, bigMax}
	case KIte:
		t, e := x.bounds(g.Args(r)[1]), x.bounds(g.Args(r)[2])
		if t.lo != nil && e.lo != nil && t.hi != nil && e.hi != nil {
			b = interval{minBig(t.lo, e.lo), maxBig(t.hi, e.hi)}
		}
	case KOp:
		args := g.Args(r)
		switch g.Op(r) {
		case lang.OpNeg:
			a := x.bounds(args[0])
			b = interval{neg(a.hi), neg(a.lo)}
		case lang.OpAdd, lang.OpSub:
			p, q := x.bounds(args[0]), x.bounds(args[1])
			if g.Op(r) == lang.OpSub {
				q = interval{neg(q.hi), neg(q.lo)}
			}
			b = interval{add(p.lo, q.lo), add(p.hi, q.hi)}
		case lang.OpMul:
			p, q := x.bounds(args[0]), x.bounds(args[1])
			if p.lo != nil && p.hi != nil && q.lo != nil && q.hi != nil {
				ps := []*big.Int{mul(p.lo, q.lo), mul(p.lo, q.hi), mul(p.hi, q.lo), mul(p.hi, q.hi)}
				lo, hi := ps[0], ps[0]
				for _, v := range ps[1:] {
					lo, hi = minBig(lo, v), maxBig(hi, v)
				}
				b = interval{lo, hi}
			}
		}
	}
	x.bnd[r] = b
	return b
}

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

func (x *mexec) rangeGuards(v Ref) []Ref {
	b := x.bounds(v)
	var out []Ref
	if b.lo == nil || b.lo.Cmp(bigMin) < 0 {
		out = append(out, x.g.Binary(lang.OpLe, x.g.Int(minInt), v))
	}
	if b.hi == nil || b.hi.Cmp(bigMax) > 0 {
		out = append(out, x.g.Binary(lang.OpLe, v, x.g.Int(maxInt)))
	}
	return out
}

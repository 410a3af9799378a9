package encode

import (
	"math"
	"math/bits"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Bound bounds one value a guard reads: a symbol (global, local, param),
// an element of an input array or the value of a loop function, as it is
// in the state the pair starts from. Lo and Hi are inclusive; a nil side
// is unbounded.
type Bound struct {
	Term   ts.Ref
	Lo, Hi *int64
}

// MaxBoxWork bounds the work of [IntervalGuard]'s search for wide bounds,
// in nodes evaluated: past it the bounds found so far are kept (they are
// proven; wider ones would only be tried). A count, not a time, so the
// guard is the same on every machine.
const MaxBoxWork = 1 << 23

// IntervalGuard finds bounds on the integer values that the guard root (a
// boolean term of g over the input symbols: an overflow guard) reads
// through arithmetic, such that root holds in every state where every
// value lies within its bounds. It proves that by evaluating root over
// intervals (interval arithmetic on the integer terms, three-valued logic
// on the boolean ones, every operation over mathematical integers): the
// bounds are returned only where that evaluation gives true, so the
// conjunction of the bounds implies root. ok is false where no bounds are
// found (root false somewhere in every box tried).
//
// The search starts from the widest box [-2^e, 2^e] shared by every value
// that root holds in (e at most 62), drops the sides of the box root does
// not need, then pushes each remaining side out as far as root allows,
// value by value in the order they are found (within [MaxBoxWork]): a
// counter that only grows gets one bound, its exact one when it is the
// only value added to.
func IntervalGuard(g *ts.Graph, root ts.Ref) (bounds []Bound, ok bool) {
	if g.IsTrue(root) {
		return nil, true
	}
	ev := newBoxEval(g, root)
	n := len(ev.inputs)
	box := make([]ival, n)
	uniform := func(e int) []ival {
		for i := range box {
			box[i] = ival{lo: -1 << e, hi: 1 << e}
		}
		return box
	}
	// The largest e that works: the box shrinks with e, and the
	// evaluation only gains definite answers as it does.
	best := -1
	if ev.holds(uniform(62)) {
		best = 62
	} else {
		lo, hi := 0, 61
		for lo <= hi {
			mid := (lo + hi) / 2
			if ev.holds(uniform(mid)) {
				best, lo = mid, mid+1
			} else {
				hi = mid - 1
			}
		}
	}
	switch {
	case best >= 0:
		uniform(best)
	case !grow(ev, box):
		return nil, false
	}
	for i := range box {
		for _, side := range []bool{false, true} {
			saved := box[i]
			if side {
				box[i].hiInf = true
			} else {
				box[i].loInf = true
			}
			if !ev.holds(box) {
				box[i] = saved
			}
		}
	}
	for i := range box {
		if !box[i].hiInf {
			box[i].hi = ev.widen(box, i, true)
		}
		if !box[i].loInf {
			box[i].lo = ev.widen(box, i, false)
		}
	}
	for i, in := range ev.inputs {
		b := Bound{Term: in}
		if !box[i].loInf {
			lo := box[i].lo
			b.Lo = &lo
		}
		if !box[i].hiInf {
			hi := box[i].hi
			b.Hi = &hi
		}
		if b.Lo != nil || b.Hi != nil {
			bounds = append(bounds, b)
		}
	}
	return bounds, true
}

// grow is the search for a box where no shared one is found (x + y and
// y + 9223372036854775807, where x must not be above 0): from the point
// 0 of every value, each side of each value is pushed out to 2^e in
// turn, e growing, as long as the guard holds. false: it does not hold
// at 0.
func grow(ev *boxEval, box []ival) bool {
	for i := range box {
		box[i] = point(0)
	}
	if !ev.holds(box) {
		return false
	}
	for e := 0; e <= 62 && ev.work < MaxBoxWork; e++ {
		moved := false
		for i := range box {
			for _, hi := range []bool{true, false} {
				saved := box[i]
				switch {
				case hi && box[i].hi == 1<<e>>1:
					box[i].hi = 1 << e
				case !hi && box[i].lo == -(1<<e>>1):
					box[i].lo = -1 << e
				default:
					continue
				}
				if ev.holds(box) {
					moved = true
				} else {
					box[i] = saved
				}
			}
		}
		if !moved {
			break
		}
	}
	return true
}

// ival is an interval of integers; loInf and hiInf make a side unbounded.
type ival struct {
	lo, hi       int64
	loInf, hiInf bool
}

func point(v int64) ival { return ival{lo: v, hi: v} }

var top = ival{loInf: true, hiInf: true}

// tri is a three-valued truth: unknown, true or false.
type tri uint8

const (
	unknownT tri = iota
	trueT
	falseT
)

func triOf(b bool) tri {
	if b {
		return trueT
	}
	return falseT
}

// boxEval evaluates a guard over boxes: its nodes in topological order,
// the inputs (the integer leaves) in the order they are first reached.
type boxEval struct {
	g      *ts.Graph
	nodes  []ts.Ref
	args   [][]int // by node: the positions of its arguments
	pos    map[ts.Ref]int
	inputs []ts.Ref
	input  map[ts.Ref]int
	ints   []ival
	bools  []tri
	work   int
}

func newBoxEval(g *ts.Graph, root ts.Ref) *boxEval {
	ev := &boxEval{g: g, pos: map[ts.Ref]int{}, input: map[ts.Ref]int{}}
	g.Reach(func(r ts.Ref) {
		ev.pos[r] = len(ev.nodes)
		ev.nodes = append(ev.nodes, r)
		if g.Sort(r) != ts.SortInt {
			return
		}
		switch g.Kind(r) {
		case ts.KSym, ts.KSelect, ts.KApply:
			ev.input[r] = len(ev.inputs)
			ev.inputs = append(ev.inputs, r)
		}
	}, root)
	ev.args = make([][]int, len(ev.nodes))
	for i, r := range ev.nodes {
		for _, a := range g.Args(r) {
			ev.args[i] = append(ev.args[i], ev.pos[a])
		}
	}
	ev.ints = make([]ival, len(ev.nodes))
	ev.bools = make([]tri, len(ev.nodes))
	return ev
}

// holds reports whether the guard is true in every state of the box.
func (ev *boxEval) holds(box []ival) bool {
	g := ev.g
	ev.work += len(ev.nodes)
	for i, r := range ev.nodes {
		args := ev.args[i]
		in := func(k int) ival { return ev.ints[args[k]] }
		b := func(k int) tri { return ev.bools[args[k]] }
		if g.Sort(r) == ts.SortInt {
			var v ival
			switch g.Kind(r) {
			case ts.KConst:
				v = point(g.Val(r))
			case ts.KSym, ts.KSelect, ts.KApply:
				v = box[ev.input[r]]
			case ts.KIte:
				switch b(0) {
				case trueT:
					v = in(1)
				case falseT:
					v = in(2)
				default:
					v = hull(in(1), in(2))
				}
			case ts.KDiv:
				v = quo(in(0))
			case ts.KMod:
				v = rem(in(0), in(1))
			case ts.KOp:
				switch g.Op(r) {
				case lang.OpNeg:
					v = negI(in(0))
				case lang.OpAdd:
					v = addI(in(0), in(1))
				case lang.OpSub:
					v = addI(in(0), negI(in(1)))
				case lang.OpMul:
					v = mulI(in(0), in(1))
				default:
					v = top
				}
			default:
				v = top
			}
			ev.ints[i] = v
			continue
		}
		var t tri
		switch g.Kind(r) {
		case ts.KConst:
			t = triOf(g.Val(r) != 0)
		case ts.KOp:
			switch op := g.Op(r); op {
			case lang.OpNot:
				t = [...]tri{unknownT, falseT, trueT}[b(0)]
			case lang.OpAnd, lang.OpOr:
				unit, zero := trueT, falseT
				if op == lang.OpOr {
					unit, zero = falseT, trueT
				}
				t = unit
				for k := range args {
					switch b(k) {
					case zero:
						t = zero
					case unknownT:
						if t == unit {
							t = unknownT
						}
					}
					if t == zero {
						break
					}
				}
			case lang.OpLt, lang.OpLe, lang.OpGt, lang.OpGe, lang.OpEq, lang.OpNe:
				switch g.Sort(g.Args(r)[0]) {
				case ts.SortInt:
					t = compare(op, in(0), in(1))
				case ts.SortBool:
					if x, y := b(0), b(1); x != unknownT && y != unknownT {
						switch op {
						case lang.OpEq:
							t = triOf(x == y)
						case lang.OpNe:
							t = triOf(x != y)
						}
					}
				}
			}
		}
		ev.bools[i] = t
	}
	return ev.bools[len(ev.nodes)-1] == trueT
}

// widen returns the farthest side (hi or lo) of input i's interval within
// which the guard still holds, the rest of box fixed, by bisection from
// the side it has; within MaxBoxWork.
func (ev *boxEval) widen(box []ival, i int, hi bool) int64 {
	cur := box[i].lo
	if hi {
		cur = box[i].hi
	}
	set := func(v int64) {
		if hi {
			box[i].hi = v
		} else {
			box[i].lo = v
		}
	}
	far := int64(math.MinInt64)
	if hi {
		far = math.MaxInt64
	}
	// cur holds; search (cur, far] for the last value that holds.
	good, bad := cur, far
	set(far)
	if ev.work < MaxBoxWork && ev.holds(box) {
		good = far
	} else {
		for good != bad && ev.work < MaxBoxWork {
			mid := good + (bad-good)/2
			if mid == good {
				break
			}
			set(mid)
			if ev.holds(box) {
				good = mid
			} else {
				bad = mid
			}
		}
	}
	set(good)
	return good
}

func hull(a, b ival) ival {
	return ival{lo: min(a.lo, b.lo), hi: max(a.hi, b.hi), loInf: a.loInf || b.loInf, hiInf: a.hiInf || b.hiInf}
}

// negI is -a; -MinInt64 leaves int64 (the side becomes unbounded: the
// intervals only ever grow where int64 cannot hold them).
func negI(a ival) ival {
	v := ival{loInf: a.hiInf, hiInf: a.loInf}
	if !a.hiInf {
		if a.hi == math.MinInt64 {
			v.loInf = false
			v.lo, v.hiInf = math.MaxInt64, true // -MinInt64 is 2^63, above int64

		} else {
			v.lo = -a.hi
		}
	}
	if !a.loInf {
		if a.lo == math.MinInt64 {
			v.hiInf = true
		} else {
			v.hi = -a.lo
		}
	}
	return v
}

func addI(a, b ival) ival {
	v := ival{loInf: a.loInf || b.loInf, hiInf: a.hiInf || b.hiInf}
	if !v.loInf {
		s, over := add64(a.lo, b.lo)
		if over {
			v.loInf = true
		} else {
			v.lo = s
		}
	}
	if !v.hiInf {
		s, over := add64(a.hi, b.hi)
		if over {
			v.hiInf = true
		} else {
			v.hi = s
		}
	}
	return v
}

func add64(x, y int64) (int64, bool) {
	s := x + y
	return s, (x >= 0) == (y >= 0) && (s >= 0) != (x >= 0)
}

// mul64 is x * y and whether it leaves int64.
func mul64(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, false
	}
	neg := (x < 0) != (y < 0)
	ux, uy := abs64(x), abs64(y)
	h, l := bits.Mul64(ux, uy)
	if h != 0 {
		return 0, true
	}
	if neg {
		if l > 1<<63 {
			return 0, true
		}
		return int64(-l), false
	}
	if l > math.MaxInt64 {
		return 0, true
	}
	return int64(l), false
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x) // -MinInt64 wraps to itself, read as 2^63
	}
	return uint64(x)
}

func mulI(a, b ival) ival {
	if a == point(0) || b == point(0) {
		return point(0)
	}
	if a.loInf || a.hiInf || b.loInf || b.hiInf {
		return top
	}
	v := ival{lo: math.MaxInt64, hi: math.MinInt64}
	for _, x := range []int64{a.lo, a.hi} {
		for _, y := range []int64{b.lo, b.hi} {
			p, over := mul64(x, y)
			switch {
			case over && (x < 0) != (y < 0):
				v.loInf = true
			case over:
				v.hiInf = true
			default:
				v.lo, v.hi = min(v.lo, p), max(v.hi, p)
			}
		}
	}
	return v
}

// quo bounds a truncated quotient of a by a divisor that is not 0: it is
// no farther from 0 than a.
func quo(a ival) ival {
	m, ok := magnitude(a)
	if !ok {
		return top
	}
	return ival{lo: -m, hi: m}
}

// rem bounds a truncated remainder of a by b (b not 0): no farther from 0
// than a, nearer than b, and of a's sign.
func rem(a, b ival) ival {
	ma, okA := magnitude(a)
	mb, okB := magnitude(b)
	m := int64(math.MaxInt64)
	switch {
	case okA && okB:
		m = min(ma, mb-1)
	case okA:
		m = ma
	case okB:
		m = mb - 1
	}
	v := ival{lo: -m, hi: m}
	if !a.loInf && a.lo >= 0 {
		v.lo = 0
	}
	if !a.hiInf && a.hi <= 0 {
		v.hi = 0
	}
	return v
}

// magnitude is the largest |x| over a, when it fits int64.
func magnitude(a ival) (int64, bool) {
	if a.loInf || a.hiInf || a.lo == math.MinInt64 {
		return 0, false
	}
	return max(a.hi, -a.lo, 0), true
}

// compare decides x op y over intervals where it can.
func compare(op lang.Op, x, y ival) tri {
	// lt: every x below every y; ge: none.
	below := func(x, y ival) bool { return !x.hiInf && !y.loInf && x.hi < y.lo }
	atMost := func(x, y ival) bool { return !x.hiInf && !y.loInf && x.hi <= y.lo }
	switch op {
	case lang.OpLt:
		switch {
		case below(x, y):
			return trueT
		case atMost(y, x):
			return falseT
		}
	case lang.OpLe:
		switch {
		case atMost(x, y):
			return trueT
		case below(y, x):
			return falseT
		}
	case lang.OpGt:
		return compare(lang.OpLt, y, x)
	case lang.OpGe:
		return compare(lang.OpLe, y, x)
	case lang.OpEq, lang.OpNe:
		eq := unknownT
		switch {
		case below(x, y) || below(y, x):
			eq = falseT
		case x == y && !x.loInf && !x.hiInf && x.lo == x.hi:
			eq = trueT
		}
		if op == lang.OpNe && eq != unknownT {
			return triOf(eq == falseT)
		}
		return eq
	}
	return unknownT
}

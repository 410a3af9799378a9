package encode

import (
	"math"
	"math/bits"
	"slices"

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
	sides := make([]side, 0, 2*n)
	for i := range box {
		sides = append(sides, side{i, false}, side{i, true})
	}
	ev.drop(box, sides)
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

// side is one side of one value's interval: hi or lo.
type side struct {
	i  int
	hi bool
}

// drop unbounds, in order, each side of sides that the guard does not
// need: a side is dropped where the guard holds with it and the sides
// dropped before it unbounded. It tries whole runs of sides at once and
// splits a run only where it fails: the guard holds on a box wherever it
// holds on a wider one, so the sides dropped are those of dropping them
// one by one, and the evaluations are few where few sides are needed.
func (ev *boxEval) drop(box []ival, sides []side) {
	if len(sides) == 0 {
		return
	}
	saved := slices.Clone(box)
	for _, s := range sides {
		if s.hi {
			box[s.i].hiInf = true
		} else {
			box[s.i].loInf = true
		}
	}
	if ev.holds(box) {
		return
	}
	copy(box, saved)
	if len(sides) > 1 {
		h := len(sides) / 2
		ev.drop(box, sides[:h])
		ev.drop(box, sides[h:])
	}
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
	g       *ts.Graph
	nodes   []ts.Ref
	args    [][]int // by node: the positions of its arguments
	pos     map[ts.Ref]int
	inputs  []ts.Ref
	input   map[ts.Ref]int
	inputAt []int  // by node: its index in inputs
	edge    []bool // by node: a comparison with 9223372036854775807 or -9223372036854775808
	ints    []ival // by node, over the box of the last holds
	bools   []tri
	box     []ival
	work    int

	// under's evaluation: by node, its value where it was last visited
	// and the visit's stamp.
	subInts  []ival
	subBools []tri
	seen     []uint32
	stamp    uint32

	// The narrowing in force (see assume): by node, its interval where
	// narrowed[n] is the narrowing's mark; first, its first node.
	narrowedTo []ival
	narrowed   []uint32
	mark       uint32
	first      int
}

// fresh starts a narrowing of no node.
func (ev *boxEval) fresh() {
	ev.mark++
	ev.first = len(ev.nodes)
}

func (ev *boxEval) topInt(n int) ival { return ev.ints[n] }
func (ev *boxEval) topBool(n int) tri { return ev.bools[n] }

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
	ev.edge = make([]bool, len(ev.nodes))
	ev.inputAt = make([]int, len(ev.nodes))
	for i, r := range ev.nodes {
		ev.inputAt[i] = ev.input[r]
		for _, a := range g.Args(r) {
			ev.args[i] = append(ev.args[i], ev.pos[a])
			if _, cmp := ts.Negation(g.Op(r)); g.Kind(r) == ts.KOp && cmp && g.Kind(a) == ts.KConst &&
				(g.Val(a) == math.MaxInt64 || g.Val(a) == math.MinInt64) {
				ev.edge[i] = true
			}
		}
	}
	ev.ints = make([]ival, len(ev.nodes))
	ev.bools = make([]tri, len(ev.nodes))
	ev.subInts = make([]ival, len(ev.nodes))
	ev.subBools = make([]tri, len(ev.nodes))
	ev.seen = make([]uint32, len(ev.nodes))
	ev.narrowedTo = make([]ival, len(ev.nodes))
	ev.narrowed = make([]uint32, len(ev.nodes))
	return ev
}

// holds reports whether the guard is true in every state of the box.
//
// One pass over the nodes in topological order, where a condition the
// box leaves open narrows what it guards: the branches of an ite are
// evaluated in the part of the box where its condition holds and where it
// does not (ite(x > 0, x, x + 1) stays within x's interval where x is
// not above 0), and a disjunct where the others are false (x > 0 || x +
// 1 <= 9223372036854775807 holds whatever x is). That is what keeps an
// update under a branch (if (g > 3) { ... } else { g = g + 1; }) from
// needing a bound on g.
func (ev *boxEval) holds(box []ival) bool {
	ev.box = box
	ev.work += len(ev.nodes)
	for i, r := range ev.nodes {
		v, t := ev.plain(i, ev.topInt, ev.topBool)
		if args := ev.args[i]; ev.g.Kind(r) == ts.KIte && ev.bools[args[0]] == unknownT {
			v = ev.branches(i, v)
		} else if t == unknownT && ev.g.Kind(r) == ts.KOp && ev.g.Op(r) == lang.OpOr && ev.disjunct(i) {
			t = trueT
		}
		ev.ints[i], ev.bools[i] = v, t
	}
	return ev.bools[len(ev.nodes)-1] == trueT
}

// plain evaluates node i from the values of its arguments (ints and
// bools give them by node), without narrowing: an integer node's interval, a boolean node's
// truth.
func (ev *boxEval) plain(i int, ints func(int) ival, bools func(int) tri) (ival, tri) {
	g, r, args := ev.g, ev.nodes[i], ev.args[i]
	in := func(k int) ival { return ints(args[k]) }
	b := func(k int) tri { return bools(args[k]) }
	if g.Sort(r) == ts.SortInt {
		switch g.Kind(r) {
		case ts.KConst:
			return point(g.Val(r)), unknownT
		case ts.KSym, ts.KSelect, ts.KApply:
			return ev.box[ev.inputAt[i]], unknownT
		case ts.KIte:
			switch b(0) {
			case trueT:
				return in(1), unknownT
			case falseT:
				return in(2), unknownT
			}
			return hull(in(1), in(2)), unknownT
		case ts.KDiv:
			return quo(in(0)), unknownT
		case ts.KMod:
			return rem(in(0), in(1)), unknownT
		case ts.KOp:
			switch g.Op(r) {
			case lang.OpNeg:
				return negI(in(0)), unknownT
			case lang.OpAdd:
				return addI(in(0), in(1)), unknownT
			case lang.OpSub:
				return addI(in(0), negI(in(1))), unknownT
			case lang.OpMul:
				return mulI(in(0), in(1)), unknownT
			}
		}
		return top, unknownT
	}
	switch g.Kind(r) {
	case ts.KConst:
		return ival{}, triOf(g.Val(r) != 0)
	case ts.KOp:
		switch op := g.Op(r); op {
		case lang.OpNot:
			return ival{}, [...]tri{unknownT, falseT, trueT}[b(0)]
		case lang.OpAnd, lang.OpOr:
			unit, zero := trueT, falseT
			if op == lang.OpOr {
				unit, zero = falseT, trueT
			}
			t := unit
			for k := range args {
				switch b(k) {
				case zero:
					return ival{}, zero
				case unknownT:
					t = unknownT
				}
			}
			return ival{}, t
		case lang.OpLt, lang.OpLe, lang.OpGt, lang.OpGe, lang.OpEq, lang.OpNe:
			switch g.Sort(g.Args(r)[0]) {
			case ts.SortInt:
				return ival{}, compare(op, in(0), in(1))
			case ts.SortBool:
				if x, y := b(0), b(1); x != unknownT && y != unknownT {
					switch op {
					case lang.OpEq:
						return ival{}, triOf(x == y)
					case lang.OpNe:
						return ival{}, triOf(x != y)
					}
				}
			}
		}
	}
	return ival{}, unknownT
}

// branches narrows the interval v of ite node i, whose condition the box
// leaves open, to the hull of its branches, each evaluated where the
// condition takes it; a branch no state of the box takes adds nothing.
func (ev *boxEval) branches(i int, v ival) ival {
	args := ev.args[i]
	var w ival
	seen := false
	for k, want := range []bool{true, false} {
		ev.fresh()
		if !ev.assume(args[0], want) {
			continue
		}
		x, _ := ev.under(args[1+k])
		if seen {
			x = hull(w, x)
		}
		w, seen = x, true
	}
	if !seen {
		return v
	}
	if m, ok := meet(v, w); ok {
		return m
	}
	return v
}

// disjunct reports whether or node i holds because one of its disjuncts
// holds wherever every other one is false.
func (ev *boxEval) disjunct(i int) bool {
	args := ev.args[i]
	// The disjuncts tried: the range atoms (x <= 9223372036854775807)
	// where there are, the others only where there are none: a range
	// atom is what a branch's condition makes hold.
	edges := slices.ContainsFunc(args, func(a int) bool { return ev.bools[a] == unknownT && ev.edge[a] })
	for j, a := range args {
		if ev.bools[a] != unknownT || edges && !ev.edge[a] {
			continue
		}
		ev.fresh()
		feasible := true
		for k, o := range args {
			if k != j && !ev.assume(o, false) {
				feasible = false
				break
			}
		}
		if !feasible {
			return true
		}
		if _, t := ev.under(a); t == trueT {
			return true
		}
	}
	return false
}

// assume narrows, in the narrowing in force, the intervals of the integer nodes that
// condition c bounds where it is want: the sides of a comparison, through
// negation, addition and subtraction of a constant, and the conjuncts of
// a conjunction taken true (disjuncts of a disjunction taken false).
// false: no state of the box takes c that way.
func (ev *boxEval) assume(c int, want bool) bool {
	if t := ev.bools[c]; t != unknownT {
		return (t == trueT) == want
	}
	g, r, args := ev.g, ev.nodes[c], ev.args[c]
	if g.Kind(r) != ts.KOp {
		return true
	}
	op := g.Op(r)
	switch op {
	case lang.OpNot:
		return ev.assume(args[0], !want)
	case lang.OpAnd, lang.OpOr:
		if (op == lang.OpAnd) != want {
			return true // a disjunction taken true bounds no one value
		}
		for _, a := range args {
			if !ev.assume(a, want) {
				return false
			}
		}
		return true
	case lang.OpLt, lang.OpLe, lang.OpGt, lang.OpGe, lang.OpEq, lang.OpNe:
		if g.Sort(g.Args(r)[0]) != ts.SortInt {
			return true
		}
	default:
		return true
	}
	if !want {
		op, _ = ts.Negation(op)
	}
	x, y := args[0], args[1]
	switch op {
	case lang.OpGt:
		x, y, op = y, x, lang.OpLt
	case lang.OpGe:
		x, y, op = y, x, lang.OpLe
	}
	vx, vy := ev.current(x), ev.current(y)
	switch op {
	case lang.OpLt, lang.OpLe:
		// x <= y - d: x at most y's top, y at least x's bottom.
		d := int64(0)
		if op == lang.OpLt {
			d = 1
		}
		return ev.narrow(x, ival{loInf: true, hi: vy.hi - d, hiInf: vy.hiInf || (d == 1 && vy.hi == math.MinInt64)}) &&
			ev.narrow(y, ival{lo: vx.lo + d, loInf: vx.loInf || (d == 1 && vx.lo == math.MaxInt64), hiInf: true})
	case lang.OpEq:
		return ev.narrow(x, vy) && ev.narrow(y, vx)
	}
	return true
}

// current is node n's interval as narrowed so far.
func (ev *boxEval) current(n int) ival {
	if ev.narrowed[n] == ev.mark {
		return ev.narrowedTo[n]
	}
	return ev.ints[n]
}

// narrow intersects node n's interval with w, and the interval of t where
// n is t + c, t - c or -t; false: the intersection is empty.
func (ev *boxEval) narrow(n int, w ival) bool {
	cur := ev.current(n)
	v, ok := meet(cur, w)
	if !ok {
		return false
	}
	if v == cur {
		return true
	}
	ev.narrowedTo[n], ev.narrowed[n], ev.first = v, ev.mark, min(ev.first, n)
	g, r, args := ev.g, ev.nodes[n], ev.args[n]
	if g.Kind(r) != ts.KOp {
		return true
	}
	switch g.Op(r) {
	case lang.OpNeg:
		return ev.narrow(args[0], negI(v))
	case lang.OpAdd, lang.OpSub:
		for k := range 2 {
			c := ev.ints[args[1-k]]
			if c.loInf || c.hiInf || c.lo != c.hi || (g.Op(r) == lang.OpSub && k == 1) {
				continue
			}
			if g.Op(r) == lang.OpAdd {
				c = negI(c)
			}
			// n = t + c: t = n - c; n = t - c: t = n + c.
			return ev.narrow(args[k], addI(v, c))
		}
	}
	return true
}

// meet is the intersection of a and b; false where it is empty.
func meet(a, b ival) (ival, bool) {
	v := a
	if !b.loInf && (v.loInf || b.lo > v.lo) {
		v.lo, v.loInf = b.lo, false
	}
	if !b.hiInf && (v.hiInf || b.hi < v.hi) {
		v.hi, v.hiInf = b.hi, false
	}
	return v, v.loInf || v.hiInf || v.lo <= v.hi
}

// under evaluates node target where the nodes narrowed lie within their
// intervals: the nodes between the first of them and target are
// evaluated again, each within its interval over the whole box.
func (ev *boxEval) under(target int) (ival, tri) {
	first := min(ev.first, target)
	ev.stamp++
	sub := func(n int) bool { return n >= first && ev.seen[n] == ev.stamp }
	ints := func(n int) ival {
		if sub(n) {
			return ev.subInts[n]
		}
		return ev.ints[n]
	}
	bools := func(n int) tri {
		if sub(n) {
			return ev.subBools[n]
		}
		return ev.bools[n]
	}
	var visit func(n int)
	visit = func(n int) {
		if n < first || ev.seen[n] == ev.stamp {
			return
		}
		// Lazily: an ite's branch its condition rules out, and the
		// arguments of a junction after one that decides it, keep
		// their values over the whole box.
		args := ev.args[n]
		switch r := ev.nodes[n]; {
		case ev.g.Kind(r) == ts.KIte:
			visit(args[0])
			switch bools(args[0]) {
			case trueT:
				visit(args[1])
			case falseT:
				visit(args[2])
			default:
				visit(args[1])
				visit(args[2])
			}
		case ev.g.Kind(r) == ts.KOp && (ev.g.Op(r) == lang.OpAnd || ev.g.Op(r) == lang.OpOr):
			zero := triOf(ev.g.Op(r) == lang.OpOr)
			for _, a := range args {
				if visit(a); bools(a) == zero {
					break
				}
			}
		default:
			for _, a := range args {
				visit(a)
			}
		}
		ev.work++
		v, t := ev.plain(n, ints, bools)
		if w, ok := meet(v, ev.ints[n]); ok {
			v = w
		}
		if ev.narrowed[n] == ev.mark {
			if m, ok := meet(v, ev.narrowedTo[n]); ok {
				v = m
			}
		}
		if ev.bools[n] != unknownT {
			t = ev.bools[n]
		}
		ev.subInts[n], ev.subBools[n], ev.seen[n] = v, t, ev.stamp
	}
	visit(target)
	return ints(target), bools(target)
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

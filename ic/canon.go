package ic

import (
	"math"
	"math/big"
	"sort"
)

// Canon returns the canonical form of a constraint: a conjunction of atoms,
// each rewritten as a linear relation over its non-linear parts with
// integer tightening (z + 1 < 0 becomes z <= -2, x + 1 == z + 1 becomes
// x == z), non-strict except for positivity (t >= 1 is written t > 0),
// the terms with positive coefficients on the left, literals sorted by
// text, duplicates removed. Canon keeps the
// meaning over the integers; it returns false for an atom that can never
// hold (2*x == 1) and drops atoms that always hold.
func Canon(e *Expr) *Expr {
	var lits []*Expr
	var add func(x *Expr) bool
	add = func(x *Expr) bool {
		switch {
		case x.Op == "&&":
			for _, a := range x.Args {
				if !add(a) {
					return false
				}
			}
			return true
		case x.Op == "true":
			return true
		case x.Op == "false":
			return false
		}
		c := canonAtom(x)
		switch c.Op {
		case "true":
			return true
		case "false":
			return false
		}
		lits = append(lits, c)
		return true
	}
	if !add(e) {
		return &Expr{Op: "false"}
	}
	seen := map[string]bool{}
	var uniq []*Expr
	for _, l := range lits {
		if s := l.String(); !seen[s] {
			seen[s] = true
			uniq = append(uniq, l)
		}
	}
	out := ranges(uniq)
	switch len(out) {
	case 0:
		return &Expr{Op: "true"}
	case 1:
		return out[0]
	}
	return &Expr{Op: "&&", Args: out}
}

// linear is sum(coef[k] * term[k]) + k0 over opaque terms keyed by text.
type linear struct {
	coef  map[string]*big.Int
	terms map[string]*Expr
	k     *big.Int
}

func newLinear() *linear {
	return &linear{coef: map[string]*big.Int{}, terms: map[string]*Expr{}, k: new(big.Int)}
}

// addExpr adds m*e to l; ok is false when e is not an integer expression
// it can read linearly (then the atom is left alone).
func (l *linear) addExpr(e *Expr, m *big.Int) {
	switch e.Op {
	case "int":
		l.k.Add(l.k, new(big.Int).Mul(m, big.NewInt(*e.Value)))
		return
	case "+":
		for _, a := range e.Args {
			l.addExpr(a, m)
		}
		return
	case "-":
		if len(e.Args) == 1 {
			l.addExpr(e.Args[0], new(big.Int).Neg(m))
			return
		}
		l.addExpr(e.Args[0], m)
		for _, a := range e.Args[1:] {
			l.addExpr(a, new(big.Int).Neg(m))
		}
		return
	case "*":
		var c = big.NewInt(1)
		var rest []*Expr
		for _, a := range e.Args {
			if a.Op == "int" {
				c.Mul(c, big.NewInt(*a.Value))
			} else {
				rest = append(rest, a)
			}
		}
		switch len(rest) {
		case 0:
			l.k.Add(l.k, new(big.Int).Mul(m, c))
			return
		case 1:
			l.addExpr(rest[0], new(big.Int).Mul(m, c))
			return
		}
		l.addTerm(&Expr{Op: "*", Args: rest}, new(big.Int).Mul(m, c))
		return
	}
	l.addTerm(e, m)
}

func (l *linear) addTerm(e *Expr, m *big.Int) {
	e = canonInside(e)
	key := e.String()
	if _, ok := l.coef[key]; !ok {
		l.coef[key] = new(big.Int)
		l.terms[key] = e
	}
	l.coef[key].Add(l.coef[key], m)
	if l.coef[key].Sign() == 0 {
		delete(l.coef, key)
		delete(l.terms, key)
	}
}

var negOp = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
var flipOp = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}

// canonAtom normalizes one literal.
func canonAtom(e *Expr) *Expr {
	if e.Op == "!" {
		inner := e.Args[0]
		if op, ok := negOp[inner.Op]; ok && isIntRel(inner) {
			return canonAtom(&Expr{Op: op, Args: inner.Args})
		}
		if inner.Op == "!" {
			return canonAtom(inner.Args[0])
		}
		c := canonAtom(inner)
		switch c.Op {
		case "true":
			return &Expr{Op: "false"}
		case "false":
			return &Expr{Op: "true"}
		}
		if op, ok := negOp[c.Op]; ok && isIntRel(c) {
			return &Expr{Op: op, Args: c.Args}
		}
		return &Expr{Op: "!", Args: []*Expr{c}}
	}
	if (e.Op == "==" || e.Op == "!=") && len(e.Args) == 2 {
		// b == true is b, b == false is !b (and != the other way round).
		for k, c := range e.Args {
			if c.Op == "true" || c.Op == "false" {
				other := e.Args[1-k]
				if (c.Op == "true") == (e.Op == "==") {
					return canonAtom(other)
				}
				return canonAtom(&Expr{Op: "!", Args: []*Expr{other}})
			}
		}
	}
	if !isIntRel(e) {
		return e
	}
	// A coefficient or a constant beyond int64 (x * 2 * ... * 2, 63
	// times, is 2^63 * x) cannot be written: the atom stays as it is.
	if c := linearRel(e); representable(c) {
		return c
	}
	return e
}

// linearRel writes an integer relation as a linear one over its
// non-linear parts (see Canon); a literal beyond int64 in the result has
// no value (see bigInt).
func linearRel(e *Expr) *Expr {
	// lhs - rhs op 0
	l := newLinear()
	l.addExpr(e.Args[0], big.NewInt(1))
	l.addExpr(e.Args[1], big.NewInt(-1))
	op := e.Op
	// Strict to non-strict over the integers: s < 0 is s + 1 <= 0; s > 0 is s - 1 >= 0.
	switch op {
	case "<":
		l.k.Add(l.k, big.NewInt(1))
		op = "<="
	case ">":
		l.k.Sub(l.k, big.NewInt(1))
		op = ">="
	}
	if len(l.coef) == 0 {
		c := l.k.Sign()
		holds := map[string]bool{"<=": c <= 0, ">=": c >= 0, "==": c == 0, "!=": c != 0}[op]
		if holds {
			return &Expr{Op: "true"}
		}
		return &Expr{Op: "false"}
	}
	// Params go last, so bounds read count + 1 <= SIZE rather than SIZE >= count + 1.
	keys := l.sortedKeys()
	// Divide by the gcd of the coefficients, tightening the constant.
	g := new(big.Int)
	for _, k := range keys {
		g.GCD(nil, nil, g, new(big.Int).Abs(l.coef[k]))
	}
	if g.Cmp(big.NewInt(1)) > 0 {
		for _, k := range keys {
			l.coef[k].Quo(l.coef[k], g)
		}
		switch op {
		case "==", "!=":
			if new(big.Int).Rem(l.k, g).Sign() != 0 { // no integer solution of the equality
				if op == "==" {
					return &Expr{Op: "false"}
				}
				return &Expr{Op: "true"}
			}
			l.k.Quo(l.k, g)
		case "<=": // s + k <= 0  <=>  s <= -k  <=>  s <= floor(-k/g)  (s divided by g)
			l.k.Neg(floorDiv(new(big.Int).Neg(l.k), g))
		case ">=": // s >= -k  <=>  s >= ceil(-k/g)
			l.k.Neg(ceilDiv(new(big.Int).Neg(l.k), g))
		}
	}
	// Orient: the first term (by text) gets a positive coefficient.
	if l.coef[keys[0]].Sign() < 0 {
		for _, k := range keys {
			l.coef[k].Neg(l.coef[k])
		}
		l.k.Neg(l.k)
		op = flipOp[op]
	}
	// Positive terms on the left, negative terms and the constant on the right.
	var lhs, rhs []*Expr
	for _, k := range keys {
		c := l.coef[k]
		t := l.terms[k]
		if c.Sign() > 0 {
			lhs = append(lhs, scaled(c, t))
		} else {
			rhs = append(rhs, scaled(new(big.Int).Neg(c), t))
		}
	}
	rk := new(big.Int).Neg(l.k)
	if rk.Sign() != 0 || len(rhs) == 0 {
		if rk.Sign() < 0 && len(rhs) > 0 {
			lhs = append(lhs, bigInt(new(big.Int).Neg(rk)))
		} else {
			rhs = append(rhs, bigInt(rk))
		}
	}
	// Positivity reads better as t > 0 than as t >= 1 (the papers' nr > 0).
	if op == ">=" && len(rhs) == 1 && rhs[0].Op == "int" && rhs[0].Value != nil && *rhs[0].Value == 1 {
		return &Expr{Op: ">", Args: []*Expr{sum(lhs), Int(0)}}
	}
	return &Expr{Op: op, Args: []*Expr{sum(lhs), sum(rhs)}}
}

func isIntRel(e *Expr) bool {
	if _, ok := negOp[e.Op]; !ok || len(e.Args) != 2 {
		return false
	}
	return isIntExpr(e.Args[0]) && isIntExpr(e.Args[1])
}

// isIntExpr reports whether e is integer-valued (not a boolean).
func isIntExpr(e *Expr) bool {
	switch e.Op {
	case "int", "+", "-", "*", "div", "mod", "/", "%", "select", "param", "global", "local", "apply":
		return true
	case "ite":
		return isIntExpr(e.Args[1])
	}
	return false
}

func bigInt(v *big.Int) *Expr {
	if v.IsInt64() {
		return Int(v.Int64())
	}
	return &Expr{Op: "int", Value: nil} // not representable: caught by the caller's checks
}

func scaled(c *big.Int, t *Expr) *Expr {
	if c.Cmp(big.NewInt(1)) == 0 {
		return t
	}
	return &Expr{Op: "*", Args: []*Expr{bigInt(c), t}}
}

func sum(es []*Expr) *Expr {
	if len(es) == 1 {
		return es[0]
	}
	return &Expr{Op: "+", Args: es}
}

func floorDiv(a, b *big.Int) *big.Int {
	q, m := new(big.Int).DivMod(a, b, new(big.Int)) // Euclidean; b > 0 so this is floor
	_ = m
	return q
}

func ceilDiv(a, b *big.Int) *big.Int {
	q := floorDiv(a, b)
	if new(big.Int).Mul(q, b).Cmp(a) != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// canonInside normalizes the integer arguments of an opaque term (an array
// index, a function argument, the operands of a division or a non-linear
// product) as linear sums, so that a[i - 1 - 1] reads a[i - 2] and is the
// same term as a[i - 2].
func canonInside(e *Expr) *Expr {
	switch e.Op {
	case "select", "apply", "div", "mod", "/", "%", "*":
	default:
		return e
	}
	var args []*Expr
	for i, a := range e.Args {
		c := a
		if a.Sort == "" && isIntExpr(a) {
			c = canonInt(a)
		}
		if c != a && args == nil {
			args = append(make([]*Expr, 0, len(e.Args)), e.Args[:i]...)
		}
		if args != nil {
			args = append(args, c)
		}
	}
	if args == nil {
		return e
	}
	n := *e
	n.Args = args
	return &n
}

// canonInt writes an integer expression as a linear sum: the terms with
// positive coefficients first (by text, params last), then those
// subtracted, then the constant (i - 1 - 1 is i - 2, 1 + v - 1 is v).
// It returns e itself when the sum has a coefficient beyond int64.
func canonInt(e *Expr) *Expr {
	l := newLinear()
	l.addExpr(e, big.NewInt(1))
	keys := l.sortedKeys()
	var out *Expr
	add := func(t *Expr, minus bool) {
		switch {
		case out == nil && minus:
			out = &Expr{Op: "-", Args: []*Expr{t}}
		case out == nil:
			out = t
		case minus:
			out = &Expr{Op: "-", Args: []*Expr{out, t}}
		default:
			out = &Expr{Op: "+", Args: []*Expr{out, t}}
		}
	}
	for _, pos := range []bool{true, false} {
		for _, k := range keys {
			c := l.coef[k]
			if (c.Sign() > 0) != pos {
				continue
			}
			if !pos && out == nil && l.k.Sign() > 0 {
				add(bigInt(l.k), false) // 1 - i rather than -i + 1
				l.k = new(big.Int)
			}
			add(scaled(new(big.Int).Abs(c), l.terms[k]), !pos)
		}
	}
	switch {
	case l.k.Sign() > 0:
		add(bigInt(l.k), false)
	case l.k.Sign() < 0:
		add(bigInt(new(big.Int).Neg(l.k)), true)
	case out == nil:
		out = Int(0)
	}
	if !representable(out) {
		return e
	}
	return out
}

// representable reports whether every literal of e fits int64 (bigInt
// marks one that does not with a nil Value).
func representable(e *Expr) bool {
	if e.Op == "int" && e.Value == nil {
		return false
	}
	for _, a := range e.Args {
		if !representable(a) {
			return false
		}
	}
	return true
}

// sortedKeys returns the terms' keys by text, params last.
func (l *linear) sortedKeys() []string {
	keys := make([]string, 0, len(l.coef))
	for k := range l.coef {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		pi, pj := l.terms[keys[i]].Op == "param", l.terms[keys[j]].Op == "param"
		if pi != pj {
			return pj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// ranges sorts canonical literals by text and writes a lower and an upper
// bound of the same term t together, lower first: t >= c and t <= u become
// c <= t && t <= u; when u - c + 1 is a name K (an array's symbolic size)
// they become 0 <= x && x < K with x = t - c, the form of an index bound;
// when u == c, t == c. Each range sorts where its text does.
func ranges(lits []*Expr) []*Expr {
	type bound struct {
		at  int
		val *Expr
	}
	lower, upper := map[string]bound{}, map[string]bound{}
	for i, l := range lits {
		if len(l.Args) != 2 {
			continue
		}
		t, r := l.Args[0].String(), l.Args[1]
		switch {
		case l.Op == ">=" && r.Op == "int":
			lower[t] = bound{i, r}
		case l.Op == ">" && r.Op == "int" && *r.Value < math.MaxInt64:
			lower[t] = bound{i, Int(*r.Value + 1)}
		case l.Op == "<=":
			// t + k <= u (k a constant the canonical form moved left) is t <= u - k.
			if lhs := l.Args[0]; lhs.Op == "+" && lhs.Args[len(lhs.Args)-1].Op == "int" {
				k := lhs.Args[len(lhs.Args)-1]
				rest := sum(lhs.Args[:len(lhs.Args)-1])
				r = canonInt(&Expr{Op: "-", Args: []*Expr{r, k}})
				t = rest.String()
			}
			upper[t] = bound{i, r}
		}
	}
	paired := map[int][]*Expr{} // the lower bound's index: the range
	partOf := map[int]bool{}
	for i, l := range lits {
		if len(l.Args) != 2 {
			continue
		}
		t := l.Args[0]
		if lo, ok := lower[t.String()]; ok && lo.at == i {
			if up, ok := upper[t.String()]; ok && up.at != i {
				paired[i] = rangeOf(t, lo.val, up.val)
				partOf[up.at] = true
			}
		}
	}
	units := [][]*Expr{}
	for i, l := range lits {
		switch {
		case paired[i] != nil:
			units = append(units, paired[i])
		case !partOf[i]:
			units = append(units, []*Expr{l})
		}
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i][0].String() < units[j][0].String() })
	var out []*Expr
	for _, u := range units {
		out = append(out, u...)
	}
	return out
}

// rangeOf writes c <= t <= u (see [ranges]).
func rangeOf(t, c, u *Expr) []*Expr {
	k := canonInt(&Expr{Op: "+", Args: []*Expr{u, &Expr{Op: "-", Args: []*Expr{c}}, Int(1)}})
	switch {
	case k.Op == "int" && *k.Value == 1:
		return []*Expr{{Op: "==", Args: []*Expr{t, c}}}
	case k.Op == "param" || k.Op == "global":
		x := canonInt(&Expr{Op: "-", Args: []*Expr{t, c}})
		return []*Expr{{Op: "<=", Args: []*Expr{Int(0), x}}, {Op: "<", Args: []*Expr{x, k}}}
	}
	return []*Expr{{Op: "<=", Args: []*Expr{c, t}}, {Op: "<=", Args: []*Expr{t, u}}}
}

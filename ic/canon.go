package ic

import (
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
	var out []*Expr
	for _, l := range lits {
		if s := l.String(); !seen[s] {
			seen[s] = true
			out = append(out, l)
		}
	}
	sortExprs(out)
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
	keys := make([]string, 0, len(l.coef))
	for k := range l.coef {
		keys = append(keys, k)
	}
	// Params go last, so bounds read count + 1 <= SIZE rather than SIZE >= count + 1.
	sort.Slice(keys, func(i, j int) bool {
		pi, pj := l.terms[keys[i]].Op == "param", l.terms[keys[j]].Op == "param"
		if pi != pj {
			return pj
		}
		return keys[i] < keys[j]
	})
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
	if op == ">=" && len(rhs) == 1 && rhs[0].Op == "int" && *rhs[0].Value == 1 {
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

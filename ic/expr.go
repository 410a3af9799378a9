package ic

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Expr is a constraint expression as a tree, for tools that evaluate
// constraints without an SMT solver. Op is one of:
//
//	"int" (Value), "true", "false",
//	"global" (Name), "local" (Name, Event 0 or 1), "param" (Name); Sort says
//	"bool" for booleans and "array" for an array passed whole to a function,
//	"select" (Name: array global, Args[0]: index),
//	"apply" (Name: a Function of the file, Args),
//	"-" with one argument (negation), "!",
//	"+", "-", "*" (two or more arguments for + and *),
//	"div", "mod" (Euclidean, as in SMT-LIB: the remainder is never negative),
//	"/", "%" (truncated toward zero, as in the language),
//	"<", "<=", ">", ">=", "==", "!=", "&&", "||" (n-ary), "ite",
//	"let" (Defs, Args[0]: the body), "ref" (Name: a definition of an
//	enclosing let; Sort as for leaves).
//
// Integers are mathematical: evaluation never wraps around. A let names
// subterms that an expression shares (an exact overflow guard reads one
// merged value in many places): each definition may refer to the ones
// before it, and is evaluated at most once, when first referred to.
type Expr struct {
	Op    string  `json:"op"`
	Value *int64  `json:"value,omitempty"`
	Name  string  `json:"name,omitempty"`
	Event int     `json:"event,omitempty"`
	Sort  string  `json:"sort,omitempty"` // leaves, ref and apply: "bool" or "array"; empty for int
	Defs  []Def   `json:"defs,omitempty"`
	Args  []*Expr `json:"args,omitempty"`
}

// Def is a definition of a let: Name stands for the value of Expr.
type Def struct {
	Name string `json:"name"`
	Expr *Expr  `json:"expr"`
}

// Int returns an integer literal expression.
func Int(v int64) *Expr { return &Expr{Op: "int", Value: &v} }

// Env gives the values a constraint reads. ok is false when the value is
// not available (unknown name, index out of bounds).
type Env interface {
	Global(name string) (int64, bool)
	Element(array string, i int64) (int64, bool)
	Local(event int, name string) (int64, bool)
	Param(name string) (int64, bool)
	// Apply evaluates an uninterpreted function of the file (a loop's
	// effect) on the argument expressions, by running the code it stands for.
	Apply(fn string, args []*Expr) (int64, error)
}

// ErrUnavailable means a constraint read a value the environment does not
// have; the constraint is then treated as not holding.
var ErrUnavailable = errors.New("value not available")

var arity = map[string][2]int{ // min, max (-1: unbounded)
	"int": {0, 0}, "true": {0, 0}, "false": {0, 0}, "global": {0, 0}, "local": {0, 0}, "param": {0, 0},
	"select": {1, 1}, "apply": {0, -1}, "!": {1, 1}, "-": {1, -1}, "+": {2, -1}, "*": {2, -1},
	"div": {2, 2}, "mod": {2, 2}, "/": {2, 2}, "%": {2, 2},
	"<": {2, 2}, "<=": {2, 2}, ">": {2, 2}, ">=": {2, 2}, "==": {2, 2}, "!=": {2, 2},
	"&&": {1, -1}, "||": {1, -1}, "ite": {3, 3}, "let": {1, 1}, "ref": {0, 0},
}

func (e *Expr) check() error { return e.checkIn(nil) }

// checkIn checks e where the definitions of scope (name -> sort) are
// in force.
func (e *Expr) checkIn(scope map[string]string) error {
	if e == nil {
		return errors.New("missing expression")
	}
	a, ok := arity[e.Op]
	if !ok {
		return fmt.Errorf("unknown operator %q", e.Op)
	}
	if len(e.Args) < a[0] || a[1] >= 0 && len(e.Args) > a[1] {
		return fmt.Errorf("operator %q with %d arguments", e.Op, len(e.Args))
	}
	switch e.Op {
	case "int":
		if e.Value == nil {
			return errors.New("int without value")
		}
	case "global", "local", "param", "select", "apply", "ref":
		if e.Name == "" {
			return fmt.Errorf("%s without name", e.Op)
		}
	}
	switch {
	case e.Op == "ref":
		sort, ok := scope[e.Name]
		if !ok {
			return fmt.Errorf("ref %s: no definition of that name before it", e.Name)
		}
		if sort != e.Sort {
			return fmt.Errorf("ref %s of sort %q: its definition is of sort %q", e.Name, e.Sort, sort)
		}
	case e.Op == "let":
		if len(e.Defs) == 0 {
			return errors.New("let without definitions")
		}
		inner := maps.Clone(scope)
		if inner == nil {
			inner = map[string]string{}
		}
		for _, d := range e.Defs {
			if d.Name == "" {
				return errors.New("definition without name")
			}
			if _, ok := inner[d.Name]; ok {
				return fmt.Errorf("definition %s: the name is defined already", d.Name)
			}
			if err := d.Expr.checkIn(inner); err != nil {
				return fmt.Errorf("definition %s: %w", d.Name, err)
			}
			inner[d.Name] = d.Expr.resultSort()
		}
		scope = inner
	case len(e.Defs) > 0:
		return fmt.Errorf("definitions in %q (only let has them)", e.Op)
	}
	for _, a := range e.Args {
		if err := a.checkIn(scope); err != nil {
			return err
		}
	}
	return nil
}

// scope is the environment of a let's body and definitions: the
// definitions' values, each worked out when first read.
type scope struct {
	Env
	defs map[string]*binding
}

type binding struct {
	e  *Expr
	in *scope
	// eval64's answer and eval's, once asked.
	done64, doneBig bool
	v64             int64
	ok64            bool
	err64, errBig   error
	vBig            *big.Int
}

func newScope(env Env, let *Expr) *scope {
	sc := &scope{Env: env, defs: make(map[string]*binding, len(let.Defs))}
	bs := make([]binding, len(let.Defs))
	for i, d := range let.Defs {
		bs[i] = binding{e: d.Expr, in: sc}
		sc.defs[d.Name] = &bs[i]
	}
	return sc
}

// lookup finds the definition of name in force in env.
func lookup(env Env, name string) (*binding, error) {
	for {
		sc, ok := env.(*scope)
		if !ok {
			return nil, fmt.Errorf("ref %s: no definition of that name", name)
		}
		if b := sc.defs[name]; b != nil {
			return b, nil
		}
		env = sc.Env
	}
}

// Apply evaluates the arguments that read definitions here, since the
// environment below evaluates them without the definitions.
func (sc *scope) Apply(fn string, args []*Expr) (int64, error) {
	var out []*Expr
	for i, a := range args {
		reads := false
		a.Walk(func(x *Expr) { reads = reads || x.Op == "ref" })
		if !reads {
			continue
		}
		if a.resultSort() == "array" {
			return 0, fmt.Errorf("%s: an array argument reads a definition", fn)
		}
		if out == nil {
			out = slices.Clone(args)
		}
		v, err := a.Eval(sc)
		if err != nil {
			return 0, err
		}
		out[i] = Int(v)
	}
	if out == nil {
		out = args
	}
	return sc.Env.Apply(fn, out)
}

// Holds evaluates a boolean constraint. An error means the constraint
// could not be evaluated and must be treated as not holding.
func (e *Expr) Holds(env Env) (bool, error) {
	if v, ok, err := e.eval64(env); err != nil {
		return false, err
	} else if ok {
		return v != 0, nil
	}
	v, err := e.eval(env)
	if err != nil {
		return false, err
	}
	return v.Sign() != 0, nil
}

// Eval evaluates an integer (or boolean, as 0/1) expression. An error is
// returned for unavailable values, division by zero and results beyond
// int64.
func (e *Expr) Eval(env Env) (int64, error) {
	v, err := e.eval(env)
	if err != nil {
		return 0, err
	}
	if !v.IsInt64() {
		return 0, fmt.Errorf("%s: value beyond int64", e)
	}
	return v.Int64(), nil
}

var (
	one  = big.NewInt(1)
	zero = big.NewInt(0)
)

func b2big(b bool) *big.Int {
	if b {
		return one
	}
	return zero
}

func avail(v int64, ok bool) (*big.Int, error) {
	if !ok {
		return nil, ErrUnavailable
	}
	return big.NewInt(v), nil
}

// eval64 is eval in int64 arithmetic, the fast path of Holds: ok is false
// when an intermediate result leaves int64 (or the operator is rare), and
// eval must then decide.
func (e *Expr) eval64(env Env) (v int64, ok bool, err error) {
	avail := func(v int64, ok bool) (int64, bool, error) {
		if !ok {
			return 0, false, ErrUnavailable
		}
		return v, true, nil
	}
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	switch e.Op {
	case "int":
		return *e.Value, true, nil
	case "true":
		return 1, true, nil
	case "false":
		return 0, true, nil
	case "global":
		return avail(env.Global(e.Name))
	case "local":
		return avail(env.Local(e.Event, e.Name))
	case "param":
		return avail(env.Param(e.Name))
	case "select":
		i, ok, err := e.Args[0].eval64(env)
		if !ok || err != nil {
			return 0, ok, err
		}
		return avail(env.Element(e.Name, i))
	case "apply":
		v, err := env.Apply(e.Name, e.Args)
		return v, err == nil, err
	case "let":
		return e.Args[0].eval64(newScope(env, e))
	case "ref":
		b, err := lookup(env, e.Name)
		if err != nil {
			return 0, false, err
		}
		if !b.done64 {
			b.v64, b.ok64, b.err64 = b.e.eval64(b.in)
			b.done64 = true
		}
		return b.v64, b.ok64, b.err64
	case "&&", "||":
		want := e.Op == "||"
		var firstErr error
		for _, a := range e.Args {
			v, ok, err := a.eval64(env)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			if !ok {
				return 0, false, nil
			}
			if (v != 0) == want {
				return b2i(want), true, nil
			}
		}
		if firstErr != nil {
			return 0, false, firstErr
		}
		return b2i(!want), true, nil
	case "!":
		v, ok, err := e.Args[0].eval64(env)
		return b2i(v == 0), ok, err
	case "ite":
		c, ok, err := e.Args[0].eval64(env)
		if !ok || err != nil {
			return 0, ok, err
		}
		if c != 0 {
			return e.Args[1].eval64(env)
		}
		return e.Args[2].eval64(env)
	case "*":
		x := int64(1)
		for _, a := range e.Args {
			y, ok, err := a.eval64(env)
			if !ok || err != nil {
				return 0, ok, err
			}
			r := x * y
			if x != 0 && (r/x != y || (x == -1 && y == math.MinInt64)) {
				return 0, false, nil // beyond int64: eval decides
			}
			x = r
		}
		return x, true, nil
	case "/", "%", "div", "mod":
		x, ok, err := e.Args[0].eval64(env)
		if !ok || err != nil {
			return 0, ok, err
		}
		y, ok, err := e.Args[1].eval64(env)
		if !ok || err != nil {
			return 0, ok, err
		}
		if y == 0 || x == math.MinInt64 || y == math.MinInt64 {
			return 0, false, nil // an error, or near the limits: eval decides
		}
		// Truncated, then adjusted for div and mod (Euclidean: 0 <= m < |y|).
		q, m := x/y, x%y
		if e.Op == "div" || e.Op == "mod" {
			if m < 0 {
				if y > 0 {
					q, m = q-1, m+y
				} else {
					q, m = q+1, m-y
				}
			}
		}
		if e.Op == "/" || e.Op == "div" {
			return q, true, nil
		}
		return m, true, nil
	case "<", "<=", ">", ">=", "==", "!=", "+", "-":
	default:
		return 0, false, nil // rare operators: eval decides
	}
	x, ok, err := e.Args[0].eval64(env)
	if !ok || err != nil {
		return 0, ok, err
	}
	if e.Op == "-" && len(e.Args) == 1 {
		return -x, x != math.MinInt64, nil
	}
	if e.Op == "+" || e.Op == "-" {
		for _, a := range e.Args[1:] {
			y, ok, err := a.eval64(env)
			if !ok || err != nil {
				return 0, ok, err
			}
			r := x + y
			if e.Op == "-" {
				r = x - y
				if (x >= 0) != (y >= 0) && (r >= 0) != (x >= 0) {
					return 0, false, nil
				}
			} else if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) {
				return 0, false, nil
			}
			x = r
		}
		return x, true, nil
	}
	y, ok, err := e.Args[1].eval64(env)
	if !ok || err != nil {
		return 0, ok, err
	}
	switch e.Op {
	case "<":
		return b2i(x < y), true, nil
	case "<=":
		return b2i(x <= y), true, nil
	case ">":
		return b2i(x > y), true, nil
	case ">=":
		return b2i(x >= y), true, nil
	case "==":
		return b2i(x == y), true, nil
	default:
		return b2i(x != y), true, nil
	}
}

func (e *Expr) eval(env Env) (*big.Int, error) {
	switch e.Op {
	case "int":
		return big.NewInt(*e.Value), nil
	case "true":
		return one, nil
	case "false":
		return zero, nil
	case "global":
		return avail(env.Global(e.Name))
	case "local":
		return avail(env.Local(e.Event, e.Name))
	case "param":
		return avail(env.Param(e.Name))
	case "select":
		i, err := e.Args[0].Eval(env)
		if err != nil {
			return nil, err
		}
		return avail(env.Element(e.Name, i))
	case "apply":
		v, err := env.Apply(e.Name, e.Args)
		if err != nil {
			return nil, err
		}
		return big.NewInt(v), nil
	case "let":
		return e.Args[0].eval(newScope(env, e))
	case "ref":
		b, err := lookup(env, e.Name)
		if err != nil {
			return nil, err
		}
		if !b.doneBig {
			b.vBig, b.errBig = b.e.eval(b.in)
			b.doneBig = true
		}
		return b.vBig, b.errBig
	case "&&", "||":
		// A false conjunct (a true disjunct) decides, even where another
		// argument cannot be evaluated: a[i] == 0 && i >= 0 is false at i = -1.
		want := e.Op == "||"
		var firstErr error
		for _, a := range e.Args {
			v, err := a.eval(env)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			if (v.Sign() != 0) == want {
				return b2big(want), nil
			}
		}
		if firstErr != nil {
			return nil, firstErr
		}
		return b2big(!want), nil
	case "ite":
		c, err := e.Args[0].eval(env)
		if err != nil {
			return nil, err
		}
		if c.Sign() != 0 {
			return e.Args[1].eval(env)
		}
		return e.Args[2].eval(env)
	}
	args := make([]*big.Int, len(e.Args))
	for i, a := range e.Args {
		v, err := a.eval(env)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	r := new(big.Int)
	switch e.Op {
	case "!":
		return b2big(args[0].Sign() == 0), nil
	case "-":
		if len(args) == 1 {
			return r.Neg(args[0]), nil
		}
		r.Set(args[0])
		for _, a := range args[1:] {
			r.Sub(r, a)
		}
		return r, nil
	case "+":
		for _, a := range args {
			r.Add(r, a)
		}
		return r, nil
	case "*":
		r.SetInt64(1)
		for _, a := range args {
			r.Mul(r, a)
		}
		return r, nil
	case "div", "mod", "/", "%":
		if args[1].Sign() == 0 {
			return nil, errors.New("division by zero")
		}
		q, m := new(big.Int), new(big.Int)
		switch e.Op {
		case "div":
			q.DivMod(args[0], args[1], m) // Euclidean
			return q, nil
		case "mod":
			q.DivMod(args[0], args[1], m)
			return m, nil
		case "/":
			return q.Quo(args[0], args[1]), nil // truncated
		default:
			return m.Rem(args[0], args[1]), nil
		}
	}
	c := args[0].Cmp(args[1])
	switch e.Op {
	case "<":
		return b2big(c < 0), nil
	case "<=":
		return b2big(c <= 0), nil
	case ">":
		return b2big(c > 0), nil
	case ">=":
		return b2big(c >= 0), nil
	case "==":
		return b2big(c == 0), nil
	case "!=":
		return b2big(c != 0), nil
	}
	return nil, fmt.Errorf("unknown operator %q", e.Op)
}

// Globals returns the names of the globals the expression reads (G(C)),
// sorted; reads inside function arguments count.
func (e *Expr) Globals() []string {
	var out []string
	e.walk(func(x *Expr) {
		if x.Op == "global" || x.Op == "select" {
			out = append(out, x.Name)
		}
	})
	return sortedUnique(out)
}

// Functions returns the names of the functions the expression applies,
// sorted.
func (e *Expr) Functions() []string {
	var out []string
	e.walk(func(x *Expr) {
		if x.Op == "apply" {
			out = append(out, x.Name)
		}
	})
	return sortedUnique(out)
}

// Walk calls f on e and on every expression within it, definitions of
// lets included.
func (e *Expr) Walk(f func(*Expr)) { e.walk(f) }

func (e *Expr) walk(f func(*Expr)) {
	f(e)
	for _, d := range e.Defs {
		d.Expr.walk(f)
	}
	for _, a := range e.Args {
		a.walk(f)
	}
}

// String renders the expression in the canonical text form of constraints:
// infix with the language's operators, second-event locals primed, and
// parentheses wherever the language needs them to read the same tree
// (n-ary operations as left-nested binary ones). Canon keys terms by this
// text, so two trees that print alike must have the same value.
func (e *Expr) String() string { return e.text(0) }

var prec = map[string]int{"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}

func (e *Expr) text(outer int) string {
	switch e.Op {
	case "int":
		if *e.Value == math.MinInt64 {
			return "(-9223372036854775807 - 1)" // the language has no literal for it
		}
		return strconv.FormatInt(*e.Value, 10)
	case "true", "false":
		return e.Op
	case "global", "param", "ref":
		return e.Name
	case "let":
		defs := make([]string, len(e.Defs))
		for i, d := range e.Defs {
			defs[i] = d.Name + " = " + d.Expr.text(0)
		}
		s := "let " + strings.Join(defs, ", ") + " in " + e.Args[0].text(0)
		if outer > 0 {
			return "(" + s + ")"
		}
		return s
	case "local":
		return e.Name + strings.Repeat("'", e.Event)
	case "select":
		return e.Name + "[" + e.Args[0].text(0) + "]"
	case "apply", "div", "mod", "ite":
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = a.text(0)
		}
		return e.Name + e.opName() + "(" + strings.Join(args, ", ") + ")"
	case "!":
		return "!" + e.Args[0].operand()
	}
	if e.Op == "-" && len(e.Args) == 1 {
		return "-" + e.Args[0].operand()
	}
	p := prec[e.Op]
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		inner := p
		if i > 0 {
			// The language's binary operators are all left-associative: a
			// right operand of equal precedence needs parentheses, even
			// under + and * (x * (y / 3) is not x * y / 3).
			inner = p + 1
		}
		parts[i] = a.text(inner)
	}
	s := strings.Join(parts, " "+e.Op+" ")
	if p < outer {
		return "(" + s + ")"
	}
	return s
}

// operand renders the operand of a unary operator: parenthesized when it
// starts with an operator itself (-(-x), -(-3), !(!b)).
func (e *Expr) operand() string {
	s := e.text(7)
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "!") {
		return "(" + s + ")"
	}
	return s
}

func (e *Expr) opName() string {
	if e.Op == "apply" {
		return ""
	}
	return e.Op
}

// sortExprs orders expressions by their text.
func sortExprs(es []*Expr) {
	sort.Slice(es, func(i, j int) bool { return es[i].String() < es[j].String() })
}

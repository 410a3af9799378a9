package lang

import "strconv"

// This file holds the checking of expressions: precedence climbing over
// the parser's flat operator lists, types, calls and primed names.

// badType marks an expression that already produced an error; operators on
// it report nothing more.
const badType Type = -1

type badExpr struct {
	At Pos
}

func (e *badExpr) Pos() Pos   { return e.At }
func (e *badExpr) Type() Type { return badType }
func (*badExpr) exprNode()    {}

func (c *checker) exprs(es []*pExpr) []Expr {
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = c.expr(e)
	}
	return out
}

func (c *checker) expr(e *pExpr) Expr { return c.expr2(e, false) }

// expr2 builds the expression tree by precedence climbing over the flat
// operand/operator list; stmt allows a void call (an expression statement).
func (c *checker) expr2(e *pExpr, stmt bool) Expr {
	xs := []Expr{c.unary(e.First, stmt && len(e.Rest) == 0)}
	ops := make([]*pBinTail, len(e.Rest))
	for i, t := range e.Rest {
		xs = append(xs, c.unary(t.Y, false))
		ops[i] = t
	}
	k := 0
	return c.climb(xs, ops, &k, 0)
}

var binOps = map[string]Op{
	"||": OpOr, "&&": OpAnd, "==": OpEq, "!=": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe,
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "%": OpMod,
}

func (c *checker) climb(xs []Expr, ops []*pBinTail, k *int, minPrec int) Expr {
	lhs := xs[*k]
	for *k < len(ops) && binOps[ops[*k].Op].Prec() >= minPrec {
		t := ops[*k]
		op := binOps[t.Op]
		*k++
		rhs := c.climb(xs, ops, k, op.Prec()+1)
		lhs = c.binary(c.pos(t.Pos), op, lhs, rhs)
	}
	return lhs
}

func (c *checker) binary(p Pos, op Op, x, y Expr) Expr {
	tx, ty := x.Type(), y.Type()
	if tx == badType || ty == badType {
		return &badExpr{At: p}
	}
	switch op {
	case OpAnd, OpOr:
		if tx != Bool || ty != Bool {
			c.report(errOperand(p, op.String(), Bool, pick(tx != Bool, tx, ty)))
			return &badExpr{At: p}
		}
	case OpEq, OpNe:
		if tx != ty {
			c.report(errMismatch(p, op.String(), tx, ty))
			return &badExpr{At: p}
		}
	default:
		if tx != Int || ty != Int {
			c.report(errOperand(p, op.String(), Int, pick(tx != Int, tx, ty)))
			return &badExpr{At: p}
		}
	}
	return &BinaryExpr{At: p, Op: op, X: x, Y: y}
}

func pick(cond bool, a, b Type) Type {
	if cond {
		return a
	}
	return b
}

func (c *checker) unary(u *pUnary, stmt bool) Expr {
	p := c.pos(u.Pos)
	if u.Prim != nil {
		return c.primary(u.Prim, stmt)
	}
	x := c.unary(u.X, false)
	if x.Type() == badType {
		return x
	}
	op, want := OpNeg, Int
	if u.Op == "!" {
		op, want = OpNot, Bool
	}
	if x.Type() != want {
		c.report(errUnaryOperand(p, u.Op, want, x.Type()))
		return &badExpr{At: p}
	}
	return &UnaryExpr{At: p, Op: op, X: x}
}

func (c *checker) primary(pr *pPrimary, stmt bool) Expr {
	p := c.pos(pr.Pos)
	switch {
	case pr.Int != nil:
		n, err := strconv.ParseInt(*pr.Int, 10, 64)
		if err != nil {
			c.report(errIntRange(p, *pr.Int))
			return &badExpr{At: p}
		}
		return &IntLit{At: p, Val: n}
	case pr.True:
		return &BoolLit{At: p, Val: true}
	case pr.False:
		return &BoolLit{At: p, Val: false}
	case pr.Paren != nil:
		return c.expr(pr.Paren)
	case pr.Name == nil:
		return &badExpr{At: p}
	}
	name := *pr.Name
	if pr.Prime {
		return c.primedName(p, pr)
	}
	switch {
	case pr.Call != nil:
		args := c.exprs(pr.Call.Args)
		f, ok := c.funcs[name]
		if !ok {
			c.reportNotFound(p, name, "a func")
			return &badExpr{At: p}
		}
		if c.decl != "" {
			c.report(errNotAllowed(p, "a call", c.decl))
			return &badExpr{At: p}
		}
		if c.kind == inInit && c.locals == nil {
			c.report(errNotConstant(p, "a global initializer"))
			return &badExpr{At: p}
		}
		c.arguments(p, "func", name, f.Params, args, pr.Call.Args)
		if c.fn != nil && c.kind == inFunc {
			c.fn.Calls = appendFunc(c.fn.Calls, f)
		}
		if f.Result == Void && !stmt {
			c.report(errVoidValue(p, name))
			return &badExpr{At: p}
		}
		return &CallExpr{At: p, Func: f, Args: args}
	case pr.Index != nil:
		idx := c.expr(pr.Index)
		v := c.lookupLocal(name)
		if v == nil {
			v = c.globals[name]
		}
		if v == nil {
			c.reportNotFound(p, name, "an array")
			return &badExpr{At: p}
		}
		if v.Type != IntArray {
			c.report(errNotKind(p, name, article(v.Type.String())+" variable", "an array"))
			return &badExpr{At: p}
		}
		if idx.Type() != Int && idx.Type() != badType {
			c.report(errIndexType(c.pos(pr.Index.Pos), idx.Type()))
		}
		return &IndexExpr{At: p, Array: v, Index: idx}
	}
	if v := c.lookupLocal(name); v != nil {
		return &VarRef{At: p, Var: v}
	}
	if v, ok := c.globals[name]; ok {
		if v.Type == IntArray {
			c.report(errArrayValue(p, name))
			return &badExpr{At: p}
		}
		return &VarRef{At: p, Var: v}
	}
	if pa, ok := c.params[name]; ok {
		return &ParamRef{At: p, Param: pa}
	}
	if c.first != nil && localNamed(c.first.Proc, name) != nil {
		c.report(errNotLive(p, name, c.first.ID))
		return &badExpr{At: p}
	}
	c.reportNotFound(p, name, "a value")
	return &badExpr{At: p}
}

// primedName resolves v', a local of the second block of a commute
// declaration.
func (c *checker) primedName(p Pos, pr *pPrimary) Expr {
	name := *pr.Name
	switch {
	case c.primed == nil:
		c.report(errPrimeOutside(p, name))
	case pr.Call != nil || pr.Index != nil:
		c.report(errPrimeShared(p, name))
	case c.primed[name] != nil:
		return &VarRef{At: p, Var: c.primed[name], Second: true}
	case c.globals[name] != nil || c.params[name] != nil:
		c.report(errPrimeShared(p, name))
	case localNamed(c.second.Proc, name) != nil:
		c.report(errNotLive(p, name+"'", c.second.ID))
	default:
		c.report(errUndeclared(p, name+"'"))
	}
	return &badExpr{At: p}
}

// localNamed returns a local (or parameter) of a proc with the given name.
func localNamed(pr *Proc, name string) *Var {
	for _, v := range pr.Locals {
		if v.Name == name {
			return v
		}
	}
	return nil
}

func appendFunc(fs []*Func, f *Func) []*Func {
	for _, g := range fs {
		if g == f {
			return fs
		}
	}
	return append(fs, f)
}

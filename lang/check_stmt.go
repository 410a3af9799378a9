package lang

import "strings"

// This file holds the checking of bodies and statements: locals, calls
// and their arguments, returns, assignments and their targets, and the
// rules over a whole body (every path of a func returns, no recursion).

func (c *checker) body(kind bodyKind, fn *Func, locals *[]*Var, params []*Var, b *pBlock) []Stmt {
	c.kind, c.fn, c.locals, c.labels = kind, fn, locals, map[string]Pos{}
	c.scope = &scope{names: map[string]*Var{}}
	for _, p := range params {
		if prev, ok := c.top[p.Name]; ok {
			c.report(errRedeclared(p.Pos, p.Name, prev))
		}
		c.scope.names[p.Name] = p
	}
	out := c.block(b)
	c.scope = nil
	return out
}

func (c *checker) block(b *pBlock) []Stmt {
	c.scope = &scope{parent: c.scope, names: map[string]*Var{}}
	var out []Stmt
	for _, s := range b.Stmts {
		out = append(out, c.stmt(s)...)
	}
	c.scope = c.scope.parent
	return out
}

func (c *checker) lookupLocal(name string) *Var {
	for s := c.scope; s != nil; s = s.parent {
		if v, ok := s.names[name]; ok {
			return v
		}
	}
	return nil
}

func (c *checker) declareLocal(name string, t Type, p Pos) *Var {
	if prev := c.lookupLocal(name); prev != nil {
		c.report(errRedeclared(p, name, prev.Pos))
	} else if prev, ok := c.top[name]; ok {
		c.report(errRedeclared(p, name, prev))
	}
	v := &Var{Name: name, Kind: Local, Type: t, Pos: p, Index: len(*c.locals)}
	*c.locals = append(*c.locals, v)
	c.scope.names[name] = v
	return v
}

func (c *checker) stmt(s *pStmt) []Stmt {
	p := c.pos(s.Pos)
	label := s.Label
	if label != "" {
		if s.Yield == nil && s.Await == nil {
			c.report(errLabel(p, label))
			label = ""
		} else if prev, ok := c.labels[label]; ok {
			c.report(errLabelRedeclared(p, label, prev))
		} else {
			c.labels[label] = p
		}
	}
	switch {
	case s.Local != nil:
		t := parseType(s.Local.Type)
		var out []Stmt
		for _, lv := range s.Local.Vars {
			vp := c.pos(lv.Pos)
			var val Expr
			if lv.Init != nil {
				val = c.expr(lv.Init)
				if val.Type() != t && val.Type() != badType {
					c.report(errAssignType(c.pos(lv.Init.Pos), lv.Name, t, val.Type()))
				}
			} else if t == Bool {
				val = &BoolLit{At: vp}
			} else {
				val = &IntLit{At: vp}
			}
			v := c.declareLocal(lv.Name, t, vp)
			out = append(out, &AssignStmt{At: vp, Target: LValue{Var: v}, Value: val, Decl: true})
		}
		return out
	case s.If != nil:
		return []Stmt{c.ifStmt(s.If)}
	case s.While != nil:
		cond := c.cond(s.While.Cond, "while")
		return []Stmt{&WhileStmt{At: c.pos(s.While.Pos), Cond: cond, Body: c.block(s.While.Body)}}
	case s.Spawn != nil:
		return []Stmt{c.spawn(s.Spawn)}
	case s.Assert != nil:
		st := &AssertStmt{At: c.pos(s.Assert.Pos), Cond: c.cond(s.Assert.Cond, "assert")}
		if s.Assert.Msg != nil {
			st.Msg = *s.Assert.Msg
		}
		return []Stmt{st}
	case s.Yield != nil:
		yp := c.pos(s.Yield.Pos)
		if c.kind != inProc {
			c.report(errNotAllowed(yp, "yield", c.kind.String()))
		}
		return []Stmt{&YieldStmt{At: yp, Label: label}}
	case s.Await != nil:
		ap := c.pos(s.Await.Pos)
		if c.kind != inProc {
			c.report(errNotAllowed(ap, "await", c.kind.String()))
		}
		return []Stmt{&AwaitStmt{At: ap, Label: label, Cond: c.cond(s.Await.Cond, "await")}}
	case s.Return != nil:
		return []Stmt{c.returnStmt(s.Return)}
	case s.Block != nil:
		return c.block(s.Block)
	case s.Simple != nil:
		return c.simple(s.Simple)
	}
	return nil
}

func (c *checker) ifStmt(s *pIf) *IfStmt {
	st := &IfStmt{At: c.pos(s.Pos), Cond: c.cond(s.Cond, "if")}
	st.Then = c.block(s.Then)
	switch {
	case s.ElseIf != nil:
		st.Else = []Stmt{c.ifStmt(s.ElseIf)}
	case s.Else != nil:
		st.Else = c.block(s.Else)
	}
	return st
}

func (c *checker) cond(e *pExpr, what string) Expr {
	x := c.expr(e)
	if x.Type() != Bool && x.Type() != badType {
		c.report(errCondition(c.pos(e.Pos), what, x.Type()))
	}
	return x
}

func (c *checker) spawn(s *pSpawn) Stmt {
	p := c.pos(s.Pos)
	if c.kind == inFunc {
		c.report(errNotAllowed(p, "spawn", c.kind.String()))
	}
	args := c.exprs(s.Args)
	pr, ok := c.procs[s.Proc]
	if !ok {
		c.reportNotFound(c.nameAfter(p, s.Proc), s.Proc, "a proc")
		return &SpawnStmt{At: p, Args: args}
	}
	c.arguments(p, "proc", pr.Name, pr.Params, args, s.Args)
	return &SpawnStmt{At: p, Proc: pr, Args: args}
}

// reportNotFound explains why name is not what was wanted.
func (c *checker) reportNotFound(p Pos, name, want string) {
	switch {
	case c.lookupLocal(name) != nil:
		c.report(errNotKind(p, name, "a local variable", want))
	case c.params[name] != nil:
		c.report(errNotKind(p, name, "a param", want))
	case c.globals[name] != nil:
		c.report(errNotKind(p, name, "a global variable", want))
	case c.procs[name] != nil:
		c.report(errNotKind(p, name, "a proc", want))
	case c.funcs[name] != nil:
		c.report(errNotKind(p, name, "a func", want))
	default:
		c.report(errUndeclared(p, name))
	}
}

// arguments checks the number and types of args (parsed from raw) against
// formals; a type error points at the start of the argument.
func (c *checker) arguments(p Pos, what, name string, formals []*Var, args []Expr, raw []*pExpr) {
	if len(formals) != len(args) {
		c.report(errArity(p, what, name, len(formals), len(args)))
		return
	}
	for i, a := range args {
		if a.Type() != formals[i].Type && a.Type() != badType {
			c.report(errArgType(c.pos(raw[i].Pos), i+1, name, formals[i].Type, a.Type()))
		}
	}
}

func (c *checker) returnStmt(s *pReturn) Stmt {
	p := c.pos(s.Pos)
	st := &ReturnStmt{At: p}
	if s.Value != nil {
		st.Value = c.expr(s.Value)
	}
	switch c.kind {
	case inInit:
		c.report(errNotAllowed(p, "return", "init"))
	case inProc:
		if st.Value != nil {
			c.report(errReturnValue(p, "a proc"))
		}
	case inFunc:
		name := "func " + c.fn.Name
		switch {
		case c.fn.Result == Void && st.Value != nil:
			c.report(errReturnValue(p, name))
		case c.fn.Result != Void && st.Value == nil:
			c.report(errReturnMissingValue(p, name, c.fn.Result))
		case st.Value != nil && st.Value.Type() != c.fn.Result && st.Value.Type() != badType:
			c.report(errReturnType(c.pos(s.Value.Pos), name, c.fn.Result, st.Value.Type()))
		}
	}
	return st
}

func (c *checker) simple(s *pSimple) []Stmt {
	p := c.pos(s.Pos)
	if s.Rhs == nil {
		x := c.expr2(s.Lhs, true)
		call, ok := x.(*CallExpr)
		if !ok {
			if x.Type() != badType {
				c.report(errExprStmt(p))
			}
			return nil
		}
		return []Stmt{&CallStmt{At: p, Call: call}}
	}
	rhs := c.expr(s.Rhs)
	lv, name, ok := c.lvalue(s.Lhs)
	if !ok {
		return nil
	}
	want := lv.Var.Type
	if lv.Index != nil {
		want = Int
	}
	if rhs.Type() != want && rhs.Type() != badType {
		c.report(errAssignType(c.pos(s.Rhs.Pos), name, want, rhs.Type()))
	}
	return []Stmt{&AssignStmt{At: p, Target: lv, Value: rhs}}
}

func (c *checker) lvalue(e *pExpr) (LValue, string, bool) {
	p := c.pos(e.Pos)
	if len(e.Rest) > 0 || e.First.Prim == nil || e.First.Prim.Name == nil || e.First.Prim.Call != nil {
		c.report(errNotAssignable(p, "this expression"))
		return LValue{}, "", false
	}
	pr := e.First.Prim
	name := *pr.Name
	if pr.Prime {
		c.report(errPrimeOutside(p, name))
		return LValue{}, "", false
	}
	v := c.lookupLocal(name)
	if v == nil {
		v = c.globals[name]
	}
	if v == nil {
		if c.params[name] != nil {
			c.report(errNotAssignable(p, "param "+name))
		} else {
			c.reportNotFound(p, name, "a variable")
		}
		return LValue{}, "", false
	}
	if pr.Index != nil {
		idx := c.expr(pr.Index)
		if v.Type != IntArray {
			c.report(errNotKind(p, name, article(v.Type.String())+" variable", "an array"))
			return LValue{}, "", false
		}
		if idx.Type() != Int && idx.Type() != badType {
			c.report(errIndexType(c.pos(pr.Index.Pos), idx.Type()))
		}
		return LValue{Var: v, Index: idx}, name + "[...]", true
	}
	if v.Type == IntArray {
		c.report(errArrayValue(p, name))
		return LValue{}, "", false
	}
	return LValue{Var: v}, name, true
}

// terminates reports whether every path through ss ends in a return.
func terminates(ss []Stmt) bool {
	if len(ss) == 0 {
		return false
	}
	switch s := ss[len(ss)-1].(type) {
	case *ReturnStmt:
		return true
	case *IfStmt:
		return terminates(s.Then) && terminates(s.Else)
	}
	return false
}

// recursion reports each cycle in the call graph of funcs once.
func (c *checker) recursion() {
	const (
		white = iota
		grey
		black
	)
	color := map[*Func]int{}
	var stack []*Func
	var visit func(f *Func)
	visit = func(f *Func) {
		color[f] = grey
		stack = append(stack, f)
		for _, g := range f.Calls {
			switch color[g] {
			case white:
				visit(g)
			case grey:
				var names []string
				start := 0
				for i, s := range stack {
					if s == g {
						start = i
					}
				}
				for _, s := range stack[start:] {
					names = append(names, s.Name)
				}
				names = append(names, g.Name)
				c.report(errRecursion(c.nameAfter(g.Pos, g.Name), strings.Join(names, " -> ")))
			}
		}
		stack = stack[:len(stack)-1]
		color[f] = black
	}
	for _, f := range c.prog.Funcs {
		if color[f] == white {
			visit(f)
		}
	}
}

package gofront

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// valuesOf lowers a value of type t to one expression per scalar leaf.
// alone says the value stands alone in its statement: a call that writes
// shared state may be it.
func (c *fnCtx) valuesOf(e ast.Expr, t types.Type, alone bool) []frag {
	if _, reason := scalarOf(t); reason == "" {
		if alone {
			return []frag{c.topExpr(e)}
		}
		return []frag{c.expr(e)}
	}
	c.notModelled(e)
	ls, reason := leavesOf(t)
	if reason != "" {
		c.fail(e.Pos(), "%s", reason)
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			c.fail(e.Pos(), "composite literal of %s is not modelled", t)
		}
		fields := make([]ast.Expr, st.NumFields())
		for i, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				name := kv.Key.(*ast.Ident).Name
				for k := range st.NumFields() {
					if st.Field(k).Name() == name {
						fields[k] = kv.Value
					}
				}
			} else {
				fields[i] = el
			}
		}
		var out []frag
		for k := range st.NumFields() {
			ft := st.Field(k).Type()
			if fields[k] == nil {
				fl, _ := leavesOf(ft)
				for _, l := range fl {
					out = append(out, zero(l.sc))
				}
				continue
			}
			out = append(out, c.valuesOf(fields[k], ft, false)...)
		}
		return out
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
		if id, ok := x.(*ast.Ident); ok {
			if lv := c.locals[c.info().Uses[id]]; lv != nil {
				var out []frag
				for _, n := range lv.blk {
					out = append(out, fr(n).at(id.Pos()))
				}
				return out
			}
		}
		p, ok := c.placeOf(x)
		if !ok {
			c.fail(e.Pos(), "value %s is not modelled", types.ExprString(e))
		}
		if p.idx != nil && !c.pure(p.idxE) {
			n := c.tmp()
			c.line(e.Pos(), "int ", n, " = ", *p.idx, ";")
			f := fr(n)
			p.idx = &f
		}
		var out []frag
		for _, lf := range ls {
			q := p
			for i, fi := range lf.path {
				q = q.with(fi, lf.names[i], nil)
			}
			if q.local != nil {
				out = append(out, fr(q.local.blk[c.localLeaf(q, leaf{})]).at(e.Pos()))
				continue
			}
			out = append(out, c.placeValueSc(e.Pos(), q, lf.sc))
		}
		return out
	}
	c.fail(e.Pos(), "value of type %s from %s is not modelled", t, types.ExprString(e))
	return nil
}

// pure reports whether lowering e runs no call of a func (conversions and
// len, min, max aside), so it may be evaluated again.
func (c *fnCtx) pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if call, isCall := n.(*ast.CallExpr); isCall {
			if tv := c.info().Types[call.Fun]; tv.IsType() {
				return ok
			}
			if id, isID := ast.Unparen(call.Fun).(*ast.Ident); isID {
				if _, isB := c.info().Uses[id].(*types.Builtin); isB {
					return ok
				}
			}
			ok = false
		}
		return ok
	})
	return ok
}

// expr lowers a scalar expression.
func (c *fnCtx) expr(e ast.Expr) frag {
	if f, ok := c.pinned[e]; ok {
		return f
	}
	top := c.topCall
	c.topCall = nil
	tv, known := c.info().Types[e]
	if lit, ok := e.(*ast.BasicLit); ok && !known && lit.Kind == token.INT {
		return fr(lit.Value).at(lit.Pos()) // the 1 of x++ and x--
	}
	if tv.Value != nil {
		return c.constant(e, tv)
	}
	c.notModelled(e)
	t := tv.Type
	if t == nil {
		c.fail(e.Pos(), "expression %s is not modelled", types.ExprString(e))
	}
	sc, reason := scalarOf(t)
	if reason != "" {
		c.fail(e.Pos(), "%s", reason)
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		c.topCall = top
		return cat("(", c.expr(x.X), ")")
	case *ast.Ident:
		obj := c.info().Uses[x]
		if lv := c.locals[obj]; lv != nil {
			return fr(lv.blk[0]).at(x.Pos())
		}
		if obj == c.recv && c.recv != nil {
			c.fail(x.Pos(), "the receiver used as a value (it may alias the shared object)")
		}
		if isPkgVar(obj) {
			p, _ := c.placeOf(x)
			return c.placeValueSc(x.Pos(), p, sc)
		}
		if _, ok := obj.(*types.Nil); ok {
			c.fail(x.Pos(), "nil is not modelled")
		}
		c.fail(x.Pos(), "%s is not modelled", x.Name)
	case *ast.SelectorExpr, *ast.IndexExpr:
		p, ok := c.placeOf(x)
		if !ok {
			c.fail(x.Pos(), "%s is not modelled", types.ExprString(x))
		}
		if p.local != nil {
			return fr(p.local.blk[c.localLeaf(p, leaf{})]).at(x.Pos())
		}
		return c.placeValueSc(x.Pos(), p, sc)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.NOT:
			return cat("!(", c.expr(x.X), ")").at(x.Pos())
		case token.SUB:
			v := cat("(-", c.expr(x.X), ")").at(x.Pos())
			return c.wrapped(v, sc)
		case token.ADD:
			return c.expr(x.X)
		case token.AND:
			c.fail(x.Pos(), "address-of: pointers are not modelled")
		case token.ARROW:
			c.fail(x.Pos(), "channel receive: channels are not modelled")
		}
		c.fail(x.OpPos, "operator %s: bitwise operations are not modelled", x.Op)
	case *ast.BinaryExpr:
		return c.binary(x, sc)
	case *ast.CallExpr:
		c.topCall = top
		return c.callExpr(x, false)
	case *ast.StarExpr:
		c.fail(x.Pos(), "pointer dereference: pointers are not modelled")
	case *ast.FuncLit:
		c.fail(x.Pos(), "function literal: closures are not modelled")
	case *ast.TypeAssertExpr:
		c.fail(x.Pos(), "type assertion: interfaces are not modelled")
	}
	c.fail(e.Pos(), "expression %s is not modelled", types.ExprString(e))
	return frag{}
}

// notModelled fails on the expressions that are never modelled, whatever
// their type, with the reason of their kind.
func (c *fnCtx) notModelled(e ast.Expr) {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj := c.info().Uses[x]; c.recv != nil && obj == c.recv {
			c.fail(x.Pos(), "the receiver used as a value (it may alias the shared object)")
		}
	case *ast.UnaryExpr:
		switch x.Op {
		case token.AND:
			c.fail(x.Pos(), "address-of: pointers are not modelled")
		case token.ARROW:
			c.fail(x.Pos(), "channel receive: channels are not modelled")
		}
	case *ast.StarExpr:
		c.fail(x.Pos(), "pointer dereference: pointers are not modelled")
	case *ast.FuncLit:
		c.fail(x.Pos(), "function literal: closures are not modelled")
	case *ast.TypeAssertExpr:
		c.fail(x.Pos(), "type assertion: interfaces are not modelled")
	case *ast.SliceExpr:
		c.fail(x.Pos(), "slice expression: slices are not modelled")
	}
}

func (c *fnCtx) constant(e ast.Expr, tv types.TypeAndValue) frag {
	v := tv.Value
	switch v.Kind() {
	case constant.Bool:
		return fr(strconv.FormatBool(constant.BoolVal(v))).at(e.Pos())
	case constant.Int:
		n, exact := constant.Int64Val(v)
		if !exact {
			c.fail(e.Pos(), "constant %s beyond int64 is not modelled", v)
		}
		return intLit(n).at(e.Pos())
	case constant.String:
		return intLit(c.b.stringID(constant.StringVal(v))).at(e.Pos())
	}
	c.fail(e.Pos(), "constant %s of kind %s is not modelled", v, v.Kind())
	return frag{}
}

func intLit(n int64) frag {
	switch {
	case n == -1<<63:
		return fr("(-9223372036854775807 - 1)")
	case n < 0:
		return fr("(-" + strconv.FormatInt(-n, 10) + ")")
	}
	return fr(strconv.FormatInt(n, 10))
}

// stringsReason says what of strings is modelled.
const stringsReason = "strings are modelled as opaque values: only assignment, == and != and map keys"

var arithOps = map[token.Token]string{token.ADD: "+", token.SUB: "-", token.MUL: "*", token.QUO: "/", token.REM: "%"}
var cmpOps = map[token.Token]string{token.EQL: "==", token.NEQ: "!=", token.LSS: "<", token.LEQ: "<=", token.GTR: ">", token.GEQ: ">="}

func (c *fnCtx) binary(x *ast.BinaryExpr, sc scalar) frag {
	switch x.Op {
	case token.LAND, token.LOR:
		l := c.expr(x.X)
		r := c.expr(x.Y)
		return cat("(", l, " ", fr(x.Op.String()).at(x.OpPos), " ", r, ")")
	}
	if op, ok := cmpOps[x.Op]; ok {
		if f, ok := c.nilComparison(x); ok {
			return f
		}
		xt := c.info().TypeOf(x.X)
		xsc, reason := scalarOf(xt)
		if reason != "" {
			c.fail(x.OpPos, "comparison of %s values is not modelled", xt)
		}
		if xsc.isString && x.Op != token.EQL && x.Op != token.NEQ {
			c.fail(x.OpPos, "operator %s on strings: %s", x.Op, stringsReason)
		}
		l := c.expr(x.X)
		r := c.expr(x.Y)
		return cat("(", l, " ", fr(op).at(x.OpPos), " ", r, ")")
	}
	if _, ok := arithOps[x.Op]; !ok {
		c.fail(x.OpPos, "operator %s: bitwise operations and shifts are not modelled", x.Op)
	}
	l := c.expr(x.X)
	r := c.expr(x.Y)
	return c.arith(x.OpPos, x.Op, l, r, sc)
}

// nilComparison lowers m == nil and m != nil for a map m.
func (c *fnCtx) nilComparison(x *ast.BinaryExpr) (frag, bool) {
	if x.Op != token.EQL && x.Op != token.NEQ {
		return frag{}, false
	}
	isNil := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		_, ok = c.info().Uses[id].(*types.Nil)
		return ok
	}
	m, other := x.X, x.Y
	if isNil(m) {
		m, other = other, m
	}
	mt, ok := c.info().TypeOf(m).Underlying().(*types.Map)
	if !ok || !isNil(other) {
		return frag{}, false
	}
	f := c.mapNil(m, mt)
	if x.Op == token.NEQ {
		return cat("!(", f, ")").at(x.OpPos), true
	}
	return f, true
}

// arith is l op r in type sc: wrapped into sc's range when it is narrower
// than int64, as Go's arithmetic wraps; int64 overflow is a runtime error
// of the IR, which every constraint's overflow guard excludes.
func (c *fnCtx) arith(pos token.Pos, op token.Token, l, r frag, sc scalar) frag {
	if sc.isBool {
		c.fail(pos, "operator %s on bool", op)
	}
	if sc.isString {
		c.fail(pos, "operator %s on strings: %s", op, stringsReason)
	}
	v := cat("(", l, " ", fr(arithOps[op]).at(pos), " ", r, ")")
	return c.wrapped(v, sc)
}

// wrapped wraps v into the range of a narrow type.
func (c *fnCtx) wrapped(v frag, sc scalar) frag {
	if !sc.narrow() {
		return v
	}
	c.b.wraps[sc.wrapFunc()] = sc
	return cat(sc.wrapFunc(), "(", v, ")")
}

// callExpr lowers a call: a conversion, a builtin (min, max), a function
// or method of the package (a func of the program), or a call that is not
// modelled. stmt says the call is a statement of its own.
func (c *fnCtx) callExpr(call *ast.CallExpr, stmt bool) frag {
	top := c.topCall == call
	c.topCall = nil
	if tv := c.info().Types[call.Fun]; tv.IsType() {
		to, reason := scalarOf(tv.Type)
		if reason != "" {
			c.fail(call.Pos(), "conversion to %s: %s", tv.Type, reason)
		}
		ft := c.info().TypeOf(call.Args[0])
		from, reason := scalarOf(ft)
		if reason != "" {
			c.fail(call.Args[0].Pos(), "conversion from %s: %s", ft, reason)
		}
		if from.isString != to.isString {
			c.fail(call.Pos(), "conversion from %s to %s: %s", ft, tv.Type, stringsReason)
		}
		v := c.expr(call.Args[0])
		if from.within(to) {
			return v
		}
		return c.wrapped(v, to)
	}
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := c.info().Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "min", "max":
				sc, reason := scalarOf(c.info().TypeOf(call))
				if reason != "" || sc.isBool || sc.isString {
					c.fail(call.Pos(), "%s of %s is not modelled", b.Name(), c.info().TypeOf(call))
				}
				name := "MIN2"
				if b.Name() == "max" {
					name = "MAX2"
				}
				c.b.minmax[name] = true
				v := c.expr(call.Args[0])
				for _, a := range call.Args[1:] {
					v = cat(name, "(", v, ", ", c.expr(a), ")").at(call.Pos())
				}
				return v
			case "len", "cap":
				if mt, ok := c.info().TypeOf(call.Args[0]).Underlying().(*types.Map); ok && b.Name() == "len" {
					return c.mapLen(call.Args[0], mt)
				}
				if st, ok := c.info().TypeOf(call.Args[0]).Underlying().(*types.Slice); ok && b.Name() == "len" {
					return c.sliceLen(call.Args[0], st)
				}
				if sc, _ := scalarOf(c.info().TypeOf(call.Args[0])); sc.isString {
					c.fail(call.Pos(), "len of a string: %s", stringsReason)
				}
				c.fail(call.Pos(), "%s of a value that is not an array is not modelled", b.Name())
			case "panic":
				c.fail(call.Pos(), "panic inside an expression is not modelled")
			}
			c.fail(call.Pos(), "builtin %s is not modelled", b.Name())
		}
	}
	fi := c.calleeInfo(call)
	if fi == nil {
		c.fail(call.Pos(), "call of %s: %s", types.ExprString(call.Fun), c.whyNotCallable(call))
	}
	if fi.state == 1 {
		c.fail(call.Pos(), "recursive call of %s: recursion is not modelled", fi.display)
	}
	c.b.lowerFunc(fi)
	if fi.err != nil {
		panic(unsup{fi.err.pos, "in " + fi.display + ": " + fi.err.msg})
	}
	if fi.writes && !top && !stmt {
		c.fail(call.Pos(), "call of %s, which writes shared state, inside a larger expression: Go leaves the order of evaluation open", fi.display)
	}
	if fi.result == nil && !stmt {
		c.fail(call.Pos(), "call of %s, which returns no value, used as a value", fi.display)
	}
	if fi.writes && c.writes == token.NoPos {
		c.writes = call.Pos()
	}
	for r := range fi.roots {
		c.roots[r] = true
	}
	for g := range fi.globals {
		c.globals[g] = true
	}
	c.calls[fi] = true
	for g := range fi.calls {
		c.calls[g] = true
	}
	parts := []any{fi.blk, "("}
	for i, a := range call.Args {
		if i > 0 {
			parts = append(parts, ", ")
		}
		parts = append(parts, c.expr(a))
	}
	parts = append(parts, ")")
	return cat(parts...).at(call.Pos())
}

// calleeInfo returns the helper a call calls, or nil when it is not a
// function of the package, or a method of it called on the block's
// receiver.
func (c *fnCtx) calleeInfo(call *ast.CallExpr) *fnInfo {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, ok := c.info().Uses[f].(*types.Func)
		if !ok || fn.Pkg() != c.tp.pkg || fn.Signature().Recv() != nil {
			return nil
		}
		return c.b.funcInfo(fn)
	case *ast.SelectorExpr:
		sel := c.info().Selections[f]
		if sel == nil || sel.Kind() != types.MethodVal {
			return nil
		}
		fn := sel.Obj().(*types.Func)
		if fn.Pkg() != c.tp.pkg {
			return nil
		}
		id, ok := ast.Unparen(f.X).(*ast.Ident)
		if !ok || c.recv == nil || c.info().Uses[id] != c.recv || len(sel.Index()) != 1 {
			return nil
		}
		return c.b.funcInfo(fn)
	}
	return nil
}

func (c *fnCtx) whyNotCallable(call *ast.CallExpr) string {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		switch obj := c.info().Uses[f].(type) {
		case *types.Func:
			if obj.Pkg() != c.tp.pkg {
				return "outside the package"
			}
		case *types.Var:
			return "a call through a function value is not modelled"
		}
	case *ast.SelectorExpr:
		if sel := c.info().Selections[f]; sel != nil {
			if sel.Kind() == types.FieldVal {
				return "a call through a function value is not modelled"
			}
			if fn, ok := sel.Obj().(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "sync" {
				return "locking inside an atomic block is not modelled"
			}
			if fn, ok := sel.Obj().(*types.Func); ok && fn.Pkg() != c.tp.pkg {
				return "outside the package"
			}
			if types.IsInterface(sel.Recv()) {
				return "a method of an interface: interfaces are not modelled"
			}
			return "a method called on another value than the block's receiver (it may alias)"
		}
		return "outside the package"
	case *ast.FuncLit:
		return "function literal: closures are not modelled"
	}
	return "not modelled"
}

// ---- places ----

// placeOf resolves an expression naming shared state (the receiver's
// fields, package variables, their fields and array elements) or a part
// of a local struct.
func (c *fnCtx) placeOf(e ast.Expr) (place, bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := c.info().Uses[x]
		if obj == nil {
			return place{}, false
		}
		if c.recv != nil && obj == c.recv {
			r := c.b.rootOf(c.recvT)
			c.roots[r] = true
			return place{r: r, t: c.recvT.Type(), pos: x.Pos()}, true
		}
		if isPkgVar(obj) {
			if obj.Pkg() != c.tp.pkg {
				c.fail(x.Pos(), "variable of another package")
			}
			r := c.b.rootOf(obj)
			c.roots[r] = true
			return place{r: r, t: obj.Type(), pos: x.Pos()}, true
		}
		if lv := c.locals[obj]; lv != nil {
			return place{local: lv, t: obj.Type(), pos: x.Pos()}, true
		}
		return place{}, false
	case *ast.SelectorExpr:
		sel := c.info().Selections[x]
		if sel == nil {
			if id, ok := x.X.(*ast.Ident); ok {
				if _, isPkg := c.info().Uses[id].(*types.PkgName); isPkg {
					c.fail(x.Pos(), "%s: state of another package is not modelled", types.ExprString(x))
				}
			}
			return place{}, false
		}
		if sel.Kind() != types.FieldVal {
			c.fail(x.Sel.Pos(), "method value %s is not modelled", types.ExprString(x))
		}
		base, ok := c.placeOf(x.X)
		if !ok {
			c.fail(x.Pos(), "field of %s, which is not modelled", types.ExprString(x.X))
		}
		t := base.t
		for k, i := range sel.Index() {
			if ptr, isPtr := t.Underlying().(*types.Pointer); isPtr {
				if k > 0 || len(base.path) > 0 || base.local != nil || base.r == nil || c.recvT == nil || base.r.key != types.Object(c.recvT) {
					c.fail(x.Pos(), "field through a pointer: pointers are not modelled")
				}
				t = ptr.Elem()
			}
			st, isStruct := t.Underlying().(*types.Struct)
			if !isStruct {
				c.fail(x.Pos(), "field of %s is not modelled", t)
			}
			f := st.Field(i)
			if isMutex(f.Type()) {
				c.fail(x.Pos(), "use of the mutex %s inside the block", types.ExprString(x))
			}
			base = base.with(i, f.Name(), f.Type())
			t = f.Type()
		}
		return base, true
	case *ast.IndexExpr:
		switch mt := c.info().TypeOf(x.X).Underlying().(type) {
		case *types.Map:
			base, ok := c.placeOf(x.X)
			if !ok {
				c.fail(x.Pos(), "index of %s, which is not modelled", types.ExprString(x.X))
			}
			return c.mapElem(x, base, mt), true
		case *types.Slice:
			base, ok := c.placeOf(x.X)
			if !ok {
				c.fail(x.Pos(), "slice index: index of %s, which is not modelled", types.ExprString(x.X))
			}
			return c.sliceElem(x, base, mt), true
		case *types.Pointer:
			c.fail(x.Pos(), "index through a pointer: pointers are not modelled")
		}
		base, ok := c.placeOf(x.X)
		if !ok {
			c.fail(x.Pos(), "index of %s, which is not modelled", types.ExprString(x.X))
		}
		u, isArr := base.t.Underlying().(*types.Array)
		if !isArr {
			c.fail(x.Pos(), "index of %s is not modelled", base.t)
		}
		if base.local != nil {
			c.fail(x.Pos(), "local arrays are not modelled")
		}
		if base.idx != nil {
			c.fail(x.Pos(), "arrays of arrays are not modelled")
		}
		return base.index(c.expr(x.Index), x.Index, u), true
	case *ast.StarExpr:
		c.fail(x.Pos(), "pointer dereference: pointers are not modelled")
	}
	return place{}, false
}

func (p place) index(idx frag, e ast.Expr, arr *types.Array) place {
	q := p.with(-1, "", arr.Elem())
	q.idx = &idx
	q.idxE = e
	q.size = arr.Len()
	return q
}

// placeValue reads a scalar place.
func (c *fnCtx) placeValue(pos token.Pos, p place) frag {
	sc, reason := scalarOf(p.t)
	if reason != "" {
		c.fail(pos, "%s", reason)
	}
	return c.placeValueSc(pos, p, sc)
}

func (c *fnCtx) placeValueSc(pos token.Pos, p place, sc scalar) frag {
	if p.local != nil {
		return fr(p.local.blk[c.localLeaf(p, leaf{})]).at(pos)
	}
	g := c.b.globalFor(c, p, sc)
	v := c.access(g, p).at(pos)
	if g.array() && sc.isBool {
		return cat("(", v, " != 0)")
	}
	return v
}

// access is the IR text of a global at a place: the variable or the
// element.
func (c *fnCtx) access(g *global, p place) frag {
	c.globals[g] = true
	if g.array() {
		return cat(g.blk, "[", *p.idx, "]")
	}
	return fr(g.blk)
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex.
func isMutex(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

var _ = strings.Repeat

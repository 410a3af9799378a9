package gofront

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// unsup is a construct the front end does not model, with its position:
// it makes the block that holds it (or calls the func that holds it)
// unknown.
type unsup struct {
	pos token.Pos
	msg string
}

// localVar is a Go local lowered to one IR local per scalar leaf.
type localVar struct {
	blk    []string
	leaves []leaf
}

// target is what break and continue jump to: a loop or a switch.
type target struct {
	label     string
	loop      bool
	brk, cont string // flag locals
	usedBrk   bool
	usedCont  bool
}

// fnCtx lowers one Go function body: an atomic block's (a proc) or a
// helper's (a func).
type fnCtx struct {
	b      *builder
	tp     *typedPkg
	recv   *types.Var
	recvT  *types.TypeName
	locals map[types.Object]*localVar
	names  map[string]bool
	disp   map[string]string // local blk name -> display name
	buf    [][]frag
	depth  int

	proc     bool
	results  []*localVar
	retFlag  string
	retUsed  bool
	resultT  *scalar // helper funcs: the result type (nil: none)
	targets  []*target
	ntmp     int
	topCall  *ast.CallExpr
	writes   token.Pos // first write of shared state (NoPos: none)
	roots    map[*root]bool
	globals  map[*global]bool
	calls    map[*fnInfo]bool
	helperOf string // in a helper: its name, for messages
	// pinned holds the values of the index operands on the left of a
	// parallel assignment, read before any of its assignments.
	pinned map[ast.Expr]frag
}

func (c *fnCtx) info() *types.Info { return c.tp.info }

func (c *fnCtx) fail(pos token.Pos, format string, args ...any) {
	panic(unsup{pos, fmt.Sprintf(format, args...)})
}

// line appends one line of the body at the current depth.
func (c *fnCtx) line(pos token.Pos, parts ...any) {
	f := cat(parts...).at(pos)
	f = cat(strings.Repeat("  ", c.depth+1), f)
	top := len(c.buf) - 1
	c.buf[top] = append(c.buf[top], f)
}

func (c *fnCtx) push()       { c.buf = append(c.buf, nil) }
func (c *fnCtx) pop() []frag { top := c.buf[len(c.buf)-1]; c.buf = c.buf[:len(c.buf)-1]; return top }
func (c *fnCtx) emit(fs []frag) {
	top := len(c.buf) - 1
	c.buf[top] = append(c.buf[top], fs...)
}

// fresh returns an unused IR local name derived from a Go name.
func (c *fnCtx) fresh(name string) string {
	base := "L_" + name
	n := base
	for k := 2; c.names[n]; k++ {
		n = fmt.Sprintf("%s_%d", base, k)
	}
	c.names[n] = true
	return n
}

func (c *fnCtx) tmp() string {
	c.ntmp++
	n := fmt.Sprintf("T_%d", c.ntmp)
	c.names[n] = true
	return n
}

// declare makes the IR locals of a Go local.
func (c *fnCtx) declare(obj types.Object, pos token.Pos) *localVar {
	ls, reason := leavesOf(obj.Type())
	if reason != "" {
		c.fail(pos, "local %s: %s", obj.Name(), reason)
	}
	lv := &localVar{leaves: ls}
	for _, l := range ls {
		goName := obj.Name()
		if len(l.names) > 0 {
			goName += "." + strings.Join(l.names, ".")
		}
		n := c.fresh(strings.ReplaceAll(goName, ".", "_"))
		c.disp[n] = c.displayLocal(goName)
		lv.blk = append(lv.blk, n)
	}
	c.locals[obj] = lv
	return lv
}

// displayLocal names a local as constraints show it: its Go name, with a
// suffix when an earlier local of the body or a package variable has it.
func (c *fnCtx) displayLocal(name string) string {
	taken := func(s string) bool {
		if c.b.pkgVarNames[s] {
			return true
		}
		for _, d := range c.disp {
			if d == s {
				return true
			}
		}
		return false
	}
	out := name
	for k := 2; taken(out); k++ {
		out = fmt.Sprintf("%s_%d", name, k)
	}
	return out
}

// ---- statements ----

// stmts lowers a statement list; after a statement that may jump (set a
// flag), the rest runs only where no flag is set. It returns the flags the
// list may leave set.
func (c *fnCtx) stmts(list []ast.Stmt) []string {
	for i, s := range list {
		flags := c.stmt(s)
		if len(flags) == 0 {
			continue
		}
		if i+1 < len(list) {
			var conds []string
			for _, f := range flags {
				conds = append(conds, "!"+f)
			}
			c.line(list[i+1].Pos(), "if (", strings.Join(conds, " && "), ") {")
			c.depth++
			more := c.stmts(list[i+1:])
			c.depth--
			c.line(token.NoPos, "}")
			return union(flags, more)
		}
		return flags
	}
	return nil
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

func without(a []string, xs ...string) []string {
	var out []string
	for _, f := range a {
		if !slices.Contains(xs, f) {
			out = append(out, f)
		}
	}
	return out
}

func (c *fnCtx) stmt(s ast.Stmt) []string {
	switch s := s.(type) {
	case *ast.EmptyStmt:
		return nil
	case *ast.BlockStmt:
		return c.stmts(s.List)
	case *ast.ExprStmt:
		c.exprStmt(s)
		return nil
	case *ast.AssignStmt:
		c.assign(s)
		return nil
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		c.opAssign(s.Pos(), s.X, op, &ast.BasicLit{ValuePos: s.TokPos, Kind: token.INT, Value: "1"})
		return nil
	case *ast.DeclStmt:
		c.declStmt(s)
		return nil
	case *ast.IfStmt:
		return c.ifStmt(s)
	case *ast.ForStmt:
		return c.forStmt(s, "")
	case *ast.RangeStmt:
		return c.rangeStmt(s, "")
	case *ast.SwitchStmt:
		return c.switchStmt(s, "")
	case *ast.LabeledStmt:
		switch inner := s.Stmt.(type) {
		case *ast.ForStmt:
			return c.forStmt(inner, s.Label.Name)
		case *ast.RangeStmt:
			return c.rangeStmt(inner, s.Label.Name)
		case *ast.SwitchStmt:
			return c.switchStmt(inner, s.Label.Name)
		}
		return c.stmt(s.Stmt)
	case *ast.ReturnStmt:
		return c.returnStmt(s)
	case *ast.BranchStmt:
		return c.branch(s)
	case *ast.GoStmt:
		c.fail(s.Pos(), "go statement: goroutines are not modelled")
	case *ast.SendStmt:
		c.fail(s.Pos(), "channel send: channels are not modelled")
	case *ast.SelectStmt:
		c.fail(s.Pos(), "select statement: channels are not modelled")
	case *ast.DeferStmt:
		c.fail(s.Pos(), "defer statement: only the deferred unlock of the block's mutex is modelled")
	case *ast.TypeSwitchStmt:
		c.fail(s.Pos(), "type switch: interfaces are not modelled")
	}
	c.fail(s.Pos(), "%T statement is not modelled", s)
	return nil
}

func (c *fnCtx) exprStmt(s *ast.ExprStmt) {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		c.fail(s.Pos(), "expression statement is not modelled")
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := c.info().Uses[id].(*types.Builtin); ok && b.Name() == "delete" {
			c.mapDelete(call)
			return
		}
		if b, ok := c.info().Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			for _, a := range call.Args {
				if _, r := scalarOf(c.info().TypeOf(a)); r == "" {
					c.expr(a) // evaluated before the panic
				}
			}
			c.line(s.Pos(), "int ", c.tmp(), " = 1 / 0;")
			return
		}
	}
	c.topCall = call
	f := c.callExpr(call, true)
	c.line(s.Pos(), f, ";")
}

func (c *fnCtx) declStmt(s *ast.DeclStmt) {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok {
		return
	}
	if gd.Tok != token.VAR {
		return // constants are folded, types need no code
	}
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		if len(vs.Names) == 2 && len(vs.Values) == 1 {
			if ix := c.mapIndexOf(vs.Values[0]); ix != nil {
				c.assignCommaOk(vs.Pos(), []ast.Expr{vs.Names[0], vs.Names[1]}, ix, true)
				continue
			}
		}
		if len(vs.Values) > 0 && len(vs.Values) != len(vs.Names) {
			c.fail(vs.Pos(), "declaration of several variables from one call is not modelled")
		}
		var vals [][]frag
		for i := range vs.Values {
			vals = append(vals, c.valuesOf(vs.Values[i], c.info().TypeOf(vs.Names[i]), len(vs.Names) == 1))
		}
		if len(vs.Names) > 1 && len(vals) > 0 {
			vals = c.toTemps(vs.Pos(), vals, vs.Names)
		}
		for i, n := range vs.Names {
			obj := c.info().Defs[n]
			if obj == nil || n.Name == "_" {
				continue
			}
			lv := c.declare(obj, n.Pos())
			for k, name := range lv.blk {
				val := zero(lv.leaves[k].sc)
				if vals != nil {
					val = vals[i][k]
				}
				c.line(n.Pos(), lv.leaves[k].sc.blkType(), " ", name, " = ", val, ";")
			}
		}
	}
}

func zero(sc scalar) frag {
	if sc.isBool {
		return fr("false")
	}
	return fr("0")
}

// toTemps stores values in temporaries, for a parallel assignment.
func (c *fnCtx) toTemps(pos token.Pos, vals [][]frag, lhs []*ast.Ident) [][]frag {
	out := make([][]frag, len(vals))
	for i, v := range vals {
		t := c.info().TypeOf(lhs[i])
		ls, _ := leavesOf(t)
		for k, f := range v {
			n := c.tmp()
			c.line(pos, ls[k].sc.blkType(), " ", n, " = ", f, ";")
			out[i] = append(out[i], fr(n))
		}
	}
	return out
}

func (c *fnCtx) assign(s *ast.AssignStmt) {
	switch s.Tok {
	case token.ASSIGN, token.DEFINE:
	default:
		op, ok := map[token.Token]token.Token{token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB,
			token.MUL_ASSIGN: token.MUL, token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM}[s.Tok]
		if !ok {
			c.fail(s.TokPos, "operator %s: bitwise operations are not modelled", s.Tok)
		}
		c.opAssign(s.Pos(), s.Lhs[0], op, s.Rhs[0])
		return
	}
	if len(s.Lhs) == 1 && len(s.Rhs) == 1 && s.Tok == token.ASSIGN {
		if call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr); ok && c.isBuiltin(call, "append") {
			c.sliceAppend(s.Lhs[0], call)
			return
		}
	}
	if len(s.Lhs) == 2 && len(s.Rhs) == 1 {
		if ix := c.mapIndexOf(s.Rhs[0]); ix != nil {
			c.assignCommaOk(s.Pos(), s.Lhs, ix, s.Tok == token.DEFINE)
			return
		}
	}
	if len(s.Lhs) != len(s.Rhs) {
		c.fail(s.Pos(), "assignment of several results of one expression is not modelled")
	}
	single := len(s.Lhs) == 1
	var vals [][]frag
	for i, r := range s.Rhs {
		t := c.info().TypeOf(s.Lhs[i])
		if id, ok := s.Lhs[i].(*ast.Ident); ok && id.Name == "_" {
			t = c.info().TypeOf(r)
		}
		vals = append(vals, c.valuesOf(r, t, single && c.simpleTarget(s.Lhs[i])))
	}
	if !single {
		// Go evaluates the index operands on the left and every
		// right-hand side before it assigns any: x, a[x] = 1, 2 sets the
		// element of x's old value.
		c.pinIndices(s.Pos(), s.Lhs)
		defer func() { c.pinned = nil }()
		for i, v := range vals {
			ls, _ := leavesOf(c.info().TypeOf(s.Rhs[i]))
			for k, f := range v {
				n := c.tmp()
				c.line(s.Pos(), ls[k].sc.blkType(), " ", n, " = ", f, ";")
				vals[i][k] = fr(n)
			}
		}
	}
	for i, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			if id.Name == "_" {
				// The value is dropped; a call in it has run (toTemps or a
				// statement of its own).
				if single {
					if _, isCall := ast.Unparen(s.Rhs[0]).(*ast.CallExpr); isCall {
						ls, _ := leavesOf(c.info().TypeOf(s.Rhs[0]))
						for k, f := range vals[0] {
							c.line(s.Pos(), ls[k].sc.blkType(), " ", c.tmp(), " = ", f, ";")
						}
					}
				}
				continue
			}
			if obj := c.info().Defs[id]; obj != nil {
				lv := c.declare(obj, id.Pos())
				for k, name := range lv.blk {
					c.line(id.Pos(), lv.leaves[k].sc.blkType(), " ", name, " = ", vals[i][k], ";")
				}
				continue
			}
		}
		c.store(s.Pos(), l, vals[i])
	}
}

// pinIndices stores the index operands of the places in lhs that are
// not constants in temporaries, which lowering the places reads instead.
func (c *fnCtx) pinIndices(pos token.Pos, lhs []ast.Expr) {
	if c.pinned == nil {
		c.pinned = map[ast.Expr]frag{}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		ix, ok := n.(*ast.IndexExpr)
		if !ok {
			return true
		}
		ast.Inspect(ix.X, visit)
		if c.info().Types[ix.Index].Value != nil {
			return false
		}
		sc, reason := scalarOf(c.info().TypeOf(ix.Index))
		if reason != "" {
			c.fail(ix.Index.Pos(), "%s", reason)
		}
		v := c.expr(ix.Index)
		n1 := c.tmp()
		c.line(pos, sc.blkType(), " ", n1, " = ", v, ";")
		c.pinned[ix.Index] = fr(n1)
		return false
	}
	for _, l := range lhs {
		ast.Inspect(l, visit)
	}
}

// assignCommaOk lowers v, ok = m[k] (:= when define; a var declaration
// too).
func (c *fnCtx) assignCommaOk(pos token.Pos, lhs []ast.Expr, ix *ast.IndexExpr, define bool) {
	for _, l := range lhs {
		if !c.simpleTarget(l) {
			c.fail(l.Pos(), "assignment to %s from a map lookup: Go leaves the order of evaluation open", types.ExprString(l))
		}
	}
	vals, ok := c.commaOk(pos, ix)
	for i, l := range lhs {
		v := vals
		if i == 1 {
			v = []frag{ok}
		}
		if id, isID := l.(*ast.Ident); isID {
			if id.Name == "_" {
				continue
			}
			if obj := c.info().Defs[id]; obj != nil && define {
				lv := c.declare(obj, id.Pos())
				for k, name := range lv.blk {
					c.line(id.Pos(), lv.leaves[k].sc.blkType(), " ", name, " = ", v[k], ";")
				}
				continue
			}
		}
		c.store(pos, l, v)
	}
}

// simpleTarget reports whether an assignment to l may take a call that
// writes shared state as its value: Go leaves open whether l's index
// operands are read before or after the call, so they must not read
// shared state.
func (c *fnCtx) simpleTarget(l ast.Expr) bool {
	ok := true
	ast.Inspect(l, func(n ast.Node) bool {
		if ix, isIx := n.(*ast.IndexExpr); isIx && c.readsShared(ix.Index) {
			ok = false
		}
		return ok
	})
	return ok
}

// readsShared reports whether e mentions the receiver or a package
// variable.
func (c *fnCtx) readsShared(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			obj := c.info().Uses[id]
			if obj != nil && (obj == c.recv || isPkgVar(obj)) {
				found = true
			}
		}
		return !found
	})
	return found
}

func isPkgVar(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// store assigns the leaf values vals to the location l.
func (c *fnCtx) store(pos token.Pos, l ast.Expr, vals []frag) {
	l = ast.Unparen(l)
	if id, ok := l.(*ast.Ident); ok {
		if lv := c.locals[c.info().Uses[id]]; lv != nil {
			for k, name := range lv.blk {
				c.line(pos, name, " = ", vals[k], ";")
			}
			return
		}
	}
	p, ok := c.placeOf(l)
	if !ok {
		c.fail(l.Pos(), "assignment to %s is not modelled", types.ExprString(l))
	}
	c.wrote(l.Pos(), p)
	if p.mapBase != nil {
		c.mapStore(pos, p, vals)
		return
	}
	if p.local != nil {
		ls, _ := leavesOf(p.t)
		for k, lf := range ls {
			c.line(pos, p.local.blk[c.localLeaf(p, lf)], " = ", vals[k], ";")
		}
		return
	}
	if p.idx != nil && len(vals) > 1 && !c.pure(p.idxE) {
		n := c.tmp()
		c.line(pos, "int ", n, " = ", *p.idx, ";")
		f := fr(n)
		p.idx = &f
	}
	ls, reason := leavesOf(p.t)
	if reason != "" {
		c.fail(l.Pos(), "%s", reason)
	}
	c.storeLeaves(pos, p, ls, vals)
}

// localLeaf finds the leaf of a local struct place.
func (c *fnCtx) localLeaf(p place, lf leaf) int {
	full := append(slices.Clone(p.path), lf.path...)
	for k, l := range p.local.leaves {
		if slices.Equal(l.path, full) {
			return k
		}
	}
	c.fail(p.pos, "internal: no leaf")
	return 0
}

// wrote records a write of shared state.
func (c *fnCtx) wrote(pos token.Pos, p place) {
	if p.local == nil && c.writes == token.NoPos {
		c.writes = pos
	}
}

// opAssign lowers x op= y (and x++, x--).
func (c *fnCtx) opAssign(pos token.Pos, x ast.Expr, op token.Token, y ast.Expr) {
	t := c.info().TypeOf(x)
	sc, reason := scalarOf(t)
	if reason != "" {
		c.fail(x.Pos(), "%s", reason)
	}
	x = ast.Unparen(x)
	if id, ok := x.(*ast.Ident); ok {
		if lv := c.locals[c.info().Uses[id]]; lv != nil {
			v := c.arith(pos, op, fr(lv.blk[0]), c.expr(y), sc)
			c.line(pos, lv.blk[0], " = ", v, ";")
			return
		}
	}
	p, ok := c.placeOf(x)
	if !ok || p.local != nil {
		if ok && p.local != nil {
			ls := p.local.leaves
			_ = ls
			k := c.localLeaf(p, leaf{})
			v := c.arith(pos, op, fr(p.local.blk[k]), c.expr(y), sc)
			c.line(pos, p.local.blk[k], " = ", v, ";")
			return
		}
		c.fail(x.Pos(), "assignment to %s is not modelled", types.ExprString(x))
	}
	c.wrote(x.Pos(), p)
	if p.mapBase != nil {
		// m[k] op= y is m[k] = m[k] op y, k evaluated once; an absent
		// key reads zero, and a nil map panics when it is written.
		p = c.mapIndexTmp(pos, p)
		v := c.arith(pos, op, c.placeValueSc(pos, p, sc), c.expr(y), sc)
		c.mapStore(pos, p, []frag{v})
		return
	}
	if p.idx != nil && !c.pure(p.idxE) {
		n := c.tmp()
		c.line(pos, "int ", n, " = ", *p.idx, ";")
		f := fr(n)
		p.idx = &f
	}
	g := c.b.globalFor(c, p, sc)
	cur := c.access(g, p)
	v := c.arith(pos, op, cur, c.expr(y), sc)
	c.line(pos, cur, " = ", v, ";")
}

func (c *fnCtx) ifStmt(s *ast.IfStmt) []string {
	if s.Init != nil {
		c.stmt(s.Init)
	}
	cond := c.topExpr(s.Cond)
	c.line(s.Pos(), "if (", cond, ") {")
	c.depth++
	flags := c.stmts(s.Body.List)
	c.depth--
	if s.Else != nil {
		c.line(s.Else.Pos(), "} else {")
		c.depth++
		flags = union(flags, c.stmt(s.Else))
		c.depth--
	}
	c.line(token.NoPos, "}")
	return flags
}

// topExpr lowers an expression that stands alone in its statement: a call
// that writes shared state may be it.
func (c *fnCtx) topExpr(e ast.Expr) frag {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		c.topCall = call
	}
	return c.expr(e)
}

func (c *fnCtx) newTarget(label string, loop bool) *target {
	t := &target{label: label, loop: loop, brk: c.tmp()}
	if loop {
		t.cont = c.tmp()
	}
	c.targets = append(c.targets, t)
	return t
}

// loopCond is the condition of a lowered loop: no flag that leaves it set,
// then cond.
func loopCond(flags []string, cond frag) frag {
	var parts []any
	for _, f := range flags {
		parts = append(parts, "!"+f+" && ")
	}
	parts = append(parts, cond)
	return cat(parts...)
}

// loop lowers a loop whose body is lowered by body and whose condition is
// cond (already lowered, evaluated before each round), post running after
// each round.
func (c *fnCtx) loop(pos token.Pos, label string, cond func() frag, body func() []string, post func()) []string {
	t := c.newTarget(label, true)
	c.push()
	c.depth++
	c.push()
	flags := body()
	bodyLines := c.pop()
	if t.usedCont {
		c.line(pos, "bool ", t.cont, " = false;")
	}
	c.emit(bodyLines)
	out := without(flags, t.brk, t.cont)
	if post != nil {
		if len(out) > 0 || t.usedBrk {
			guard := without(flags, t.cont)
			var conds []string
			for _, f := range guard {
				conds = append(conds, "!"+f)
			}
			c.line(pos, "if (", strings.Join(conds, " && "), ") {")
			c.depth++
			post()
			c.depth--
			c.line(token.NoPos, "}")
		} else {
			post()
		}
	}
	c.depth--
	inner := c.pop()
	c.targets = c.targets[:len(c.targets)-1]
	if t.usedBrk {
		c.line(pos, "bool ", t.brk, " = false;")
	}
	stop := out
	if t.usedBrk {
		stop = union(stop, []string{t.brk})
	}
	c.line(pos, "while (", loopCond(stop, cond()), ") {")
	c.emit(inner)
	c.line(token.NoPos, "}")
	return out
}

func (c *fnCtx) forStmt(s *ast.ForStmt, label string) []string {
	if s.Init != nil {
		c.stmt(s.Init)
	}
	var post func()
	if s.Post != nil {
		post = func() { c.stmt(s.Post) }
	}
	// The condition is lowered once, where the while statement is written:
	// the positions of its parts come out in order.
	cond := func() frag {
		if s.Cond == nil {
			return fr("true")
		}
		return c.expr(s.Cond)
	}
	return c.loop(s.Pos(), label, cond, func() []string { return c.stmts(s.Body.List) }, post)
}

func (c *fnCtx) rangeStmt(s *ast.RangeStmt, label string) []string {
	xt := c.info().TypeOf(s.X)
	var n frag
	var arr *place
	switch u := xt.Underlying().(type) {
	case *types.Basic:
		if _, reason := scalarOf(xt); reason != "" || u.Info()&types.IsInteger == 0 {
			c.fail(s.X.Pos(), "range over %s is not modelled", xt)
		}
		if tv := c.info().Types[s.X]; tv.Value != nil {
			n = c.expr(s.X)
		} else {
			t := c.tmp()
			c.line(s.Pos(), "int ", t, " = ", c.expr(s.X), ";")
			n = fr(t)
		}
	case *types.Array:
		if s.Value != nil {
			p, ok := c.placeOf(s.X)
			if !ok || p.local != nil || p.idx != nil {
				c.fail(s.X.Pos(), "range over this array is not modelled")
			}
			arr = &p
		}
		n = fr(strconv.FormatInt(u.Len(), 10))
	case *types.Map:
		c.fail(s.Pos(), "range over a map: map iteration is not modelled")
	case *types.Slice:
		c.fail(s.Pos(), "range over a slice: slices are not modelled")
	case *types.Chan:
		c.fail(s.Pos(), "range over a channel: channels are not modelled")
	default:
		c.fail(s.Pos(), "range over %s is not modelled", xt)
	}
	if arr != nil && c.bodyWrites(s.Body, s.X) {
		c.fail(s.Pos(), "range over an array the loop writes (Go ranges over a copy)")
	}
	k := c.tmp()
	c.line(s.Pos(), "int ", k, " = 0;")
	body := func() []string {
		c.rangeVar(s, s.Key, fr(k))
		if s.Value != nil {
			p := *arr
			idx := fr(k)
			p = p.index(idx, ast.NewIdent(k), p.t.Underlying().(*types.Array))
			if id, ok := s.Value.(*ast.Ident); !ok || id.Name != "_" {
				c.rangeVar(s, s.Value, c.placeValue(s.Value.Pos(), p))
			}
		}
		return c.stmts(s.Body.List)
	}
	post := func() { c.line(s.Pos(), k, " = ", k, " + 1;") }
	return c.loop(s.Pos(), label, func() frag { return cat(k, " < ", n) }, body, post)
}

func (c *fnCtx) rangeVar(s *ast.RangeStmt, e ast.Expr, val frag) {
	if e == nil {
		return
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		c.fail(e.Pos(), "range into %s is not modelled", types.ExprString(e))
	}
	if id.Name == "_" {
		return
	}
	if s.Tok == token.DEFINE {
		obj := c.info().Defs[id]
		lv := c.declare(obj, id.Pos())
		if len(lv.blk) != 1 {
			c.fail(id.Pos(), "range over an array of structs is not modelled")
		}
		c.line(id.Pos(), lv.leaves[0].sc.blkType(), " ", lv.blk[0], " = ", val, ";")
		return
	}
	c.store(id.Pos(), id, []frag{val})
}

// bodyWrites reports whether a loop body may assign to (a part of) x.
func (c *fnCtx) bodyWrites(body *ast.BlockStmt, x ast.Expr) bool {
	xs := types.ExprString(x)
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if strings.HasPrefix(types.ExprString(l), xs) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if strings.HasPrefix(types.ExprString(n.X), xs) {
				found = true
			}
		case *ast.CallExpr:
			if fi := c.calleeInfo(n); fi != nil && fi.writes {
				found = true
			}
		}
		return !found
	})
	return found
}

func (c *fnCtx) switchStmt(s *ast.SwitchStmt, label string) []string {
	if s.Init != nil {
		c.stmt(s.Init)
	}
	var tag frag
	var tagT types.Type
	if s.Tag != nil {
		tagT = c.info().TypeOf(s.Tag)
		sc, reason := scalarOf(tagT)
		if reason != "" {
			c.fail(s.Tag.Pos(), "switch on %s", reason)
		}
		t := c.tmp()
		c.line(s.Tag.Pos(), sc.blkType(), " ", t, " = ", c.topExpr(s.Tag), ";")
		tag = fr(t)
	}
	var def *ast.CaseClause
	var cases []*ast.CaseClause
	for _, st := range s.Body.List {
		cc := st.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
		} else {
			cases = append(cases, cc)
		}
		for _, b := range cc.Body {
			if br, ok := b.(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				c.fail(br.Pos(), "fallthrough is not modelled")
			}
		}
	}
	t := c.newTarget(label, false)
	c.push()
	var flags []string
	opened := 0
	for _, cc := range cases {
		var parts []any
		for i, e := range cc.List {
			if i > 0 {
				parts = append(parts, " || ")
			}
			if s.Tag != nil {
				parts = append(parts, cat("(", tag, " == ", c.expr(e), ")").at(e.Pos()))
			} else {
				parts = append(parts, cat("(", c.expr(e), ")"))
			}
		}
		if opened > 0 {
			c.line(cc.Pos(), "} else {")
			c.depth++
		}
		c.line(cc.Pos(), "if (", cat(parts...), ") {")
		c.depth++
		flags = union(flags, c.stmts(cc.Body))
		c.depth--
		opened++
	}
	if def != nil {
		if opened > 0 {
			c.line(def.Pos(), "} else {")
			c.depth++
		}
		flags = union(flags, c.stmts(def.Body))
		if opened > 0 {
			c.depth--
		}
	}
	for i := 0; i < opened; i++ {
		c.line(token.NoPos, "}")
		if i < opened-1 {
			c.depth--
		}
	}
	inner := c.pop()
	c.targets = c.targets[:len(c.targets)-1]
	if t.usedBrk {
		c.line(s.Pos(), "bool ", t.brk, " = false;")
	}
	c.emit(inner)
	return without(flags, t.brk)
}

func (c *fnCtx) branch(s *ast.BranchStmt) []string {
	if s.Tok == token.GOTO || s.Tok == token.FALLTHROUGH {
		c.fail(s.Pos(), "%s is not modelled", s.Tok)
	}
	for i := len(c.targets) - 1; i >= 0; i-- {
		t := c.targets[i]
		if s.Label != nil && t.label != s.Label.Name {
			continue
		}
		if s.Tok == token.CONTINUE && !t.loop {
			continue
		}
		if s.Tok == token.BREAK {
			t.usedBrk = true
			c.line(s.Pos(), t.brk, " = true;")
			return []string{t.brk}
		}
		t.usedCont = true
		c.line(s.Pos(), t.cont, " = true;")
		return []string{t.cont}
	}
	c.fail(s.Pos(), "%s outside a loop", s.Tok)
	return nil
}

func (c *fnCtx) returnStmt(s *ast.ReturnStmt) []string {
	if !c.proc {
		switch {
		case len(s.Results) == 0 && c.resultT != nil:
			c.fail(s.Pos(), "bare return of named results in a helper is not modelled")
		case len(s.Results) == 0:
			c.line(s.Pos(), "return;")
		default:
			c.line(s.Pos(), "return ", c.topExpr(s.Results[0]), ";")
		}
		return nil
	}
	if len(c.results) == 0 {
		c.line(s.Pos(), "return;")
		return nil
	}
	if len(s.Results) > 0 {
		if len(s.Results) != len(c.results) {
			c.fail(s.Pos(), "return of a call with several results is not modelled")
		}
		var vals []frag
		for i, r := range s.Results {
			v := c.topExpr(r)
			if len(s.Results) > 1 {
				n := c.tmp()
				c.line(s.Pos(), c.results[i].leaves[0].sc.blkType(), " ", n, " = ", v, ";")
				v = fr(n)
			}
			vals = append(vals, v)
		}
		for i, v := range vals {
			c.line(s.Pos(), c.results[i].blk[0], " = ", v, ";")
		}
	}
	c.retUsed = true
	c.line(s.Pos(), c.retFlag, " = true;")
	return []string{c.retFlag}
}

// ---- expressions ----

package gofront

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// commuteDirective starts a declared independence constraint in a Go
// comment: //icgen:commute A B [when COND].
const commuteDirective = "//icgen:commute"

// Commute is a //icgen:commute declaration of the Go code: calls of
// blocks A and B commute wherever Cond holds (always, without a
// condition). Decl is its IR form, one of Prog.Commutes, which icgen check
// proves as it proves a .blk program's declarations; it is nil when a
// block of the pair is not modelled, and Unknown then says why.
type Commute struct {
	Pos     lang.Pos // of the comment
	Text    string   // the declaration as written: "//icgen:commute ..."
	Cond    string   // its condition as written ("true" without one)
	A, B    string   // block ids
	Decl    *lang.Commute
	Unknown string
	_       struct{}
}

// One constructor per message of a declaration.

func errCommuteBlocks(p lang.Pos) *lang.Error {
	return &lang.Error{Pos: p, Msg: "//icgen:commute needs two blocks: //icgen:commute A B [when COND]"}
}
func errCommuteWhen(p lang.Pos, word string) *lang.Error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf("expected \"when\" after the two blocks, found %q", word)}
}
func errCommuteNoCond(p lang.Pos) *lang.Error {
	return &lang.Error{Pos: p, Msg: "\"when\" needs a condition"}
}
func errCommuteUnknown(p lang.Pos, name, pkg string, ids []string) *lang.Error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf("no atomic block %s in package %s (its blocks: %s)", name, pkg, strings.Join(ids, ", "))}
}
func errCommuteAmbiguous(p lang.Pos, name string, ids []string) *lang.Error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf("%s names several blocks (%s): write Type.Method", name, strings.Join(ids, ", "))}
}
func errCommuteName(p lang.Pos, name, what string) *lang.Error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf("%s would name both %s and another variable of the condition", name, what)}
}
func errCommuteNotBool(p lang.Pos, t types.Type) *lang.Error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf("the condition is of type %s, not bool", t)}
}
func errCommuteUnsupported(p lang.Pos, what, why string) *lang.Error {
	msg := what + " is not supported in a commute condition"
	if why != "" {
		msg += ": " + why
	}
	return &lang.Error{Pos: p, Msg: msg}
}
func errCommuteNotState(p lang.Pos, x string) *lang.Error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf("%s is not state that a modelled block reads or writes", x)}
}
func errCommuteNotLive(p lang.Pos, name, block string) *lang.Error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf("parameter %s of %s is not read by the block (a commute condition reads only the parameters its blocks read)", name, block)}
}

// errCommuteGo is a message of the Go parser or type checker.
func errCommuteGo(p lang.Pos, msg string) *lang.Error {
	return &lang.Error{Pos: p, Msg: msg}
}

// commutes reads the //icgen:commute declarations of every file of the
// packages, in file order, and adds the IR form of each to prog.
func (b *builder) commutes(prog *lang.Program, srcs []*blockSrc) ([]Commute, lang.ErrorList) {
	var out []Commute
	var errs lang.ErrorList
	for _, tp := range b.pkgs {
		files := append([]*ast.File{}, tp.files...)
		sort.Slice(files, func(i, j int) bool {
			return b.fset.File(files[i].Pos()).Name() < b.fset.File(files[j].Pos()).Name()
		})
		for _, f := range files {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					rest, ok := strings.CutPrefix(c.Text, commuteDirective)
					if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
						continue
					}
					cm, err := b.commute(prog, srcs, tp, c)
					if err != nil {
						errs = append(errs, err)
						continue
					}
					if cm.Decl != nil {
						cm.Decl.Index = len(prog.Commutes)
						prog.Commutes = append(prog.Commutes, cm.Decl)
					}
					out = append(out, cm)
				}
			}
		}
	}
	errs.Sort()
	return out, errs
}

// words splits s into its words (runs of characters other than spaces
// and tabs), with their offsets.
func words(s string) (ws []string, offs []int) {
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		ws, offs = append(ws, s[i:j]), append(offs, i)
		i = j
	}
	return ws, offs
}

// commute reads one declaration: its blocks, and its condition,
// type-checked as Go and lowered to the IR.
func (b *builder) commute(prog *lang.Program, srcs []*blockSrc, tp *typedPkg, c *ast.Comment) (Commute, *lang.Error) {
	at := func(off int) lang.Pos { return position(b.fset, c.Slash+token.Pos(off)) }
	cm := Commute{Pos: at(0), Text: strings.TrimRight(c.Text, " \t\r")}
	ws, offs := words(c.Text)
	if len(ws) < 3 {
		return cm, errCommuteBlocks(cm.Pos)
	}
	var condOff int
	switch {
	case len(ws) == 3:
	case ws[3] != "when":
		return cm, errCommuteWhen(at(offs[3]), ws[3])
	case len(ws) == 4:
		return cm, errCommuteNoCond(at(offs[3]))
	default:
		condOff = offs[3] + len("when")
	}
	var pair [2]*blockSrc
	for i := range pair {
		bs, err := b.commuteBlock(srcs, tp, ws[1+i], at(offs[1+i]))
		if err != nil {
			return cm, err
		}
		pair[i] = bs
	}
	cm.A, cm.B, cm.Cond = pair[0].bl.ID, pair[1].bl.ID, "true"
	if condOff > 0 {
		cm.Cond = strings.TrimSpace(c.Text[condOff:])
	}
	for _, bs := range pair {
		if bs.err != nil {
			cm.Unknown = fmt.Sprintf("block %s is not modelled: %s: %s", bs.bl.ID, position(b.fset, bs.err.pos), bs.err.msg)
		}
	}
	a, bb := prog.Block(cm.A), prog.Block(cm.B)
	decl := &lang.Commute{Pos: cm.Pos, A: a, B: bb, Src: cm.Text}
	if condOff > 0 {
		cc := &condCtx{b: b, tp: tp, decl: c.Slash, pos: c.Slash + token.Pos(condOff)}
		cond, err := cc.check(prog, pair, c.Text[condOff:], cm.Unknown == "")
		if err != nil {
			return cm, err
		}
		decl.Cond = cond
	}
	if cm.Unknown == "" {
		if r := b.paramRanges(prog, pair, cm.Pos); r != nil {
			if decl.Cond == nil {
				decl.Cond = r
			} else {
				decl.Cond = &lang.BinaryExpr{At: cm.Pos, Op: lang.OpAnd, X: decl.Cond, Y: r}
			}
		}
		cm.Decl = decl
	}
	return cm, nil
}

// paramRanges is what Go knows of both calls' arguments and the IR does
// not (a parameter of the IR is any integer): each parameter of a narrow
// type that its block reads lies in its type's range. A declaration's
// condition holds in the states Go can be in; with these conjuncts, the
// proof is over exactly those values of the arguments. nil when there is
// none.
func (b *builder) paramRanges(prog *lang.Program, pair [2]*blockSrc, p lang.Pos) lang.Expr {
	var out lang.Expr
	and := func(x lang.Expr) {
		if out == nil {
			out = x
		} else {
			out = &lang.BinaryExpr{At: p, Op: lang.OpAnd, X: out, Y: x}
		}
	}
	for i, bs := range pair {
		pr := prog.Proc(bs.bl.ID)
		if pr == nil {
			continue
		}
		k := 0
		for _, f := range bs.decl.Type.Params.List {
			for _, n := range f.Names {
				if k >= len(pr.Params) {
					break
				}
				v := pr.Params[k]
				k++
				obj := bs.tp.info.Defs[n]
				if obj == nil {
					continue
				}
				sc, reason := scalarOf(obj.Type())
				if reason != "" || !sc.narrow() || !slices.Contains(pr.Blocks[0].Point.Live, v) {
					continue
				}
				lo, hi := sc.bounds()
				ref := &lang.VarRef{At: p, Var: v, Second: i == 1}
				and(&lang.BinaryExpr{At: p, Op: lang.OpLe, X: &lang.IntLit{At: p, Val: lo}, Y: ref})
				and(&lang.BinaryExpr{At: p, Op: lang.OpLe, X: ref, Y: &lang.IntLit{At: p, Val: hi}})
			}
		}
	}
	return out
}

// commuteBlock resolves a block named in a declaration: by its id (with
// or without its package's name when the pattern holds several), or by
// the name of its function when that names one block of the package.
func (b *builder) commuteBlock(srcs []*blockSrc, tp *typedPkg, name string, p lang.Pos) (*blockSrc, *lang.Error) {
	var ids []string
	var byFunc []*blockSrc
	for _, bs := range srcs {
		if bs.tp != tp {
			continue
		}
		id := bs.bl.ID
		if id == name || b.multi && strings.TrimPrefix(id, tp.pkg.Name()+".") == name {
			return bs, nil
		}
		ids = append(ids, id)
		if bs.decl.Name.Name == name {
			byFunc = append(byFunc, bs)
		}
	}
	switch len(byFunc) {
	case 1:
		return byFunc[0], nil
	case 0:
		return nil, errCommuteUnknown(p, name, tp.pkg.Name(), ids)
	}
	var amb []string
	for _, bs := range byFunc {
		amb = append(amb, bs.bl.ID)
	}
	return nil, errCommuteAmbiguous(p, name, amb)
}

// condCtx type-checks a condition and lowers it to the IR.
type condCtx struct {
	b    *builder
	tp   *typedPkg
	decl token.Pos // of the declaration's comment
	pos  token.Pos // of the condition's text in it
	tf   *token.File
	info *types.Info
	has  types.Object
	// recvs maps the variables that stand for the receivers to their
	// types; params the variables of both calls' parameters to the IR's
	// (second says the second call's).
	recvs  map[types.Object]*types.TypeName
	params map[types.Object]*lang.Var
	second map[types.Object]bool
	blocks map[types.Object]*lang.Block
	// wrapped maps the wraps the condition made to what they wrap.
	wrapped map[lang.Expr]lang.Expr
}

// condErr is a problem of the condition, raised where it is found.
type condErr struct{ err *lang.Error }

func (c *condCtx) fail(err *lang.Error) { panic(condErr{err}) }

// at is the position in the Go source of a position of the condition.
func (c *condCtx) at(p token.Pos) lang.Pos {
	if c.tf == nil || int(p) < c.tf.Base() || int(p) > c.tf.Base()+c.tf.Size() {
		return position(c.b.fset, c.pos)
	}
	return position(c.b.fset, c.pos+token.Pos(c.tf.Offset(p)))
}

// check parses and type-checks the condition text, in the scope of the
// package with the receivers, both calls' parameters and has; when lower
// is set, it lowers it to the IR.
func (c *condCtx) check(prog *lang.Program, pair [2]*blockSrc, text string, lower bool) (e lang.Expr, err *lang.Error) {
	expr, perr := parser.ParseExprFrom(c.b.fset, "", text, parser.SkipObjectResolution)
	if perr != nil {
		var list scanner.ErrorList
		if l, ok := perr.(scanner.ErrorList); ok && len(l) > 0 {
			list = l
		} else {
			return nil, errCommuteGo(position(c.b.fset, c.pos), perr.Error())
		}
		return nil, errCommuteGo(position(c.b.fset, c.pos+token.Pos(list[0].Pos.Offset)), list[0].Msg)
	}
	c.tf = c.b.fset.File(expr.Pos())
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(condErr)
			if !ok {
				panic(r)
			}
			e, err = nil, ce.err
		}
	}()
	// The condition's scope is a child of the package's that spans the
	// positions of the condition's own file (the parser gave it one):
	// types.CheckExpr at the condition's position finds it, and no
	// position of the package's files falls in it.
	scope := types.NewScope(c.tp.pkg.Scope(), token.Pos(c.tf.Base()), token.Pos(c.tf.Base()+c.tf.Size()+1), "commute condition")
	c.recvs, c.params, c.second, c.blocks = map[types.Object]*types.TypeName{}, map[types.Object]*lang.Var{}, map[types.Object]bool{}, map[types.Object]*lang.Block{}
	c.wrapped = map[lang.Expr]lang.Expr{}
	declare := func(obj types.Object, what string) {
		if scope.Insert(obj) != nil {
			c.fail(errCommuteName(position(c.b.fset, c.decl), obj.Name(), what))
		}
	}
	c.has = hasFunc(c.tp.pkg)
	declare(c.has, "has")
	for _, bs := range pair {
		rt := c.recvType(bs)
		if rt == nil || c.recvDeclared(rt) {
			continue
		}
		name := bs.decl.Recv.List[0].Names[0].Name
		if r := c.b.roots[rt]; r != nil {
			name = c.b.rootDisplay(r, false)
		}
		if name == "_" {
			continue
		}
		v := types.NewVar(token.NoPos, c.tp.pkg, name, types.NewPointer(rt.Type()))
		c.recvs[v] = rt
		declare(v, "the receiver of "+bs.bl.ID)
	}
	for i, bs := range pair {
		pr := prog.Proc(bs.bl.ID)
		k := 0
		for _, f := range bs.decl.Type.Params.List {
			for _, n := range f.Names {
				obj := bs.tp.info.Defs[n]
				name := n.Name
				if k < len(bs.bl.Params) {
					name = bs.bl.Params[k].Name
				}
				if obj == nil || n.Name == "_" {
					k++
					continue
				}
				what := "a parameter of " + bs.bl.ID
				if i == 1 {
					name += "2"
					what = "a parameter of the second call of " + bs.bl.ID
				}
				v := types.NewVar(token.NoPos, c.tp.pkg, name, obj.Type())
				// A block found not modelled before it was lowered has
				// no IR parameters: its condition is only type-checked.
				if pr != nil && k < len(pr.Params) {
					c.params[v], c.second[v], c.blocks[v] = pr.Params[k], i == 1, pr.Blocks[0]
				}
				declare(v, what)
				k++
			}
		}
	}
	c.info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	if err := types.CheckExpr(c.b.fset, c.tp.pkg, expr.Pos(), expr, c.info); err != nil {
		if te, ok := err.(types.Error); ok {
			c.fail(errCommuteGo(c.at(te.Pos), te.Msg))
		}
		c.fail(errCommuteGo(c.at(expr.Pos()), err.Error()))
	}
	if t := c.info.TypeOf(expr); t == nil || !isBool(t) {
		c.fail(errCommuteNotBool(c.at(expr.Pos()), t))
	}
	if !lower {
		return nil, nil
	}
	return c.expr(expr), nil
}

func isBool(t types.Type) bool {
	bt, ok := t.Underlying().(*types.Basic)
	return ok && bt.Info()&types.IsBoolean != 0
}

// recvType is the receiver's type of a block's method, nil for a function.
func (c *condCtx) recvType(bs *blockSrc) *types.TypeName {
	fd := bs.decl
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	n := recvNamed(bs.tp.info.TypeOf(fd.Recv.List[0].Type))
	if n == nil {
		return nil
	}
	return n.Obj()
}

func (c *condCtx) recvDeclared(t *types.TypeName) bool {
	for _, rt := range c.recvs {
		if rt == t {
			return true
		}
	}
	return false
}

// hasFunc is has(m, k), "k is a key of m", as the Go text of constraints
// writes it: func has[K comparable, V any](m map[K]V, k K) bool.
func hasFunc(pkg *types.Package) *types.Func {
	k := types.NewTypeParam(types.NewTypeName(token.NoPos, pkg, "K", nil), types.Universe.Lookup("comparable").Type())
	v := types.NewTypeParam(types.NewTypeName(token.NoPos, pkg, "V", nil), types.Universe.Lookup("any").Type())
	params := types.NewTuple(types.NewParam(token.NoPos, pkg, "m", types.NewMap(k, v)), types.NewParam(token.NoPos, pkg, "k", k))
	results := types.NewTuple(types.NewParam(token.NoPos, pkg, "", types.Typ[types.Bool]))
	return types.NewFunc(token.NoPos, pkg, "has", types.NewSignatureType(nil, nil, []*types.TypeParam{k, v}, params, results, false))
}

// ---- lowering ----

func (c *condCtx) lit(p lang.Pos, v int64) lang.Expr { return &lang.IntLit{At: p, Val: v} }

func (c *condCtx) bin(p lang.Pos, op lang.Op, x, y lang.Expr) lang.Expr {
	return &lang.BinaryExpr{At: p, Op: op, X: x, Y: y}
}

// wrap wraps x into the range of a narrow type, as Go's arithmetic and
// conversions do: the generated wrap funcs' arithmetic, inline (a
// condition calls no func).
func (c *condCtx) wrap(p lang.Pos, x lang.Expr, sc scalar) lang.Expr {
	if !sc.narrow() {
		return x
	}
	m := int64(1) << sc.bits
	var out lang.Expr
	if sc.signed {
		h := m / 2
		out = c.bin(p, lang.OpSub, c.bin(p, lang.OpMod, c.bin(p, lang.OpAdd, c.bin(p, lang.OpMod, c.bin(p, lang.OpAdd, x, c.lit(p, h)), c.lit(p, m)), c.lit(p, m)), c.lit(p, m)), c.lit(p, h))
	} else {
		out = c.bin(p, lang.OpMod, c.bin(p, lang.OpAdd, c.bin(p, lang.OpMod, x, c.lit(p, m)), c.lit(p, m)), c.lit(p, m))
	}
	c.wrapped[out] = x
	return out
}

// scalar is the scalar type of an expression of the condition.
func (c *condCtx) scalar(e ast.Expr) scalar {
	t := c.info.TypeOf(e)
	sc, reason := scalarOf(t)
	if reason != "" {
		c.fail(errCommuteUnsupported(c.at(e.Pos()), types.ExprString(e), reason))
	}
	return sc
}

func (c *condCtx) expr(e ast.Expr) lang.Expr {
	p := c.at(e.Pos())
	tv := c.info.Types[e]
	if tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.Bool:
			return &lang.BoolLit{At: p, Val: constant.BoolVal(tv.Value)}
		case constant.Int:
			if n, exact := constant.Int64Val(tv.Value); exact {
				return c.lit(p, n)
			}
		case constant.String:
			return c.lit(p, c.b.stringID(constant.StringVal(tv.Value)))
		}
		c.fail(errCommuteUnsupported(p, "the constant "+tv.Value.String(), "only bool, string and integer constants of int64 are modelled"))
	}
	sc := c.scalar(e)
	switch x := e.(type) {
	case *ast.ParenExpr:
		return c.expr(x.X)
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
		if id, ok := x.(*ast.Ident); ok {
			obj := c.info.Uses[id]
			if v := c.params[obj]; v != nil {
				if !c.live(v, c.blocks[obj]) {
					c.fail(errCommuteNotLive(p, id.Name, c.blocks[obj].ID))
				}
				return &lang.VarRef{At: p, Var: v, Second: c.second[obj]}
			}
		}
		return c.value(e, c.place(e), sc)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.NOT:
			return &lang.UnaryExpr{At: p, Op: lang.OpNot, X: c.expr(x.X)}
		case token.SUB:
			return c.wrap(p, &lang.UnaryExpr{At: p, Op: lang.OpNeg, X: c.expr(x.X)}, sc)
		case token.ADD:
			return c.expr(x.X)
		}
		c.fail(errCommuteUnsupported(p, "the operator "+x.Op.String(), "bitwise operations are not modelled"))
	case *ast.BinaryExpr:
		return c.binary(x, sc)
	case *ast.CallExpr:
		return c.call(x)
	}
	c.fail(errCommuteUnsupported(p, types.ExprString(e), ""))
	return nil
}

// live reports whether v is live at the start of block bl: the block
// reads it.
func (c *condCtx) live(v *lang.Var, bl *lang.Block) bool {
	for _, l := range bl.Point.Live {
		if l == v {
			return true
		}
	}
	return false
}

var condOps = map[token.Token]lang.Op{
	token.ADD: lang.OpAdd, token.SUB: lang.OpSub, token.MUL: lang.OpMul, token.QUO: lang.OpDiv, token.REM: lang.OpMod,
	token.EQL: lang.OpEq, token.NEQ: lang.OpNe, token.LSS: lang.OpLt, token.LEQ: lang.OpLe, token.GTR: lang.OpGt, token.GEQ: lang.OpGe,
	token.LAND: lang.OpAnd, token.LOR: lang.OpOr,
}

func (c *condCtx) binary(x *ast.BinaryExpr, sc scalar) lang.Expr {
	p := c.at(x.OpPos)
	op, ok := condOps[x.Op]
	if !ok {
		c.fail(errCommuteUnsupported(p, "the operator "+x.Op.String(), "bitwise operations and shifts are not modelled"))
	}
	if x.Op == token.EQL || x.Op == token.NEQ {
		if e, ok := c.nilComparison(x); ok {
			return e
		}
	} else if xt := c.info.TypeOf(x.X); xt != nil {
		if xsc, reason := scalarOf(xt); reason == "" && xsc.isString {
			c.fail(errCommuteUnsupported(p, "the operator "+x.Op.String()+" on strings", stringsReason))
		}
	}
	l, r := c.expr(x.X), c.expr(x.Y)
	v := c.bin(p, op, l, r)
	switch x.Op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
		return c.wrap(p, v, sc)
	}
	return v
}

// nilComparison lowers m == nil and m != nil for a map m of the state.
func (c *condCtx) nilComparison(x *ast.BinaryExpr) (lang.Expr, bool) {
	isNil := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		_, ok = c.info.Uses[id].(*types.Nil)
		return ok
	}
	m, other := x.X, x.Y
	if isNil(m) {
		m, other = other, m
	}
	if !isNil(other) {
		return nil, false
	}
	mt, ok := c.info.TypeOf(m).Underlying().(*types.Map)
	if !ok {
		c.fail(errCommuteUnsupported(c.at(x.OpPos), "a comparison of "+types.ExprString(m)+" with nil", "only maps of the state are compared with nil"))
	}
	v := c.mapPart(m, mt, "nil", nil)
	if x.Op == token.NEQ {
		return &lang.UnaryExpr{At: c.at(x.OpPos), Op: lang.OpNot, X: v}, true
	}
	return v, true
}

// call lowers a conversion, len of a map, or has(m, k).
func (c *condCtx) call(call *ast.CallExpr) lang.Expr {
	p := c.at(call.Pos())
	if tv := c.info.Types[call.Fun]; tv.IsType() {
		to := c.scalar(call)
		from := c.scalar(call.Args[0])
		v := c.expr(call.Args[0])
		if from.within(to) {
			return v
		}
		return c.wrap(p, v, to)
	}
	id, _ := ast.Unparen(call.Fun).(*ast.Ident)
	if id != nil {
		obj := c.info.Uses[id]
		if mt, ok := c.info.TypeOf(call.Args[0]).Underlying().(*types.Map); ok && obj == c.has {
			return c.bin(p, lang.OpNe, c.mapPart(call.Args[0], mt, "has", call.Args[1]), c.lit(p, 0))
		}
		if bi, ok := obj.(*types.Builtin); ok && bi.Name() == "len" {
			if mt, ok := c.info.TypeOf(call.Args[0]).Underlying().(*types.Map); ok {
				return c.mapPart(call.Args[0], mt, "len", nil)
			}
		}
	}
	c.fail(errCommuteUnsupported(p, "the call "+types.ExprString(call), "a condition reads conversions, len of a map and has(m, k), and calls no other function"))
	return nil
}

// cplace is a place of the shared state named by the condition: a root,
// a path of fields (-1 where an array is indexed, -2 where a map is, as
// the lowering's places), at most one index, and the type of the whole.
type cplace struct {
	r    *root
	path []int
	idx  lang.Expr
	t    types.Type
	src  string
}

func (q cplace) with(i int, t types.Type) cplace {
	out := q
	out.path = append(append([]int{}, q.path...), i)
	out.t = t
	return out
}

func (c *condCtx) place(e ast.Expr) cplace {
	p := c.at(e.Pos())
	src := types.ExprString(e)
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := c.info.Uses[x]
		if rt := c.recvs[obj]; rt != nil {
			r := c.b.roots[rt]
			if r == nil {
				c.fail(errCommuteNotState(p, src))
			}
			return cplace{r: r, t: rt.Type(), src: src}
		}
		if isPkgVar(obj) && obj.Pkg() == c.tp.pkg {
			r := c.b.roots[obj]
			if r == nil {
				c.fail(errCommuteNotState(p, src))
			}
			return cplace{r: r, t: obj.Type(), src: src}
		}
		c.fail(errCommuteUnsupported(p, src, "a condition reads the receivers' fields, the parameters and the package's variables"))
	case *ast.SelectorExpr:
		sel := c.info.Selections[x]
		if sel == nil || sel.Kind() != types.FieldVal {
			c.fail(errCommuteUnsupported(p, src, ""))
		}
		base := c.place(x.X)
		t := base.t
		for k, i := range sel.Index() {
			if ptr, ok := t.Underlying().(*types.Pointer); ok {
				if k > 0 || len(base.path) > 0 {
					c.fail(errCommuteUnsupported(p, src, "fields through pointers are not modelled"))
				}
				t = ptr.Elem()
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				c.fail(errCommuteUnsupported(p, src, ""))
			}
			f := st.Field(i)
			base = base.with(i, f.Type())
			t = f.Type()
		}
		base.src = src
		return base
	case *ast.IndexExpr:
		switch mt := c.info.TypeOf(x.X).Underlying().(type) {
		case *types.Map:
			base := c.place(x.X)
			q := base.with(-2, mt.Elem())
			q.idx, q.src = c.keyIndex(x.X, base, x.Index), src
			return q
		case *types.Array:
			base := c.place(x.X)
			if base.idx != nil {
				c.fail(errCommuteUnsupported(p, src, "arrays inside arrays or maps are not modelled"))
			}
			q := base.with(-1, mt.Elem())
			q.idx, q.src = c.expr(x.Index), src
			return q
		}
	}
	c.fail(errCommuteUnsupported(p, src, ""))
	return cplace{}
}

// mapOf is the map of the state held at base.
func (c *condCtx) mapOf(m ast.Expr, base cplace) *mapInfo {
	mi := c.b.maps[base.r.blk+"/"+pathKey(base.path)]
	if mi == nil || base.idx != nil {
		c.fail(errCommuteNotState(c.at(m.Pos()), types.ExprString(m)))
	}
	return mi
}

// keyIndex is the index of key k in the arrays of the map m at base: the
// key wrapped into its type's range (unless a constant, or wrapped
// already), less the key type's minimum, as the lowering indexes it.
func (c *condCtx) keyIndex(m ast.Expr, base cplace, k ast.Expr) lang.Expr {
	mi := c.mapOf(m, base)
	p := c.at(k.Pos())
	if tv := c.info.Types[k]; tv.Value != nil {
		if mi.keyBool {
			if constant.BoolVal(tv.Value) {
				return c.lit(p, 1)
			}
			return c.lit(p, 0)
		}
		n, _ := constant.Int64Val(tv.Value)
		return c.lit(p, n-mi.keyMin)
	}
	if mi.keyBool {
		c.fail(errCommuteUnsupported(p, "a key of "+types.ExprString(m)+" that is not a constant", "the keys of a map with bool keys are constants in a condition"))
	}
	ksc := c.scalar(k)
	v := c.expr(k)
	if mi.wide {
		return v
	}
	if mi.keyMin != 0 {
		// The wrapped signed key less the minimum is the unsigned wrap of
		// the key less the minimum: ((k + 128) % 256 + 256) % 256.
		if x, ok := c.wrapped[v]; ok {
			v = x
		}
		return c.wrap(p, c.bin(p, lang.OpAdd, v, c.lit(p, -mi.keyMin)), scalar{bits: ksc.bits})
	}
	if _, ok := c.wrapped[v]; !ok {
		v = c.wrap(p, v, ksc)
	}
	return v
}

// mapPart reads a part of the map m of the state: "nil", "len", or "has"
// at key k.
func (c *condCtx) mapPart(m ast.Expr, mt *types.Map, part string, k ast.Expr) lang.Expr {
	base := c.place(m)
	marker := map[string]int{"has": -3, "len": -4, "nil": -5}[part]
	q := base.with(marker, nil)
	if k != nil {
		q.idx = c.keyIndex(m, base, k)
	} else {
		c.mapOf(m, base)
	}
	g := c.global(m, q)
	v := c.b.vars[g]
	p := c.at(m.Pos())
	if q.idx != nil {
		return &lang.IndexExpr{At: p, Array: v, Index: q.idx}
	}
	return &lang.VarRef{At: p, Var: v}
}

// global is the global of the program at a place, which a modelled
// block must read or write.
func (c *condCtx) global(e ast.Expr, q cplace) *global {
	g := c.b.globals[q.r.blk+"/"+pathKey(q.path)]
	if g == nil || !g.used || c.b.vars[g] == nil {
		c.fail(errCommuteNotState(c.at(e.Pos()), types.ExprString(e)))
	}
	return g
}

// value reads a scalar place.
func (c *condCtx) value(e ast.Expr, q cplace, sc scalar) lang.Expr {
	g := c.global(e, q)
	v := c.b.vars[g]
	p := c.at(e.Pos())
	if !g.array() {
		return &lang.VarRef{At: p, Var: v}
	}
	el := &lang.IndexExpr{At: p, Array: v, Index: q.idx}
	if sc.isBool {
		return c.bin(p, lang.OpNe, el, c.lit(p, 0))
	}
	return el
}

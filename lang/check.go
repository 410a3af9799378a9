package lang

import (
	"bytes"
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
)

// This file holds the checker and its scopes, and the top-level
// declarations: params, globals and their initializers, procs, funcs,
// init, invariants and commute declarations.

// bodyKind says what a body belongs to; it decides which statements are allowed.
type bodyKind int

const (
	inProc bodyKind = iota
	inFunc
	inInit
)

func (k bodyKind) String() string {
	switch k {
	case inFunc:
		return "a func"
	case inInit:
		return "init"
	}
	return "a proc"
}

type scope struct {
	parent *scope
	names  map[string]*Var
}

type checker struct {
	fileName string
	src      []byte
	errs     ErrorList
	prog     *Program

	top     map[string]Pos // every top-level name, for redeclaration errors
	params  map[string]*Param
	globals map[string]*Var
	procs   map[string]*Proc
	funcs   map[string]*Func

	// The body being checked.
	kind   bodyKind
	scope  *scope
	locals *[]*Var
	fn     *Func
	labels map[string]Pos

	// The declaration being checked, outside bodies: decl names it in
	// messages ("an invariant"); in a commute condition, first and second
	// are its blocks and primed maps the names of the second block's live
	// locals.
	decl          string
	first, second *Block
	primed        map[string]*Var
	commuteDecls  []*pCommute
}

func newChecker(file string, src []byte) *checker {
	return &checker{
		fileName: file, src: src,
		prog:    &Program{File: file, Source: src, Init: &Init{}},
		top:     map[string]Pos{},
		params:  map[string]*Param{},
		globals: map[string]*Var{},
		procs:   map[string]*Proc{},
		funcs:   map[string]*Func{},
	}
}

func (c *checker) pos(p lexer.Position) Pos {
	return Pos{File: c.fileName, Offset: p.Offset, Line: p.Line, Col: byteColumn(c.src, p.Offset, p.Column)}
}

// byteColumn is the column of byte off of src as the scanner and the error
// excerpts count columns: one per byte that is not a UTF-8 continuation
// byte. The parser's lexer counts runes, and an invalid byte is a rune of
// its own there (a comment holding "\xb8\xa9" would put every later column
// of its line two off). col is returned when off is not in src.
func byteColumn(src []byte, off, col int) int {
	if off < 0 || off > len(src) {
		return col
	}
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	return advancePos(Pos{Line: 1, Col: 1}, src[start:off]).Col
}

func (c *checker) report(e *Error) { c.errs = append(c.errs, e) }

func (c *checker) declareTop(name string, p Pos) bool {
	if prev, ok := c.top[name]; ok {
		c.report(errRedeclared(p, name, prev))
		return false
	}
	c.top[name] = p
	return true
}

func parseType(s string) Type {
	if s == "bool" {
		return Bool
	}
	return Int
}

func (c *checker) file(pf *pFile) {
	// Pass 1: declarations, so bodies may refer to procs and funcs declared later.
	var cuts [][2]int // what the hash leaves out
	var procDecls []*pProc
	var funcDecls []*pFunc
	var initDecl *pInit
	var invDecls []*pInvariant
	for _, d := range pf.Decls {
		switch {
		case d.Param != nil:
			c.param(d.Param)
			cuts = append(cuts, [2]int{d.Param.Value.Pos.Offset, d.Param.Value.EndPos.Offset})
		case d.Global != nil:
			c.global(d.Global)
		case d.Proc != nil:
			p := &Proc{Name: d.Proc.Name, Pos: c.pos(d.Proc.Pos), Index: len(c.prog.Procs)}
			if c.declareTop(p.Name, c.nameAfter(p.Pos, p.Name)) {
				c.procs[p.Name] = p
				c.prog.Procs = append(c.prog.Procs, p)
				procDecls = append(procDecls, d.Proc)
			}
			p.Params = c.formals(d.Proc.Params, &p.Locals)
		case d.Func != nil:
			f := &Func{Name: d.Func.Name, Pos: c.pos(d.Func.Pos), Result: Void}
			if d.Func.Result != "" {
				f.Result = parseType(d.Func.Result)
			}
			if c.declareTop(f.Name, c.nameAfter(f.Pos, f.Name)) {
				c.funcs[f.Name] = f
				c.prog.Funcs = append(c.prog.Funcs, f)
				funcDecls = append(funcDecls, d.Func)
			}
			f.Params = c.formals(d.Func.Params, &f.Locals)
		case d.Init != nil:
			if initDecl != nil {
				c.report(errDuplicateInit(c.pos(d.Init.Pos), c.pos(initDecl.Pos)))
				continue
			}
			initDecl = d.Init
			c.prog.Init.Pos = c.pos(d.Init.Pos)
		case d.Invariant != nil:
			invDecls = append(invDecls, d.Invariant)
		case d.Commute != nil:
			// A claim about the program, not part of it: adding one does
			// not make an IC file stale.
			c.commuteDecls = append(c.commuteDecls, d.Commute)
			hi := d.Commute.EndPos.Offset
			for hi < len(c.src) && (c.src[hi] == ' ' || c.src[hi] == '\t' || c.src[hi] == '\r') {
				hi++
			}
			if hi < len(c.src) && c.src[hi] == '\n' {
				hi++
			}
			cuts = append(cuts, [2]int{d.Commute.Pos.Offset, hi})
		}
	}
	c.prog.Hash = hashWithout(c.src, cuts)

	// Pass 2: bodies.
	for _, pd := range procDecls {
		p := c.procs[pd.Name]
		p.Body = c.body(inProc, nil, &p.Locals, p.Params, pd.Body)
	}
	for _, fd := range funcDecls {
		f := c.funcs[fd.Name]
		f.Body = c.body(inFunc, f, &f.Locals, f.Params, fd.Body)
		if f.Result != Void && !terminates(f.Body) {
			c.report(errMissingReturn(c.pos(fd.Body.EndPos).shift(-1), f.Name))
		}
	}
	if initDecl != nil {
		c.prog.Init.Body = c.body(inInit, nil, &c.prog.Init.Locals, nil, initDecl.Body)
	}
	for _, d := range invDecls {
		c.invariant(d)
	}
	c.recursion()
}

// declContext sets the checker up for an expression outside any body:
// no locals in scope, no calls.
func (c *checker) declContext(what string) {
	c.kind, c.fn, c.locals, c.scope, c.labels = inInit, nil, nil, nil, nil
	c.decl, c.first, c.second, c.primed = what, nil, nil, nil
}

func (c *checker) invariant(d *pInvariant) {
	c.declContext("an invariant")
	cond := c.cond(d.Cond, "invariant")
	c.decl = ""
	inv := &Invariant{Index: len(c.prog.Invariants), Pos: c.pos(d.Pos), Cond: cond}
	rw := &rwCollector{reads: varSet{}, writes: varSet{}, sums: func(*Func) *summary { return &summary{} }}
	rw.expr(cond)
	inv.Reads = rw.reads.sorted()
	for _, v := range inv.Reads {
		if v.Unbounded() {
			c.report(errInvariantUnbounded(inv.Pos, v.Name))
		}
	}
	c.prog.Invariants = append(c.prog.Invariants, inv)
}

// commutes checks the commute declarations of a lowered program: their
// block ids and conditions.
func (c *checker) commutes() {
	for _, d := range c.commuteDecls {
		a, okA := c.blockID(d.A)
		b, okB := c.blockID(d.B)
		if !okA || !okB {
			continue
		}
		cm := &Commute{Index: len(c.prog.Commutes), Pos: c.pos(d.Pos), A: a, B: b}
		if d.Cond != nil {
			c.declContext("a commute condition")
			c.first, c.second = a, b
			c.scope = &scope{names: map[string]*Var{}}
			for _, v := range a.Point.Live {
				c.scope.names[v.Name] = v
			}
			c.primed = map[string]*Var{}
			for _, v := range b.Point.Live {
				c.primed[v.Name] = v
			}
			cm.Cond = c.cond(d.Cond, "commute")
			c.declContext("")
		}
		c.prog.Commutes = append(c.prog.Commutes, cm)
	}
}

// blockID resolves a block id written in a commute declaration.
func (c *checker) blockID(d *pBlockID) (*Block, bool) {
	id := d.Proc
	if at := d.At; at != nil {
		switch {
		case at.Label != nil:
			id += "@" + *at.Label
		case at.Line != nil:
			id += "@" + *at.Line
			if at.Col != nil {
				id += ":" + *at.Col
			}
		}
	}
	if b := c.prog.Block(id); b != nil {
		return b, true
	}
	p := c.pos(d.Pos)
	pr := c.procs[d.Proc]
	if pr == nil {
		c.report(errUnknownBlock(p, id, nil))
		return nil, false
	}
	ids := make([]string, len(pr.Blocks))
	for i, b := range pr.Blocks {
		ids[i] = b.ID
	}
	c.report(errUnknownBlock(p, id, ids))
	return nil, false
}

// nameAfter returns the position of the first occurrence of the identifier
// name at or after p, skipping comments: the name of a declaration or spawn
// whose node position is its keyword or type. It returns p when the name is
// not found (it always is, since the parser saw it).
func (c *checker) nameAfter(p Pos, name string) Pos {
	src := c.src
	q := p
	for i := p.Offset; i < len(src) && i >= 0; {
		switch ch := src[i]; {
		case ch == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			end := len(src)
			if src[i+1] == '/' {
				if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
					end = i + k
				}
			} else if k := bytes.Index(src[i+2:], []byte("*/")); k >= 0 {
				end = i + 2 + k + 2
			}
			q = advancePos(q, src[i:end])
			i = end
		case isIdentStart(ch):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			if string(src[i:j]) == name {
				return q
			}
			q = advancePos(q, src[i:j])
			i = j
		default:
			q = advancePos(q, src[i:i+1])
			i++
		}
	}
	return p
}

// advancePos moves p past the bytes b (columns count runes).
func advancePos(p Pos, b []byte) Pos {
	for _, ch := range b {
		p.Offset++
		if ch == '\n' {
			p.Line++
			p.Col = 1
		} else if ch&0xC0 != 0x80 {
			p.Col++
		}
	}
	return p
}

// shift moves a position n columns (used to point at a closing brace).
func (p Pos) shift(n int) Pos {
	p.Col += n
	p.Offset += n
	if p.Col < 1 {
		p.Col = 1
	}
	return p
}

func (c *checker) param(d *pParam) {
	p := &Param{Name: d.Name, Pos: c.pos(d.Pos), Index: len(c.prog.Params)}
	v, ok := literalValue(d.Value)
	if !ok {
		c.report(errParamValue(c.pos(d.Value.Pos), d.Name))
	} else if n, err := strconv.ParseInt(v, 10, 64); err != nil {
		c.report(errIntRange(c.pos(d.Value.Pos), v))
	} else {
		p.Default = n
	}
	if c.declareTop(p.Name, c.nameAfter(p.Pos, p.Name)) {
		c.params[p.Name] = p
		c.prog.Params = append(c.prog.Params, p)
	}
}

// literalValue returns the text of an integer literal, optionally negated.
func literalValue(e *pExpr) (string, bool) {
	if len(e.Rest) > 0 {
		return "", false
	}
	u, sign := e.First, ""
	if u.Op == "-" {
		u, sign = u.X, "-"
	}
	if u.Prim == nil || u.Prim.Int == nil {
		return "", false
	}
	return sign + *u.Prim.Int, true
}

func (c *checker) global(d *pGlobal) {
	t := parseType(d.Type)
	for _, gv := range d.Vars {
		v := &Var{Name: gv.Name, Kind: Global, Type: t, Pos: c.pos(gv.Pos), Index: len(c.prog.Globals)}
		if gv.Size != nil || gv.Star {
			if t != Int {
				c.report(errArrayType(v.Pos, v.Name, t))
			}
			v.Type = IntArray
			if gv.Size != nil {
				v.Size = c.arraySize(gv.Name, gv.Size)
			}
		}
		if gv.Init != nil && v.Unbounded() {
			c.report(errUnboundedInit(c.pos(gv.Init.Pos), v.Name))
		} else if gv.Init != nil {
			c.globalInit(v, gv.Init)
		}
		if c.declareTop(v.Name, v.Pos) {
			c.globals[v.Name] = v
			c.prog.Globals = append(c.prog.Globals, v)
		}
	}
}

func (c *checker) arraySize(name string, e *pExpr) Expr {
	p := c.pos(e.Pos)
	if len(e.Rest) == 0 && e.First.Prim != nil {
		pr := e.First.Prim
		if pr.Int != nil {
			n, err := strconv.ParseInt(*pr.Int, 10, 64)
			if err != nil || n <= 0 {
				c.report(errArraySize(p, name))
				return &IntLit{At: p, Val: 1}
			}
			return &IntLit{At: p, Val: n}
		}
		if pr.Name != nil && !pr.Prime && pr.Call == nil && pr.Index == nil {
			if pa, ok := c.params[*pr.Name]; ok {
				return &ParamRef{At: p, Param: pa}
			}
			if _, ok := c.top[*pr.Name]; !ok {
				c.report(errUndeclared(p, *pr.Name))
				return &IntLit{At: p, Val: 1}
			}
		}
	}
	c.report(errArraySize(p, name))
	return &IntLit{At: p, Val: 1}
}

func (c *checker) globalInit(v *Var, in *pInit2) {
	want := Int
	if v.Type == Bool {
		want = Bool
	}
	var elems []*pExpr
	if in.List != nil {
		if v.Type != IntArray {
			c.report(errInitList(c.pos(in.Pos), v.Name))
			return
		}
		v.InitList = true
		elems = in.List.Elems
		if lit, ok := v.Size.(*IntLit); ok && int64(len(elems)) != lit.Val {
			c.report(errInitLen(c.pos(in.Pos), v.Name, lit.Val, len(elems)))
		}
	} else {
		elems = []*pExpr{in.Value}
	}
	c.kind, c.scope, c.locals = inInit, nil, nil
	for _, pe := range elems {
		e := c.expr(pe)
		if !isConstant(e) {
			c.report(errNotConstant(c.pos(pe.Pos), "initializer of "+v.Name))
			continue
		}
		if e.Type() != want && e.Type() != badType {
			c.report(errAssignType(c.pos(pe.Pos), v.Name, want, e.Type()))
		}
		v.Init = append(v.Init, e)
	}
}

func isConstant(e Expr) bool {
	switch e := e.(type) {
	case *IntLit, *BoolLit, *ParamRef, *badExpr:
		return true
	case *UnaryExpr:
		return isConstant(e.X)
	case *BinaryExpr:
		return isConstant(e.X) && isConstant(e.Y)
	}
	return false
}

func (c *checker) formals(fs []*pFormal, locals *[]*Var) []*Var {
	seen := map[string]Pos{}
	var out []*Var
	for _, f := range fs {
		p := c.nameAfter(c.pos(f.Pos), f.Name)
		if prev, ok := seen[f.Name]; ok {
			c.report(errRedeclared(p, f.Name, prev))
			continue
		}
		seen[f.Name] = p
		v := &Var{Name: f.Name, Kind: Local, Type: parseType(f.Type), Pos: p, Index: len(*locals), Param: true}
		*locals = append(*locals, v)
		out = append(out, v)
	}
	return out
}

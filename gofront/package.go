package gofront

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// Package is Go input lowered to the IR: the program, the atomic blocks
// found, and which of them are not modelled.
type Package struct {
	Pattern string
	Name    string // the Go package's name (the first one's, for several)
	Prog    *lang.Program
	// Blocks are the atomic blocks found, in source order (files by name).
	Blocks []*Block
	// Source is the generated program the IR was compiled from (.blk).
	Source []byte
	// Files holds the Go sources by file name, for excerpts.
	Files map[string][]byte
	// State is the shared state as the program holds it, one entry per
	// global of the program, in its order.
	State []StateVar
	// Commutes are the //icgen:commute declarations, in file order.
	Commutes []Commute
	// Strings are the string constants the program holds as integers:
	// Strings[i] is held as i+1, "" as 0 (see StringOf).
	Strings []string
	_       struct{}
}

// StateVar is a global of the program: a scalar part of the shared state
// (for an array of them, the array).
type StateVar struct {
	Name string // as constraints name it: a.balance, c.entries.key, hits
	Root string // the receiver's type, or "" for a package variable
	// Go is the Go expression of the value from the receiver (".balance",
	// ".entries[%d].key") or of the package variable ("hits"), %d
	// standing for the index when Size > 0.
	Go   string
	Size int64
	// Unbounded, for the values and presence of a map with wide keys:
	// an array indexed by any integer (the key), Size 0.
	Unbounded bool
	Bool      bool
	String    bool  // a string (see Package.Strings)
	Min, Max  int64 // the Go type's range (ints)
	// Map, for a part of a map, says which.
	Map *MapPart
}

// MapPart is what a global holds of a map of the shared state. The IR
// holds a map as arrays over every key of its key type, element i for the
// key KeyMin+i (false and true for a bool key): its values ("value", one
// array per scalar field of a struct element, Field naming it as
// ".ver"), whether each key is present ("has", 0 or 1), and two scalars,
// its length ("len") and whether it is nil ("nil"). In every state Go
// can be in, an absent key's values are zero, a nil map has no key and
// the length counts the keys present.
type MapPart struct {
	Go      string // the map's Go expression from the root (".vals") or the variable
	Type    string // its Go type (map[uint8]int)
	Part    string // "value", "has", "len" or "nil"
	Field   string
	KeyMin  int64
	KeyBool bool
	Keys    int64 // the number of keys of the key type (the arrays' size); 0 for wide keys (unbounded arrays)
	// KeyLo and KeyHi are the key type's range, for wide keys: an
	// element's index is the key.
	KeyLo, KeyHi int64
	KeyString    bool // string keys
	// Slice: the parts of a slice (Type its Go type), held as a map with
	// int keys that has only values (element i at key i) and len.
	Slice bool
}

// Var is a parameter of a block, named as constraints name it.
type Var struct {
	Name     string
	Bool     bool
	String   bool
	Min, Max int64
}

// Block is an atomic block of Go code: a method or function that holds a
// mutex for its whole body, or one marked //icgen:atomic.
type Block struct {
	ID   string   // Type.Method or Function (package.Type.Method with several packages)
	Pos  lang.Pos // of the function's name
	Lock string   // the mutex held (a.mu), with " (read)" for RLock; "//icgen:atomic" for a marked function
	// Reason, when not nil, says why the block is not modelled, at the
	// construct: every pair with the block is unknown.
	Reason *lang.Error
	// Result is the id of the block that reads the call's results (the
	// program's view of the caller), "" when the function has none.
	Result string
	Func   string // the Go function's name
	Recv   string // its receiver's type ("" for a function)
	Params []Var
	_      struct{}
}

// Unknown returns the reason a block is not modelled: every pair with it
// is unknown.
func (p *Package) Unknown(id string) (string, bool) {
	for _, b := range p.Blocks {
		if b.ID == id && b.Reason != nil {
			return fmt.Sprintf("block %s is not modelled: %s: %s", b.ID, b.Reason.Pos, b.Reason.Msg), true
		}
	}
	return "", false
}

// Hidden reports whether id is a result block: the point after a call
// where its results are read, which commutes with everything and is
// left out of audits.
func (p *Package) Hidden(id string) bool {
	for _, b := range p.Blocks {
		if b.Result == id {
			return true
		}
	}
	return false
}

// fnInfo is a function or method of the package called from a block: a
// func of the program.
type fnInfo struct {
	obj     *types.Func
	decl    *ast.FuncDecl
	tp      *typedPkg
	blk     string
	display string
	state   int // 0 not lowered, 1 lowering, 2 done
	err     *unsup
	text    frag
	writes  bool
	result  *scalar
	roots   map[*root]bool
	globals map[*global]bool
	calls   map[*fnInfo]bool
	disp    map[string]string
}

// blockSrc is a block being lowered.
type blockSrc struct {
	bl      *Block
	decl    *ast.FuncDecl
	tp      *typedPkg
	body    []ast.Stmt
	lockKey string
	read    bool
	proc    string
	text    frag
	err     *unsup
	roots   map[*root]bool
	globals map[*global]bool
	calls   map[*fnInfo]bool
	disp    map[string]string
	writes  token.Pos
	stubPar []string
}

type builder struct {
	fset        *token.FileSet
	pkgs        []*typedPkg
	multi       bool
	decls       map[*types.Func]*ast.FuncDecl
	declPkg     map[*types.Func]*typedPkg
	pkgVarNames map[string]bool
	pkgVarInit  map[types.Object]ast.Expr
	roots       map[types.Object]*root
	globals     map[string]*global
	funcs       map[*types.Func]*fnInfo
	wraps       map[string]scalar
	minmax      map[string]bool
	needB2I     bool
	needSIDX    bool
	used        map[string]bool // IR names of procs and funcs
	recvNames   map[*root]map[string]int
	state       []StateVar
	allAtomic   bool
	maps        map[string]*mapInfo
	vars        map[*global]*lang.Var // the program's global of each used global, made by finish
	strIDs      map[string]int64      // the string constants met, numbered from 1
	strs        []string              // by number - 1
}

// stringID is the integer that holds the string constant s: 0 for "",
// the others numbered from 1 as the lowering meets them.
func (b *builder) stringID(s string) int64 {
	if s == "" {
		return 0
	}
	if id, ok := b.strIDs[s]; ok {
		return id
	}
	if b.strIDs == nil {
		b.strIDs = map[string]int64{}
	}
	b.strs = append(b.strs, s)
	b.strIDs[s] = int64(len(b.strs))
	return b.strIDs[s]
}

func build1(pattern string, fset *token.FileSet, pkgs []*typedPkg, allAtomic bool) (*Package, lang.ErrorList) {
	b := &builder{
		fset: fset, pkgs: pkgs, multi: len(pkgs) > 1,
		decls: map[*types.Func]*ast.FuncDecl{}, declPkg: map[*types.Func]*typedPkg{},
		pkgVarNames: map[string]bool{}, pkgVarInit: map[types.Object]ast.Expr{},
		roots: map[types.Object]*root{}, globals: map[string]*global{}, funcs: map[*types.Func]*fnInfo{},
		wraps: map[string]scalar{}, minmax: map[string]bool{}, used: map[string]bool{},
		recvNames: map[*root]map[string]int{}, allAtomic: allAtomic, maps: map[string]*mapInfo{},
	}
	out := &Package{Pattern: pattern, Name: pkgs[0].pkg.Name(), Files: map[string][]byte{}}
	var srcs []*blockSrc
	for _, tp := range pkgs {
		for n, s := range tp.src {
			out.Files[n] = s
		}
		files := append([]*ast.File{}, tp.files...)
		sort.Slice(files, func(i, j int) bool { return fset.File(files[i].Pos()).Name() < fset.File(files[j].Pos()).Name() })
		for _, f := range files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if fn, ok := tp.info.Defs[d.Name].(*types.Func); ok {
						b.decls[fn] = d
						b.declPkg[fn] = tp
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						if vs, ok := sp.(*ast.ValueSpec); ok && d.Tok == token.VAR {
							for i, n := range vs.Names {
								b.pkgVarNames[n.Name] = true
								if i < len(vs.Values) && len(vs.Values) == len(vs.Names) {
									if obj := tp.info.Defs[n]; obj != nil {
										b.pkgVarInit[obj] = vs.Values[i]
									}
								}
							}
						}
					}
				}
			}
		}
		for _, f := range files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if bs := b.detect(tp, fd); bs != nil {
						srcs = append(srcs, bs)
						out.Blocks = append(out.Blocks, bs.bl)
					}
				}
			}
		}
	}
	for _, bs := range srcs {
		b.lowerBlock(bs)
	}
	b.checkLocks(srcs)
	text, marks := b.assemble(srcs)
	out.Source = []byte(text)
	irFile := pattern + " (lowered)"
	prog, errs := lang.Compile(irFile, out.Source)
	if len(errs) > 0 {
		// A bug of the front end: the program it wrote does not compile.
		var list lang.ErrorList
		for _, e := range errs {
			list = append(list, &lang.Error{Pos: lang.Pos{File: pattern}, Msg: "internal error: the lowered program does not compile: " + e.Error()})
		}
		return nil, list
	}
	b.finish(prog, srcs, marks, irFile, pattern)
	out.Prog = prog
	out.State = b.state
	out.Commutes, errs = b.commutes(prog, srcs)
	out.Strings = b.strs
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// ---- atomic blocks ----

// detect returns the block of a function, or nil when it is not atomic.
func (b *builder) detect(tp *typedPkg, fd *ast.FuncDecl) *blockSrc {
	if fd.Body == nil {
		return nil
	}
	marked := directive(fd.Doc, "//icgen:atomic") || b.allAtomic
	bs := &blockSrc{decl: fd, tp: tp, body: fd.Body.List}
	list := fd.Body.List
	var lockX ast.Expr
	if len(list) >= 2 {
		if x, m := b.syncCall(tp, list[0], false); x != nil && (m == "Lock" || m == "RLock") {
			want := map[string]string{"Lock": "Unlock", "RLock": "RUnlock"}[m]
			if y, m2 := b.syncCall(tp, list[1], true); y != nil && m2 == want && types.ExprString(x) == types.ExprString(y) {
				lockX, bs.body, bs.read = x, list[2:], m == "RLock"
			} else if y, m2 := b.syncCall(tp, list[len(list)-1], false); y != nil && m2 == want && types.ExprString(x) == types.ExprString(y) {
				lockX, bs.body, bs.read = x, list[1:len(list)-1], m == "RLock"
				for _, s := range bs.body {
					ast.Inspect(s, func(n ast.Node) bool {
						if _, ok := n.(*ast.FuncLit); ok {
							return false
						}
						if r, ok := n.(*ast.ReturnStmt); ok && bs.err == nil {
							bs.err = &unsup{r.Pos(), "return while the mutex is held (no deferred unlock)"}
						}
						return true
					})
				}
			}
		}
	}
	if lockX == nil && !marked {
		return nil
	}
	id := fd.Name.Name
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X
		}
		if id2, ok := t.(*ast.Ident); ok {
			id = id2.Name + "." + id
		}
	}
	if b.multi {
		id = tp.pkg.Name() + "." + id
	}
	bs.bl = &Block{ID: id, Pos: position(b.fset, fd.Name.Pos())}
	switch {
	case lockX != nil:
		bs.bl.Lock = types.ExprString(lockX)
		if bs.read {
			bs.bl.Lock += " (read)"
		}
		bs.lockKey = b.lockKey(tp, fd, lockX)
		if bs.lockKey == "" && bs.err == nil {
			bs.err = &unsup{lockX.Pos(), "the mutex " + types.ExprString(lockX) + " is neither the receiver's nor a package variable's"}
		}
	default:
		bs.bl.Lock = "//icgen:atomic"
	}
	return bs
}

func directive(doc *ast.CommentGroup, d string) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if c.Text == d || strings.HasPrefix(c.Text, d+" ") {
			return true
		}
	}
	return false
}

// syncCall recognizes x.M() (or defer x.M() when deferred) for a method M
// of package sync; it returns x and M.
func (b *builder) syncCall(tp *typedPkg, s ast.Stmt, deferred bool) (ast.Expr, string) {
	var call *ast.CallExpr
	switch s := s.(type) {
	case *ast.ExprStmt:
		if !deferred {
			call, _ = s.X.(*ast.CallExpr)
		}
	case *ast.DeferStmt:
		if deferred {
			call = s.Call
		}
	}
	if call == nil || len(call.Args) != 0 {
		return nil, ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	s2 := tp.info.Selections[sel]
	if s2 == nil || s2.Kind() != types.MethodVal {
		return nil, ""
	}
	fn := s2.Obj().(*types.Func)
	if fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return nil, ""
	}
	return sel.X, fn.Name()
}

// lockKey names a mutex the same way in every method: Type.path for the
// receiver's, the variable for a package variable's; "" for any other.
func (b *builder) lockKey(tp *typedPkg, fd *ast.FuncDecl, x ast.Expr) string {
	base := x
	for {
		switch e := base.(type) {
		case *ast.SelectorExpr:
			base = e.X
			continue
		case *ast.ParenExpr:
			base = e.X
			continue
		}
		break
	}
	id, ok := base.(*ast.Ident)
	if !ok {
		return ""
	}
	obj := tp.info.Uses[id]
	if fd.Recv != nil && len(fd.Recv.List[0].Names) == 1 && tp.info.Defs[fd.Recv.List[0].Names[0]] == obj {
		rt := recvNamed(obj.Type())
		if rt == nil {
			return ""
		}
		return rt.Obj().Name() + strings.TrimPrefix(types.ExprString(x), id.Name)
	}
	if isPkgVar(obj) {
		return types.ExprString(x)
	}
	return ""
}

// recvNamed returns the named type of a receiver *T, or nil.
func recvNamed(t types.Type) *types.Named {
	p, ok := t.(*types.Pointer)
	if !ok {
		return nil
	}
	n, _ := p.Elem().(*types.Named)
	return n
}

// newCtx makes the lowering context of a function body.
func (b *builder) newCtx(tp *typedPkg, fd *ast.FuncDecl, proc bool) *fnCtx {
	c := &fnCtx{b: b, tp: tp, locals: map[types.Object]*localVar{}, names: map[string]bool{}, disp: map[string]string{},
		proc: proc, roots: map[*root]bool{}, globals: map[*global]bool{}, calls: map[*fnInfo]bool{}}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		f := fd.Recv.List[0]
		if len(f.Names) == 1 {
			c.recv, _ = tp.info.Defs[f.Names[0]].(*types.Var)
		}
		rt := tp.info.TypeOf(f.Type)
		n := recvNamed(rt)
		if n == nil {
			c.fail(f.Type.Pos(), "value receiver: only pointer receivers share their state")
		}
		if _, ok := n.Underlying().(*types.Struct); !ok {
			c.fail(f.Type.Pos(), "receiver of type %s: only structs are modelled", rt)
		}
		c.recvT = n.Obj()
		if c.recv != nil && c.recv.Name() != "_" {
			r := b.rootOf(c.recvT)
			if b.recvNames[r] == nil {
				b.recvNames[r] = map[string]int{}
			}
			b.recvNames[r][c.recv.Name()]++
		}
	}
	if fd.Type.TypeParams != nil {
		c.fail(fd.Type.TypeParams.Pos(), "generic functions are not modelled")
	}
	return c
}

// params declares a function's parameters and returns their IR formals.
func (c *fnCtx) params(fd *ast.FuncDecl) []string {
	var out []string
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			obj := c.info().Defs[n]
			sc, reason := scalarOf(obj.Type())
			if reason != "" {
				c.fail(n.Pos(), "parameter %s: %s", n.Name, reason)
			}
			lv := c.declare(obj, n.Pos())
			out = append(out, sc.blkType()+" "+lv.blk[0])
		}
		if len(f.Names) == 0 {
			c.fail(f.Pos(), "unnamed parameter")
		}
	}
	return out
}

func (b *builder) lowerBlock(bs *blockSrc) {
	bs.proc = b.uniqueName("P_" + strings.ReplaceAll(bs.bl.ID, ".", "_"))
	if bs.err != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsup)
			if !ok {
				panic(r)
			}
			bs.err = &u
		}
	}()
	fd := bs.decl
	c := b.newCtx(bs.tp, fd, true)
	c.buf = [][]frag{nil}
	formals := c.params(fd)
	bs.stubPar = formals
	bs.bl.Func = fd.Name.Name
	if c.recvT != nil {
		bs.bl.Recv = c.recvT.Name()
	}
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			lv := c.locals[c.info().Defs[n]]
			sc := lv.leaves[0].sc
			lo, hi := sc.rng()
			bs.bl.Params = append(bs.bl.Params, Var{Name: c.disp[lv.blk[0]], Bool: sc.isBool, String: sc.isString, Min: lo, Max: hi})
		}
	}
	c.retFlag = c.tmp()
	var resultDecls []frag
	if fd.Type.Results != nil {
		k := 0
		for _, f := range fd.Type.Results.List {
			n := max(1, len(f.Names))
			for i := 0; i < n; i++ {
				t := c.info().TypeOf(f.Type)
				sc, reason := scalarOf(t)
				if reason != "" {
					c.fail(f.Type.Pos(), "result: %s", reason)
				}
				var lv *localVar
				if len(f.Names) > 0 && f.Names[i].Name != "_" {
					lv = c.declare(c.info().Defs[f.Names[i]], f.Names[i].Pos())
				} else {
					name := "ret"
					if fd.Type.Results.NumFields() > 1 {
						name = fmt.Sprintf("ret%d", k)
					}
					lv = &localVar{blk: []string{c.fresh(name)}, leaves: []leaf{{sc: sc}}}
					c.disp[lv.blk[0]] = c.displayLocal(name)
				}
				c.results = append(c.results, lv)
				resultDecls = append(resultDecls, cat("  ", sc.blkType(), " ", lv.blk[0], " = ", zero(sc), ";"))
				k++
			}
		}
	}
	c.stmts(bs.body)
	body := c.pop()
	var all []frag
	all = append(all, cat("proc ", bs.proc, "(", strings.Join(formals, ", "), ") {").at(fd.Name.Pos()))
	all = append(all, resultDecls...)
	if c.retUsed {
		all = append(all, fr("  bool "+c.retFlag+" = false;"))
	}
	all = append(all, body...)
	if len(c.results) > 0 {
		var reads []string
		for _, r := range c.results {
			reads = append(reads, r.blk[0]+" == "+r.blk[0])
		}
		end := fd.Body.Rbrace
		all = append(all, fr("  result: yield;").at(end), fr("  assert("+strings.Join(reads, " && ")+");").at(end))
		bs.bl.Result = bs.bl.ID + "@result"
	}
	all = append(all, fr("}"))
	bs.text = lines(all)
	bs.roots, bs.globals, bs.calls, bs.disp, bs.writes = c.roots, c.globals, c.calls, c.disp, c.writes
	if bs.read && c.writes != token.NoPos {
		bs.err = &unsup{c.writes, "writes shared state while holding only the read lock"}
	}
}

func (b *builder) uniqueName(n string) string {
	out := n
	for k := 2; b.used[out]; k++ {
		out = fmt.Sprintf("%s_%d", n, k)
	}
	b.used[out] = true
	return out
}

// funcInfo returns the helper of a function of the package.
func (b *builder) funcInfo(fn *types.Func) *fnInfo {
	if fi, ok := b.funcs[fn]; ok {
		return fi
	}
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		if n := recvNamed(recv.Type()); n != nil {
			name = n.Obj().Name() + "." + name
		}
	}
	fi := &fnInfo{obj: fn, decl: b.decls[fn], tp: b.declPkg[fn], display: name}
	fi.blk = b.uniqueName("F_" + strings.ReplaceAll(name, ".", "_"))
	b.funcs[fn] = fi
	return fi
}

// lowerFunc lowers a helper once; a helper met again while it is being
// lowered is a recursive call.
func (b *builder) lowerFunc(fi *fnInfo) {
	switch fi.state {
	case 2:
		return
	case 1:
		panic(unsup{fi.decl.Pos(), "recursive call of " + fi.display + ": recursion is not modelled"})
	}
	fi.state = 1
	defer func() { fi.state = 2 }()
	if fi.decl == nil || fi.decl.Body == nil {
		fi.err = &unsup{fi.obj.Pos(), "function without a body"}
		return
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				u, ok := r.(unsup)
				if !ok {
					panic(r)
				}
				fi.err = &u
			}
		}()
		fd := fi.decl
		c := b.newCtx(fi.tp, fd, false)
		c.buf = [][]frag{nil}
		formals := c.params(fd)
		result := "func "
		var named *localVar
		if fd.Type.Results != nil {
			if fd.Type.Results.NumFields() > 1 {
				c.fail(fd.Type.Results.Pos(), "helper with several results is not modelled")
			}
			f := fd.Type.Results.List[0]
			sc, reason := scalarOf(c.info().TypeOf(f.Type))
			if reason != "" {
				c.fail(f.Type.Pos(), "result: %s", reason)
			}
			fi.result = &sc
			c.resultT = &sc
			result += sc.blkType() + " "
			if len(f.Names) == 1 && f.Names[0].Name != "_" {
				named = c.declare(c.info().Defs[f.Names[0]], f.Names[0].Pos())
				c.line(f.Names[0].Pos(), sc.blkType(), " ", named.blk[0], " = ", zero(sc), ";")
			}
		}
		if named != nil {
			c.fail(fd.Type.Results.Pos(), "named result in a helper is not modelled")
		}
		c.stmts(fd.Body.List)
		if fi.result != nil {
			c.line(fd.Body.Rbrace, "return ", zero(*fi.result), ";")
		}
		body := c.pop()
		all := []frag{cat(result, fi.blk, "(", strings.Join(formals, ", "), ") {").at(fd.Name.Pos())}
		all = append(all, body...)
		all = append(all, fr("}"))
		fi.text = lines(all)
		fi.writes = c.writes != token.NoPos
		fi.roots, fi.globals, fi.calls, fi.disp = c.roots, c.globals, c.calls, c.disp
	}()
}

// ---- shared state ----

func (b *builder) rootOf(obj types.Object) *root {
	if r, ok := b.roots[obj]; ok {
		return r
	}
	r := &root{key: obj, order: int(obj.Pos()), display: obj.Name()}
	prefix := ""
	if b.multi && obj.Pkg() != nil {
		prefix = obj.Pkg().Name() + "."
		r.display = prefix + obj.Name()
	}
	r.blk = b.uniqueName("G_" + strings.ReplaceAll(prefix, ".", "_") + obj.Name())
	b.roots[obj] = r
	return r
}

// globalFor returns the global of a scalar place.
func (b *builder) globalFor(c *fnCtx, p place, sc scalar) *global {
	key := p.r.blk + "/" + pathKey(p.path)
	if g, ok := b.globals[key]; ok {
		return g
	}
	g := &global{r: p.r, path: p.path, sc: sc, m: p.mi}
	blk := p.r.blk
	var disp []string
	for i, n := range p.names {
		switch k := p.path[i]; {
		case k >= 0:
			blk += "_" + n
			disp = append(disp, n)
			g.goPath += "." + n
		case k == -1 || k == -2:
			g.goPath += "[%d]"
		default: // a part of a map other than its values
			blk += "_" + n
			g.part = n
		}
	}
	g.blk = b.uniqueName(blk)
	if _, isVar := p.r.key.(*types.Var); isVar {
		g.goPath = p.r.key.Name() + g.goPath
	}
	g.display = strings.Join(disp, ".")
	if p.idx != nil {
		g.size = p.size
		g.unbounded = p.mi != nil && p.mi.wide
	}
	if len(p.path) == 0 {
		if init, ok := b.pkgVarInit[p.r.key]; ok {
			if tv := b.declPkg0().info.Types[init]; tv.Value != nil {
				g.init = constText(tv.Value, sc)
				if tv.Value.Kind() == constant.String && sc.isString {
					g.init = intLit(b.stringID(constant.StringVal(tv.Value))).s
				}
			}
		}
	}
	b.globals[key] = g
	return g
}

// declPkg0 finds the type information holding package-level initializers.
func (b *builder) declPkg0() *typedPkg { return b.pkgs[0] }

func constText(v constant.Value, sc scalar) string {
	switch v.Kind() {
	case constant.Bool:
		if sc.isBool {
			return fmt.Sprint(constant.BoolVal(v))
		}
	case constant.Int:
		if n, ok := constant.Int64Val(v); ok && !sc.isBool {
			return intLit(n).s
		}
	}
	return ""
}

// checkLocks makes unknown the blocks that touch shared state other
// blocks touch under another mutex: blocks under different mutexes can
// interleave, so neither is atomic with respect to the other.
func (b *builder) checkLocks(srcs []*blockSrc) {
	keys := map[*root]map[string]bool{}
	for _, bs := range srcs {
		if bs.err != nil || bs.lockKey == "" {
			continue
		}
		for r := range bs.roots {
			if keys[r] == nil {
				keys[r] = map[string]bool{}
			}
			keys[r][bs.lockKey] = true
		}
	}
	for _, bs := range srcs {
		if bs.err != nil || bs.lockKey == "" {
			continue
		}
		for _, r := range sortedRoots(bs.roots) {
			if len(keys[r]) > 1 {
				var ks []string
				for k := range keys[r] {
					ks = append(ks, k)
				}
				sort.Strings(ks)
				bs.err = &unsup{bs.decl.Name.Pos(), fmt.Sprintf("the state of %s is guarded by different mutexes (%s): blocks under different mutexes interleave", r.key.Name(), strings.Join(ks, ", "))}
				break
			}
		}
	}
}

func sortedRoots(m map[*root]bool) []*root {
	var out []*root
	for r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].order < out[j].order })
	return out
}

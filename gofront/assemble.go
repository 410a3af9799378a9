package gofront

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// assemble writes the program: globals, range invariants, the generated
// helpers, the funcs the modelled blocks call, and one proc per block (an
// empty one for a block that is not modelled).
func (b *builder) assemble(srcs []*blockSrc) (string, []mark) {
	var parts []frag
	used := map[*global]bool{}
	calls := map[*fnInfo]bool{}
	for _, bs := range srcs {
		if bs.err != nil {
			continue
		}
		for g := range bs.globals {
			used[g] = true
		}
		for f := range bs.calls {
			calls[f] = true
		}
	}
	var gs []*global
	for g := range used {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool {
		if gs[i].r.order != gs[j].r.order {
			return gs[i].r.order < gs[j].r.order
		}
		return lessPath(gs[i].path, gs[j].path)
	})
	for _, g := range gs {
		g.used = true
		decl := "global " + g.sc.blkType() + " " + g.blk
		if g.size > 0 {
			decl = fmt.Sprintf("global int %s[%d]", g.blk, g.size)
		}
		if g.unbounded {
			decl = fmt.Sprintf("global int %s[*]", g.blk)
		}
		if g.init != "" {
			decl += " = " + g.init
		}
		parts = append(parts, fr(decl+";").at(g.r.key.Pos()))
	}
	lens := map[*mapInfo]*global{}
	for _, g := range gs {
		if g.part == "len" {
			lens[g.m] = g
			parts = append(parts, fr(fmt.Sprintf("invariant (%s >= 0);", g.blk)).at(g.r.key.Pos()))
		}
	}
	for _, g := range gs {
		if l := lens[g.m]; g.part == "nil" && l != nil {
			parts = append(parts, fr(fmt.Sprintf("invariant (!%s || %s == 0);", g.blk, l.blk)).at(g.r.key.Pos()))
		}
	}
	for _, g := range gs {
		if !g.array() && g.sc.narrow() {
			lo, hi := g.sc.bounds()
			parts = append(parts, fr(fmt.Sprintf("invariant (%s >= %s && %s <= %s);", g.blk, intLit(lo).s, g.blk, intLit(hi).s)).at(g.r.key.Pos()))
		}
	}
	var wraps []string
	for n := range b.wraps {
		wraps = append(wraps, n)
	}
	sort.Strings(wraps)
	for _, n := range wraps {
		sc := b.wraps[n]
		m := int64(1) << sc.bits
		if sc.signed {
			h := m / 2
			parts = append(parts, fr(fmt.Sprintf("func int %s(int v) { return ((v + %d) %% %d + %d) %% %d - %d; }", n, h, m, m, m, h)))
		} else {
			parts = append(parts, fr(fmt.Sprintf("func int %s(int v) { return (v %% %d + %d) %% %d; }", n, m, m, m)))
		}
	}
	if b.minmax["MIN2"] {
		parts = append(parts, fr("func int MIN2(int x, int y) { if (y < x) { return y; } return x; }"))
	}
	if b.minmax["MAX2"] {
		parts = append(parts, fr("func int MAX2(int x, int y) { if (y > x) { return y; } return x; }"))
	}
	if b.needSIDX {
		parts = append(parts, fr("func int SIDX(int i, int n) { if (i < 0 || i >= n) { return 1 / 0; } return i; }"))
	}
	if b.needB2I {
		parts = append(parts, fr("func int B2I(bool v) { if (v) { return 1; } return 0; }"))
	}
	var fs []*fnInfo
	for f := range calls {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].decl.Pos() < fs[j].decl.Pos() })
	for _, f := range fs {
		parts = append(parts, f.text)
	}
	for _, bs := range srcs {
		if bs.err != nil {
			parts = append(parts, cat("proc ", bs.proc, "(", strings.Join(bs.stubPar, ", "), ") { }").at(bs.decl.Name.Pos()))
			continue
		}
		parts = append(parts, bs.text)
	}
	all := lines(parts)
	return all.s, all.m
}

func lessPath(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// finish names the program's procs, blocks, funcs and variables as the
// Go code does and gives every position of the IR its place in the Go
// source; it records the located reasons of the blocks not modelled.
func (b *builder) finish(prog *lang.Program, srcs []*blockSrc, marks []mark, irFile, pattern string) {
	prog.File = pattern
	// Globals: receiver.field (the receiver name most blocks of the type
	// use), or the package variable's name.
	disp := map[*global]string{}
	count := map[string]int{}
	for _, g := range b.globals {
		if !g.used {
			continue
		}
		d := b.rootDisplay(g.r, false)
		if g.display != "" {
			d += "." + g.display
		}
		disp[g] = mapPartName(g, d)
		count[disp[g]]++
	}
	for g, d := range disp {
		if count[d] > 1 {
			d = b.rootDisplay(g.r, true)
			if g.display != "" {
				d += "." + g.display
			}
			disp[g] = mapPartName(g, d)
		}
	}
	byBlk := map[string]string{}
	for g, d := range disp {
		byBlk[g.blk] = d
	}
	byName := map[string]*global{}
	for _, g := range b.globals {
		byName[g.blk] = g
	}
	b.vars = map[*global]*lang.Var{}
	for _, v := range prog.Globals {
		g := byName[v.Name]
		if g != nil {
			b.vars[g] = v
		}
		if d, ok := byBlk[v.Name]; ok {
			v.Name = d
		}
		if g == nil {
			continue
		}
		sv := StateVar{Name: v.Name, Go: g.goPath, Size: g.size, Unbounded: g.unbounded, Bool: g.sc.isBool, String: g.sc.isString}
		sv.Min, sv.Max = g.sc.rng()
		if tn, ok := g.r.key.(*types.TypeName); ok {
			sv.Root = tn.Name()
		}
		if g.m != nil {
			mp := &MapPart{Go: g.m.goPath, Type: g.m.goType, Part: g.part, KeyMin: g.m.keyMin, KeyBool: g.m.keyBool, Keys: g.m.size}
			if g.m.wide {
				mp.KeyLo, mp.KeyHi, mp.KeyString = g.m.keyLo, g.m.keyHi, g.m.keyString
			}
			mp.Slice = g.m.slice
			if g.part == "" {
				mp.Part = "value"
				mp.Field = strings.TrimPrefix(g.goPath, strings.SplitN(g.goPath, "[%d]", 2)[0]+"[%d]")
			}
			sv.Map = mp
		}
		b.state = append(b.state, sv)
	}
	for _, bs := range srcs {
		if bs.err != nil {
			bs.bl.Reason = &lang.Error{Pos: position(b.fset, bs.err.pos), Msg: bs.err.msg}
			bs.bl.Result = ""
		}
		pr := prog.Proc(bs.proc)
		if pr == nil {
			continue
		}
		pr.Name = bs.bl.ID
		for _, bl := range pr.Blocks {
			bl.ID = bs.bl.ID + strings.TrimPrefix(bl.ID, bs.proc)
		}
		renameLocals(pr.Locals, bs.disp)
	}
	for _, fi := range b.funcs {
		for _, f := range prog.Funcs {
			if f.Name == fi.blk {
				f.Name = fi.display
				renameLocals(f.Locals, fi.disp)
			}
		}
	}
	r := &remapper{fset: b.fset, marks: marks, file: irFile}
	r.program(prog)
}

// mapPartName names a part of a map other than its values: has(m) (an
// array: has(m)[k] says the key is present), len(m), isnil(m).
func mapPartName(g *global, d string) string {
	switch g.part {
	case "has", "len":
		return g.part + "(" + d + ")"
	case "nil":
		return "isnil(" + d + ")"
	}
	return d
}

func renameLocals(vs []*lang.Var, disp map[string]string) {
	for _, v := range vs {
		if d, ok := disp[v.Name]; ok {
			v.Name = d
		}
	}
}

// rootDisplay names a root: the receiver name its blocks use most (the
// type's name when asked, or when no block names it), or the variable's.
func (b *builder) rootDisplay(r *root, typeName bool) string {
	if _, isType := r.key.(*types.TypeName); isType && !typeName {
		best, n := "", 0
		var names []string
		for name := range b.recvNames[r] {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if b.recvNames[r][name] > n {
				best, n = name, b.recvNames[r][name]
			}
		}
		if best != "" {
			return best
		}
	}
	return r.display
}

// remapper moves the IR's positions from the generated program to the Go
// source: each position takes the Go position of the last mark at or
// before its offset.
type remapper struct {
	fset  *token.FileSet
	marks []mark
	file  string
}

func (r *remapper) pos(p *lang.Pos) {
	if p.File != r.file || !p.IsValid() {
		return
	}
	i := sort.Search(len(r.marks), func(i int) bool { return r.marks[i].off > p.Offset }) - 1
	if i < 0 {
		return
	}
	*p = position(r.fset, r.marks[i].pos)
}

func (r *remapper) program(p *lang.Program) {
	for _, v := range p.Globals {
		r.vars(v)
	}
	for _, pr := range p.Procs {
		r.pos(&pr.Pos)
		for _, v := range pr.Locals {
			r.vars(v)
		}
		r.stmts(pr.Body)
		r.nodes(pr.Nodes)
		for _, pt := range pr.Points {
			r.pos(&pt.Pos)
			r.expr(pt.Guard)
		}
	}
	for _, f := range p.Funcs {
		r.pos(&f.Pos)
		for _, v := range f.Locals {
			r.vars(v)
		}
		r.stmts(f.Body)
		r.nodes(f.Nodes)
	}
	for _, inv := range p.Invariants {
		r.pos(&inv.Pos)
		r.expr(inv.Cond)
	}
}

func (r *remapper) vars(v *lang.Var) {
	r.pos(&v.Pos)
	r.expr(v.Size)
	for _, e := range v.Init {
		r.expr(e)
	}
}

func (r *remapper) nodes(ns []*lang.Node) {
	for _, n := range ns {
		r.pos(&n.Pos)
		r.expr(n.Target.Index)
		r.expr(n.Value)
		r.expr(n.Cond)
		for _, a := range n.Args {
			r.expr(a)
		}
		if n.Call != nil {
			r.expr(n.Call)
		}
	}
}

func (r *remapper) stmts(ss []lang.Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *lang.AssignStmt:
			r.pos(&s.At)
			r.expr(s.Target.Index)
			r.expr(s.Value)
		case *lang.IfStmt:
			r.pos(&s.At)
			r.expr(s.Cond)
			r.stmts(s.Then)
			r.stmts(s.Else)
		case *lang.WhileStmt:
			r.pos(&s.At)
			r.expr(s.Cond)
			r.stmts(s.Body)
		case *lang.SpawnStmt:
			r.pos(&s.At)
			for _, a := range s.Args {
				r.expr(a)
			}
		case *lang.AssertStmt:
			r.pos(&s.At)
			r.expr(s.Cond)
		case *lang.YieldStmt:
			r.pos(&s.At)
		case *lang.AwaitStmt:
			r.pos(&s.At)
			r.expr(s.Cond)
		case *lang.ReturnStmt:
			r.pos(&s.At)
			r.expr(s.Value)
		case *lang.CallStmt:
			r.pos(&s.At)
			r.expr(s.Call)
		}
	}
}

func (r *remapper) expr(e lang.Expr) {
	switch e := e.(type) {
	case *lang.IntLit:
		r.pos(&e.At)
	case *lang.BoolLit:
		r.pos(&e.At)
	case *lang.ParamRef:
		r.pos(&e.At)
	case *lang.VarRef:
		r.pos(&e.At)
	case *lang.IndexExpr:
		r.pos(&e.At)
		r.expr(e.Index)
	case *lang.UnaryExpr:
		r.pos(&e.At)
		r.expr(e.X)
	case *lang.BinaryExpr:
		r.pos(&e.At)
		r.expr(e.X)
		r.expr(e.Y)
	case *lang.CallExpr:
		r.pos(&e.At)
		for _, a := range e.Args {
			r.expr(a)
		}
	}
}

package gofront

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Maps of the shared state with integer or bool keys are modelled
// exactly: the IR holds a map as arrays over its keys, one of values per
// scalar leaf of the element and one of presence (has), with its length
// and whether it is nil as two scalars. For keys of at most 8 bits (int8,
// uint8, bool) the arrays have one element per key of the key type; for
// wider keys they are unbounded (int m[*]) and indexed by the key. In every state Go can be in, a key that is absent has the zero
// value in the value arrays, a nil map has no key, and the length counts
// the keys present; every operation lowered here keeps that so, and reads
// rely on it: m[k] is the value array's element, present or not.

// maxMapKeyBits bounds the width of a key type whose map the IR holds
// in arrays of one element per key; wider keys index unbounded arrays.
const maxMapKeyBits = 8

// mapOf describes the map held at base, or fails with the reason it is
// not modelled.
func (c *fnCtx) mapOf(pos token.Pos, base place, mt *types.Map) *mapInfo {
	key := c.containerKey(pos, base, "map", "maps inside arrays or maps")
	if mi, ok := c.b.maps[key]; ok {
		return mi
	}
	ksc, reason := scalarOf(mt.Key())
	if reason != "" {
		c.fail(pos, "map with keys of type %s: %s", mt.Key(), reason)
	}
	mi := &mapInfo{goType: types.TypeString(mt, types.RelativeTo(c.tp.pkg))}
	switch {
	case ksc.isBool:
		mi.keyBool, mi.size = true, 2
	case ksc.bits <= maxMapKeyBits:
		lo, hi := ksc.bounds()
		mi.keyMin, mi.size = lo, hi-lo+1
	default:
		mi.wide = true
		mi.keyLo, mi.keyHi = ksc.rng()
		mi.keyString = ksc.isString
	}
	if _, reason := leavesOf(mt.Elem()); reason != "" {
		c.fail(pos, "map with elements of type %s: %s", mt.Elem(), reason)
	}
	mi.goPath = goPathOf(base)
	c.b.maps[key] = mi
	return mi
}

// containerKey fails unless the map or slice (what) at base is shared
// state outside any other container (inside: what is not modelled), and
// returns its key in the block's maps.
func (c *fnCtx) containerKey(pos token.Pos, base place, what, inside string) string {
	switch {
	case base.local != nil || base.r == nil:
		c.fail(pos, "a %s that is not shared state (a local or a parameter) is not modelled", what)
	case base.idx != nil:
		c.fail(pos, "%s are not modelled", inside)
	}
	return base.r.blk + "/" + pathKey(base.path)
}

// goPathOf is the Go text of the shared state at base: its fields'
// names, after the package variable's name when it is one.
func goPathOf(base place) string {
	path := ""
	for i, n := range base.names {
		if base.path[i] >= 0 {
			path += "." + n
		}
	}
	if _, isVar := base.r.key.(*types.Var); isVar {
		path = base.r.key.Name() + path
	}
	return path
}

// keyIndex is the index of the arrays of a map that holds key k, of
// type ksc. A key is wrapped into its type's range unless it is a
// constant or wrapped already: the IR does not know the range of a
// parameter, and a key out of it would read out of the arrays, where Go
// has no such key.
func (c *fnCtx) keyIndex(mi *mapInfo, k frag, ksc scalar, constant bool) frag {
	if mi.keyBool {
		c.b.needB2I = true
		return cat("B2I(", k, ")")
	}
	if mi.wide {
		// Every value of the key's type is an index of the unbounded
		// arrays; a key out of its type's range is no state of Go's.
		return k
	}
	if !constant && !strings.HasPrefix(k.s, ksc.wrapFunc()+"(") {
		k = c.wrapped(k, ksc)
	}
	if mi.keyMin != 0 {
		return cat("(", k, " + ", intLit(-mi.keyMin), ")")
	}
	return k
}

// mapElem is the place of m[key], the map at base.
func (c *fnCtx) mapElem(x *ast.IndexExpr, base place, mt *types.Map) place {
	mi := c.mapOf(x.X.Pos(), base, mt)
	b := base
	q := base.with(-2, "", mt.Elem())
	ksc, _ := scalarOf(mt.Key())
	idx := c.keyIndex(mi, c.expr(x.Index), ksc, c.info().Types[x.Index].Value != nil)
	q.idx = &idx
	q.idxE = x.Index
	q.size = mi.size
	q.mapBase = &b
	q.mi = mi
	return q
}

// mapPart is the global of a part of the map at base: "has", "len" or
// "nil".
func (c *fnCtx) mapPart(base place, mi *mapInfo, part string) *global {
	marker := map[string]int{"has": -3, "len": -4, "nil": -5}[part]
	q := base.with(marker, part, nil)
	q.mi = mi
	sc := scalar{isBool: true, name: "bool"}
	if part == "has" {
		dummy := fr("0")
		q.idx = &dummy
		q.size = mi.size
	}
	if part == "len" {
		sc = scalar{bits: 64, signed: true, name: "int"}
	}
	g := c.b.globalFor(c, q, sc)
	c.globals[g] = true
	return g
}

// mapIndexTmp stores the index of a map element place in a temporary, so
// that it is evaluated once.
func (c *fnCtx) mapIndexTmp(pos token.Pos, p place) place {
	n := c.tmp()
	c.line(pos, "int ", n, " = ", *p.idx, ";")
	f := fr(n)
	p.idx = &f
	return p
}

// mapStore lowers m[k] = v (v's leaves in vals, already evaluated): a
// nil map panics; a key that was absent becomes present and counts.
func (c *fnCtx) mapStore(pos token.Pos, p place, vals []frag) {
	ls, reason := leavesOf(p.t)
	if reason != "" {
		c.fail(pos, "%s", reason)
	}
	// The right-hand side is evaluated before the map is touched: a call
	// in it may read or write the map.
	tmps := make([]frag, len(vals))
	for k, v := range vals {
		n := c.tmp()
		c.line(pos, ls[k].sc.blkType(), " ", n, " = ", v, ";")
		tmps[k] = fr(n)
	}
	p = c.mapIndexTmp(pos, p)
	base, mi := *p.mapBase, p.mi
	nilG, has, ln := c.mapPart(base, mi, "nil"), c.mapPart(base, mi, "has"), c.mapPart(base, mi, "len")
	c.line(pos, "if (", nilG.blk, ") {")
	c.line(pos, "  int ", c.tmp(), " = 1 / 0;")
	c.line(token.NoPos, "}")
	c.line(pos, "if (", has.blk, "[", *p.idx, "] == 0) {")
	c.line(pos, "  ", has.blk, "[", *p.idx, "] = 1;")
	c.line(pos, "  ", ln.blk, " = ", ln.blk, " + 1;")
	c.line(token.NoPos, "}")
	c.storeLeaves(pos, p, ls, tmps)
}

// storeLeaves assigns the leaves of a value to an array or map element
// place (or a scalar place).
func (c *fnCtx) storeLeaves(pos token.Pos, p place, ls []leaf, vals []frag) {
	for k, lf := range ls {
		q := p
		for i, fi := range lf.path {
			q = q.with(fi, lf.names[i], nil)
		}
		g := c.b.globalFor(c, q, lf.sc)
		val := vals[k]
		if g.array() && lf.sc.isBool {
			c.b.needB2I = true
			val = cat("B2I(", val, ")")
		}
		c.line(pos, c.access(g, q), " = ", val, ";")
	}
}

// mapDelete lowers delete(m, k): a present key becomes absent, its value
// zero; on a nil map, or an absent key, nothing happens.
func (c *fnCtx) mapDelete(call *ast.CallExpr) {
	mt, ok := c.info().TypeOf(call.Args[0]).Underlying().(*types.Map)
	if !ok {
		c.fail(call.Pos(), "delete of a value that is not a map")
	}
	base, ok := c.placeOf(call.Args[0])
	if !ok {
		c.fail(call.Args[0].Pos(), "delete from %s, which is not modelled", types.ExprString(call.Args[0]))
	}
	c.wrote(call.Pos(), base)
	p := c.mapElem(&ast.IndexExpr{X: call.Args[0], Index: call.Args[1], Lbrack: call.Args[1].Pos()}, base, mt)
	p = c.mapIndexTmp(call.Pos(), p)
	has, ln := c.mapPart(base, p.mi, "has"), c.mapPart(base, p.mi, "len")
	ls, _ := leavesOf(mt.Elem())
	c.line(call.Pos(), "if (", has.blk, "[", *p.idx, "] != 0) {")
	c.depth++
	c.line(call.Pos(), has.blk, "[", *p.idx, "] = 0;")
	c.line(call.Pos(), ln.blk, " = ", ln.blk, " - 1;")
	var zeros []frag
	for _, l := range ls {
		zeros = append(zeros, zero(l.sc))
	}
	c.storeLeaves(call.Pos(), p, ls, zeros)
	c.depth--
	c.line(token.NoPos, "}")
}

// mapLen is len(m).
func (c *fnCtx) mapLen(e ast.Expr, mt *types.Map) frag {
	base, ok := c.placeOf(e)
	if !ok {
		c.fail(e.Pos(), "len of %s, which is not modelled", types.ExprString(e))
	}
	mi := c.mapOf(e.Pos(), base, mt)
	return fr(c.mapPart(base, mi, "len").blk).at(e.Pos())
}

// mapNil is m == nil.
func (c *fnCtx) mapNil(e ast.Expr, mt *types.Map) frag {
	base, ok := c.placeOf(e)
	if !ok {
		c.fail(e.Pos(), "comparison of %s, which is not modelled", types.ExprString(e))
	}
	mi := c.mapOf(e.Pos(), base, mt)
	return fr(c.mapPart(base, mi, "nil").blk).at(e.Pos())
}

// commaOk lowers v, ok := m[k] (or =, or var): the element's leaves and
// whether the key is present, evaluated before anything is assigned.
func (c *fnCtx) commaOk(pos token.Pos, x *ast.IndexExpr) (vals []frag, ok frag) {
	mt := c.info().TypeOf(x.X).Underlying().(*types.Map)
	base, found := c.placeOf(x.X)
	if !found {
		c.fail(x.Pos(), "lookup in %s, which is not modelled", types.ExprString(x.X))
	}
	p := c.mapElem(x, base, mt)
	p = c.mapIndexTmp(pos, p)
	ls, _ := leavesOf(mt.Elem())
	for _, lf := range ls {
		q := p
		for i, fi := range lf.path {
			q = q.with(fi, lf.names[i], nil)
		}
		n := c.tmp()
		c.line(pos, lf.sc.blkType(), " ", n, " = ", c.placeValueSc(pos, q, lf.sc), ";")
		vals = append(vals, fr(n))
	}
	has := c.mapPart(base, p.mi, "has")
	n := c.tmp()
	c.line(pos, "bool ", n, " = ", has.blk, "[", *p.idx, "] != 0;")
	return vals, fr(n)
}

// mapIndexOf returns the map index expression of e (m[k] with m a map),
// or nil.
func (c *fnCtx) mapIndexOf(e ast.Expr) *ast.IndexExpr {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return nil
	}
	if _, isMap := c.info().TypeOf(ix.X).Underlying().(*types.Map); !isMap {
		return nil
	}
	return ix
}

// sliceOf describes the slice held at base, or fails with the reason it
// is not modelled. The IR holds it as a map with wide keys that has only
// values and len: element i at index i of unbounded arrays.
func (c *fnCtx) sliceOf(pos token.Pos, base place, st *types.Slice) *mapInfo {
	key := c.containerKey(pos, base, "slice", "slices inside arrays, maps or slices")
	if mi, ok := c.b.maps[key]; ok {
		return mi
	}
	if _, reason := leavesOf(st.Elem()); reason != "" {
		c.fail(pos, "slice with elements of type %s: %s", st.Elem(), reason)
	}
	mi := &mapInfo{goType: types.TypeString(st, types.RelativeTo(c.tp.pkg)), wide: true, slice: true}
	mi.keyLo, mi.keyHi = 0, 1<<63-1
	mi.goPath = goPathOf(base)
	c.b.maps[key] = mi
	return mi
}

// sliceElem is the place of s[i], the slice at base: its index checked
// against the length (SIDX), where Go checks it.
func (c *fnCtx) sliceElem(x *ast.IndexExpr, base place, st *types.Slice) place {
	mi := c.sliceOf(x.X.Pos(), base, st)
	ln := c.mapPart(base, mi, "len")
	c.b.needSIDX = true
	idx := cat("SIDX(", c.expr(x.Index), ", ", fr(ln.blk), ")").at(x.Lbrack)
	q := base.with(-2, "", st.Elem())
	q.idx = &idx
	q.idxE = x.Index
	q.mi = mi
	return q
}

// sliceLen is len(s).
func (c *fnCtx) sliceLen(e ast.Expr, st *types.Slice) frag {
	base, ok := c.placeOf(e)
	if !ok {
		c.fail(e.Pos(), "len of %s, which is not modelled", types.ExprString(e))
	}
	mi := c.sliceOf(e.Pos(), base, st)
	return fr(c.mapPart(base, mi, "len").blk).at(e.Pos())
}

// sliceAppend lowers s = append(s, v...), s a slice of the state: each
// value, evaluated first, is stored at index len, which grows by one.
// Any other append (to another slice, of a slice...) is not modelled.
func (c *fnCtx) sliceAppend(lhs ast.Expr, call *ast.CallExpr) {
	st, ok := c.info().TypeOf(call).Underlying().(*types.Slice)
	if !ok || call.Ellipsis.IsValid() || len(call.Args) < 2 || types.ExprString(ast.Unparen(lhs)) != types.ExprString(ast.Unparen(call.Args[0])) {
		c.fail(call.Pos(), "append other than s = append(s, v, ...) to a slice of the state is not modelled")
	}
	base, ok := c.placeOf(lhs)
	if !ok {
		c.fail(lhs.Pos(), "append to %s, which is not modelled", types.ExprString(lhs))
	}
	c.wrote(lhs.Pos(), base)
	mi := c.sliceOf(lhs.Pos(), base, st)
	ls, _ := leavesOf(st.Elem())
	var tmps [][]frag
	for _, a := range call.Args[1:] {
		var vs []frag
		for k, v := range c.valuesOf(a, st.Elem(), false) {
			n := c.tmp()
			c.line(a.Pos(), ls[k].sc.blkType(), " ", n, " = ", v, ";")
			vs = append(vs, fr(n))
		}
		tmps = append(tmps, vs)
	}
	ln := c.mapPart(base, mi, "len")
	for _, vs := range tmps {
		idx := fr(ln.blk)
		q := base.with(-2, "", st.Elem())
		q.idx = &idx
		q.mi = mi
		c.storeLeaves(call.Pos(), q, ls, vs)
		c.line(call.Pos(), ln.blk, " = ", ln.blk, " + 1;")
	}
}

// isBuiltin reports whether call calls the builtin name.
func (c *fnCtx) isBuiltin(call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := c.info().Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

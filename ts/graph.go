package ts

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/icgen/icgen/lang"
)

// Ref names a term of a [Graph] by its integer id. Within one graph, equal
// refs are structurally equal terms and structurally equal terms have equal
// refs (hash-consing): comparing terms is comparing integers, and a term
// reused many times is stored once.
type Ref int32

// Graph is a hash-consed DAG of terms: the one term algebra of synthesis,
// where both executors ([Block], [MergeBlock]) and the encoders build their
// terms. Its constructors simplify (constant folding, neutral elements,
// flattened and/or, negation pushed into comparisons), and read-over-write
// is applied as terms are built, so selects only read input arrays (or
// arrays a loop function returns). Trees ([Term]) are only views of its
// terms. A graph is not safe for concurrent use.
type Graph struct {
	nodes []gnode
	index map[gkey]Ref
	sel   map[[2]Ref]Ref // memo of Select
	arr   map[Ref][]Ref  // memo of the indices a store/ite array term writes
	base  map[Ref]Ref    // memo of the base array of a store/ite array term (-1: several)
	fns   map[string]*Fn // the loops' functions, by name (namedFn)
	// Limit bounds the number of nodes; past it Over is set and
	// constructors keep working (their results are then unused).
	Limit int
	Over  bool
}

type gnode struct {
	kind Kind
	sort Sort
	op   lang.Op
	val  int64
	sym  *Sym
	fn   *Fn
	args []Ref
}

type gkey struct {
	kind Kind
	sort Sort
	op   lang.Op
	val  int64
	sym  *Sym
	fn   *Fn
	args string
}

// MaxGraph is the default node limit of a graph.
const MaxGraph = 1 << 21

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	return &Graph{index: map[gkey]Ref{}, sel: map[[2]Ref]Ref{}, arr: map[Ref][]Ref{}, base: map[Ref]Ref{}, fns: map[string]*Fn{}, Limit: MaxGraph}
}

func (g *Graph) mk(n gnode) Ref {
	buf := make([]byte, 4*len(n.args))
	for i, a := range n.args {
		binary.LittleEndian.PutUint32(buf[4*i:], uint32(a))
	}
	k := gkey{n.kind, n.sort, n.op, n.val, n.sym, n.fn, string(buf)}
	if r, ok := g.index[k]; ok {
		return r
	}
	r := Ref(len(g.nodes))
	g.nodes = append(g.nodes, n)
	g.index[k] = r
	if g.Limit > 0 && len(g.nodes) > g.Limit {
		g.Over = true
	}
	return r
}

// Len is the number of nodes.
func (g *Graph) Len() int { return len(g.nodes) }

// Kind, Sort, Op, Val, Sym, Fn and Args read a node.
func (g *Graph) Kind(r Ref) Kind  { return g.nodes[r].kind }
func (g *Graph) Sort(r Ref) Sort  { return g.nodes[r].sort }
func (g *Graph) Op(r Ref) lang.Op { return g.nodes[r].op }
func (g *Graph) Val(r Ref) int64  { return g.nodes[r].val }
func (g *Graph) Sym(r Ref) *Sym   { return g.nodes[r].sym }
func (g *Graph) Fn(r Ref) *Fn     { return g.nodes[r].fn }
func (g *Graph) Args(r Ref) []Ref { return g.nodes[r].args }
func (g *Graph) IsTrue(r Ref) bool {
	n := g.nodes[r]
	return n.kind == KConst && n.sort == SortBool && n.val == 1
}
func (g *Graph) IsFalse(r Ref) bool {
	n := g.nodes[r]
	return n.kind == KConst && n.sort == SortBool && n.val == 0
}
func (g *Graph) isConst(r Ref) bool { return g.nodes[r].kind == KConst }
func (g *Graph) isInt(r Ref, v int64) bool {
	n := g.nodes[r]
	return n.kind == KConst && n.sort == SortInt && n.val == v
}

// Int is an integer constant.
func (g *Graph) Int(v int64) Ref { return g.mk(gnode{kind: KConst, sort: SortInt, val: v}) }

// Bool is a boolean constant.
func (g *Graph) Bool(b bool) Ref {
	v := int64(0)
	if b {
		v = 1
	}
	return g.mk(gnode{kind: KConst, sort: SortBool, val: v})
}

// True and False are the boolean constants.
func (g *Graph) True() Ref  { return g.Bool(true) }
func (g *Graph) False() Ref { return g.Bool(false) }

// SymRef is the term of an input symbol.
func (g *Graph) SymRef(s *Sym) Ref { return g.mk(gnode{kind: KSym, sort: s.Sort, sym: s}) }

// Not is the negation, pushed into comparisons.
func (g *Graph) Not(x Ref) Ref {
	n := g.nodes[x]
	switch {
	case n.kind == KConst:
		return g.Bool(n.val == 0)
	case n.kind == KOp && n.op == lang.OpNot:
		return n.args[0]
	case n.kind == KOp && negCmp[n.op] != 0 && g.nodes[n.args[0]].sort != SortArray:
		return g.Binary(negCmp[n.op]-1, n.args[0], n.args[1])
	}
	return g.mk(gnode{kind: KOp, sort: SortBool, op: lang.OpNot, args: []Ref{x}})
}

// Neg is the arithmetic negation.
func (g *Graph) Neg(x Ref) Ref {
	n := g.nodes[x]
	if n.kind == KConst && n.val != minInt {
		return g.Int(-n.val)
	}
	if n.kind == KOp && n.op == lang.OpNeg {
		return n.args[0]
	}
	return g.mk(gnode{kind: KOp, sort: SortInt, op: lang.OpNeg, args: []Ref{x}})
}

// Unary builds -x or !x.
func (g *Graph) Unary(op lang.Op, x Ref) Ref {
	if op == lang.OpNot {
		return g.Not(x)
	}
	return g.Neg(x)
}

// Implies is !a || b.
func (g *Graph) Implies(a, b Ref) Ref { return g.Or(g.Not(a), b) }

// Binary builds x op y with light simplification: constant folding (when
// it cannot overflow), neutral elements, and x op x; equality of two
// arrays over one base array becomes the equality of the elements either
// side writes. Division and modulo are KDiv/KMod terms (truncated
// semantics), built by Div and Mod.
func (g *Graph) Binary(op lang.Op, x, y Ref) Ref {
	switch op {
	case lang.OpDiv:
		return g.Div(x, y)
	case lang.OpMod:
		return g.Mod(x, y)
	case lang.OpAnd:
		return g.And(x, y)
	case lang.OpOr:
		return g.Or(x, y)
	}
	nx, ny := g.nodes[x], g.nodes[y]
	if nx.kind == KConst && ny.kind == KConst && nx.sort == ny.sort {
		if v, ok := fold(op, nx.val, ny.val); ok {
			if op.Prec() <= 4 || op == lang.OpEq || op == lang.OpNe {
				return g.Bool(v != 0)
			}
			return g.Int(v)
		}
	}
	switch op {
	case lang.OpAdd:
		if g.isInt(x, 0) {
			return y
		}
		if g.isInt(y, 0) {
			return x
		}
	case lang.OpSub:
		if g.isInt(y, 0) {
			return x
		}
		if x == y {
			return g.Int(0)
		}
	case lang.OpMul:
		if g.isInt(x, 0) || g.isInt(y, 0) {
			return g.Int(0)
		}
		if g.isInt(x, 1) {
			return y
		}
		if g.isInt(y, 1) {
			return x
		}
	case lang.OpEq, lang.OpLe, lang.OpGe:
		if x == y {
			return g.True()
		}
	case lang.OpNe, lang.OpLt, lang.OpGt:
		if x == y {
			return g.False()
		}
	}
	if (op == lang.OpEq || op == lang.OpNe) && nx.sort == SortArray {
		if eq, ok := g.arrayEq(x, y); ok {
			if op == lang.OpNe {
				return g.Not(eq)
			}
			return eq
		}
	}
	sort := SortInt
	if op != lang.OpAdd && op != lang.OpSub && op != lang.OpMul {
		sort = SortBool
	}
	return g.mk(gnode{kind: KOp, sort: sort, op: op, args: []Ref{x, y}})
}

// fold evaluates op on constants; ok is false when the result would overflow.
func fold(op lang.Op, x, y int64) (int64, bool) {
	b := func(c bool) (int64, bool) {
		if c {
			return 1, true
		}
		return 0, true
	}
	switch op {
	case lang.OpAdd:
		return lang.Add(x, y)
	case lang.OpSub:
		return lang.Sub(x, y)
	case lang.OpMul:
		return lang.Mul(x, y)
	case lang.OpLt:
		return b(x < y)
	case lang.OpLe:
		return b(x <= y)
	case lang.OpGt:
		return b(x > y)
	case lang.OpGe:
		return b(x >= y)
	case lang.OpEq:
		return b(x == y)
	case lang.OpNe:
		return b(x != y)
	}
	return 0, false
}

// And is the conjunction, flattening and dropping true; false when it holds
// a term and its negation.
func (g *Graph) And(xs ...Ref) Ref { return g.junction(lang.OpAnd, xs) }

// Or is the disjunction, flattening and dropping false.
func (g *Graph) Or(xs ...Ref) Ref { return g.junction(lang.OpOr, xs) }

func (g *Graph) junction(op lang.Op, xs []Ref) Ref {
	unit, zero := int64(1), int64(0)
	if op == lang.OpOr {
		unit, zero = 0, 1
	}
	var args []Ref
	seen := map[Ref]bool{}
	var add func(r Ref) bool
	add = func(r Ref) bool {
		n := g.nodes[r]
		switch {
		case n.kind == KConst && n.val == zero:
			return false
		case n.kind == KConst && n.val == unit:
			return true
		case n.kind == KOp && n.op == op:
			for _, a := range n.args {
				if !add(a) {
					return false
				}
			}
			return true
		}
		if !seen[r] {
			seen[r] = true
			args = append(args, r)
		}
		return true
	}
	for _, x := range xs {
		if !add(x) {
			return g.Bool(zero == 1)
		}
	}
	if len(args) > 1 {
		for _, a := range args {
			if seen[g.Not(a)] {
				return g.Bool(zero == 1)
			}
		}
	}
	switch len(args) {
	case 0:
		return g.Bool(unit == 1)
	case 1:
		return args[0]
	}
	return g.mk(gnode{kind: KOp, sort: SortBool, op: op, args: args})
}

// Div is truncated division.
func (g *Graph) Div(x, y Ref) Ref {
	nx, ny := g.nodes[x], g.nodes[y]
	if nx.kind == KConst && ny.kind == KConst && ny.val != 0 {
		if q, ok := lang.Div(nx.val, ny.val); ok {
			return g.Int(q)
		}
	}
	if g.isInt(y, 1) {
		return x
	}
	return g.mk(gnode{kind: KDiv, sort: SortInt, args: []Ref{x, y}})
}

// Mod is the truncated remainder.
func (g *Graph) Mod(x, y Ref) Ref {
	nx, ny := g.nodes[x], g.nodes[y]
	if nx.kind == KConst && ny.kind == KConst && ny.val != 0 {
		return g.Int(lang.Mod(nx.val, ny.val))
	}
	return g.mk(gnode{kind: KMod, sort: SortInt, args: []Ref{x, y}})
}

// Ite is if c then t else e; boolean ites become and/or.
func (g *Graph) Ite(c, t, e Ref) Ref {
	switch {
	case g.IsTrue(c):
		return t
	case g.IsFalse(c):
		return e
	case t == e:
		return t
	}
	if n := g.nodes[c]; n.kind == KOp && n.op == lang.OpNot {
		return g.Ite(n.args[0], e, t)
	}
	if g.nodes[t].sort == SortBool {
		return g.Or(g.And(c, t), g.And(g.Not(c), e))
	}
	// ite(c, ite(c, a, b), e) is ite(c, a, e), and alike on the else side.
	if n := g.nodes[t]; n.kind == KIte && n.args[0] == c {
		return g.Ite(c, n.args[1], e)
	}
	if n := g.nodes[e]; n.kind == KIte && n.args[0] == c {
		return g.Ite(c, t, n.args[2])
	}
	return g.mk(gnode{kind: KIte, sort: g.nodes[t].sort, args: []Ref{c, t, e}})
}

// Select reads element i of array a, through stores and ites: selects
// are only built over arrays that are neither.
func (g *Graph) Select(a, i Ref) Ref {
	key := [2]Ref{a, i}
	if r, ok := g.sel[key]; ok {
		return r
	}
	var r Ref
	n := g.nodes[a]
	switch n.kind {
	case KStore:
		j, v := n.args[1], n.args[2]
		switch {
		case j == i:
			r = v
		case g.isConst(j) && g.isConst(i):
			r = g.Select(n.args[0], i)
		default:
			r = g.Ite(g.Binary(lang.OpEq, j, i), v, g.Select(n.args[0], i))
		}
	case KIte:
		r = g.Ite(n.args[0], g.Select(n.args[1], i), g.Select(n.args[2], i))
	default:
		r = g.mk(gnode{kind: KSelect, sort: SortInt, args: []Ref{a, i}})
	}
	g.sel[key] = r
	return r
}

// Store is array a with element i set to v.
func (g *Graph) Store(a, i, v Ref) Ref {
	return g.mk(gnode{kind: KStore, sort: SortArray, args: []Ref{a, i, v}})
}

// Apply is the application of an uninterpreted function.
func (g *Graph) Apply(f *Fn, args ...Ref) Ref {
	return g.mk(gnode{kind: KApply, sort: f.Sort, fn: f, args: append([]Ref(nil), args...)})
}

// namedFn is the graph's function of f's name: f, or the one of that name
// asked for first. A function's name says what it stands for (Fn), and
// applications are hash-consed by function.
func (g *Graph) namedFn(f *Fn) *Fn {
	if known, ok := g.fns[f.Name]; ok {
		return known
	}
	g.fns[f.Name] = f
	return f
}

// arrayBase is the one array a store/ite term is built on, or -1.
func (g *Graph) arrayBase(a Ref) Ref {
	if b, ok := g.base[a]; ok {
		return b
	}
	n := g.nodes[a]
	b := a
	switch n.kind {
	case KStore:
		b = g.arrayBase(n.args[0])
	case KIte:
		b = g.arrayBase(n.args[1])
		if b2 := g.arrayBase(n.args[2]); b2 != b {
			b = -1
		}
	}
	g.base[a] = b
	return b
}

// written lists the indices a store/ite array term writes.
func (g *Graph) written(a Ref) []Ref {
	if w, ok := g.arr[a]; ok {
		return w
	}
	var out []Ref
	n := g.nodes[a]
	switch n.kind {
	case KStore:
		out = appendNew(g.written(n.args[0]), n.args[1])
	case KIte:
		out = append([]Ref(nil), g.written(n.args[1])...)
		for _, i := range g.written(n.args[2]) {
			out = appendNew(out, i)
		}
	}
	g.arr[a] = out
	return out
}

func appendNew(xs []Ref, x Ref) []Ref {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(append([]Ref(nil), xs...), x)
}

// arrayEq is the equality of two arrays built on one base: their elements
// agree at every index either writes (elsewhere both are the base).
func (g *Graph) arrayEq(x, y Ref) (Ref, bool) {
	bx, by := g.arrayBase(x), g.arrayBase(y)
	if bx < 0 || bx != by {
		return 0, false
	}
	idx := append([]Ref(nil), g.written(x)...)
	for _, i := range g.written(y) {
		idx = appendNew(idx, i)
	}
	eqs := make([]Ref, len(idx))
	for k, i := range idx {
		eqs[k] = g.Binary(lang.OpEq, g.Select(x, i), g.Select(y, i))
	}
	return g.And(eqs...), true
}

// Rebuild makes a node of r's shape over new arguments.
func (g *Graph) Rebuild(r Ref, args []Ref) Ref {
	n := g.nodes[r]
	if n.kind == KConst || n.kind == KSym {
		return r
	}
	return g.build(n.kind, n.op, n.fn, args)
}

// build makes an inner node of the given kind (operator, function) over
// args through the constructors, which simplify.
func (g *Graph) build(kind Kind, op lang.Op, fn *Fn, args []Ref) Ref {
	switch kind {
	case KOp:
		switch {
		case len(args) == 1:
			return g.Unary(op, args[0])
		case op == lang.OpAnd:
			return g.And(args...)
		case op == lang.OpOr:
			return g.Or(args...)
		}
		return g.Binary(op, args[0], args[1])
	case KIte:
		return g.Ite(args[0], args[1], args[2])
	case KSelect:
		return g.Select(args[0], args[1])
	case KStore:
		return g.Store(args[0], args[1], args[2])
	case KApply:
		return g.Apply(fn, args...)
	case KDiv:
		return g.Div(args[0], args[1])
	case KMod:
		return g.Mod(args[0], args[1])
	}
	panic(fmt.Sprintf("ts: node of kind %d", kind))
}

// Import copies term r of graph h into g, each shared subterm once.
func (g *Graph) Import(h *Graph, r Ref) Ref {
	memo := map[Ref]Ref{}
	var imp func(Ref) Ref
	imp = func(r Ref) Ref {
		if v, ok := memo[r]; ok {
			return v
		}
		n := h.nodes[r]
		var out Ref
		switch n.kind {
		case KConst:
			out = g.mk(gnode{kind: KConst, sort: n.sort, val: n.val})
		case KSym:
			out = g.SymRef(n.sym)
		default:
			args := make([]Ref, len(n.args))
			for i, a := range n.args {
				args[i] = imp(a)
			}
			out = g.build(n.kind, n.op, n.fn, args)
		}
		memo[r] = out
		return out
	}
	return imp(r)
}

// Subst replaces symbols by terms (ok false keeps the symbol); memo holds
// the results so far and may be shared by calls with the same m.
func (g *Graph) Subst(r Ref, m func(*Sym) (Ref, bool), memo map[Ref]Ref) Ref {
	if v, ok := memo[r]; ok {
		return v
	}
	n := g.nodes[r]
	out := r
	switch n.kind {
	case KConst:
	case KSym:
		if v, ok := m(n.sym); ok {
			out = v
		}
	default:
		args := make([]Ref, len(n.args))
		changed := false
		for i, a := range n.args {
			args[i] = g.Subst(a, m, memo)
			changed = changed || args[i] != a
		}
		if changed {
			out = g.Rebuild(r, args)
		}
	}
	memo[r] = out
	return out
}

// Term expands r into a tree term, giving up (false) where its text
// passes budget characters: a DAG can be exponentially smaller than its
// tree. Every subterm's text is part of r's, so the expansion stops at the
// first subterm over the budget. The tree is a view of the graph's term as
// it is, node for node: the graph has simplified it already.
func (g *Graph) Term(r Ref, budget int) (*Term, bool) {
	memo := map[Ref]*Term{}
	var conv func(Ref) *Term
	conv = func(r Ref) *Term {
		if t, ok := memo[r]; ok {
			return t
		}
		n := g.nodes[r]
		var t *Term
		switch n.kind {
		case KConst:
			t = leaf(KConst, n.sort, n.val, nil)
		case KSym:
			t = leaf(KSym, n.sort, 0, n.sym)
		default:
			args := make([]*Term, len(n.args))
			for i, a := range n.args {
				if args[i] = conv(a); args[i] == nil {
					return nil
				}
			}
			t = node(n.kind, n.sort, n.op, n.fn, args)
		}
		if len(t.key) > budget {
			return nil
		}
		memo[r] = t
		return t
	}
	t := conv(r)
	return t, t != nil
}

// Reach calls f once on every node reachable from the roots, children
// before parents.
func (g *Graph) Reach(f func(Ref), roots ...Ref) {
	seen := map[Ref]bool{}
	var walk func(Ref)
	walk = func(r Ref) {
		if seen[r] {
			return
		}
		seen[r] = true
		for _, a := range g.nodes[r].args {
			walk(a)
		}
		f(r)
	}
	for _, r := range roots {
		walk(r)
	}
}

// TextLen is the length of the text of r's tree view ([Graph.Term]),
// computed over the graph without writing it (saturating at the largest
// int): the size of r written out as a tree, which a DAG can make
// exponential. memo holds the lengths so far and may be shared by calls.
func (g *Graph) TextLen(r Ref, memo map[Ref]int) int {
	if n, ok := memo[r]; ok {
		return n
	}
	n := g.nodes[r]
	sum := func(xs ...int) int {
		s := 0
		for _, x := range xs {
			if s += x; s < 0 || s > maxTextLen {
				return maxTextLen
			}
		}
		return s
	}
	arg := func(a Ref) int { return g.TextLen(a, memo) }
	parg := func(a Ref) int {
		if k := g.nodes[a].kind; k == KOp && len(g.nodes[a].args) >= 2 || k == KDiv || k == KMod {
			return sum(arg(a), 2)
		}
		return arg(a)
	}
	joined := func(sep int, f func(Ref) int) int {
		s := 0
		for i, a := range n.args {
			if i > 0 {
				s = sum(s, sep)
			}
			s = sum(s, f(a))
		}
		return s
	}
	var l int
	switch n.kind {
	case KConst:
		switch {
		case n.sort == SortBool && n.val != 0:
			l = len("true")
		case n.sort == SortBool:
			l = len("false")
		default:
			l = len(strconv.FormatInt(n.val, 10))
		}
	case KSym:
		l = len(n.sym.Name)
	case KOp:
		switch {
		case len(n.args) == 1:
			l = sum(1, parg(n.args[0]))
		case n.op == lang.OpAnd || n.op == lang.OpOr:
			l = joined(len(n.op.String())+2, parg)
		default:
			l = sum(parg(n.args[0]), len(n.op.String())+2, parg(n.args[1]))
		}
	case KDiv, KMod:
		l = sum(parg(n.args[0]), 3, parg(n.args[1]))
	case KIte:
		l = sum(len("ite()"), joined(2, arg))
	case KSelect:
		l = sum(arg(n.args[0]), 2, arg(n.args[1]))
	case KStore:
		l = sum(arg(n.args[0]), len("{ := }"), arg(n.args[1]), arg(n.args[2]))
	case KApply:
		l = sum(len(n.fn.Name), 2, joined(2, arg))
	}
	memo[r] = l
	return l
}

const maxTextLen = int(^uint(0) >> 1)

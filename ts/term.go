package ts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icgen/icgen/lang"
)

// Sort is the sort of a term.
type Sort uint8

// Sorts: mathematical integers, booleans, and arrays from int to int.
const (
	SortInt Sort = iota
	SortBool
	SortArray
)

func (s Sort) String() string { return [...]string{"Int", "Bool", "Array"}[s] }

// SymKind tells what a symbol stands for.
type SymKind uint8

// A symbol is the initial value of a global, of a local of one of the two
// processes, or a param.
const (
	SymGlobal SymKind = iota
	SymLocal
	SymParam
)

// Sym is an input symbol: the value of a variable when the first block of a
// system starts. Locals belong to one of the two events of a pair: Event 0
// for the first process, 1 for the second; the second's names get a prime
// ("v'"), so "v == v'" compares the two processes' v.
type Sym struct {
	Name  string // canonical name: x, a, N, v, v'
	Sort  Sort
	Kind  SymKind
	Event int
	Var   *lang.Var   // globals and locals
	Param *lang.Param // params
}

func (s *Sym) String() string { return s.Name }

// FnKind tells what an uninterpreted function abstracts.
type FnKind uint8

// Functions stand for the effect of an in-block loop on one variable, for
// whether the loop finishes normally, or for the processes it spawns.
const (
	FnValue  FnKind = iota // the value of Out after the loop
	FnOK                   // the loop finishes within the step budget, with no runtime error and no failed assert
	FnSpawns               // the processes the loop spawns (an opaque multiset)
)

// Fn is an uninterpreted function (DESIGN decision 7, CDPOR Def. 7): a
// function of the values a loop starts from, standing for one aspect of
// what the loop does. The same loop from the same values behaves the same
// way, which is all the abstraction assumes.
//
// Names live in a namespace no program identifier reaches: the loop at line
// 7, column 3 of proc p is loop:p:7:3; its functions are loop:p:7:3.x (the
// value of x), loop:p:7:3?ok and loop:p:7:3?spawns.
type Fn struct {
	Name   string
	Kind   FnKind
	Proc   *lang.Proc  // the proc whose block holds the loop (directly or in a called func)
	Owner  string      // the proc or func whose body holds the loop
	Locals []*lang.Var // the owner's locals, by slot: Out and Ins are named among them
	Line   int         // the loop's position
	Col    int
	Loop   *lang.Loop
	Out    *lang.Var // FnValue: the variable
	Ins    []*lang.Var
	Sort   Sort
}

// VarName is the name of a variable of the loop among the owner's
// variables (lang.LocalName for locals).
func (f *Fn) VarName(v *lang.Var) string { return varName(f.Locals, v) }

func varName(locals []*lang.Var, v *lang.Var) string {
	if v.Kind == lang.Local {
		return lang.LocalName(locals, v)
	}
	return v.Name
}

// Kind is the kind of a term.
type Kind uint8

// Term kinds.
const (
	KConst  Kind = iota // integer or boolean constant (Val; bools 0/1)
	KSym                // input symbol
	KOp                 // lang operator applied to Args (unary or binary)
	KIte                // if Args[0] then Args[1] else Args[2]
	KSelect             // Args[0][Args[1]]
	KStore              // Args[0] with [Args[1]] := Args[2]
	KApply              // Fn(Args...)
	KDiv                // truncated division (C semantics) Args[0] / Args[1]
	KMod                // truncated remainder Args[0] % Args[1]
)

// Term is an immutable symbolic expression. Two terms are structurally
// equal iff their keys are equal.
type Term struct {
	Kind Kind
	Sort Sort
	Op   lang.Op
	Val  int64
	Sym  *Sym
	Fn   *Fn
	Args []*Term
	key  string
}

// Key is the canonical text of the term; equal keys mean equal terms.
func (t *Term) Key() string { return t.key }

func (t *Term) String() string { return t.key }

// Equal reports structural equality.
func (t *Term) Equal(u *Term) bool { return t == u || t.key == u.key }

// IsTrue reports whether t is the constant true.
func (t *Term) IsTrue() bool { return t.Kind == KConst && t.Sort == SortBool && t.Val == 1 }

// IsFalse reports whether t is the constant false.
func (t *Term) IsFalse() bool { return t.Kind == KConst && t.Sort == SortBool && t.Val == 0 }

// Int is an integer constant.
func Int(v int64) *Term {
	return &Term{Kind: KConst, Sort: SortInt, Val: v, key: strconv.FormatInt(v, 10)}
}

// Bool is a boolean constant.
func Bool(b bool) *Term {
	if b {
		return &Term{Kind: KConst, Sort: SortBool, Val: 1, key: "true"}
	}
	return &Term{Kind: KConst, Sort: SortBool, Val: 0, key: "false"}
}

// True and False are the boolean constants.
var (
	True  = Bool(true)
	False = Bool(false)
)

// SymTerm is the term of an input symbol.
func SymTerm(s *Sym) *Term { return &Term{Kind: KSym, Sort: s.Sort, Sym: s, key: s.Name} }

func joinKeys(ts []*Term) string {
	ks := make([]string, len(ts))
	for i, t := range ts {
		ks[i] = t.key
	}
	return strings.Join(ks, ", ")
}

// Unary builds -x or !x, folding constants and double negation.
func Unary(op lang.Op, x *Term) *Term {
	if op == lang.OpNot {
		switch {
		case x.Kind == KConst:
			return Bool(x.Val == 0)
		case x.Kind == KOp && x.Op == lang.OpNot:
			return x.Args[0]
		case x.Kind == KOp && negCmp[x.Op] != 0:
			return Binary(negCmp[x.Op]-1, x.Args[0], x.Args[1])
		}
		return node(KOp, SortBool, op, nil, []*Term{x})
	}
	if x.Kind == KConst && x.Val != minInt {
		return Int(-x.Val)
	}
	if x.Kind == KOp && x.Op == lang.OpNeg {
		return x.Args[0]
	}
	return node(KOp, SortInt, op, nil, []*Term{x})
}

// negCmp maps a comparison to its negation, plus one (0: none).
var negCmp = map[lang.Op]lang.Op{
	lang.OpLt: lang.OpGe + 1, lang.OpGe: lang.OpLt + 1, lang.OpLe: lang.OpGt + 1,
	lang.OpGt: lang.OpLe + 1, lang.OpEq: lang.OpNe + 1, lang.OpNe: lang.OpEq + 1,
}

// Negation is the comparison that holds where op does not; ok is false
// where op is not a comparison.
func Negation(op lang.Op) (neg lang.Op, ok bool) {
	n := negCmp[op]
	return n - 1, n != 0
}

const (
	minInt = -1 << 63
	maxInt = 1<<63 - 1
)

func paren(t *Term) string {
	if t.Kind == KOp && len(t.Args) >= 2 || t.Kind == KDiv || t.Kind == KMod {
		return "(" + t.key + ")"
	}
	return t.key
}

// Binary builds x op y with light simplification: constant folding (when it
// cannot overflow), neutral elements, and boolean identities. Division and
// modulo are KDiv/KMod terms (truncated semantics), built by Div and Mod.
func Binary(op lang.Op, x, y *Term) *Term {
	switch op {
	case lang.OpDiv:
		return Div(x, y)
	case lang.OpMod:
		return Mod(x, y)
	case lang.OpAnd:
		return And(x, y)
	case lang.OpOr:
		return Or(x, y)
	}
	if x.Kind == KConst && y.Kind == KConst {
		if v, ok := fold(op, x.Val, y.Val); ok {
			if op.Prec() <= 4 || op == lang.OpEq || op == lang.OpNe {
				return Bool(v != 0)
			}
			return Int(v)
		}
	}
	switch op {
	case lang.OpAdd:
		if isZero(x) {
			return y
		}
		if isZero(y) {
			return x
		}
	case lang.OpSub:
		if isZero(y) {
			return x
		}
		if x.Equal(y) {
			return Int(0)
		}
	case lang.OpMul:
		if isZero(x) || isZero(y) {
			return Int(0)
		}
		if isOne(x) {
			return y
		}
		if isOne(y) {
			return x
		}
	case lang.OpEq, lang.OpLe, lang.OpGe:
		if x.Equal(y) {
			return True
		}
	case lang.OpNe, lang.OpLt, lang.OpGt:
		if x.Equal(y) {
			return False
		}
	}
	sort := SortInt
	if op != lang.OpAdd && op != lang.OpSub && op != lang.OpMul {
		sort = SortBool
	}
	return node(KOp, sort, op, nil, []*Term{x, y})
}

func isZero(t *Term) bool { return t.Kind == KConst && t.Sort == SortInt && t.Val == 0 }
func isOne(t *Term) bool  { return t.Kind == KConst && t.Sort == SortInt && t.Val == 1 }

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

// And is the conjunction, flattening and dropping true.
func And(ts ...*Term) *Term { return junction(lang.OpAnd, ts) }

// Or is the disjunction, flattening and dropping false.
func Or(ts ...*Term) *Term { return junction(lang.OpOr, ts) }

func junction(op lang.Op, ts []*Term) *Term {
	unit, zero := True, False
	if op == lang.OpOr {
		unit, zero = False, True
	}
	var args []*Term
	seen := map[string]bool{}
	var add func(t *Term) bool
	add = func(t *Term) bool {
		switch {
		case t.key == zero.key:
			return false
		case t.key == unit.key:
			return true
		case t.Kind == KOp && t.Op == op:
			for _, a := range t.Args {
				if !add(a) {
					return false
				}
			}
			return true
		}
		if seen[negKey(t)] { // c and !c: the junction is decided
			return false
		}
		if !seen[t.key] {
			seen[t.key] = true
			args = append(args, t)
		}
		return true
	}
	for _, t := range ts {
		if !add(t) {
			return zero
		}
	}
	switch len(args) {
	case 0:
		return unit
	case 1:
		return args[0]
	}
	return node(KOp, SortBool, op, nil, args)
}

// negKey is the key of the negation of t, cheaply for comparisons and !.
func negKey(t *Term) string {
	switch {
	case t.Kind == KOp && t.Op == lang.OpNot:
		return t.Args[0].key
	case t.Kind == KOp && negCmp[t.Op] != 0:
		return paren(t.Args[0]) + " " + (negCmp[t.Op] - 1).String() + " " + paren(t.Args[1])
	}
	return "!" + paren(t)
}

// Div is truncated division x / y (the language's semantics).
func Div(x, y *Term) *Term {
	if x.Kind == KConst && y.Kind == KConst && y.Val != 0 {
		if q, ok := lang.Div(x.Val, y.Val); ok {
			return Int(q)
		}
	}
	if isOne(y) {
		return x
	}
	return node(KDiv, SortInt, 0, nil, []*Term{x, y})
}

// Mod is the truncated remainder x % y (sign of x).
func Mod(x, y *Term) *Term {
	if x.Kind == KConst && y.Kind == KConst && y.Val != 0 {
		return Int(lang.Mod(x.Val, y.Val))
	}
	return node(KMod, SortInt, 0, nil, []*Term{x, y})
}

// Ite is if c then t else e.
func Ite(c, t, e *Term) *Term {
	switch {
	case c.IsTrue():
		return t
	case c.IsFalse():
		return e
	case t.Equal(e):
		return t
	}
	return node(KIte, t.Sort, 0, nil, []*Term{c, t, e})
}

// Select reads element i of array a, looking through stores at constant
// indices.
func Select(a, i *Term) *Term {
	for a.Kind == KStore && i.Kind == KConst && a.Args[1].Kind == KConst {
		if a.Args[1].Val == i.Val {
			return a.Args[2]
		}
		a = a.Args[0]
	}
	if a.Kind == KStore && a.Args[1].Equal(i) {
		return a.Args[2]
	}
	return node(KSelect, SortInt, 0, nil, []*Term{a, i})
}

// Store is array a with element i set to v.
func Store(a, i, v *Term) *Term {
	return node(KStore, SortArray, 0, nil, []*Term{a, i, v})
}

// Apply is the application of an uninterpreted function.
func Apply(f *Fn, args ...*Term) *Term {
	return node(KApply, f.Sort, 0, f, args)
}

// node makes an inner term of the given shape over args as they are,
// without simplifying: the constructors above call it once they are done,
// and a graph's tree view ([Graph.Term]) calls it on terms the graph has
// simplified already. It writes the term's key.
func node(kind Kind, sort Sort, op lang.Op, fn *Fn, args []*Term) *Term {
	t := &Term{Kind: kind, Sort: sort, Op: op, Fn: fn, Args: args}
	switch kind {
	case KOp:
		switch {
		case len(args) == 1 && op == lang.OpNot:
			t.key = "!" + paren(args[0])
		case len(args) == 1:
			t.key = "-" + paren(args[0])
		case op == lang.OpAnd || op == lang.OpOr:
			keys := make([]string, len(args))
			for i, a := range args {
				keys[i] = paren(a)
			}
			t.key = strings.Join(keys, " "+op.String()+" ")
		default:
			t.key = paren(args[0]) + " " + op.String() + " " + paren(args[1])
		}
	case KDiv:
		t.key = paren(args[0]) + " / " + paren(args[1])
	case KMod:
		t.key = paren(args[0]) + " % " + paren(args[1])
	case KIte:
		t.key = "ite(" + joinKeys(args) + ")"
	case KSelect:
		t.key = args[0].key + "[" + args[1].key + "]"
	case KStore:
		t.key = args[0].key + "{" + args[1].key + " := " + args[2].key + "}"
	case KApply:
		t.key = fn.Name + "(" + joinKeys(args) + ")"
	default:
		panic(fmt.Sprintf("ts: node of kind %d", kind))
	}
	return t
}

// Subst replaces symbols by terms (a nil result from m keeps the symbol),
// rebuilding and re-simplifying the term.
func Subst(t *Term, m func(*Sym) *Term) *Term {
	switch t.Kind {
	case KConst:
		return t
	case KSym:
		if r := m(t.Sym); r != nil {
			return r
		}
		return t
	}
	args := make([]*Term, len(t.Args))
	changed := false
	for i, a := range t.Args {
		args[i] = Subst(a, m)
		changed = changed || args[i] != a
	}
	if !changed {
		return t
	}
	return Rebuild(t, args)
}

// Rebuild makes a term of t's shape over new arguments.
func Rebuild(t *Term, args []*Term) *Term {
	switch t.Kind {
	case KOp:
		switch {
		case len(args) == 1:
			return Unary(t.Op, args[0])
		case t.Op == lang.OpAnd:
			return And(args...)
		case t.Op == lang.OpOr:
			return Or(args...)
		}
		return Binary(t.Op, args[0], args[1])
	case KIte:
		return Ite(args[0], args[1], args[2])
	case KSelect:
		return Select(args[0], args[1])
	case KStore:
		return Store(args[0], args[1], args[2])
	case KApply:
		return Apply(t.Fn, args...)
	case KDiv:
		return Div(args[0], args[1])
	case KMod:
		return Mod(args[0], args[1])
	}
	panic(fmt.Sprintf("ts: rebuild of kind %d", t.Kind))
}

// Walk calls f on t and every subterm, parents first.
func Walk(t *Term, f func(*Term)) {
	f(t)
	for _, a := range t.Args {
		Walk(a, f)
	}
}

// Syms returns the symbols of t in first-occurrence order.
func Syms(t *Term) []*Sym {
	var out []*Sym
	seen := map[*Sym]bool{}
	Walk(t, func(u *Term) {
		if u.Kind == KSym && !seen[u.Sym] {
			seen[u.Sym] = true
			out = append(out, u.Sym)
		}
	})
	return out
}

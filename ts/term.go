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

// Term is a tree view of a term of a [Graph] ([Graph.Term]), for
// printing and for reading a term as a tree: terms are built, simplified
// and compared in graphs, never as trees. Two views of one graph are views
// of one term iff their keys are equal.
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

// Key is the canonical text of the term.
func (t *Term) Key() string { return t.key }

func (t *Term) String() string { return t.key }

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

// leaf is the view of a constant or a symbol.
func leaf(kind Kind, sort Sort, val int64, sym *Sym) *Term {
	t := &Term{Kind: kind, Sort: sort, Val: val, Sym: sym}
	switch {
	case kind == KSym:
		t.key = sym.Name
	case sort == SortBool && val != 0:
		t.key = "true"
	case sort == SortBool:
		t.key = "false"
	default:
		t.key = strconv.FormatInt(val, 10)
	}
	return t
}

func paren(t *Term) string {
	if t.Kind == KOp && len(t.Args) >= 2 || t.Kind == KDiv || t.Kind == KMod {
		return "(" + t.key + ")"
	}
	return t.key
}

func joinKeys(ts []*Term) string {
	ks := make([]string, len(ts))
	for i, t := range ts {
		ks[i] = t.key
	}
	return strings.Join(ks, ", ")
}

// node is the view of an inner term of the given shape over the views of
// its arguments; it writes the term's key.
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

// Walk calls f on t and every subterm, parents first.
func Walk(t *Term, f func(*Term)) {
	f(t)
	for _, a := range t.Args {
		Walk(a, f)
	}
}

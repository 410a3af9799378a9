package z3

/*
#include "bind.h"
*/
import "C"

import (
	"strconv"
	"strings"
	"unsafe"
)

// Term is a Z3 term (a Boolean formula, an integer or an array) owned by a
// [Context]. It is small and comparable; the zero Term is what builders
// return after an error. A term is valid until the context releases the
// arena below the point where the term was returned ([Context.Release]) or
// closes.
type Term struct {
	x *Context
	a C.Z3_ast
}

// live reports whether t belongs to an open context.
func (t Term) live() bool { return t.a != nil && t.x != nil && t.x.c != nil }

// Sort is the sort of a term. This package builds Bool, Int and Array
// (Int to Int) terms; others (from parsed text) are OtherSort.
type Sort int

// Sorts.
const (
	NoSort    Sort = iota // the zero Term, or a closed context
	BoolSort              // Bool
	IntSort               // Int (mathematical integers)
	ArraySort             // (Array Int Int)
	OtherSort             // any other sort
	numSorts  = OtherSort
)

// index returns s as an index of Context.sorts (0, whose sort is nil, for
// sorts that cannot be built).
func (s Sort) index() Sort {
	if s < BoolSort || s > ArraySort {
		return NoSort
	}
	return s
}

func (s Sort) String() string {
	switch s {
	case BoolSort:
		return "Bool"
	case IntSort:
		return "Int"
	case ArraySort:
		return "(Array Int Int)"
	case OtherSort:
		return "other"
	}
	return "none"
}

// Kind is the kind of a term.
type Kind int

// Kinds of terms. Numerals are applications too (of a numeral
// declaration): [Term.DeclKind] is [OpNumeral].
const (
	InvalidKind    Kind = iota // the zero Term, or a closed context
	AppKind                    // a constant or an application
	NumeralKind                // an integer numeral
	VarKind                    // a bound variable
	QuantifierKind             // a quantifier or lambda
)

func (k Kind) String() string {
	switch k {
	case AppKind:
		return "app"
	case NumeralKind:
		return "numeral"
	case VarKind:
		return "var"
	case QuantifierKind:
		return "quantifier"
	}
	return "invalid"
}

// DeclKind is the operator of an application: Z3's Z3_OP_* kinds, for the
// operators this package builds.
type DeclKind int

// Operators. Boolean equivalence (Z3_OP_IFF) is OpEq; integer division
// (Z3_OP_IDIV) is OpDiv.
const (
	OpNone          DeclKind = iota // not an application
	OpOther                         // an interpreted operator not listed here
	OpTrue                          // true
	OpFalse                         // false
	OpEq                            // =
	OpDistinct                      // distinct
	OpIte                           // ite
	OpAnd                           // and
	OpOr                            // or
	OpNot                           // not
	OpImplies                       // =>
	OpNumeral                       // an integer numeral
	OpLe                            // <=
	OpGe                            // >=
	OpLt                            // <
	OpGt                            // >
	OpAdd                           // +
	OpSub                           // - (binary or more)
	OpUminus                        // - (unary)
	OpMul                           // *
	OpDiv                           // div (Euclidean)
	OpMod                           // mod (Euclidean)
	OpRem                           // rem
	OpSelect                        // select
	OpStore                         // store
	OpConstArray                    // (as const (Array Int Int)): a constant array, in models
	OpUninterpreted                 // a constant or function declared by the user
)

var declKindNames = [...]string{
	OpNone: "none", OpOther: "other", OpTrue: "true", OpFalse: "false",
	OpEq: "=", OpDistinct: "distinct", OpIte: "ite", OpAnd: "and", OpOr: "or",
	OpNot: "not", OpImplies: "=>", OpNumeral: "numeral", OpLe: "<=", OpGe: ">=",
	OpLt: "<", OpGt: ">", OpAdd: "+", OpSub: "-", OpUminus: "uminus", OpMul: "*",
	OpDiv: "div", OpMod: "mod", OpRem: "rem", OpSelect: "select", OpStore: "store",
	OpConstArray: "const", OpUninterpreted: "uninterpreted",
}

func (k DeclKind) String() string {
	if k >= 0 && int(k) < len(declKindNames) {
		return declKindNames[k]
	}
	return "DeclKind(" + strconv.Itoa(int(k)) + ")"
}

func declKind(k C.long) DeclKind {
	if k < 0 {
		return OpNone
	}
	switch C.Z3_decl_kind(k) {
	case C.Z3_OP_TRUE:
		return OpTrue
	case C.Z3_OP_FALSE:
		return OpFalse
	case C.Z3_OP_EQ, C.Z3_OP_IFF:
		return OpEq
	case C.Z3_OP_DISTINCT:
		return OpDistinct
	case C.Z3_OP_ITE:
		return OpIte
	case C.Z3_OP_AND:
		return OpAnd
	case C.Z3_OP_OR:
		return OpOr
	case C.Z3_OP_NOT:
		return OpNot
	case C.Z3_OP_IMPLIES:
		return OpImplies
	case C.Z3_OP_ANUM:
		return OpNumeral
	case C.Z3_OP_LE:
		return OpLe
	case C.Z3_OP_GE:
		return OpGe
	case C.Z3_OP_LT:
		return OpLt
	case C.Z3_OP_GT:
		return OpGt
	case C.Z3_OP_ADD:
		return OpAdd
	case C.Z3_OP_SUB:
		return OpSub
	case C.Z3_OP_UMINUS:
		return OpUminus
	case C.Z3_OP_MUL:
		return OpMul
	case C.Z3_OP_IDIV:
		return OpDiv
	case C.Z3_OP_MOD:
		return OpMod
	case C.Z3_OP_REM:
		return OpRem
	case C.Z3_OP_SELECT:
		return OpSelect
	case C.Z3_OP_STORE:
		return OpStore
	case C.Z3_OP_CONST_ARRAY:
		return OpConstArray
	case C.Z3_OP_UNINTERPRETED:
		return OpUninterpreted
	}
	return OpOther
}

// Builders. Each returns a new term, pushed on the arena; after an error
// (recorded in Err) they return the zero Term.

// done pushes the result of a builder, or records its error.
func (x *Context) done(op string, a C.Z3_ast) Term {
	if a == nil {
		return x.fail(x.z3Error(op))
	}
	return x.push(a)
}

// mk builds an operator application.
func (x *Context) mk(op string, code C.int, ts ...Term) Term {
	if !x.live(op) {
		return Term{}
	}
	args, ok := x.args(op, ts)
	if !ok {
		return Term{}
	}
	return x.done(op, C.icg_mk(x.c, code, C.uint(len(args)), first(args)))
}

// name checks a symbol name.
func (x *Context) name(op, name string) bool {
	if !x.live(op) || x.err != nil {
		return false
	}
	if strings.IndexByte(name, 0) >= 0 {
		x.fail(&Error{Op: op, Msg: "name contains a NUL byte"})
		return false
	}
	return true
}

func (x *Context) constant(op, name string, s Sort) Term {
	if !x.name(op, name) {
		return Term{}
	}
	p, n := cstring(name)
	return x.done(op, C.icg_const(x.c, p, n, x.sorts[s]))
}

// IntConst returns the integer constant with this name. Constants with the
// same name and sort are the same term, here and in parsed text.
func (x *Context) IntConst(name string) Term { return x.constant("IntConst", name, IntSort) }

// BoolConst returns the Boolean constant with this name.
func (x *Context) BoolConst(name string) Term { return x.constant("BoolConst", name, BoolSort) }

// ArrayConst returns the (Array Int Int) constant with this name.
func (x *Context) ArrayConst(name string) Term { return x.constant("ArrayConst", name, ArraySort) }

// Int returns an integer numeral.
func (x *Context) Int(v int64) Term {
	if !x.live("Int") || x.err != nil {
		return Term{}
	}
	return x.done("Int", C.icg_int64(x.c, C.int64_t(v), x.sorts[IntSort]))
}

// IntFromString returns the integer numeral written in decimal in s (an
// optional '-' and digits), of any size.
func (x *Context) IntFromString(s string) Term {
	const op = "IntFromString"
	if !x.live(op) || x.err != nil {
		return Term{}
	}
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return x.fail(&Error{Op: op, Msg: "not a decimal integer: " + strconv.Quote(s)})
	}
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	return x.done(op, C.icg_numeral(x.c, cs, x.sorts[IntSort]))
}

// True returns the formula true.
func (x *Context) True() Term { return x.boolean("True", 1) }

// False returns the formula false.
func (x *Context) False() Term { return x.boolean("False", 0) }

func (x *Context) boolean(op string, v C.int) Term {
	if !x.live(op) || x.err != nil {
		return Term{}
	}
	return x.done(op, C.icg_bool(x.c, v))
}

// Add returns the sum of integer terms (0 for none).
func (x *Context) Add(ts ...Term) Term {
	if len(ts) == 0 {
		return x.Int(0)
	}
	return x.mk("Add", C.ICG_ADD, ts...)
}

// Sub returns a - b - ... for one or more integer terms.
func (x *Context) Sub(a Term, bs ...Term) Term {
	return x.mk("Sub", C.ICG_SUB, append([]Term{a}, bs...)...)
}

// Mul returns the product of integer terms (1 for none).
func (x *Context) Mul(ts ...Term) Term {
	if len(ts) == 0 {
		return x.Int(1)
	}
	return x.mk("Mul", C.ICG_MUL, ts...)
}

// Neg returns -a.
func (x *Context) Neg(a Term) Term { return x.mk("Neg", C.ICG_NEG, a) }

// Div returns a div b: Z3's Euclidean division, where the remainder
// a - b*(a div b) = a mod b is never negative: (-7) div 2 = -4,
// 7 div (-2) = -3, (-7) div (-2) = 4. Go's / truncates instead. Division
// by zero is an unspecified (uninterpreted) value, not an error.
func (x *Context) Div(a, b Term) Term { return x.mk("Div", C.ICG_DIV, a, b) }

// Mod returns a mod b, Euclidean: 0 <= a mod b < |b| for b != 0, so
// (-7) mod 2 = 1 where Go's % gives -1.
func (x *Context) Mod(a, b Term) Term { return x.mk("Mod", C.ICG_MOD, a, b) }

// Rem returns a rem b: a mod b with the sign of b (Z3's rem), so
// 7 rem (-2) = -1.
func (x *Context) Rem(a, b Term) Term { return x.mk("Rem", C.ICG_REM, a, b) }

// Lt returns a < b.
func (x *Context) Lt(a, b Term) Term { return x.mk("Lt", C.ICG_LT, a, b) }

// Le returns a <= b.
func (x *Context) Le(a, b Term) Term { return x.mk("Le", C.ICG_LE, a, b) }

// Gt returns a > b.
func (x *Context) Gt(a, b Term) Term { return x.mk("Gt", C.ICG_GT, a, b) }

// Ge returns a >= b.
func (x *Context) Ge(a, b Term) Term { return x.mk("Ge", C.ICG_GE, a, b) }

// Eq returns a = b (for Booleans: a iff b). Both must have the same sort.
func (x *Context) Eq(a, b Term) Term { return x.mk("Eq", C.ICG_EQ, a, b) }

// Distinct returns that the terms are pairwise different (true for fewer
// than two).
func (x *Context) Distinct(ts ...Term) Term {
	if len(ts) < 2 {
		if _, ok := x.args("Distinct", ts); !ok {
			return Term{}
		}
		return x.True()
	}
	return x.mk("Distinct", C.ICG_DISTINCT, ts...)
}

// Not returns the negation of a formula.
func (x *Context) Not(a Term) Term { return x.mk("Not", C.ICG_NOT, a) }

// And returns the conjunction of formulas (true for none).
func (x *Context) And(ts ...Term) Term {
	if len(ts) == 0 {
		return x.True()
	}
	return x.mk("And", C.ICG_AND, ts...)
}

// Or returns the disjunction of formulas (false for none).
func (x *Context) Or(ts ...Term) Term {
	if len(ts) == 0 {
		return x.False()
	}
	return x.mk("Or", C.ICG_OR, ts...)
}

// Implies returns a => b.
func (x *Context) Implies(a, b Term) Term { return x.mk("Implies", C.ICG_IMPLIES, a, b) }

// Ite returns if c then a else b; a and b have the same sort.
func (x *Context) Ite(c, a, b Term) Term { return x.mk("Ite", C.ICG_ITE, c, a, b) }

// Select returns the element of array a at index i.
func (x *Context) Select(a, i Term) Term { return x.mk("Select", C.ICG_SELECT, a, i) }

// Store returns array a with element i set to v.
func (x *Context) Store(a, i, v Term) Term { return x.mk("Store", C.ICG_STORE, a, i, v) }

// Simplify returns Z3's simplification of t: an equivalent term in Z3's
// normal form ((< z (- 1)) becomes (not (<= (- 1) z))); numerals fold
// ((div (- 7) 2) becomes (- 4)). Like a check, [Context.Interrupt] stops
// it (with an error).
func (x *Context) Simplify(t Term) Term {
	if !x.live("Simplify") {
		return Term{}
	}
	args, ok := x.args("Simplify", []Term{t})
	if !ok {
		return Term{}
	}
	x.start()
	a := C.icg_mk(x.c, C.ICG_SIMPLIFY, 1, first(args))
	if cause := x.stop(); a == nil && cause != "" {
		return x.fail(&Error{Op: "Simplify", Msg: cause})
	}
	return x.done("Simplify", a)
}

// FuncDecl is an uninterpreted function declared in a context.
type FuncDecl struct {
	x *Context
	a C.Z3_ast // the declaration as an AST, on the arena
}

// FuncDecl declares the uninterpreted function name : domain -> rng.
// Declarations with the same name and signature are the same function
// (also the same as one of that name in parsed text). Like terms,
// declarations live on the arena; after an error the zero FuncDecl is
// returned.
func (x *Context) FuncDecl(name string, domain []Sort, rng Sort) FuncDecl {
	const op = "FuncDecl"
	if !x.name(op, name) {
		return FuncDecl{}
	}
	sorts := make([]C.Z3_sort, len(domain)+1)
	for i, s := range domain {
		sorts[i] = x.sorts[s.index()]
	}
	sorts[len(domain)] = x.sorts[rng.index()]
	for _, s := range sorts {
		if s == nil {
			x.fail(&Error{Op: op, Msg: "only Bool, Int and Array sorts are supported"})
			return FuncDecl{}
		}
	}
	sorts = sorts[:len(domain)]
	p, n := cstring(name)
	a := C.icg_func_decl(x.c, p, n, C.uint(len(sorts)), first(sorts), x.sorts[rng.index()])
	t := x.done(op, a)
	return FuncDecl{x: t.x, a: t.a}
}

// Name returns the name of the function ("" for the zero FuncDecl).
func (f FuncDecl) Name() string {
	if f.a == nil || f.x == nil || f.x.c == nil {
		return ""
	}
	return symbolName(f.x.c, C.Z3_get_decl_name(f.x.c, C.Z3_to_func_decl(f.x.c, f.a)))
}

// Apply returns the application f(args...).
func (x *Context) Apply(f FuncDecl, args ...Term) Term {
	const op = "Apply"
	if !x.live(op) || x.err != nil {
		return Term{}
	}
	if f.a == nil || f.x != x {
		return x.fail(&Error{Op: op, Msg: "zero FuncDecl or one of another context"})
	}
	as, ok := x.args(op, args)
	if !ok {
		return Term{}
	}
	return x.done(op, C.icg_apply(x.c, f.a, C.uint(len(as)), first(as)))
}

func symbolName(c C.Z3_context, s C.Z3_symbol) string {
	if C.Z3_get_symbol_kind(c, s) == C.Z3_INT_SYMBOL {
		return "k!" + strconv.Itoa(int(C.Z3_get_symbol_int(c, s)))
	}
	return C.GoString(C.Z3_get_symbol_string(c, s))
}

// Inspection. These methods return zero values for the zero Term and for
// terms of a closed context.

// Kind returns the kind of t.
func (t Term) Kind() Kind {
	if !t.live() {
		return InvalidKind
	}
	switch C.Z3_get_ast_kind(t.x.c, t.a) {
	case C.Z3_APP_AST:
		return AppKind
	case C.Z3_NUMERAL_AST:
		return NumeralKind
	case C.Z3_VAR_AST:
		return VarKind
	case C.Z3_QUANTIFIER_AST:
		return QuantifierKind
	}
	return InvalidKind
}

// DeclKind returns the operator of an application ([OpNone] for other
// kinds of terms).
func (t Term) DeclKind() DeclKind {
	if !t.live() {
		return OpNone
	}
	return declKind(C.icg_decl_kind(t.x.c, t.a))
}

// NumArgs returns the number of arguments of an application (0 for other
// kinds of terms).
func (t Term) NumArgs() int {
	if !t.live() {
		return 0
	}
	return int(C.icg_num_args(t.x.c, t.a))
}

// Arg returns argument i of an application, pushed on the arena. An index
// out of range is an error recorded in the context, as by a builder.
func (t Term) Arg(i int) Term {
	if !t.live() {
		return Term{}
	}
	x := t.x
	if x.err != nil {
		return Term{}
	}
	if i < 0 || i >= t.NumArgs() {
		return x.fail(&Error{Op: "Arg", Msg: "index " + strconv.Itoa(i) + " out of range"})
	}
	return x.done("Arg", C.icg_arg(x.c, t.a, C.uint(i)))
}

// DeclName returns the name of the declaration of an application: "x" for
// a constant x, "f" for f(x), "+" for a sum ("" for other kinds of terms).
func (t Term) DeclName() string {
	if !t.live() {
		return ""
	}
	var num C.int
	s := C.icg_decl_name(t.x.c, t.a, &num)
	if s == nil {
		if num >= 0 {
			return "k!" + strconv.Itoa(int(num))
		}
		return ""
	}
	return C.GoString(s)
}

// String returns t in SMT-LIB2 syntax ("<nil>" for the zero Term).
func (t Term) String() string {
	if t.a == nil || t.x == nil {
		return "<nil>"
	}
	if t.x.c == nil {
		return "<closed>"
	}
	return C.GoString(C.Z3_ast_to_string(t.x.c, t.a))
}

// Int64 returns the value of an integer numeral if it fits in an int64.
// For larger ones use [Term.Numeral].
func (t Term) Int64() (int64, bool) {
	if !t.live() {
		return 0, false
	}
	var v C.int64_t
	if C.icg_int64_value(t.x.c, t.a, &v) == 0 {
		return 0, false
	}
	return int64(v), true
}

// Numeral returns a numeral in decimal ("-12", "340282366920938463463374607431768211456").
func (t Term) Numeral() (string, bool) {
	if !t.live() {
		return "", false
	}
	s := C.icg_numeral_string(t.x.c, t.a)
	if s == nil {
		return "", false
	}
	return C.GoString(s), true
}

// Bool returns the value of the formulas true and false; ok is false for
// any other term.
func (t Term) Bool() (value, ok bool) {
	if !t.live() {
		return false, false
	}
	switch C.Z3_get_bool_value(t.x.c, t.a) {
	case C.Z3_L_TRUE:
		return true, true
	case C.Z3_L_FALSE:
		return false, true
	}
	return false, false
}

// Sort returns the sort of t.
func (t Term) Sort() Sort {
	if !t.live() {
		return NoSort
	}
	return Sort(C.icg_term_sort(t.x.c, t.a))
}

// ID returns Z3's identifier of t: terms of a context are shared, so equal
// terms have equal ids. An id may be reused once its term is released.
func (t Term) ID() uint32 {
	if !t.live() {
		return 0
	}
	return uint32(C.Z3_get_ast_id(t.x.c, t.a))
}

// Hash returns Z3's structural hash of t.
func (t Term) Hash() uint32 {
	if !t.live() {
		return 0
	}
	return uint32(C.Z3_get_ast_hash(t.x.c, t.a))
}

// IsEqual reports whether t and u are the same term (of the same context).
// Terms are shared, so this is structural equality and costs no C call.
func (t Term) IsEqual(u Term) bool { return t.a != nil && t.x == u.x && t.a == u.a }

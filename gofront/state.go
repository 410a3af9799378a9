package gofront

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// scalar is a Go type the IR holds in one int or bool: the integer types
// that fit in int64, with their width, and bool.
type scalar struct {
	isBool bool
	// isString: a string, held as an opaque integer (one per string: 0
	// for "", the package's string constants numbered from 1); only
	// assignment, == and != and map keys read it.
	isString bool
	bits     int // 64 for int and int64; 8, 16, 32 for the narrower ones
	signed   bool
	name     string // the Go type's name, for messages
}

func (s scalar) narrow() bool { return !s.isBool && s.bits < 64 }

func (s scalar) blkType() string {
	if s.isBool {
		return "bool"
	}
	return "int"
}

// min and max of the type's range (narrow types only).
func (s scalar) bounds() (int64, int64) {
	if s.signed {
		return -1 << (s.bits - 1), 1<<(s.bits-1) - 1
	}
	return 0, 1<<s.bits - 1
}

// wrapFunc is the name of the generated func that wraps an int into the
// type's range, as Go's arithmetic on it does.
func (s scalar) wrapFunc() string {
	if s.signed {
		return fmt.Sprintf("W_int%d", s.bits)
	}
	return fmt.Sprintf("W_uint%d", s.bits)
}

// within reports whether every value of t is a value of s.
func (s scalar) within(t scalar) bool {
	if s.isBool || t.isBool {
		return s.isBool == t.isBool
	}
	lo, hi := s.rng()
	tlo, thi := t.rng()
	return tlo <= lo && hi <= thi
}

func (s scalar) rng() (int64, int64) {
	if s.bits == 64 {
		return -1 << 63, 1<<63 - 1
	}
	return s.bounds()
}

// scalarOf classifies a type; reason says why a type is not a scalar.
func scalarOf(t types.Type) (sc scalar, reason string) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return scalar{}, "values of type " + t.String() + " are not modelled"
	}
	name := t.String()
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return scalar{isBool: true, name: name}, ""
	case types.String, types.UntypedString:
		return scalar{bits: 64, signed: true, isString: true, name: name}, ""
	case types.Int, types.Int64, types.UntypedInt:
		return scalar{bits: 64, signed: true, name: name}, ""
	case types.Int8:
		return scalar{bits: 8, signed: true, name: name}, ""
	case types.Int16:
		return scalar{bits: 16, signed: true, name: name}, ""
	case types.Int32, types.UntypedRune:
		return scalar{bits: 32, signed: true, name: name}, ""
	case types.Uint8:
		return scalar{bits: 8, name: name}, ""
	case types.Uint16:
		return scalar{bits: 16, name: name}, ""
	case types.Uint32:
		return scalar{bits: 32, name: name}, ""
	case types.Uint, types.Uint64, types.Uintptr:
		return scalar{}, "values of type " + name + " (beyond int64) are not modelled"
	}
	return scalar{}, "values of type " + name + " are not modelled"
}

// root is an object whose state is shared: the receiver type of the
// blocks (one shared object of it) or a package-level variable.
type root struct {
	key     types.Object // *types.TypeName or *types.Var
	order   int          // position in source
	display string       // receiver name or variable name
	blk     string       // prefix of the globals' names
	lockers map[string][]*Block
}

// global is one scalar leaf of the shared state: a scalar field (or
// package variable) or, when it lies in an array, the array of its values.
type global struct {
	r       *root
	path    []int // field indices, -1 for an array element
	blk     string
	display string
	sc      scalar
	size    int64 // > 0 for arrays
	// unbounded: the values or presence of a map with wide keys, an
	// unbounded array of the IR (int a[*]) indexed by the key itself.
	unbounded bool
	init      string
	used      bool
	goPath    string // the Go expression from the root, %d for the index
	// part and m, for the globals of a map: part is "" for the values
	// (one field of them for a struct element), or "has", "len", "nil".
	part string
	m    *mapInfo
}

// mapInfo is a map of the shared state: the IR holds it as arrays over
// every key (index i for the key keyMin+i): the values (one array per
// scalar leaf of the element), has (1 where the key is present), and
// two scalars, its length and whether it is nil.
type mapInfo struct {
	goPath  string // the Go expression of the map from the root
	goType  string // its Go type, as the package writes it
	keyMin  int64
	keyBool bool
	size    int64
	// wide: keys of more than 8 bits; the arrays are unbounded (size 0),
	// indexed by the key.
	wide         bool
	keyLo, keyHi int64 // the key type's range, for wide keys
	keyString    bool
	// slice: a slice of the shared state, held as a map with wide keys
	// that has only values and len: element i at index i, read and
	// written through SIDX, which fails out of [0, len).
	slice bool
}

// array reports whether the global is an array of the IR.
func (g *global) array() bool { return g.size > 0 || g.unbounded }

// leaf is a scalar part of a struct-typed value: its field path and type.
type leaf struct {
	path  []int
	names []string
	sc    scalar
}

// leavesOf lists the scalar leaves of a value type: itself when scalar,
// the leaves of its fields for a struct. Arrays inside are not allowed
// (reason says why).
func leavesOf(t types.Type) ([]leaf, string) {
	if sc, reason := scalarOf(t); reason == "" {
		return []leaf{{sc: sc}}, ""
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		_, reason := scalarOf(t)
		return nil, reason
	}
	var out []leaf
	for i := range st.NumFields() {
		f := st.Field(i)
		sub, reason := leavesOf(f.Type())
		if reason != "" {
			return nil, reason
		}
		for _, l := range sub {
			out = append(out, leaf{path: append([]int{i}, l.path...), names: append([]string{f.Name()}, l.names...), sc: l.sc})
		}
	}
	return out, ""
}

// place is a resolved shared location: a root, a path of fields, at most
// one array index (idx, with the path before it in pre), and the type of
// the whole.
type place struct {
	r     *root
	path  []int // field indices, -1 where the array is indexed
	names []string
	idx   *frag
	idxE  ast.Expr
	size  int64 // of the indexed array
	t     types.Type
	local *localVar // a local struct variable instead of shared state
	pos   token.Pos
	// mapBase, for an element of a map (and the fields of one), is the
	// place of the map itself; path holds -2 where the map is indexed.
	mapBase *place
	mi      *mapInfo
}

func (p place) with(i int, name string, t types.Type) place {
	q := p
	q.path = append(append([]int{}, p.path...), i)
	q.names = append(append([]string{}, p.names...), name)
	q.t = t
	return q
}

func pathKey(path []int) string {
	var b strings.Builder
	for _, i := range path {
		fmt.Fprintf(&b, "%d.", i)
	}
	return b.String()
}

package gofront

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icgen/icgen/ic"
)

// GoText renders a constraint in Go syntax over the Go names: fields as
// the code names them (a.balance, c.entries[i].key), the second call's
// arguments with the suffix 2 (amt2), the maps of the state as Go reads
// them (m.vals[k], len(m.vals), m.vals == nil), a value the IR wraps into
// a narrow type's range as a conversion (uint32(s.clock + 1)). Two forms
// are not Go's own: has(m, k), which reads "k is a key of m" (_, ok :=
// m[k]), and, for what Go has no operator for, div, mod and ite. The
// text reads the same values as the constraint in every state Go can be
// in.
func (p *Package) GoText(e *ic.Expr) string {
	return p.goText(e, nil)
}

// goText is GoText with str, when set, writing a string's integer that
// holds no string constant of the package.
func (p *Package) goText(e *ic.Expr, str func(int64) string) string {
	g := goText{p: p, state: map[string]*StateVar{}, str: str}
	for i := range p.State {
		g.state[p.State[i].Name] = &p.State[i]
	}
	return g.text(e, 0)
}

type goText struct {
	p     *Package
	state map[string]*StateVar
	str   func(int64) string
}

// precedence of Go's binary operators.
var goPrec = map[string]int{"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}

func (g goText) text(e *ic.Expr, outer int) string {
	paren := func(prec int, s string) string {
		if prec < outer {
			return "(" + s + ")"
		}
		return s
	}
	if t, ok := g.wrap(e); ok {
		return t
	}
	switch e.Op {
	case "int":
		if *e.Value < 0 {
			return paren(6, strconv.FormatInt(*e.Value, 10))
		}
		return strconv.FormatInt(*e.Value, 10)
	case "true", "false":
		return e.Op
	case "local":
		if e.Event == 1 {
			return e.Name + "2"
		}
		return e.Name
	case "param", "ref":
		return e.Name
	case "global":
		sv := g.state[e.Name]
		if sv != nil && sv.Map != nil {
			m := g.mapName(sv)
			switch sv.Map.Part {
			case "len":
				return "len(" + m + ")"
			case "nil":
				return paren(3, m+" == nil")
			}
		}
		return e.Name
	case "select":
		return g.element(e.Name, e.Args[0])
	case "!":
		if a := e.Args[0]; a.Op == "global" {
			if sv := g.state[a.Name]; sv != nil && sv.Map != nil && sv.Map.Part == "nil" {
				return paren(3, g.mapName(sv)+" != nil")
			}
		}
		return "!" + g.text(e.Args[0], 6)
	case "==", "!=":
		// A string compared with the integer of a string constant is
		// compared with the constant.
		for i, pair := range [][2]*ic.Expr{{e.Args[0], e.Args[1]}, {e.Args[1], e.Args[0]}} {
			if s, z := pair[0], pair[1]; z.Op == "int" && g.isString(s) {
				if str, ok := g.p.StringOf(*z.Value); ok {
					parts := []string{g.text(s, 4), strconv.Quote(str)}
					if i == 1 {
						parts[0], parts[1] = parts[1], parts[0]
					}
					return paren(3, parts[0]+" "+e.Op+" "+parts[1])
				}
			}
		}
		// A bool element of an array (1 or 0) compared with 0 is the bool.
		for _, pair := range [][2]*ic.Expr{{e.Args[0], e.Args[1]}, {e.Args[1], e.Args[0]}} {
			if s, z := pair[0], pair[1]; s.Op == "select" && z.Op == "int" && *z.Value == 0 {
				if sv := g.state[s.Name]; sv != nil && sv.Bool {
					x := g.element(s.Name, s.Args[0])
					if e.Op == "==" {
						return "!" + x
					}
					return x
				}
			}
		}
	}
	if e.Op == "-" && len(e.Args) == 1 {
		return paren(6, "-"+g.text(e.Args[0], 6))
	}
	if prec, ok := goPrec[e.Op]; ok {
		parts := make([]string, len(e.Args))
		for i, a := range e.Args {
			// Left-associative: a right operand of the same precedence
			// needs parentheses.
			in := prec
			if i > 0 {
				in = prec + 1
			}
			parts[i] = g.text(a, in)
		}
		return paren(prec, strings.Join(parts, " "+e.Op+" "))
	}
	var args []string
	for _, a := range e.Args {
		args = append(args, g.text(a, 0))
	}
	return e.Op + "(" + strings.Join(args, ", ") + ")"
}

// isString reports whether e is a string of the state or a string
// parameter.
func (g goText) isString(e *ic.Expr) bool {
	switch e.Op {
	case "local":
		return g.p.stringLocal(e.Name)
	case "global", "select":
		sv := g.state[e.Name]
		return sv != nil && sv.String && (sv.Map == nil || sv.Map.Part == "value")
	}
	return false
}

// mapName is the Go expression of the map a part belongs to.
func (g goText) mapName(sv *StateVar) string {
	if sv.Root == "" {
		return sv.Map.Go
	}
	return g.rootName(sv) + sv.Map.Go
}

// rootName is the receiver's name in a state variable's name.
func (g goText) rootName(sv *StateVar) string {
	n := sv.Name
	for _, pre := range []string{"has(", "len(", "isnil("} {
		n = strings.TrimPrefix(n, pre)
	}
	return strings.SplitN(n, ".", 2)[0]
}

// element renders an element of an array of the state: a map's value or
// presence at a key, or an array's element.
func (g goText) element(name string, idx *ic.Expr) string {
	sv := g.state[name]
	if sv == nil {
		return name + "[" + g.text(idx, 0) + "]"
	}
	if sv.Map != nil {
		key := g.key(sv.Map, idx)
		m := g.mapName(sv)
		if sv.Map.Part == "has" {
			return "has(" + m + ", " + key + ")"
		}
		return m + "[" + key + "]" + sv.Map.Field
	}
	i := g.text(idx, 0)
	if sv.Root == "" {
		return strings.Replace(sv.Go, "%d", i, 1)
	}
	return g.rootName(sv) + strings.Replace(sv.Go, "%d", i, 1)
}

// key renders the key of a map's element idx.
func (g goText) key(m *MapPart, idx *ic.Expr) string {
	if m.KeyBool {
		return g.text(idx, 3) + " == 1"
	}
	if m.KeyString && idx.Op == "int" {
		if s, ok := g.p.StringOf(*idx.Value); ok {
			return strconv.Quote(s)
		}
		if g.str != nil {
			return g.str(*idx.Value)
		}
	}
	if m.KeyMin != 0 {
		// idx is the wrapped key plus -KeyMin: the wrapped signed key is
		// the index's wrap into the unsigned range, less the offset.
		if x, bits, ok := unsignedWrap(idx); ok && -m.KeyMin == 1<<(bits-1) {
			if y, ok := plusConst(x, -m.KeyMin); ok {
				return fmt.Sprintf("int%d(%s)", bits, g.text(y, 0))
			}
		}
		return g.text(idx, 4) + " - " + strconv.FormatInt(-m.KeyMin, 10)
	}
	return g.text(idx, 0)
}

// wrap renders ((x % m) + m) % m as uintN(x) and ((x + h) % m + m) % m - h
// as intN(x), m = 2^N, h = m/2: the IR's wrap of a narrow type's value,
// which Go's conversion (and arithmetic) does.
func (g goText) wrap(e *ic.Expr) (string, bool) {
	if x, bits, ok := unsignedWrap(e); ok {
		// The index of a signed key: intN(y) + 2^(N-1), which Go writes
		// without overflowing intN.
		if y, ok := plusConst(x, 1<<(bits-1)); ok {
			return fmt.Sprintf("int(int%d(%s)) + %d", bits, g.text(y, 0), 1<<(bits-1)), true
		}
		return fmt.Sprintf("uint%d(%s)", bits, g.text(x, 0)), true
	}
	if e.Op == "-" && len(e.Args) == 2 && e.Args[1].Op == "int" {
		if x, bits, ok := unsignedWrap(e.Args[0]); ok && *e.Args[1].Value == 1<<(bits-1) {
			if y, ok := plusConst(x, *e.Args[1].Value); ok {
				return fmt.Sprintf("int%d(%s)", bits, g.text(y, 0)), true
			}
		}
	}
	return "", false
}

// unsignedWrap matches ((x % m) + m) % m with m = 2^8, 2^16 or 2^32.
func unsignedWrap(e *ic.Expr) (*ic.Expr, int, bool) {
	if e.Op != "%" || e.Args[1].Op != "int" {
		return nil, 0, false
	}
	m := *e.Args[1].Value
	bits := map[int64]int{1 << 8: 8, 1 << 16: 16, 1 << 32: 32}[m]
	in := e.Args[0]
	if bits == 0 || in.Op != "+" || len(in.Args) != 2 || in.Args[1].Op != "int" || *in.Args[1].Value != m {
		return nil, 0, false
	}
	r := in.Args[0]
	if r.Op != "%" || r.Args[1].Op != "int" || *r.Args[1].Value != m {
		return nil, 0, false
	}
	return r.Args[0], bits, true
}

// plusConst matches x + c and returns x.
func plusConst(e *ic.Expr, c int64) (*ic.Expr, bool) {
	if e.Op == "+" && len(e.Args) == 2 && e.Args[1].Op == "int" && *e.Args[1].Value == c {
		return e.Args[0], true
	}
	return nil, false
}

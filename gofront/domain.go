package gofront

import (
	"math"
	"slices"
	"strconv"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
)

// Domain is what Go knows of the start states of a pair of blocks (by id,
// a's call first) and the IR does not: each element of an array of a
// narrow type, or of bool, lies in its type's range (0 or 1 for bool); of
// a map, each key is present or not (has is 0 or 1), an absent key's
// values are zero, the length counts the keys present (it is at most the
// number of keys when they are not state) and a nil map has none; each
// argument of a narrow type that its block reads lies in its type's
// range. The arrays have constant sizes, so each fact is a finite
// conjunction.
//
// The facts are for witnesses and samples (audit.Options.Domain): a state
// where they hold is one Go can be in. Constraints are proven over every
// state of the IR, which includes these, so they hold in Go's states
// without them. A scalar field of a narrow type has an invariant of its
// range in the program already, and is not repeated here.
func (p *Package) Domain(a, b string) []*ic.Expr {
	var out []*ic.Expr
	if len(p.State) != len(p.Prog.Globals) {
		return nil
	}
	type mapParts struct {
		has, ln, isNil *lang.Var
		vals           []*lang.Var
		mp             *MapPart
	}
	maps := map[string]*mapParts{}
	var order []string
	for i, sv := range p.State {
		g := p.Prog.Globals[i]
		if sv.Size > 0 && g.Type == lang.IntArray {
			lo, hi := sv.Min, sv.Max
			if sv.Bool {
				lo, hi = 0, 1
			}
			if sv.Map != nil && sv.Map.Part == "has" {
				lo, hi = 0, 1
			}
			if lo > math.MinInt64 || hi < math.MaxInt64 {
				for k := range sv.Size {
					out = append(out, within(elem(g, k), lo, hi)...)
				}
			}
		}
		if sv.Map == nil {
			continue
		}
		key := sv.Root + sv.Map.Go
		mp := maps[key]
		if mp == nil {
			mp = &mapParts{mp: sv.Map}
			maps[key] = mp
			order = append(order, key)
		}
		switch sv.Map.Part {
		case "has":
			mp.has = g
		case "len":
			mp.ln = g
		case "nil":
			mp.isNil = g
		default:
			mp.vals = append(mp.vals, g)
		}
	}
	for _, key := range order {
		mp := maps[key]
		if mp.mp.Keys == 0 {
			out = append(out, p.wideFacts(mp.has, mp.isNil, mp.vals, a, b)...)
			if mp.mp.Slice && mp.ln != nil {
				out = append(out, p.sliceFacts(mp.ln, mp.vals, a, b)...)
			}
			continue
		}
		if mp.has == nil {
			if mp.ln != nil && mp.mp.Keys > 0 {
				out = append(out, cmp("<=", globalTerm(mp.ln), ic.Int(mp.mp.Keys)))
			}
			continue
		}
		var hs []*ic.Expr
		for k := range mp.mp.Keys {
			h := elem(mp.has, k)
			hs = append(hs, h)
			for _, v := range mp.vals {
				// absent => zero: has[k] == 1 || v[k] == 0
				out = append(out, or(cmp("==", h, ic.Int(1)), cmp("==", elem(v, k), ic.Int(0))))
			}
		}
		count := &ic.Expr{Op: "+", Args: hs}
		if len(hs) == 1 {
			count = hs[0]
		}
		if mp.ln != nil {
			out = append(out, cmp("==", globalTerm(mp.ln), count))
		}
		if mp.isNil != nil && len(hs) > 0 {
			out = append(out, or(&ic.Expr{Op: "!", Args: []*ic.Expr{boolGlobal(mp.isNil)}}, cmp("==", count, ic.Int(0))))
		}
	}
	for e, id := range []string{a, b} {
		out = append(out, p.argRanges(id, e)...)
	}
	return out
}

// wideFacts are the facts of a map with wide keys at the keys the calls'
// integer arguments name (its arrays are unbounded: the facts cannot be
// stated at every key without quantifiers): present or not, zero when
// absent, absent from a nil map, a narrow value in its range.
func (p *Package) wideFacts(has, isNil *lang.Var, vals []*lang.Var, a, b string) []*ic.Expr {
	var out []*ic.Expr
	for _, k := range p.intArgs(a, b) {
		for _, g := range vals {
			if sv := p.stateOf(g); sv != nil && (sv.Bool || sv.Min > math.MinInt64 || sv.Max < math.MaxInt64) {
				lo, hi := sv.Min, sv.Max
				if sv.Bool {
					lo, hi = 0, 1
				}
				out = append(out, within(sel(g, k), lo, hi)...)
			}
		}
		if has == nil {
			continue
		}
		h := sel(has, k)
		out = append(out, within(h, 0, 1)...)
		for _, g := range vals {
			out = append(out, or(cmp("==", h, ic.Int(1)), cmp("==", sel(g, k), ic.Int(0))))
		}
		if isNil != nil {
			out = append(out, or(&ic.Expr{Op: "!", Args: []*ic.Expr{boolGlobal(isNil)}}, cmp("==", h, ic.Int(0))))
		}
	}
	return out
}

// sliceFacts are the facts of a slice at the indices the calls' integer
// arguments name: an element outside [0, len) is no part of the slice,
// and is 0 (so a witness shows no value there).
func (p *Package) sliceFacts(ln *lang.Var, vals []*lang.Var, a, b string) []*ic.Expr {
	var out []*ic.Expr
	for _, k := range p.intArgs(a, b) {
		in := &ic.Expr{Op: "&&", Args: []*ic.Expr{cmp("<=", ic.Int(0), k), cmp("<", k, globalTerm(ln))}}
		for _, g := range vals {
			out = append(out, or(in, cmp("==", sel(g, k), ic.Int(0))))
		}
	}
	return out
}

// intArgs are the integer locals the blocks a and b start with, as the
// locals of their events (0 and 1).
func (p *Package) intArgs(a, b string) []*ic.Expr {
	var out []*ic.Expr
	for e, id := range []string{a, b} {
		bl := p.Prog.Block(id)
		if bl == nil {
			continue
		}
		for _, v := range bl.Point.Live {
			if v.Type == lang.Int {
				out = append(out, &ic.Expr{Op: "local", Name: v.Name, Event: e})
			}
		}
	}
	return out
}

// stateOf is the StateVar of a global.
func (p *Package) stateOf(g *lang.Var) *StateVar {
	if g.Index < len(p.State) {
		return &p.State[g.Index]
	}
	return nil
}

func sel(g *lang.Var, k *ic.Expr) *ic.Expr {
	return &ic.Expr{Op: "select", Name: g.Name, Args: []*ic.Expr{k}}
}

// argRanges states the range of each argument of a narrow type that
// block id reads, as the local of event e.
func (p *Package) argRanges(id string, e int) []*ic.Expr {
	bl := p.Prog.Block(id)
	var gb *Block
	for _, x := range p.Blocks {
		if x.ID == id {
			gb = x
		}
	}
	if bl == nil || gb == nil || gb.Reason != nil || len(bl.Proc.Params) != len(gb.Params) {
		return nil
	}
	var out []*ic.Expr
	for k, v := range bl.Proc.Params {
		gv := gb.Params[k]
		if gv.Bool || gv.Min == math.MinInt64 && gv.Max == math.MaxInt64 || !slices.Contains(bl.Point.Live, v) {
			continue
		}
		out = append(out, within(&ic.Expr{Op: "local", Name: v.Name, Event: e}, gv.Min, gv.Max)...)
	}
	return out
}

func elem(g *lang.Var, k int64) *ic.Expr {
	return &ic.Expr{Op: "select", Name: g.Name, Args: []*ic.Expr{ic.Int(k)}}
}

func globalTerm(g *lang.Var) *ic.Expr { return &ic.Expr{Op: "global", Name: g.Name} }

func boolGlobal(g *lang.Var) *ic.Expr { return &ic.Expr{Op: "global", Name: g.Name, Sort: "bool"} }

func cmp(op string, x, y *ic.Expr) *ic.Expr { return &ic.Expr{Op: op, Args: []*ic.Expr{x, y}} }

func or(x, y *ic.Expr) *ic.Expr { return &ic.Expr{Op: "||", Args: []*ic.Expr{x, y}} }

// within is lo <= x <= hi, as two facts.
func within(x *ic.Expr, lo, hi int64) []*ic.Expr {
	return []*ic.Expr{cmp("<=", ic.Int(lo), x), cmp("<=", x, ic.Int(hi))}
}

// GoWitness returns the namer and the writer of the values of one
// witness (audit.Options.Witness). The namer is GoText, where a string's
// integer that holds no string constant of the package (a key of a map
// with string keys) is a name "s1", "s2", ... given in the order the two
// meet such integers (a name no constant of the package is). The writer
// writes what a global, an element or a local term holds as Go holds
// it: false and true for an element of a bool array and for a map's
// presence; for a string, its constant (StringOf) or its name; the
// integer otherwise.
func (p *Package) GoWitness() (func(*ic.Expr) string, func(*ic.Expr, int64) string) {
	names := map[int64]string{}
	taken := map[string]bool{"": true}
	for _, s := range p.Strings {
		taken[s] = true
	}
	n := 0
	str := func(v int64) string {
		if s, ok := p.StringOf(v); ok {
			return strconv.Quote(s)
		}
		if _, ok := names[v]; !ok {
			for {
				n++
				if name := "s" + strconv.Itoa(n); !taken[name] {
					names[v] = name
					break
				}
			}
		}
		return strconv.Quote(names[v])
	}
	name := func(e *ic.Expr) string { return p.goText(e, str) }
	return name, func(term *ic.Expr, v int64) string {
		sv := p.stateNamed(term.Name)
		switch {
		case term.Op == "select" && sv != nil && (sv.Bool || sv.Map != nil && sv.Map.Part == "has"):
			return strconv.FormatBool(v != 0)
		case term.Op == "local" && p.stringLocal(term.Name), term.Op != "local" && sv != nil && sv.String:
		default:
			return strconv.FormatInt(v, 10)
		}
		return str(v)
	}
}

// StringOf returns the string constant the integer v holds ("" for 0),
// false when v holds none of the package's constants (then it is a
// string the package does not write, a different one for each v).
func (p *Package) StringOf(v int64) (string, bool) {
	switch {
	case v == 0:
		return "", true
	case v >= 1 && v <= int64(len(p.Strings)):
		return p.Strings[v-1], true
	}
	return "", false
}

// stateNamed is the StateVar of the global named name, or nil.
func (p *Package) stateNamed(name string) *StateVar {
	if len(p.State) != len(p.Prog.Globals) {
		return nil
	}
	for i, g := range p.Prog.Globals {
		if g.Name == name {
			return &p.State[i]
		}
	}
	return nil
}

// stringLocal reports whether the local name is a string parameter in
// every block with a parameter of that name (and is one in some block):
// terms name locals without their block.
func (p *Package) stringLocal(name string) bool {
	some := false
	for _, b := range p.Blocks {
		for _, v := range b.Params {
			if v.Name == name {
				if !v.String {
					return false
				}
				some = true
			}
		}
	}
	return some
}

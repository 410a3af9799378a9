package ts

import (
	"fmt"
	"iter"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// Compose returns the system of running first and then second: every pair
// of transitions whose conditions are not trivially contradictory, with the
// second's inputs bound to the first's outputs. The two systems must belong
// to different events (0 and 1), so their locals are distinct symbols.
func Compose(first, second *System, syms *Symbols) *System {
	out := composed(first, second)
	if out.Unknown == "" {
		for t := range compositions(first, second, syms) {
			out.Transitions = append(out.Transitions, t)
		}
	}
	return out
}

// ComposeBoth returns Compose(first, second) and Compose(second, first),
// built side by side so that it can stop early: once the product of their
// transition counts, or the count of either, passes maxPairs (0: no
// bound), it returns false, and both systems are unknown. Two blocks of n
// and m paths compose into up to n·m transitions in each order, each with
// terms substituted into, and a caller that refuses a pair past a number
// of pairs of paths learns it after about the square root of that number
// of transitions a side, not after all of them.
func ComposeBoth(first, second *System, syms *Symbols, maxPairs int) (ab, ba *System, ok bool) {
	ab, ba = composed(first, second), composed(second, first)
	if ab.Unknown != "" || ba.Unknown != "" {
		return ab, ba, true
	}
	sides := [2]*System{ab, ba}
	var next [2]func() (*Transition, bool)
	for i, s := range [2][2]*System{{first, second}, {second, first}} {
		n, stop := iter.Pull(compositions(s[0], s[1], syms))
		defer stop()
		next[i] = n
	}
	done := [2]bool{}
	for !done[0] || !done[1] {
		// Extend the side with fewer transitions so far, of those not done.
		i := 0
		if done[0] || !done[1] && len(ba.Transitions) < len(ab.Transitions) {
			i = 1
		}
		t, more := next[i]()
		if !more {
			done[i] = true
			continue
		}
		sides[i].Transitions = append(sides[i].Transitions, t)
		na, nb := len(ab.Transitions), len(ba.Transitions)
		if maxPairs > 0 && (na > maxPairs || nb > maxPairs || na*nb > maxPairs) {
			why := fmt.Sprintf("more than %d pairs of paths of the two orders", maxPairs)
			for _, s := range sides {
				s.Transitions, s.Unknown = nil, why
			}
			return ab, ba, false
		}
	}
	return ab, ba, true
}

// composed is the system of first then second without its transitions:
// the blocks, what was abstracted, and why it is unknown if either is.
func composed(first, second *System) *System {
	out := &System{G: first.G, Events: 2}
	for e := 0; e < 2; e++ {
		if first.Blocks[e] != nil {
			out.Blocks[e] = first.Blocks[e]
		}
		if second.Blocks[e] != nil {
			out.Blocks[e] = second.Blocks[e]
		}
	}
	out.Abstracted = mergeStrings(first.Abstracted, second.Abstracted)
	switch {
	case first.Unknown != "":
		out.Unknown = first.Unknown
	case second.Unknown != "":
		out.Unknown = second.Unknown
	}
	return out
}

// compositions yields the transitions of first then second, in Compose's
// order.
func compositions(first, second *System, syms *Symbols) iter.Seq[*Transition] {
	return func(yield func(*Transition) bool) {
		g := first.G
		for _, a := range first.Transitions {
			bind := func(s *Sym) (Ref, bool) {
				if s.Kind == SymGlobal {
					return a.Global(g, s.Var, syms), true
				}
				return 0, false
			}
			memo := map[Ref]Ref{}
			Subst := func(r Ref) Ref { return g.Subst(r, bind, memo) }
			for _, b := range second.Transitions {
				t := &Transition{
					Cond:       g.And(a.Cond, Subst(b.Cond)),
					NoOverflow: g.And(a.NoOverflow, Subst(b.NoOverflow)),
					Fns:        map[string]*Fn{},
					Written:    unionVars(a.Written, b.Written),
				}
				if g.IsFalse(t.Cond) {
					continue
				}
				written := map[*lang.Var]Ref{}
				for _, as := range a.Globals {
					written[as.Var] = as.Value
				}
				for _, as := range b.Globals {
					written[as.Var] = Subst(as.Value)
				}
				for v, val := range written {
					if val != g.SymRef(syms.Global(v)) {
						t.Globals = append(t.Globals, Assign{v, val})
					}
				}
				sortAssigns(t.Globals)
				for e := 0; e < 2; e++ {
					src := a
					if second.Blocks[e] != nil {
						src = b
					}
					if first.Blocks[e] == nil && second.Blocks[e] == nil {
						continue
					}
					for _, as := range src.Locals[e] {
						val := as.Value
						if src == b {
							val = Subst(val)
						}
						t.Locals[e] = append(t.Locals[e], Assign{as.Var, val})
					}
					t.Next[e], t.Ends[e] = src.Next[e], src.Ends[e]
				}
				t.Spawns = append(t.Spawns, a.Spawns...)
				for _, s := range b.Spawns {
					args := make([]Ref, len(s.Args))
					for i, x := range s.Args {
						args[i] = Subst(x)
					}
					t.Spawns = append(t.Spawns, Spawn{Proc: s.Proc, Args: args, Event: s.Event})
				}
				t.Violations = append(append([]lang.Pos(nil), a.Violations...), b.Violations...)
				sort.Slice(t.Violations, func(i, j int) bool { return t.Violations[i].Offset < t.Violations[j].Offset })
				for k, f := range a.Fns {
					t.Fns[k] = f
				}
				for k, f := range b.Fns {
					t.Fns[k] = f
				}
				if !yield(t) {
					return
				}
			}
		}
	}
}

func mergeStrings(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string(nil), a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Pair builds T(a.b) and T(b.a) for blocks a (event 0) and b (event 1),
// with their terms in one new graph.
func Pair(a, b *lang.Block, syms *Symbols) (ab, ba *System) {
	g := NewGraph()
	g.Limit = 0
	ta, tb := Block(a, 0, syms, g), Block(b, 1, syms, g)
	return Compose(ta, tb, syms), Compose(tb, ta, syms)
}

// String renders the system canonically: one transition per line,
// "cond -> assignments; spawns {...}; violations {...}; next ...".
func (s *System) String() string {
	var b strings.Builder
	if s.Unknown != "" {
		fmt.Fprintf(&b, "unknown: %s\n", s.Unknown)
		return b.String()
	}
	for _, a := range s.Abstracted {
		fmt.Fprintf(&b, "abstracted: %s\n", a)
	}
	lines := make([]string, len(s.Transitions))
	for i, t := range s.Transitions {
		lines[i] = t.text(s.G)
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// text renders one transition, its terms those of g.
func (t *Transition) text(g *Graph) string {
	key := func(r Ref) string { return g.Text(r) }
	var parts []string
	for _, a := range t.Globals {
		parts = append(parts, a.Var.Name+" := "+key(a.Value))
	}
	for e := 0; e < 2; e++ {
		for _, a := range t.Locals[e] {
			parts = append(parts, a.Var.Name+strings.Repeat("'", e)+" := "+key(a.Value))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "skip")
	}
	s := key(t.Cond) + " -> " + strings.Join(parts, ", ")
	if len(t.Spawns) > 0 {
		keys := make([]string, len(t.Spawns))
		for i, sp := range t.Spawns {
			keys[i] = sp.Key(g)
		}
		s += "; spawns {" + strings.Join(keys, ", ") + "}"
	}
	if len(t.Violations) > 0 {
		vs := make([]string, len(t.Violations))
		for i, v := range t.Violations {
			vs[i] = fmt.Sprintf("%d:%d", v.Line, v.Col)
		}
		s += "; violations {" + strings.Join(vs, ", ") + "}"
	}
	var next []string
	for e := 0; e < 2; e++ {
		switch {
		case t.Next[e] != nil:
			next = append(next, t.Next[e].Block.ID)
		case t.Ends[e]:
			next = append(next, "end")
		}
	}
	if len(next) > 0 && !allEnd(next) {
		s += "; next " + strings.Join(next, ", ")
	}
	return s
}

func allEnd(xs []string) bool {
	for _, x := range xs {
		if x != "end" {
			return false
		}
	}
	return true
}

// ComposeMerged is the merged system of running first, then second (of the
// other event): second's inputs are bound to first's outputs.
func ComposeMerged(first, second *Merged, syms *Symbols) *Merged {
	g := first.G
	out := &Merged{G: g, Globals: map[*lang.Var]Ref{}, Violations: map[int]Ref{}, Fns: map[string]*Fn{}, Written: map[*lang.Var]Ref{}}
	out.Abstracted = mergeStrings(first.Abstracted, second.Abstracted)
	switch {
	case first.Unknown != "":
		out.Unknown = first.Unknown
		return out
	case second.Unknown != "":
		out.Unknown = second.Unknown
		return out
	}
	memo := map[Ref]Ref{}
	bind := func(s *Sym) (Ref, bool) {
		if s.Kind == SymGlobal {
			return first.Global(s.Var, syms), true
		}
		return 0, false
	}
	sub := func(r Ref) Ref { return g.Subst(r, bind, memo) }
	out.OK = g.And(first.OK, sub(second.OK))
	out.NoOverflow = g.And(first.NoOverflow, sub(second.NoOverflow))
	for _, v := range SortedVars(first.Globals) {
		out.Globals[v] = first.Globals[v]
	}
	for _, v := range SortedVars(second.Globals) {
		out.Globals[v] = sub(second.Globals[v])
	}
	for _, v := range SortedVars(out.Globals) {
		if out.Globals[v] == g.SymRef(syms.Global(v)) {
			delete(out.Globals, v)
		}
	}
	for _, v := range SortedVars(first.Written) {
		out.Written[v] = first.Written[v]
	}
	for _, v := range SortedVars(second.Written) {
		if w, ok := out.Written[v]; ok {
			out.Written[v] = g.Or(w, sub(second.Written[v]))
		} else {
			out.Written[v] = sub(second.Written[v])
		}
	}
	for e := 0; e < 2; e++ {
		src, bound := first, false
		if second.HasEvent[e] {
			src, bound = second, true
		} else if !first.HasEvent[e] {
			continue
		}
		out.HasEvent[e], out.Blocks[e], out.Exits[e] = true, src.Blocks[e], src.Exits[e]
		out.Locals[e] = map[*lang.Var]Ref{}
		for _, v := range SortedVars(src.Locals[e]) {
			r := src.Locals[e][v]
			if bound {
				r = sub(r)
			}
			out.Locals[e][v] = r
		}
		out.Next[e] = src.Next[e]
		if bound {
			out.Next[e] = sub(src.Next[e])
		}
	}
	out.Spawns = append(out.Spawns, first.Spawns...)
	for _, sp := range second.Spawns {
		args := make([]Ref, len(sp.Args))
		for i, a := range sp.Args {
			args[i] = sub(a)
		}
		out.Spawns = append(out.Spawns, &CondSpawn{Cond: sub(sp.Cond), Proc: sp.Proc, Args: args, Event: sp.Event})
	}
	offs := map[int]Ref{}
	for k := range first.Violations {
		offs[k] = 0
	}
	for k := range second.Violations {
		offs[k] = 0
	}
	for _, k := range sortedInts(offs) {
		out.Violations[k] = g.Binary(lang.OpAdd, first.Violation(k), sub(second.Violation(k)))
	}
	for k, f := range first.Fns {
		out.Fns[k] = f
	}
	for k, f := range second.Fns {
		out.Fns[k] = f
	}
	if g.Over {
		out.Unknown = fmt.Sprintf("more than %d terms", g.Limit)
	}
	return out
}

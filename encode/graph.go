package encode

import (
	"fmt"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// CollectGraph gathers the declarations of graph terms.
func CollectGraph(g *ts.Graph, roots ...ts.Ref) Decls {
	syms := map[string]*ts.Sym{}
	fns := map[string]*ts.Fn{}
	g.Reach(func(r ts.Ref) {
		switch g.Kind(r) {
		case ts.KSym:
			syms[g.Sym(r).Name] = g.Sym(r)
		case ts.KApply:
			fns[g.Fn(r).Name] = g.Fn(r)
		}
	}, roots...)
	var d Decls
	for _, s := range syms {
		d.Syms = append(d.Syms, s)
	}
	for _, f := range fns {
		d.Fns = append(d.Fns, f)
	}
	sort.Slice(d.Syms, func(i, j int) bool { return d.Syms[i].Name < d.Syms[j].Name })
	sort.Slice(d.Fns, func(i, j int) bool { return d.Fns[i].Name < d.Fns[j].Name })
	return d
}

// GraphSMT prints graph terms as SMT-LIB2 expressions, naming every
// subterm used more than once with a define-fun (|@t<id>|, a name no
// program identifier has): the text is linear in the size of the graph,
// where a tree could be exponential. Defs holds the define-fun commands, in
// dependency order, and goes after the declarations.
func GraphSMT(g *ts.Graph, roots ...ts.Ref) (defs string, exprs []string) {
	uses := map[ts.Ref]int{}
	var order []ts.Ref
	g.Reach(func(r ts.Ref) {
		order = append(order, r)
		for _, a := range g.Args(r) {
			uses[a]++
			if g.Kind(r) == ts.KDiv || g.Kind(r) == ts.KMod {
				uses[a] += 2 // printed thrice by truncDiv
			}
		}
	}, roots...)
	named := map[ts.Ref]string{}
	text := map[ts.Ref]string{}
	var b strings.Builder
	for _, r := range order { // children first
		s := graphNode(g, r, text)
		if uses[r] > 1 && len(g.Args(r)) > 0 {
			name := fmt.Sprintf("|@t%d|", r)
			fmt.Fprintf(&b, "(define-fun %s () %s %s)\n", name, SortName(g.Sort(r)), s)
			named[r] = name
			s = name
		}
		text[r] = s
	}
	for _, r := range roots {
		exprs = append(exprs, text[r])
	}
	return b.String(), exprs
}

// graphNode prints one node over the texts of its arguments.
func graphNode(g *ts.Graph, r ts.Ref, text map[ts.Ref]string) string {
	args := g.Args(r)
	app := func(head string) string {
		parts := []string{head}
		for _, a := range args {
			parts = append(parts, text[a])
		}
		return "(" + strings.Join(parts, " ") + ")"
	}
	switch g.Kind(r) {
	case ts.KConst:
		if g.Sort(r) == ts.SortBool {
			return fmt.Sprint(g.Val(r) != 0)
		}
		return intLit(g.Val(r))
	case ts.KSym:
		return Symbol(g.Sym(r).Name)
	case ts.KOp:
		switch op := g.Op(r); {
		case op == lang.OpNot:
			return app("not")
		case op == lang.OpNeg:
			return app("-")
		case op == lang.OpNe:
			return app("distinct")
		default:
			return app(smtOp[op])
		}
	case ts.KIte:
		return app("ite")
	case ts.KSelect:
		return app("select")
	case ts.KStore:
		return app("store")
	case ts.KApply:
		if len(args) == 0 {
			return Symbol(g.Fn(r).Name)
		}
		return app(Symbol(g.Fn(r).Name))
	case ts.KDiv:
		return truncDivText(text[args[0]], text[args[1]])
	case ts.KMod:
		x, y := text[args[0]], text[args[1]]
		return "(- " + x + " (* " + y + " " + truncDivText(x, y) + "))"
	}
	return "?"
}

func truncDivText(x, y string) string {
	return "(ite (>= " + x + " 0) (div " + x + " " + y + ") (- (div (- " + x + ") " + y + ")))"
}

package allsat

import (
	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// formulaText is F(a,b) as the solver reads it: declarations, the
// definitions of shared subterms, F, the invariants, and any extra terms
// asked for. symDecls are the declarations alone: enough for a condition
// over the inputs.
type formulaText struct {
	decls     string
	symDecls  string
	f, assume string
	extra     []string
	syms      []*ts.Sym // the input symbols mentioned
}

// textOf prints f, and extra conditions (terms of its graph).
func textOf(f *encode.Formula, extra ...ts.Ref) *formulaText {
	g := f.Graph
	roots := append([]ts.Ref{f.F, f.Assume, f.NoOverflow}, extra...)
	d := encode.CollectGraph(g, roots...)
	defs, exprs := encode.GraphSMT(g, roots...)
	return &formulaText{decls: d.Declarations() + defs, symDecls: d.Declarations(), f: exprs[0], assume: exprs[1], extra: exprs[3:], syms: d.Syms}
}

// problem is what the cover enumerates over: the formula, its atoms as
// terms of the formula's graph, as SMT-LIB2 and as tree views (nil when
// too large to print), and the number of globals each atom reads.
type problem struct {
	formula  *formulaText
	decls    string
	f        string
	assume   string
	graph    *ts.Graph
	atomRefs []ts.Ref
	atoms    []*ts.Term
	atomSMT  []string
	cost     []int
}

// MaxAtomText bounds the text of one atom printed as a tree; a larger
// atom can still be a literal of the enumeration but not of a constraint.
const MaxAtomText = 1 << 14

func coverProblem(f *encode.Formula) *problem {
	g := f.Graph
	refs := Atoms(g, f.F)
	roots := append([]ts.Ref{f.F, f.Assume}, refs...)
	d := encode.CollectGraph(g, roots...)
	defs, exprs := encode.GraphSMT(g, roots...)
	p := &problem{formula: textOf(f), decls: d.Declarations() + defs, f: exprs[0], assume: exprs[1], graph: g, atomRefs: refs, atomSMT: exprs[2:]}
	for _, a := range refs {
		t, ok := g.Term(a, MaxAtomText)
		if !ok {
			t = nil
		}
		p.atoms = append(p.atoms, t)
		p.cost = append(p.cost, graphGlobals(g, a))
	}
	return p
}

// graphGlobals is the number of distinct globals a graph term reads.
func graphGlobals(g *ts.Graph, r ts.Ref) int {
	seen := map[string]bool{}
	g.Reach(func(x ts.Ref) {
		if g.Kind(x) == ts.KSym && g.Sym(x).Kind == ts.SymGlobal {
			seen[g.Sym(x).Name] = true
		}
	}, r)
	return len(seen)
}

// Atoms returns the atoms of a boolean term in first-occurrence order: its
// leaves below and/or/not, the conditions of the ites inside them, and the
// sign conditions hidden in truncated division (a >= 0 for a / b), so that
// a full cube of atom values decides the term.
func Atoms(g *ts.Graph, root ts.Ref) []ts.Ref {
	var out []ts.Ref
	added := map[ts.Ref]bool{}
	add := func(a ts.Ref) {
		if g.Kind(a) == ts.KConst || added[a] {
			return
		}
		added[a] = true
		out = append(out, a)
	}
	seenB, seenI := map[ts.Ref]bool{}, map[ts.Ref]bool{}
	var boolWalk, intWalk func(ts.Ref)
	boolWalk = func(b ts.Ref) {
		if seenB[b] {
			return
		}
		seenB[b] = true
		if g.Kind(b) == ts.KOp && (g.Op(b) == lang.OpAnd || g.Op(b) == lang.OpOr || g.Op(b) == lang.OpNot) {
			for _, a := range g.Args(b) {
				boolWalk(a)
			}
			return
		}
		add(b)
		for _, a := range g.Args(b) {
			intWalk(a)
		}
	}
	intWalk = func(x ts.Ref) {
		if seenI[x] {
			return
		}
		seenI[x] = true
		args := g.Args(x)
		switch g.Kind(x) {
		case ts.KIte:
			boolWalk(args[0])
		case ts.KDiv, ts.KMod:
			add(g.Binary(lang.OpGe, args[0], g.Int(0)))
		}
		for i, a := range args {
			if g.Sort(a) == ts.SortBool && !(g.Kind(x) == ts.KIte && i == 0) {
				boolWalk(a)
			} else {
				intWalk(a)
			}
		}
	}
	boolWalk(root)
	return out
}

package allsat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// ToExpr translates a term into an IC expression. Terms that IC files
// cannot express (array stores, whole arrays other than globals) give an
// error.
func ToExpr(t *ts.Term) (*ic.Expr, error) {
	n := node{kind: t.Kind, sort: t.Sort, op: t.Op, val: t.Val, sym: t.Sym, fn: t.Fn}
	args := t.Args
	switch t.Kind {
	case ts.KSelect:
		a := t.Args[0]
		if a.Kind != ts.KSym || a.Sym.Kind != ts.SymGlobal {
			return nil, fmt.Errorf("array term %s", a)
		}
		n.array, args = a.Sym, args[1:]
	case ts.KStore:
		return nil, fmt.Errorf("array store %s", t)
	}
	xs := make([]*ic.Expr, len(args))
	for i, a := range args {
		x, err := ToExpr(a)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	e, err := n.expr(xs)
	if err != nil {
		return nil, fmt.Errorf("%v %s", err, t)
	}
	return e, nil
}

// GraphExpr translates the term of g at root into an IC expression that
// names each subterm it reads in more than one place by a let, once:
// the expression is as large as the part of the graph root reaches,
// where its tree can be exponentially larger. Terms that IC files cannot
// express give an error.
func GraphExpr(g *ts.Graph, root ts.Ref) (*ic.Expr, error) {
	var order []ts.Ref
	uses := map[ts.Ref]int{}
	g.Reach(func(r ts.Ref) {
		order = append(order, r)
		for _, a := range g.Args(r) {
			uses[a]++
		}
	}, root)
	// shared: read more than once, and more than a name or a literal
	// (an element at a constant index is as short as its name).
	shared := func(r ts.Ref) bool {
		if g.Sort(r) == ts.SortArray {
			return false // an array is read by a select or a function
		}
		switch g.Kind(r) {
		case ts.KConst, ts.KSym:
			return false
		case ts.KSelect:
			if g.Kind(g.Args(r)[1]) == ts.KConst {
				return false
			}
		}
		return uses[r] > 1 && r != root
	}
	exprs := map[ts.Ref]*ic.Expr{}
	var defs []ic.Def
	for _, r := range order { // every node after its arguments
		n := node{kind: g.Kind(r), sort: g.Sort(r), op: g.Op(r), val: g.Val(r), sym: g.Sym(r), fn: g.Fn(r)}
		args := g.Args(r)
		if n.kind == ts.KSelect {
			if a := args[0]; g.Kind(a) == ts.KSym {
				n.array = g.Sym(a)
			}
			args = args[1:]
		}
		if n.kind == ts.KSym && n.sort == ts.SortArray || n.kind == ts.KStore {
			continue // read only by a select or an apply, which say whether it can be written
		}
		// An error names its term as ToExpr does: a select's array, or
		// the node.
		fail := func(err error, at ts.Ref) error {
			if t, ok := g.Term(at, 1<<10); ok {
				return fmt.Errorf("%v %s", err, t)
			}
			return err
		}
		xs := make([]*ic.Expr, len(args))
		for i, a := range args {
			if xs[i] = exprs[a]; xs[i] == nil {
				x, err := (node{kind: g.Kind(a), sort: g.Sort(a), sym: g.Sym(a)}).expr(nil)
				if err != nil {
					return nil, fail(err, a)
				}
				xs[i] = x
			}
		}
		e, err := n.expr(xs)
		if err != nil {
			if n.kind == ts.KSelect {
				return nil, fail(err, g.Args(r)[0])
			}
			return nil, fail(err, r)
		}
		if shared(r) {
			name := fmt.Sprintf("$%d", len(defs)+1)
			defs = append(defs, ic.Def{Name: name, Expr: e})
			e = &ic.Expr{Op: "ref", Name: name, Sort: sortOf(n.sort)}
		}
		exprs[r] = e
	}
	if len(defs) == 0 {
		return exprs[root], nil
	}
	return &ic.Expr{Op: "let", Defs: defs, Args: []*ic.Expr{exprs[root]}}, nil
}

// node is one node of a term: its own fields, and for a select the
// array it reads (a global array's symbol, or nil).
type node struct {
	kind  ts.Kind
	sort  ts.Sort
	op    lang.Op
	val   int64
	sym   *ts.Sym
	fn    *ts.Fn
	array *ts.Sym
}

// expr is the IC expression of the node over its arguments' (a select's:
// its index's).
func (n node) expr(args []*ic.Expr) (*ic.Expr, error) {
	switch n.kind {
	case ts.KConst:
		if n.sort == ts.SortBool {
			if n.val != 0 {
				return &ic.Expr{Op: "true"}, nil
			}
			return &ic.Expr{Op: "false"}, nil
		}
		return ic.Int(n.val), nil
	case ts.KSym:
		e := &ic.Expr{Sort: sortOf(n.sort)}
		switch n.sym.Kind {
		case ts.SymGlobal:
			e.Op, e.Name = "global", n.sym.Var.Name
		case ts.SymLocal:
			e.Op, e.Name, e.Event = "local", strings.TrimRight(n.sym.Name, "'"), n.sym.Event
		case ts.SymParam:
			e.Op, e.Name = "param", n.sym.Param.Name
		}
		return e, nil
	case ts.KSelect:
		if n.array == nil || n.array.Kind != ts.SymGlobal {
			return nil, errors.New("array term")
		}
		return &ic.Expr{Op: "select", Name: n.array.Var.Name, Args: args}, nil
	case ts.KStore:
		return nil, errors.New("array store")
	case ts.KOp:
		op := n.op.String()
		if n.op == lang.OpNeg {
			op = "-"
		}
		return &ic.Expr{Op: op, Args: args}, nil
	case ts.KIte:
		return &ic.Expr{Op: "ite", Args: args}, nil
	case ts.KDiv:
		return &ic.Expr{Op: "/", Args: args}, nil
	case ts.KMod:
		return &ic.Expr{Op: "%", Args: args}, nil
	case ts.KApply:
		return &ic.Expr{Op: "apply", Name: n.fn.Name, Sort: sortOf(n.sort), Args: args}, nil
	}
	return nil, errors.New("term")
}

func sortOf(s ts.Sort) string {
	switch s {
	case ts.SortBool:
		return "bool"
	case ts.SortArray:
		return "array"
	}
	return ""
}

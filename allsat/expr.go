package allsat

import (
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
	switch t.Kind {
	case ts.KConst:
		if t.Sort == ts.SortBool {
			if t.Val != 0 {
				return &ic.Expr{Op: "true"}, nil
			}
			return &ic.Expr{Op: "false"}, nil
		}
		return ic.Int(t.Val), nil
	case ts.KSym:
		e := &ic.Expr{Sort: sortOf(t.Sort)}
		switch t.Sym.Kind {
		case ts.SymGlobal:
			e.Op, e.Name = "global", t.Sym.Var.Name
		case ts.SymLocal:
			e.Op, e.Name, e.Event = "local", strings.TrimRight(t.Sym.Name, "'"), t.Sym.Event
		case ts.SymParam:
			e.Op, e.Name = "param", t.Sym.Param.Name
		}
		return e, nil
	case ts.KSelect:
		a := t.Args[0]
		if a.Kind != ts.KSym || a.Sym.Kind != ts.SymGlobal {
			return nil, fmt.Errorf("array term %s", a)
		}
		i, err := ToExpr(t.Args[1])
		if err != nil {
			return nil, err
		}
		return &ic.Expr{Op: "select", Name: a.Sym.Var.Name, Args: []*ic.Expr{i}}, nil
	case ts.KStore:
		return nil, fmt.Errorf("array store %s", t)
	}
	args := make([]*ic.Expr, len(t.Args))
	for i, a := range t.Args {
		x, err := ToExpr(a)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	switch t.Kind {
	case ts.KOp:
		op := t.Op.String()
		if t.Op == lang.OpNeg {
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
		return &ic.Expr{Op: "apply", Name: t.Fn.Name, Sort: sortOf(t.Sort), Args: args}, nil
	}
	return nil, fmt.Errorf("term %s", t)
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

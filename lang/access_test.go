package lang

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

var exprType = reflect.TypeFor[Expr]()

// holdsExpr reports whether a field of type t holds one expression (an
// Expr, or a pointer to one kind of them, as *CallExpr) or several
// ([]Expr).
func holdsExpr(t reflect.Type) (one, many bool) {
	switch {
	case t == exprType || t.Kind() == reflect.Pointer && t.Implements(exprType):
		return true, false
	case t.Kind() == reflect.Slice && t.Elem() == exprType:
		return false, true
	}
	return false, false
}

// setExprs sets every field of the struct v that holds expressions to
// fresh ones of its own, and returns them.
func setExprs(v reflect.Value) []Expr {
	var set []Expr
	fresh := func(t reflect.Type) reflect.Value {
		if t == exprType {
			t = reflect.TypeFor[*IntLit]()
		}
		e := reflect.New(t.Elem())
		set = append(set, e.Interface().(Expr))
		return e
	}
	for i := range v.NumField() {
		f := v.Field(i)
		switch one, many := holdsExpr(f.Type()); {
		case one:
			f.Set(fresh(f.Type()))
		case many:
			es := reflect.MakeSlice(f.Type(), 2, 2)
			for j := range 2 {
				es.Index(j).Set(fresh(exprType))
			}
			f.Set(es)
		}
	}
	return set
}

// TestNodeExprs: Node.Exprs yields every expression a node holds, each
// once, so that the walks built on it (the reads and writes of blocks, the
// cells, dporrt's overflow proof) miss none. Every field of Node is either
// an expression, a struct whose expression fields the node evaluates
// (Target, Point), or named here as one that holds none the node
// evaluates: a new field fails the test until it is placed.
func TestNodeExprs(t *testing.T) {
	holders := map[string]bool{"Target": true, "Point": true}
	other := map[string]bool{"ID": true, "Kind": true, "Pos": true, "Next": true, "Else": true,
		"Decl": true, "Msg": true, "Proc": true, "Loop": true}
	n := &Node{}
	v := reflect.ValueOf(n).Elem()
	want := setExprs(v)
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		if one, many := holdsExpr(f.Type()); one || many {
			continue
		}
		switch {
		case holders[name] && f.Kind() == reflect.Struct:
			want = append(want, setExprs(f)...)
		case holders[name] && f.Kind() == reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			want = append(want, setExprs(f.Elem())...)
		case !other[name]:
			t.Errorf("Node.%s: the test does not know whether the node evaluates what it holds", name)
		}
	}
	got := slices.Collect(n.Exprs)
	if len(got) != len(want) {
		t.Fatalf("Node.Exprs yields %d expressions, the node holds %d", len(got), len(want))
	}
	for _, e := range want {
		if !slices.Contains(got, e) {
			t.Errorf("Node.Exprs does not yield the %T the node holds", e)
		}
	}
	for range n.Exprs {
		break // stopping early must not panic
	}
	// An assignment evaluates its value before its target's index.
	a := &Node{Kind: NodeAssign, Value: &IntLit{Val: 1}, Target: LValue{Index: &IntLit{Val: 2}}}
	if got := slices.Collect(a.Exprs); len(got) != 2 || got[0] != a.Value || got[1] != a.Target.Index {
		t.Errorf("an assignment's expressions in the order %v, want its value, then its index", got)
	}
}

// exprTypes returns the names of the types of the package's non-test
// files that implement Expr (those with an exprNode method).
func exprTypes(t *testing.T) []string {
	files, _ := filepath.Glob("*.go")
	var names []string
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, file, nil, goparser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != "exprNode" || fd.Recv == nil {
				continue
			}
			if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
				names = append(names, star.X.(*ast.Ident).Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// TestInspect: Inspect visits every expression inside each kind of
// expression, each once: every field that holds an expression is set and
// must be visited. Every type that implements Expr is in the table (the
// checker's badExpr too, which no compiled program holds).
func TestInspect(t *testing.T) {
	kinds := []Expr{&IntLit{}, &BoolLit{}, &ParamRef{}, &VarRef{}, &IndexExpr{}, &UnaryExpr{}, &BinaryExpr{}, &CallExpr{}, &badExpr{}}
	var names []string
	for _, e := range kinds {
		names = append(names, reflect.TypeOf(e).Elem().Name())
	}
	sort.Strings(names)
	if all := exprTypes(t); !slices.Equal(names, all) {
		t.Fatalf("the expression types of the table are %v, the package's %v", names, all)
	}
	for _, e := range kinds {
		inside := setExprs(reflect.ValueOf(e).Elem())
		var seen []Expr
		Inspect(e, func(x Expr) { seen = append(seen, x) })
		if len(seen) != 1+len(inside) || seen[0] != e {
			t.Errorf("%T: Inspect visits %d expressions, want it and the %d inside it", e, len(seen), len(inside))
			continue
		}
		if !slices.Equal(seen[1:], inside) {
			t.Errorf("%T: Inspect does not visit the expressions inside it in field order", e)
		}
	}
}

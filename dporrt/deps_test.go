package dporrt

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgo checks the runtime's dependency contract: dporrt depends on lang
// and the IC model, never on the solver binding or cgo.
func TestNoCgo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "runtime/cgo" || strings.HasSuffix(dep, "/internal/z3") || strings.HasSuffix(dep, "/encode") || strings.HasSuffix(dep, "/allsat") {
			t.Errorf("dporrt depends on %s", dep)
		}
	}
}

// TestNoAlgorithmFlags checks that the explorer is assembled from parts:
// outside algo.go (the registry and assemble) no code reads a row of the
// registry, and only explore reads the algorithm's name, to look its row
// up. A loop that tested Observers or Check would make the next algorithm
// a change to every loop instead of a row and its own parts.
func TestNoAlgorithmFlags(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]bool{"Loop": true, "Check": true, "Observers": true, "NeedsICs": true, "AtMost": true, "Parallel": true}
	for name, f := range pkgs["dporrt"].Files {
		if name == "algo.go" {
			continue
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				sel, ok2 := n.(*ast.SelectorExpr)
				if !ok2 {
					return true
				}
				if row[sel.Sel.Name] || sel.Sel.Name == "Algo" && !(ok && fn.Recv == nil && fn.Name.Name == "explore") {
					t.Errorf("%s: reads %s of the algorithm outside algo.go", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	}
}

package icgen_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers lists, for every package of the module, the packages of the
// module its code may import (its tests may import more). The pipeline
// runs one way, lang <- ts <- encode <- allsat <- synth, with ic (the
// IC file model) beside it; the runtime (interp, the interpreter, and
// dporrt, the explorers over it) imports lang and ic only, so it builds
// without cgo; audit and the command tree sit on top. A new package
// gets a row here, which says where it stands.
var layers = map[string][]string{
	"lang":   {},
	"ts":     {"lang"},
	"ic":     {"lang"},
	"encode": {"lang", "ts", "ic"},
	"allsat": {"lang", "ts", "encode", "ic", "internal/smt", "internal/z3"},
	"synth":  {"lang", "ts", "encode", "allsat", "ic"},
	"interp": {"lang", "ic"},
	"dporrt": {"lang", "ic", "interp"},
	"audit":  {"lang", "ts", "encode", "allsat", "ic", "synth", "dporrt", "interp", "internal/smt", "internal/z3"},
	// gofront lowers Go packages to the IR: a front end beside lang's.
	"gofront":      {"lang", "ic"},
	"internal/cli": {"lang", "ts", "encode", "allsat", "synth", "ic", "interp", "dporrt", "audit", "gofront", "internal/gctune"},
	"cmd/icgen":    {"internal/cli", "internal/gctune"},
	// The ground floor of internal: no package of the module.
	"internal/z3": {},
	// The solver layer: sessions with limits over the binding.
	"internal/smt":      {"internal/z3"},
	"internal/gctune":   {},
	"internal/golden":   {},
	"internal/testsize": {},
	"internal/progen":   {},
	"internal/gogen":    {},
	// Test helpers.
	"internal/testprog":  {"lang"},
	"internal/trunctest": {"lang", "internal/z3"},
	// Packages of tests alone: the module's root (this file, the
	// pipeline's example) and scripts.
	"":        {},
	"scripts": {},
	// The Go programs icgen audits (examples/go/...): inputs, not parts.
	"examples": {},
}

// TestLayers checks every package's imports against layers, naming the
// package and each import its row does not allow.
func TestLayers(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "./...")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const module = "github.com/icgen/icgen"
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for {
		var pkg struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&pkg); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
		name := strings.TrimPrefix(strings.TrimPrefix(pkg.ImportPath, module), "/")
		row := name
		if strings.HasPrefix(name, "examples/") {
			row = "examples"
		}
		allowed, ok := layers[row]
		if !ok {
			t.Errorf("package %s has no row in layers (layers_test.go): add one with the module's packages it may import", pkg.ImportPath)
			continue
		}
		for _, imp := range pkg.Imports {
			own, ok := strings.CutPrefix(imp, module+"/")
			if ok && !slices.Contains(allowed, own) {
				t.Errorf("package %s imports %s, which its row in layers does not allow (it may import: %s)", pkg.ImportPath, imp, strings.Join(allowed, ", "))
			}
		}
	}
	if seen < 10 {
		t.Errorf("go list found %d packages", seen)
	}
}

package dporrt

import (
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

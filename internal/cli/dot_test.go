package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExploreDot: the tree of cdpor on Fig. 1, over the paper's
// mathematical integers (--assume-no-overflow), is the paper's Example 5
// (p.q.r complete and q.r sleep-set blocked) and p.r, sleep-set blocked
// too: 7 states, root included. The race of q and r after p is not taken
// as uniform, because p, which may be ordered after r, writes the x that
// a constraint of I(q, r) reads (see dporrt's floatingWrites).
func TestExploreDot(t *testing.T) {
	t.Parallel()
	out, stderr, code := icgen("explore", "--algo", "cdpor", "--assume-no-overflow", "--dot", "-", "../../testdata/fig1.blk")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	nodes := regexp.MustCompile(`(?m)^  n\d+ \[label=`).FindAllString(out, -1)
	if len(nodes) != 7 || strings.Count(out, "doublecircle") != 1 || strings.Count(out, "sleep-set blocked") != 2 {
		t.Errorf("want 7 states, 1 complete, 2 blocked:\n%s", out)
	}
	for _, edge := range []string{`n0 -> n1 [label="p#1"]`, `n1 -> n2 [label="q#2"]`, `n2 -> n3 [label="r#3"]`, `n1 -> n4 [label="r#3"]`, `n0 -> n5 [label="q#2"]`, `n5 -> n6 [label="r#3"]`} {
		if !strings.Contains(out, edge) {
			t.Errorf("no edge %s:\n%s", edge, out)
		}
	}
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("Graphviz is not installed: --svg not tested")
	}
	svg := filepath.Join(t.TempDir(), "fig1.svg")
	if _, stderr, code := icgen("explore", "--algo", "cdpor", "--svg", svg, "../../testdata/fig1.blk"); code != ExitOK {
		t.Fatalf("--svg: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(svg)
	if err != nil || !strings.Contains(string(data), "<svg") || strings.Count(string(data), `class="node"`) < 6 {
		t.Errorf("--svg wrote %d bytes (%v)", len(data), err)
	}
}

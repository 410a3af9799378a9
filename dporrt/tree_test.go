package dporrt

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// TestTree checks the recorded tree against the counts of the exploration
// it records: one node per executed event plus the root, one complete leaf
// per complete trace, one blocked leaf per sleep-set-blocked trace, and the
// processes left at a node (asleep or pruned) are not explored from it.
func TestTree(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	small := map[string]map[string]int64{"fib.blk": {"N": 3}, "prodcons.blk": {"ITEMS": 1, "SIZE": 1}}
	for _, file := range append(files, "../testdata/regress/guard-error.blk") {
		m, err := interp.New(testprog.File(t, file), small[filepath.Base(file)])
		if err != nil {
			t.Fatal(err)
		}
		for _, algo := range []Algorithm{DFS, SDPOR} {
			for _, dep := range []DepMode{Locals, Static} {
				tree := &Tree{MaxNodes: 1 << 20}
				r, err := Explore(context.Background(), m, Options{Algo: algo, Dep: dep, Tree: tree, MaxStates: 200000})
				if err != nil {
					t.Fatal(err)
				}
				if r.Cut {
					continue
				}
				kinds := map[NodeKind]int{}
				children := map[int]map[string]bool{}
				for i, n := range tree.Nodes {
					kinds[n.Kind]++
					if i == 0 {
						if n.Parent != -1 {
							t.Errorf("%s: the root has parent %d", file, n.Parent)
						}
						continue
					}
					if n.Parent < 0 || n.Parent >= i {
						t.Fatalf("%s: node %d has parent %d", file, i, n.Parent)
					}
					if children[n.Parent] == nil {
						children[n.Parent] = map[string]bool{}
					}
					children[n.Parent][n.Step.Name] = true
				}
				name := filepath.Base(file) + " " + string(algo) + " " + dep.String()
				if len(tree.Nodes) != r.States+1 || kinds[NodeComplete]+kinds[NodeError] != r.Traces || kinds[NodeBlocked] != r.Blocked {
					t.Errorf("%s: %d nodes, %d complete, %d error, %d blocked; the exploration had %d states, %d traces, %d blocked",
						name, len(tree.Nodes), kinds[NodeComplete], kinds[NodeError], kinds[NodeBlocked], r.States, r.Traces, r.Blocked)
				}
				for i, n := range tree.Nodes {
					for _, p := range append(append([]string{}, n.Asleep...), n.Pruned...) {
						if children[i][p] {
							t.Errorf("%s: node %d lists %s as not explored, but it has a child by it", name, i, p)
						}
					}
					if algo == DFS && (len(n.Asleep) > 0 || len(n.Pruned) > 0) {
						t.Errorf("%s: dfs left %v %v at node %d", name, n.Asleep, n.Pruned, i)
					}
				}
			}
		}
	}
	// Recording stops at MaxNodes.
	m, _ := interp.New(testprog.File(t, "../testdata/mix.blk"), nil)
	tree := &Tree{MaxNodes: 10}
	Explore(context.Background(), m, Options{Algo: DFS, Tree: tree})
	if len(tree.Nodes) != 10 || !tree.Truncated {
		t.Errorf("MaxNodes 10: %d nodes, truncated %v", len(tree.Nodes), tree.Truncated)
	}
}

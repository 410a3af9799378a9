package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/golden"
)

// TestProgramsIR lowers every example program in ../testdata and compares
// its IR with the golden file testdata/ir/NAME.ir (go test -update rewrites
// them).
func TestProgramsIR(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.blk")
	if len(files) == 0 {
		t.Fatal("no programs in ../testdata")
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ir := compileIR(t, name, src)
			golden.File(t, filepath.Join("testdata", "ir", strings.TrimSuffix(name, ".blk")+".ir"), ir)
		})
	}
}

// TestLoweringCases runs the txtar cases in testdata/ir: each holds an
// input.blk and its expected IR in an "ir" section.
func TestLoweringCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/ir/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases in testdata/ir")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar := golden.Open(t, file)
			src := ar.Get("input.blk")
			if src == nil {
				t.Fatal("no input.blk section")
			}
			ar.Check(t, "ir", compileIR(t, "input.blk", src))
		})
	}
}

// compileIR compiles a program that must be valid, checks the invariants of
// its IR, and returns the printed IR. Compiling twice must print the same.
func compileIR(t *testing.T, name string, src []byte) string {
	t.Helper()
	p, errs := Compile(name, src)
	if errs != nil {
		t.Fatalf("unexpected errors:\n%s", errs.Format(src))
	}
	sanity(t, p)
	ir := FormatIR(p)
	if p2, _ := Compile(name, src); FormatIR(p2) != ir {
		t.Errorf("two compilations print different IR")
	}
	// The block summary printer and the block lines of the IR agree.
	var lines []string
	for _, l := range strings.Split(ir, "\n") {
		if strings.HasPrefix(l, "  block ") {
			lines = append(lines, strings.TrimPrefix(l, "  ")+"\n")
		}
	}
	if got, want := FormatBlocks(p), strings.Join(lines, ""); got != want {
		t.Errorf("FormatBlocks:\n%s\ndiffers from the IR's block lines:\n%s", got, want)
	}
	return ir
}

// sanity fails the test when the program breaks an invariant of the IR.
func sanity(t testing.TB, p *Program) {
	t.Helper()
	if err := checkIR(p); err != nil {
		t.Error(err)
	}
}

// checkIR checks the invariants of a lowered program, in the manner of
// go/ssa's sanity checker: every later stage relies on them.
func checkIR(p *Program) error {
	for i, g := range p.Globals {
		if g.Kind != Global || g.Index != i {
			return fmt.Errorf("global %s: kind %v index %d at %d", g.Name, g.Kind, g.Index, i)
		}
	}
	body := func(what string, locals []*Var, nodes []*Node) error {
		for i, v := range locals {
			if v.Kind != Local || v.Index != i {
				return fmt.Errorf("%s: local %s has kind %v slot %d at %d", what, v.Name, v.Kind, v.Index, i)
			}
		}
		for i, n := range nodes {
			if n.ID != i {
				return fmt.Errorf("%s: node %d has id %d", what, i, n.ID)
			}
			for _, s := range []int{n.Next, n.Else} {
				if s != End && (s < 0 || s >= len(nodes)) {
					return fmt.Errorf("%s: node %d has successor %d of %d", what, i, s, len(nodes))
				}
			}
			if n.Kind != NodeBranch && n.Else != End {
				return fmt.Errorf("%s: %s node %d has an else successor", what, n.Kind, i)
			}
			if n.Kind == NodeReturn && n.Next != End {
				return fmt.Errorf("%s: return node %d has a successor", what, i)
			}
			if (n.Kind == NodePoint) != (n.Point != nil) {
				return fmt.Errorf("%s: %s node %d and its point disagree", what, n.Kind, i)
			}
			if l := n.Loop; l != nil {
				if n.Kind != NodeBranch || l.Header != i {
					return fmt.Errorf("%s: loop of node %d has header %d", what, i, l.Header)
				}
				for k, id := range l.Body {
					if id <= i || id >= len(nodes) || k > 0 && l.Body[k-1] >= id {
						return fmt.Errorf("%s: loop %d has body %v", what, i, l.Body)
					}
				}
				if l.Exit != End && (l.Exit < 0 || l.Exit >= len(nodes)) {
					return fmt.Errorf("%s: loop %d exits to %d", what, i, l.Exit)
				}
			}
		}
		return nil
	}
	for _, f := range p.Funcs {
		if err := body("func "+f.Name, f.Locals, f.Nodes); err != nil {
			return err
		}
		for _, n := range f.Nodes {
			if n.Kind == NodePoint || n.Kind == NodeSpawn {
				return fmt.Errorf("func %s: %s node %d", f.Name, n.Kind, n.ID)
			}
		}
	}
	if p.Init == nil {
		return fmt.Errorf("no init")
	}
	if err := body("init", p.Init.Locals, p.Init.Nodes); err != nil {
		return err
	}
	for _, n := range p.Init.Nodes {
		if n.Kind == NodePoint || n.Kind == NodeReturn {
			return fmt.Errorf("init: %s node %d", n.Kind, n.ID)
		}
	}

	ids := map[string]bool{}
	k := 0
	for pi, pr := range p.Procs {
		what := "proc " + pr.Name
		if pr.Index != pi || p.Proc(pr.Name) != pr {
			return fmt.Errorf("%s: index %d at %d", what, pr.Index, pi)
		}
		if err := body(what, pr.Locals, pr.Nodes); err != nil {
			return err
		}
		if len(pr.Points) == 0 || pr.Points[0].Kind != Entry || pr.Nodes[0].Point != pr.Points[0] {
			return fmt.Errorf("%s does not start with its entry point", what)
		}
		npoints := 0
		for _, n := range pr.Nodes {
			if n.Kind == NodePoint {
				npoints++
			}
		}
		if npoints != len(pr.Points) || len(pr.Blocks) != len(pr.Points) {
			return fmt.Errorf("%s: %d point nodes, %d points, %d blocks", what, npoints, len(pr.Points), len(pr.Blocks))
		}
		for i, pt := range pr.Points {
			if pt.Index != i || pt.Block == nil || pt.Block.Point != pt || pr.Nodes[pt.Node].Point != pt || pr.Blocks[i] != pt.Block {
				return fmt.Errorf("%s: point %d is inconsistent", what, i)
			}
			if (pt.Kind == Await) != (pt.Guard != nil) || (pt.Kind == Entry) != (i == 0) {
				return fmt.Errorf("%s: point %d of kind %s", what, i, pt.Kind)
			}
			for _, v := range pt.Live {
				if v.Kind != Local || v.Index >= len(pr.Locals) || pr.Locals[v.Index] != v {
					return fmt.Errorf("%s: point %d: live %s is not a local of the proc", what, i, v.Name)
				}
			}
			if err := sortedVars(pt.Live); err != nil {
				return fmt.Errorf("%s: point %d: live %v", what, i, err)
			}
		}
		for _, b := range pr.Blocks {
			if k >= len(p.Blocks) || p.Blocks[k] != b || b.Index != k {
				return fmt.Errorf("block %s: not at index %d of Program.Blocks", b.ID, k)
			}
			k++
			if ids[b.ID] {
				return fmt.Errorf("block id %s twice", b.ID)
			}
			ids[b.ID] = true
			if p.Block(b.ID) != b || b.Proc != pr {
				return fmt.Errorf("block %s: lookup or proc is wrong", b.ID)
			}
			in := map[int]bool{}
			for j, id := range b.Nodes {
				if id < 0 || id >= len(pr.Nodes) || j > 0 && b.Nodes[j-1] >= id {
					return fmt.Errorf("block %s: nodes %v not sorted or out of range", b.ID, b.Nodes)
				}
				in[id] = true
				// A block holds exactly one point: its own.
				if n := pr.Nodes[id]; n.Kind == NodePoint && n.Point != b.Point {
					return fmt.Errorf("block %s holds the point of node %d", b.ID, id)
				}
			}
			if !in[b.Point.Node] {
				return fmt.Errorf("block %s lacks its point node %d", b.ID, b.Point.Node)
			}
			// The region is closed under successors that are not points.
			for id := range in {
				for _, s := range pr.Nodes[id].Successors() {
					if pr.Nodes[s].Kind != NodePoint && !in[s] {
						return fmt.Errorf("block %s: node %d leads to %d outside the block", b.ID, id, s)
					}
				}
			}
			for j, n := range b.Next {
				if n.Proc != b.Proc {
					return fmt.Errorf("block %s continues into %s of another proc", b.ID, n.ID)
				}
				if j > 0 && b.Next[j-1].Index >= n.Index {
					return fmt.Errorf("block %s: next blocks not in order", b.ID)
				}
			}
			for _, l := range b.Loops {
				if l.Points || !in[l.Header] {
					return fmt.Errorf("block %s: loop at %d is not inside it", b.ID, l.Header)
				}
				for _, id := range l.Body {
					if !in[id] {
						return fmt.Errorf("block %s: loop at %d has body node %d outside", b.ID, l.Header, id)
					}
				}
			}
			for _, set := range [][]*Var{b.Reads, b.Writes} {
				if err := sortedVars(set); err != nil {
					return fmt.Errorf("block %s: %v", b.ID, err)
				}
				for _, v := range set {
					if v.Kind == Global && (v.Index >= len(p.Globals) || p.Globals[v.Index] != v) ||
						v.Kind == Local && (v.Index >= len(pr.Locals) || pr.Locals[v.Index] != v) {
						return fmt.Errorf("block %s: %s is neither a global nor a local of %s", b.ID, v.Name, pr.Name)
					}
				}
			}
		}
	}
	if k != len(p.Blocks) {
		return fmt.Errorf("Program.Blocks has %d blocks, the procs %d", len(p.Blocks), k)
	}
	return nil
}

// sortedVars checks that a set is sorted by (kind, index) without repeats.
func sortedVars(set []*Var) error {
	for k := 1; k < len(set); k++ {
		a, c := set[k-1], set[k]
		if a.Kind > c.Kind || a.Kind == c.Kind && a.Index >= c.Index {
			return fmt.Errorf("set %s not sorted", VarSetText(set))
		}
	}
	return nil
}

// TestProgramGlobal: Global finds each global by name, also after a
// rename (package gofront renames globals after Compile), and nothing
// under a name no global has.
func TestProgramGlobal(t *testing.T) {
	p, errs := Compile("g.blk", []byte("global int x, y;\nglobal int a[2];\nproc p() { x = y + a[0]; }\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	for _, g := range p.Globals {
		if p.Global(g.Name) != g {
			t.Errorf("Global(%q) is not it", g.Name)
		}
	}
	y := p.Global("y")
	y.Name = "c.y"
	if p.Global("c.y") != y || p.Global("y") != nil || p.Global("z") != nil {
		t.Errorf("after a rename: Global(c.y) = %v, Global(y) = %v, Global(z) = %v", p.Global("c.y"), p.Global("y"), p.Global("z"))
	}
}

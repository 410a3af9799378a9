package dporrt

import (
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// TestLocalSets checks the dynamic dependency's sets (localSets) of the
// last block of process p, spawned by init with the argument given: what
// its locals decide is left out or told apart, what the globals decide is
// not, and a run too long to follow gives the static sets.
func TestLocalSets(t *testing.T) {
	const decls = "global int x, y, z;\nglobal int a[4];\nglobal int big[100];\n"
	for _, tc := range []struct {
		name, body, arg string
		reads, writes   string
	}{
		{"branch on a param", "if (v > 0) { x = 1; } else { y = z; }", "1", "", "x"},
		{"the other way", "if (v > 0) { x = 1; } else { y = z; }", "0", "z", "y"},
		{"branch on a global", "if (x > 0) { y = 1; }", "1", "x", "y"},
		{"index from a local", "int i = v + 1; a[i] = z;", "1", "z", "a[2]"},
		{"index from a global", "a[x] = 1;", "1", "x", "a[0] a[1] a[2] a[3]"},
		{"local made from a global", "int t = x; if (t > 0) { y = 1; }", "0", "x", "y"},
		{"loop counted by a local", "int i = 0; while (i < v) { a[i] = 1; i = i + 1; }", "2", "", "a[0] a[1]"},
		{"loop on a global", "int i = 0; while (x > i) { i = i + 1; } y = 1;", "0", "x", "y"},
		{"&& decided by a param", "if (v > 0 && x > 0) { y = 1; }", "0", "", ""},
		{"&& not decided", "if (x > 0 && v > 0) { y = 1; }", "1", "x", "y"},
		{"division by zero", "if (v == 0) { x = 1 / v; } z = 1;", "0", "", ""},
		{"no division by zero", "if (v == 0) { x = 1 / v; } z = 1;", "1", "", "z"},
		{"index out of bounds", "a[v] = 1; y = 1;", "7", "", ""},
		{"a func's writes", "h(v);", "0", "", "y"},
		{"a func's other branch", "h(v);", "1", "", "x"},
		{"an await guard", "await(x > v); y = 1;", "0", "x", "y"},
		{"big arrays by cell", "big[v] = 1;", "3", "", "big[3]"},
		{"big arrays whole", "big[x] = 1;", "3", "x", "big[*]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := decls + "func h(int c) { if (c > 0) { x = 1; } else { y = 1; } }\n" +
				"proc p(int v) { " + tc.body + " }\ninit { spawn p(" + tc.arg + "); }\n"
			x, p := firstProcess(t, src)
			r, w := x.localSets(p.Proc.Blocks[len(p.Proc.Blocks)-1], p.Locals)
			names := func(locs []interp.Loc) string {
				var out []string
				for _, l := range locs {
					out = append(out, x.m.LocName(l))
				}
				return strings.Join(out, " ")
			}
			if got := names(r); got != tc.reads {
				t.Errorf("reads %q, want %q", got, tc.reads)
			}
			if got := names(w); got != tc.writes {
				t.Errorf("writes %q, want %q", got, tc.writes)
			}
		})
	}
}

// TestLocalSetsFallBack: a block whose abstract run does not end within
// maxLocalSteps (a loop whose counter keeps changing on a condition the
// run does not know) takes its static sets.
func TestLocalSetsFallBack(t *testing.T) {
	src := `global int x, y, z;
proc p(int v) { int i = 0; while (x > i) { i = i + 1; } if (v > 0) { y = 1; } else { z = 1; } }
init { spawn p(1); }`
	x, p := firstProcess(t, src)
	r, w := x.localSets(p.Point.Block, p.Locals)
	sr, sw := x.eventSets(p.Point.Block, p.Locals)
	if !slices.Equal(r, sr) || !slices.Equal(w, sw) {
		t.Errorf("sets %v %v, want the static ones %v %v", r, w, sr, sw)
	}
}

// firstProcess returns an explorer of program src under the dynamic
// dependency, at its initial state, and the first process init spawned.
func firstProcess(t *testing.T, src string) (*explorer, *interp.Process) {
	t.Helper()
	m, err := interp.New(testprog.Source(t, src), nil)
	if err != nil {
		t.Fatal(err)
	}
	x := newExplorer(m, Options{Dep: Locals})
	st, _ := m.Initial()
	x.st = st
	return x, st.Procs[0]
}

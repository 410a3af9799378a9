package synth

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/lang"
)

func constraintsOf(f *ic.File, a, b string) (texts []string, pr *ic.Pair) {
	pr, _ = f.Pair(a, b)
	if pr == nil {
		return nil, nil
	}
	for _, c := range pr.Constraints {
		texts = append(texts, c.Text)
	}
	return texts, pr
}

// TestPaperICs checks the ICs the CDPOR paper derives (Sec. 4.1, Example 5,
// Sec. 4.2 / Example 7), as sets of canonical texts.
func TestPaperICs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, a, b string
		want       []string
		status     ic.Status
	}{
		{"../testdata/fig1.blk", "p", "q", []string{"z <= -1"}, ic.Conditional},
		{"../testdata/fig1.blk", "p", "r", []string{"true"}, ic.Independent},
		{"../testdata/fig1.blk", "q", "r", []string{"x == z", "z <= -2", "z >= 0"}, ic.Conditional},
		{"../testdata/fib.blk", "res", "res", []string{"nr > 0", "v == v'"}, ic.Conditional},
		{"../testdata/fib.blk", "fib", "res", []string{"true"}, ic.Independent},
		{"../testdata/fib.blk", "fib", "fib", []string{"true"}, ic.Independent},
	}
	for _, tc := range cases {
		got, pr := constraintsOf(synthesized(t, tc.file), tc.a, tc.b)
		if pr == nil {
			t.Fatalf("%s: no pair (%s, %s)", tc.file, tc.a, tc.b)
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") || pr.Status != tc.status || !pr.Exact {
			t.Errorf("I(%s, %s) = %v [%s, exact %v], want %v [%s, exact]", tc.a, tc.b, got, pr.Status, pr.Exact, tc.want, tc.status)
		}
	}
	if w := synthesized(t, "../testdata/fig1.blk").Block("p").W; strings.Join(w, ",") != "x" {
		t.Errorf("W(p) = %v, want {x}", w)
	}
}

// TestDeterministic: same program and options, byte-identical file,
// whatever the worker count. Each solver check has a minute: with the
// default 2 s, a check of features.blk's covers (x / 2 >= 0 or x >= 0)
// runs out on a loaded machine, and the file then depends on the load,
// not on the workers.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	p := testprog.File(t, "../testdata/features.blk")
	var outs [][]byte
	for _, j := range []int{1, 2, 3} {
		f, _, err := Run(context.Background(), p, Options{Workers: j, CheckTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		data, err := ic.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, data)
	}
	for i := 1; i < len(outs); i++ {
		if !bytes.Equal(outs[0], outs[i]) {
			t.Errorf("output with %d workers differs from 1 worker", i+1)
		}
	}
	if _, err := ic.Parse(outs[0]); err != nil {
		t.Errorf("the file does not parse back: %v", err)
	}
}

// TestUnknown: what cannot be decided or modeled yields unknown pairs with a
// reason, never an error or an unproven constraint. A busy machine cannot
// change its answers: the non-linear pair is unknown at any speed, its
// reason says "timeout" whether the check or the pair ran out, and the
// path limit is counted, not timed.
func TestUnknown(t *testing.T) {
	t.Parallel()
	ifs := strings.Repeat("if (x > 0) { y = y + 1; } else { y = y - 1; }\n", 13)
	cases := []struct {
		name, src, a, b, reason string
		enc                     encode.Encoding
	}{
		// Commutes exactly where x^3 + y^3 == z^3 with x, y, z > 1, which
		// never holds; the solver cannot show that within its budget.
		{"non-linear", `global int x, y, z, w;
proc a() { if (x*x*x + y*y*y == z*z*z && x > 1 && y > 1 && z > 1) { w = 0; } else { w = 1; } }
proc b() { w = 0; }`, "a", "b", "timeout", encode.Merged},
		// The path encoding's limit (the merged encoding has no such limit).
		{"too many paths", "global int x, y;\nproc a() {\n" + ifs + "}\nproc b() { x = 1; }", "a", "b", "more than 4096 paths", encode.Paths},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, errs := lang.Compile("u.blk", []byte(tc.src))
			if errs != nil {
				t.Fatal(errs)
			}
			f, _, err := Run(context.Background(), p, Options{Timeout: 5 * time.Second, CheckTimeout: 300 * time.Millisecond, Encoding: tc.enc})
			if err != nil {
				t.Fatal(err)
			}
			_, pr := constraintsOf(f, tc.a, tc.b)
			if pr.Status != ic.Unknown || pr.Exact || !strings.Contains(pr.Reason, tc.reason) {
				t.Errorf("I(%s, %s): status %s, exact %v, reason %q; want unknown with %q", tc.a, tc.b, pr.Status, pr.Exact, pr.Reason, tc.reason)
			}
		})
	}
}

// TestFunctionsTable: every function a synthesized file declares is in
// Functions(p), entry for entry (check and explore hold a file's functions
// table to Functions): loops of procs and of funcs, two on one line, one
// that spawns, locals that share a name.
func TestFunctionsTable(t *testing.T) {
	t.Parallel()
	progs := map[string]*lang.Program{}
	for _, file := range []string{"../testdata/arrays.blk", "../testdata/features.blk", "../testdata/regress/loops-one-line.blk",
		"../testdata/regress/unrolled-loops.blk", "../testdata/regress/loop-entry-moved.blk"} {
		progs[file] = testprog.File(t, file)
	}
	for name, src := range map[string]string{
		"func loop": `global int x = 1, y = 0;
func int lim(int n) { int k = 0; while (k < n) { k = k + x; } return k; }
proc p(int n) { y = lim(n); }
proc q() { x = x + 1; }
init { spawn p(3); spawn q(); }`,
		"spawning loop": `global int x = 0;
proc w() { x = x + 1; }
proc p(int n) { int i = 0; while (i < n) { spawn w(); i = i + 1; } }
init { spawn p(2); spawn w(); }`,
		"shared names": `global int x = 2, y = 0;
proc p() { if (x > 0) { int v = x; while (v > 0) { v = v - 1; y = y + 1; } } else { int v = 0; while (v < y) { v = v + 1; x = x + 1; } } }
proc q() { y = 5; }
init { spawn p(); spawn q(); }`,
	} {
		progs[name] = testprog.Source(t, src)
	}
	for name, p := range progs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, _, err := Run(context.Background(), p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Functions) == 0 {
				t.Fatal("the file declares no function: the case tests nothing")
			}
			want := map[string]ic.Function{}
			for _, fn := range Functions(p) {
				want[fn.Name] = fn
			}
			for _, fn := range f.Functions {
				if w, ok := want[fn.Name]; !ok || !reflect.DeepEqual(fn, w) {
					t.Errorf("the file declares %+v, Functions has %+v", fn, w)
				}
			}
		})
	}
}

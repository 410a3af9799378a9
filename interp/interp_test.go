package interp

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
)

// newMachine compiles src and instantiates it with the -D values in set.
func newMachine(t testing.TB, src string, set map[string]int64) *Machine {
	t.Helper()
	m, err := New(testprog.Source(t, src), set)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

// globals renders every location of the store by name ("x", "a[2]").
func globals(st *State) map[string]int64 {
	m := st.Machine()
	out := make(map[string]int64, m.Locs())
	for l := 0; l < m.Locs(); l++ {
		out[m.LocName(Loc(l))] = st.Value(Loc(l))
	}
	return out
}

// violationTexts renders violations with Violation.String.
func violationTexts(vs []Violation) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, v.String())
	}
	return out
}

// procNames returns the names (proc#id) of all processes of st, finished
// ones included, ordered by id.
func procNames(st *State) []string {
	ps := slices.Clone(st.Procs)
	slices.SortFunc(ps, func(a, b *Process) int { return a.ID.Compare(b.ID) })
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Name())
	}
	return out
}

// intProg assigns expr to the global r in the single block of p#1; expr
// starts at line 2, column 16.
func intProg(expr string) string {
	return "global int r;\nproc p() { r = " + expr + "; }\ninit { spawn p(); }\n"
}

// boolProg assigns expr to the bool global b; z is an int global (0 unless
// set). expr starts at line 3, column 16.
func boolProg(expr string) string {
	return "global int z;\nglobal bool b;\nproc p() { b = " + expr + "; }\ninit { spawn p(); }\n"
}

const minInt = "(-9223372036854775807 - 1)" // math.MinInt64, which has no literal

// Programs shared by several cases.
const (
	idxReadSrc = `global int a[3] = {10, 20, 30}, i, r;
proc p() { r = a[i]; }
init { spawn p(); }
`
	idxWriteSrc = `global int a[3] = {10, 20, 30}, i;
proc p() { a[i] = 5; }
init { spawn p(); }
`
	negSrc = `global int x, r;
proc p() { r = -x; }
init { spawn p(); }
`
	arraySrc = `param N = 3;
global int a[N] = 7, b[4] = {1, 2, 3, 4}, n;
proc p() { int i; while (i < N) { a[i] = a[i] + b[i % 4] * i; i = i + 1; } n = N; }
init { spawn p(); }
`
	fig1Src = `global int x = -2, z = -2;
proc p() { x = x + 1; }
proc q() { if (z >= 0) { z = x; } }
proc r() { x = x + 1; z = z + 1; }
init { spawn p(); spawn q(); spawn r(); }
`
)

// TestSemantics runs small programs with the First policy and checks the
// final globals, the violations and the runtime error (full text: position,
// message, process and block).
func TestSemantics(t *testing.T) {
	t.Parallel()
	type semCase struct {
		name     string
		src      string
		set      map[string]int64
		maxSteps int
		want     map[string]int64 // final values of these locations
		err      string           // RuntimeError.Error(), "" for none
		viols    []string         // Violation.String() of each violation, in order
	}
	perr := func(at, msg string) string { // an error in the block of p#1
		return "test.blk:" + at + ": runtime error: " + msg + " (p#1 in block p)"
	}
	cases := []semCase{
		// Division truncates toward zero; % has the sign of the dividend.
		{name: "div/pos-pos", src: intProg("7 / 2"), want: map[string]int64{"r": 3}},
		{name: "mod/pos-pos", src: intProg("7 % 2"), want: map[string]int64{"r": 1}},
		{name: "div/neg-pos", src: intProg("-7 / 2"), want: map[string]int64{"r": -3}},
		{name: "mod/neg-pos", src: intProg("-7 % 2"), want: map[string]int64{"r": -1}},
		{name: "div/pos-neg", src: intProg("7 / -2"), want: map[string]int64{"r": -3}},
		{name: "mod/pos-neg", src: intProg("7 % -2"), want: map[string]int64{"r": 1}},
		{name: "div/neg-neg", src: intProg("-7 / -2"), want: map[string]int64{"r": 3}},
		{name: "mod/neg-neg", src: intProg("-7 % -2"), want: map[string]int64{"r": -1}},
		{name: "div/exact", src: intProg("-8 / 2"), want: map[string]int64{"r": -4}},
		{name: "mod/dividend-zero", src: intProg("0 % -5"), want: map[string]int64{"r": 0}},
		{name: "div/identity", src: intProg("(-7 / 2) * 2 + -7 % 2"), want: map[string]int64{"r": -7}},
		{name: "div/by-zero", src: intProg("7 / 0"), err: perr("2:18", "division by zero in 7 / 0")},
		{name: "mod/by-zero", src: intProg("7 % 0"), err: perr("2:18", "division by zero in 7 % 0")},
		{name: "div/by-zero-global", src: "global int r, z;\nproc p() { r = 1 + 5 / z; }\ninit { spawn p(); }\n",
			err: perr("2:22", "division by zero in 5 / 0")},
		{name: "div/by-zero-after-write", src: "global int r = 4, z;\nproc p() { r = 1; r = r / z; }\ninit { spawn p(); }\n",
			err: perr("2:25", "division by zero in 1 / 0")},
		{name: "div/min-by-minus-one", src: intProg(minInt + " / -1"),
			err: perr("2:43", "integer overflow in -9223372036854775808 / -1")},
		{name: "mod/min-by-minus-one", src: intProg(minInt + " % -1"), want: map[string]int64{"r": 0}},
		{name: "div/min-by-one", src: intProg(minInt + " / 1"), want: map[string]int64{"r": math.MinInt64}},
		{name: "div/min-by-minus-two", src: intProg(minInt + " / -2"), want: map[string]int64{"r": 1 << 62}},

		// Overflow of unary minus and of + - * near the limits.
		{name: "neg/min-literal", src: intProg("-" + minInt),
			err: perr("2:16", "integer overflow in -(-9223372036854775808)")},
		{name: "neg/min-global", src: negSrc, set: map[string]int64{"x": math.MinInt64},
			err: perr("2:16", "integer overflow in -(-9223372036854775808)")},
		{name: "neg/max-global", src: negSrc, set: map[string]int64{"x": math.MaxInt64}, want: map[string]int64{"r": -math.MaxInt64}},
		{name: "add/max", src: intProg("9223372036854775806 + 1"), want: map[string]int64{"r": math.MaxInt64}},
		{name: "add/overflow", src: intProg("9223372036854775807 + 1"),
			err: perr("2:36", "integer overflow in 9223372036854775807 + 1")},
		{name: "add/min", src: intProg("-9223372036854775807 + -1"), want: map[string]int64{"r": math.MinInt64}},
		{name: "add/underflow", src: intProg("-9223372036854775807 + -2"),
			err: perr("2:37", "integer overflow in -9223372036854775807 + -2")},
		{name: "add/max-plus-min", src: intProg("9223372036854775807 + " + minInt), want: map[string]int64{"r": -1}},
		{name: "sub/min", src: intProg("-9223372036854775807 - 1"), want: map[string]int64{"r": math.MinInt64}},
		{name: "sub/underflow", src: intProg("-9223372036854775807 - 2"),
			err: perr("2:37", "integer overflow in -9223372036854775807 - 2")},
		{name: "sub/overflow", src: intProg("9223372036854775807 - -1"),
			err: perr("2:36", "integer overflow in 9223372036854775807 - -1")},
		{name: "sub/zero-minus-min", src: intProg("0 - " + minInt),
			err: perr("2:18", "integer overflow in 0 - -9223372036854775808")},
		{name: "sub/minus-one-minus-min", src: intProg("-1 - " + minInt), want: map[string]int64{"r": math.MaxInt64}},
		{name: "mul/fits", src: intProg("3037000499 * 3037000499"), want: map[string]int64{"r": 9223372030926249001}},
		{name: "mul/overflow", src: intProg("3037000500 * 3037000500"),
			err: perr("2:27", "integer overflow in 3037000500 * 3037000500")},
		{name: "mul/overflow-pow2", src: intProg("4611686018427387904 * 2"),
			err: perr("2:36", "integer overflow in 4611686018427387904 * 2")},
		{name: "mul/min", src: intProg("-4611686018427387904 * 2"), want: map[string]int64{"r": math.MinInt64}},
		{name: "mul/min-by-minus-one", src: intProg(minInt + " * -1"),
			err: perr("2:43", "integer overflow in -9223372036854775808 * -1")},
		{name: "mul/minus-one-by-min", src: intProg("-1 * " + minInt),
			err: perr("2:19", "integer overflow in -1 * -9223372036854775808")},
		{name: "mul/zero-by-min", src: intProg("0 * " + minInt), want: map[string]int64{"r": 0}},

		// Short-circuit: the right side is not evaluated when the left decides.
		{name: "and/short", src: boolProg("false && 1 / z == 0"), want: map[string]int64{"b": 0}},
		{name: "or/short", src: boolProg("true || 1 / z == 0"), want: map[string]int64{"b": 1}},
		{name: "and/guarded-division", src: boolProg("z != 0 && 10 / z > 1"), want: map[string]int64{"b": 0}},
		{name: "and/evaluates-right", src: boolProg("true && 1 / z == 0"),
			err: "test.blk:3:26: runtime error: division by zero in 1 / 0 (p#1 in block p)"},
		{name: "or/evaluates-right", src: boolProg("false || 1 / z == 0"),
			err: "test.blk:3:27: runtime error: division by zero in 1 / 0 (p#1 in block p)"},
		{name: "not", src: boolProg("!(z == 0) || !false"), want: map[string]int64{"b": 1}},

		// Index out of bounds, read and write, negative and >= size.
		{name: "index/read-last", src: idxReadSrc, set: map[string]int64{"i": 2}, want: map[string]int64{"r": 30}},
		{name: "index/read-size", src: idxReadSrc, set: map[string]int64{"i": 3},
			err: perr("2:16", "index 3 out of bounds for array a of size 3")},
		{name: "index/read-negative", src: idxReadSrc, set: map[string]int64{"i": -1},
			err: perr("2:16", "index -1 out of bounds for array a of size 3")},
		{name: "index/write-first", src: idxWriteSrc, want: map[string]int64{"a[0]": 5, "a[1]": 20, "a[2]": 30}},
		{name: "index/write-size", src: idxWriteSrc, set: map[string]int64{"i": 3},
			err: perr("2:12", "index 3 out of bounds for array a of size 3")},
		{name: "index/write-negative", src: idxWriteSrc, set: map[string]int64{"i": -7},
			err: perr("2:12", "index -7 out of bounds for array a of size 3")},
		{name: "index/in-init", src: "global int a[2];\ninit { a[2] = 1; }\n",
			err: "test.blk:2:8: runtime error: index 2 out of bounds for array a of size 2 (init in block init)"},

		// Asserts record a violation and execution goes on.
		{name: "assert/fails-and-goes-on", src: `global int x = 1, y;
proc p() { assert(x == 0, "x is zero"); y = 5; }
init { spawn p(); }
`, want: map[string]int64{"y": 5}, viols: []string{"test.blk:2:12: assertion failed: x is zero (p#1 in block p)"}},
		{name: "assert/holds", src: `global int x = 1, y;
proc p() { assert(x == 1, "x is one"); y = 5; }
init { spawn p(); }
`, want: map[string]int64{"y": 5}},
		{name: "assert/later-block-no-message", src: `global int x = 1;
proc p() { yield; x = 2; assert(x == 1); }
init { spawn p(); }
`, want: map[string]int64{"x": 2}, viols: []string{"test.blk:2:26: assertion failed (p#1 in block p@2)"}},
		{name: "assert/labeled-block-twice", src: `global int x;
proc p() { again: yield; assert(x > 0, "a"); assert(x > 1, "b"); x = 7; }
init { spawn p(); }
`, want: map[string]int64{"x": 7}, viols: []string{
			"test.blk:2:26: assertion failed: a (p#1 in block p@again)",
			"test.blk:2:46: assertion failed: b (p#1 in block p@again)",
		}},
		{name: "assert/in-init", src: `global int x = 1, y;
init { assert(x == 2, "init check"); y = 3; }
`, want: map[string]int64{"y": 3}, viols: []string{"test.blk:2:8: assertion failed: init check (init in block init)"}},
		{name: "assert/in-func", src: `global int g;
func check(int v) { assert(v > 0, "positive"); g = g + v; }
proc p() { check(-1); check(2); }
init { spawn p(); }
`, want: map[string]int64{"g": 1}, viols: []string{"test.blk:2:21: assertion failed: positive (p#1 in block p)"}},
		{name: "assert/violation-then-error", src: `global int x, z;
proc p() { assert(x == 1, "m"); x = 1 / z; }
init { spawn p(); }
`, viols: []string{"test.blk:2:12: assertion failed: m (p#1 in block p)"},
			err: perr("2:39", "division by zero in 1 / 0")},

		// Funcs: params, locals, results, writes to globals, nested calls.
		{name: "func/calls", src: `global int g, h, r;
func int sq(int v) { int t = v * v; return t; }
func int sum2(int u, int w) { g = g + 1; return sq(u) + sq(w); }
func bump(int d) { h = h + d; }
proc p() { r = sum2(3, 4); bump(r); bump(2); }
init { spawn p(); }
`, want: map[string]int64{"g": 1, "h": 27, "r": 25}},
		{name: "func/locals-fresh-per-call", src: `global int r;
func int count() { int c; c = c + 1; return c; }
proc p() { r = count() + count() * 10; }
init { spawn p(); }
`, want: map[string]int64{"r": 11}},
		{name: "func/early-return-in-loop", src: `global int a[5] = {4, 8, 15, 16, 23}, r;
func int find(int v) { int i; while (i < 5) { if (a[i] == v) { return i; } i = i + 1; } return -1; }
proc p() { r = find(16) * 10 + find(99); }
init { spawn p(); }
`, want: map[string]int64{"r": 29}},
		{name: "func/bool-result-in-init", src: `global int r;
func bool even(int v) { return v % 2 == 0; }
init { if (even(4) && !even(3)) { r = 1; } }
`, want: map[string]int64{"r": 1}},
		{name: "func/empty-body", src: `global int r;
func nop() { }
proc p() { nop(); r = 1; }
init { spawn p(); }
`, want: map[string]int64{"r": 1}},
		{name: "init/empty", src: "global int r = 2;\ninit { }\n", want: map[string]int64{"r": 2}},
		{name: "func/error-inside", src: `global int r;
func int inv(int v) { return 100 / v; }
proc p() { r = inv(5) + inv(0); }
init { spawn p(); }
`, err: perr("2:34", "division by zero in 100 / 0")},

		// Locals start at 0 / false and a declaration re-initializes them.
		{name: "locals/reinit-in-loop", src: `global int s, n, f;
proc p() {
  int i;
  while (i < 3) {
    int k;
    bool seen;
    if (!seen) { f = f + 1; }
    k = k + i;
    s = s + k;
    seen = true;
    i = i + 1;
  }
  n = i;
}
init { spawn p(); }
`, want: map[string]int64{"s": 3, "n": 3, "f": 3}},
		{name: "locals/params-and-decl-init", src: `global int r;
proc p(int u, bool w) { int k = u * 2; if (w) { r = k + 1; } else { r = k - 1; } }
init { spawn p(20, true); }
`, want: map[string]int64{"r": 41}},
		{name: "while/nested-in-block", src: `global int r;
proc p() {
  int i;
  while (i < 4) {
    int j = i;
    while (j < 4) { r = r + 1; j = j + 1; }
    i = i + 1;
  }
}
init { spawn p(); }
`, want: map[string]int64{"r": 10}},

		// The step budget: per block outside in-block loops, per run of an
		// in-block loop (lang.MaxSteps).
		{name: "budget/endless-loop", src: `global int x;
proc p() { while (true) { x = x + 1; } }
init { spawn p(); }
`, maxSteps: 50, err: perr("2:12", "loop did not finish within 50 steps (an endless loop?)")},
		{name: "budget/endless-loop-in-func", src: `global int x;
func spin() { while (x >= 0) { x = x + 1; } }
proc p() { spin(); }
init { spawn p(); }
`, maxSteps: 41, err: perr("2:15", "loop did not finish within 41 steps (an endless loop?)")},
		{name: "budget/is-per-block", src: `global int x;
proc p() { while (x < 100) { x = x + 1; yield; } }
init { spawn p(); }
`, maxSteps: 10, want: map[string]int64{"x": 100}},
		// 8 steps before the loop and 2 after it, 13 in it (7 header tests,
		// 6 increments): the loop fits its own budget of 15 however many
		// steps the block ran before it.
		{name: "budget/is-per-loop-run", src: `global int x;
proc p() { int i = 0; x = 1; x = 2; x = 3; x = 4; x = 5; x = 6; x = 7; while (i < 6) { i = i + 1; } x = i; }
init { spawn p(); }
`, maxSteps: 15, want: map[string]int64{"x": 6}},
		{name: "budget/loop-one-step-over", src: `global int x;
proc p() { int i = 0; while (i < 7) { i = i + 1; } x = i; }
init { spawn p(); }
`, maxSteps: 14, err: perr("2:23", "loop did not finish within 14 steps (an endless loop?)")},
		// Nested loops and funcs called in a loop count against the
		// outermost loop's budget: 1 + 3 * (1 + 1 + 3 * 2 + 1 + 1) = 31.
		{name: "budget/nested-loops-share", src: `global int x;
func int one() { return 1; }
proc p() { int i = 0, j = 0; while (i < 3) { j = 0; while (j < 3) { j = j + one(); } i = i + 1; } x = i + j; }
init { spawn p(); }
`, maxSteps: 30, err: perr("3:30", "loop did not finish within 30 steps (an endless loop?)")},
		// A loop that holds a point but goes round without reaching it
		// runs on the block's budget.
		{name: "budget/point-loop-round", src: `global int x;
proc p() { while (true) { if (x > 100) { yield; } x = x + 1; } }
init { spawn p(); }
`, maxSteps: 50, err: perr("2:51", "block did not reach an interleaving point within 50 steps (an endless loop?)")},

		// Arrays: param size, -D override, list and fill initializers.
		{name: "array/default-size", src: arraySrc, want: map[string]int64{"a[0]": 7, "a[1]": 9, "a[2]": 13, "n": 3}},
		{name: "array/param-override", src: arraySrc, set: map[string]int64{"N": 5},
			want: map[string]int64{"a[0]": 7, "a[1]": 9, "a[2]": 13, "a[3]": 19, "a[4]": 11, "n": 5, "b[3]": 4}},
		{name: "array/fill-from-param", src: `param K = 4;
global int a[3] = K * 2 + 1;
`, set: map[string]int64{"K": 10}, want: map[string]int64{"a[0]": 21, "a[1]": 21, "a[2]": 21}},
		{name: "array/zero-by-default", src: "global int a[2];\n", want: map[string]int64{"a[0]": 0, "a[1]": 0}},

		// -D on global scalars sets their initial value before init runs.
		{name: "set/fig1-z", src: fig1Src, set: map[string]int64{"z": -1}, want: map[string]int64{"x": 0, "z": 0}},
		{name: "set/fig1-default", src: fig1Src, want: map[string]int64{"x": 0, "z": -1}},
		{name: "set/init-sees-override", src: "global int x = 1, y;\ninit { y = x * 10; }\n",
			set: map[string]int64{"x": 4}, want: map[string]int64{"x": 4, "y": 40}},
		{name: "set/bool", src: "global bool f;\nglobal int r;\ninit { if (f) { r = 1; } }\n",
			set: map[string]int64{"f": 1}, want: map[string]int64{"f": 1, "r": 1}},

		// Runtime errors in init and in global initializers.
		{name: "init/error", src: "global int r;\ninit { r = 1 / 0; }\n",
			err: "test.blk:2:14: runtime error: division by zero in 1 / 0 (init in block init)"},
		// A failed initializer leaves its global (and the later ones) at
		// zero, not at a wrapped value.
		{name: "init/global-initializer-error", src: "global int q = 5, r = 9223372036854775807 + 1, s = 3;\n",
			err:  "test.blk:1:43: runtime error: integer overflow in 9223372036854775807 + 1 (init in block init)",
			want: map[string]int64{"q": 5, "r": 0, "s": 0}},
		{name: "init/array-fill-error", src: "global int a[3] = -9223372036854775807 - 2;\n",
			err:  "test.blk:1:40: runtime error: integer overflow in -9223372036854775807 - 2 (init in block init)",
			want: map[string]int64{"a[0]": 0, "a[1]": 0, "a[2]": 0}},
		{name: "init/array-list-error", src: "global int a[3] = {1, 4611686018427387904 * 2, 3};\n",
			err:  "test.blk:1:43: runtime error: integer overflow in 4611686018427387904 * 2 (init in block init)",
			want: map[string]int64{"a[0]": 1, "a[1]": 0, "a[2]": 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, c.src, c.set)
			if c.maxSteps > 0 {
				m.MaxSteps = c.maxSteps
			}
			out := m.Run(First, 0)
			gotErr := ""
			if out.Err != nil {
				gotErr = out.Err.Error()
			}
			if gotErr != c.err {
				t.Errorf("error:\n got %q\nwant %q", gotErr, c.err)
			}
			if c.err == "" && (out.Cut || len(out.Blocked) > 0) {
				t.Errorf("run did not finish: cut=%v blocked=%v", out.Cut, out.Blocked)
			}
			if got := violationTexts(out.Final.Violations); !slices.Equal(got, c.viols) && len(got)+len(c.viols) > 0 {
				t.Errorf("violations:\n got %q\nwant %q", got, c.viols)
			}
			g := globals(out.Final)
			for name, want := range c.want {
				if got, ok := g[name]; !ok || got != want {
					t.Errorf("%s = %d (present %v), want %d", name, got, ok, want)
				}
			}
		})
	}
}

// TestEventViolations checks that a violation is attached to the event that
// recorded it, and that init's violations belong to no event.
func TestEventViolations(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int x;
proc p() { assert(x == 1, "one"); yield; x = 1; }
proc q() { assert(x == 0, "zero"); }
init { assert(false, "init"); spawn p(); spawn q(); }
`, nil)
	out := m.Run(Random(3), 0)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	var fromEvents []string
	for _, ev := range out.Events {
		for _, v := range ev.Violations {
			if v.Block != ev.Block.ID || v.Proc != out.Final.Procs[ev.Proc].Name() {
				t.Errorf("violation %v attached to event %s of %s", v, ev.Block.ID, out.Final.Procs[ev.Proc].Name())
			}
			fromEvents = append(fromEvents, v.String())
		}
	}
	all := violationTexts(out.Final.Violations)
	if len(all) == 0 || all[0] != "test.blk:4:8: assertion failed: init (init in block init)" {
		t.Fatalf("violations = %q, want init's first", all)
	}
	if !slices.Equal(all[1:], fromEvents) {
		t.Errorf("state violations %q, event violations %q", all[1:], fromEvents)
	}
	if !slices.Contains(all, "test.blk:2:12: assertion failed: one (p#1 in block p)") {
		t.Errorf("p's violation missing: %q", all)
	}
}

// TestNewErrors checks instantiation: initializer counts, -D names, sizes.
func TestNewErrors(t *testing.T) {
	t.Parallel()
	const listSrc = `param N = 3;
global int a[N] = {1, 2, 3}, x;
global bool f;
`
	cases := []struct {
		name string
		set  map[string]int64
		err  string // "" for success
	}{
		{name: "ok", set: nil},
		{name: "ok-param-same-size", set: map[string]int64{"N": 3}},
		{name: "list-count-mismatch", set: map[string]int64{"N": 5}, err: "test.blk:2:12: array a has 5 elements but 3 initializers"},
		{name: "size-zero", set: map[string]int64{"N": 0}, err: "test.blk:2:12: array a has size 0 (must be 1..16777216)"},
		{name: "size-negative", set: map[string]int64{"N": -2}, err: "test.blk:2:12: array a has size -2 (must be 1..16777216)"},
		{name: "size-huge", set: map[string]int64{"N": MaxArraySize + 1}, err: "test.blk:2:12: array a has size 16777217 (must be 1..16777216)"},
		{name: "unknown-name", set: map[string]int64{"M": 1}, err: "-D M: no param or global named M"},
		{name: "array", set: map[string]int64{"a": 1}, err: "-D a: a is an array; only params and scalar globals can be set"},
		{name: "bool-range", set: map[string]int64{"f": 2}, err: "-D f: f is a bool; use 0 or 1 (or true/false)"},
		{name: "scalar", set: map[string]int64{"x": -9, "f": 1}},
		{name: "first-bad-name-sorted", set: map[string]int64{"zz": 1, "yy": 2}, err: "-D yy: no param or global named yy"},
	}
	prog := testprog.Source(t, listSrc)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m, err := New(prog, c.set)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.err {
				t.Fatalf("New error:\n got %q\nwant %q", got, c.err)
			}
			if err != nil {
				if m != nil {
					t.Errorf("New returned a machine with an error")
				}
				return
			}
			st, rerr := m.Initial()
			if rerr != nil {
				t.Fatal(rerr)
			}
			n := int64(3)
			if v, ok := c.set["N"]; ok {
				n = v
			}
			if got := int64(m.Locs()); got != n+2 {
				t.Errorf("store has %d locations, want %d", got, n+2)
			}
			if v, ok := c.set["x"]; ok && globals(st)["x"] != v {
				t.Errorf("x = %d, want %d", globals(st)["x"], v)
			}
		})
	}
}

// TestPIDs checks hierarchical ids: init's spawns are 1, 2, 3; the k-th
// spawn of 2 is 2.k, whatever the interleaving.
func TestPIDs(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int n;
proc leaf() { n = n + 1; }
proc deep() { spawn leaf(); yield; spawn leaf(); }
proc two() { spawn leaf(); yield; spawn deep(); }
proc one() { }
init { spawn one(); spawn two(); spawn one(); }
`, nil)
	want := []string{"one#1", "two#2", "leaf#2.1", "deep#2.2", "leaf#2.2.1", "leaf#2.2.2", "one#3"}
	policies := map[string]Policy{"first": First}
	for seed := uint64(1); seed <= 8; seed++ {
		policies[fmt.Sprint("random", seed)] = Random(seed)
	}
	for name, pol := range policies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := m.Run(pol, 0)
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			if got := procNames(out.Final); !slices.Equal(got, want) {
				t.Errorf("processes = %q, want %q", got, want)
			}
			if n := globals(out.Final)["n"]; n != 3 {
				t.Errorf("n = %d, want 3", n)
			}
			checkSpawnTree(t, out)
		})
	}
}

// checkSpawnTree checks that every spawned process's id is its parent's id
// plus its rank among the parent's spawns, and that the state's Spawned
// counters match.
func checkSpawnTree(t *testing.T, out *Outcome) {
	t.Helper()
	st := out.Final
	count := map[string]int32{}
	for _, ev := range out.Events {
		parent := st.Procs[ev.Proc]
		for _, ci := range ev.Spawned {
			count[parent.ID.String()]++
			want := parent.ID.String() + "." + fmt.Sprint(count[parent.ID.String()])
			if got := st.Procs[ci].ID.String(); got != want {
				t.Errorf("process %d spawned by %s has id %s, want %s", ci, parent.Name(), got, want)
			}
		}
	}
	for _, p := range st.Procs {
		if p.Spawned != count[p.ID.String()] {
			t.Errorf("%s: Spawned = %d, events spawned %d", p.Name(), p.Spawned, count[p.ID.String()])
		}
	}
}

// TestFibPIDs runs fib.blk under several schedules. The fib tree, and the
// res processes the fib leaves spawn, get the same ids (and arguments) in
// every run. Which res spawns a further res depends on the interleaving
// (whoever finds nr == 0), so those ids may differ; their number may not.
func TestFibPIDs(t *testing.T) {
	t.Parallel()
	m, err := New(testprog.File(t, "../testdata/fib.blk"), map[string]int64{"N": 5})
	if err != nil {
		t.Fatal(err)
	}
	// key lists "name(v)" for fib processes and the res processes spawned by fibs.
	key := func(st *State) ([]string, int) {
		byID := map[string]*Process{}
		for _, p := range st.Procs {
			byID[p.ID.String()] = p
		}
		var out []string
		for _, p := range st.Procs {
			parent := byID[p.ID.Parent().String()]
			if p.Proc.Name == "fib" || parent != nil && parent.Proc.Name == "fib" {
				out = append(out, fmt.Sprintf("%s(%d)", p.Name(), p.Locals[0]))
			}
		}
		slices.Sort(out)
		return out, len(st.Procs)
	}
	first := m.Run(First, 0)
	if first.Err != nil || first.Cut || len(first.Blocked) > 0 {
		t.Fatalf("first run: err=%v cut=%v blocked=%v", first.Err, first.Cut, first.Blocked)
	}
	wantKey, wantN := key(first.Final)
	// fib(5) has 15 fib processes, 8 of them leaves (v <= 1) spawning one res
	// each. A res run spawns a res when nr == 0 and not when nr == 1, and
	// flips nr: runs alternate, starting with a spawning one, and the last run
	// cannot spawn. So R res runs hold R/2 spawns: R = 8 + R/2, R = 16.
	if len(wantKey) != 15+8 || wantN != 15+16 {
		t.Fatalf("first run: %d fib/leaf processes, %d in all; want 23 and 31:\n%s", len(wantKey), wantN, strings.Join(wantKey, " "))
	}
	if !slices.Contains(wantKey, "fib#1(5)") || !slices.Contains(wantKey, "fib#1.2.2(1)") || !slices.Contains(wantKey, "res#1.2.2.1(1)") {
		t.Errorf("unexpected fib ids: %s", strings.Join(wantKey, " "))
	}
	for seed := uint64(1); seed <= 10; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			out := m.Run(Random(seed), 0)
			if out.Err != nil || out.Cut || len(out.Blocked) > 0 {
				t.Fatalf("err=%v cut=%v blocked=%v", out.Err, out.Cut, out.Blocked)
			}
			gotKey, gotN := key(out.Final)
			if !slices.Equal(gotKey, wantKey) || gotN != wantN {
				t.Errorf("processes differ from the First run:\n got %d %s\nwant %d %s", gotN, gotKey, wantN, wantKey)
			}
			checkSpawnTree(t, out)
		})
	}
}

// TestAwait steps a waiter, a setter and checks enabledness, the error of
// stepping a disabled process, and the guard's reads.
func TestAwait(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int flag, got;
proc waiter() { await(flag == 1); got = flag + 1; }
proc setter() { flag = 1; }
init { spawn waiter(); spawn setter(); }
`, nil)
	st, err := m.Initial()
	if err != nil {
		t.Fatal(err)
	}
	if got := st.EnabledProcs(nil); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("enabled at start = %v", got)
	}
	if ev := st.Step(0); ev.Err != nil || ev.Block.ID != "waiter" || len(ev.Reads)+len(ev.Writes) != 0 {
		t.Fatalf("entry of waiter: %+v", ev)
	}
	if st.Enabled(0) || !slices.Equal(st.EnabledProcs(nil), []int{1}) || !slices.Equal(st.Blocked(), []int{0}) {
		t.Fatalf("waiter enabled before flag is set: enabled=%v blocked=%v", st.EnabledProcs(nil), st.Blocked())
	}
	before := st.Clone()
	ev := st.Step(0)
	if ev.Err == nil || ev.Err.Error() != "test.blk:2:17: runtime error: process is not enabled (await condition is false) (waiter#1 in block waiter@2)" {
		t.Fatalf("stepping a blocked process: %v", ev.Err)
	}
	if got := m.LocNames(ev.Reads); !slices.Equal(got, []string{"flag"}) || len(ev.Writes) != 0 {
		t.Errorf("failed await: reads %q writes %v", got, ev.Writes)
	}
	if err := sameState(st, before); err != nil {
		t.Errorf("a refused step changed the state: %v", err)
	}
	if ev := st.Step(1); ev.Err != nil || !slices.Equal(m.LocNames(ev.Writes), []string{"flag"}) {
		t.Fatalf("setter: %+v", ev)
	}
	if !st.Enabled(0) || len(st.Blocked()) != 0 {
		t.Fatalf("waiter not enabled after flag = 1")
	}
	ev = st.Step(0)
	if ev.Err != nil || ev.Block.ID != "waiter@2" {
		t.Fatalf("waiter@2: %+v", ev)
	}
	if r, w := m.LocNames(ev.Reads), m.LocNames(ev.Writes); !slices.Equal(r, []string{"flag"}) || !slices.Equal(w, []string{"got"}) {
		t.Errorf("waiter@2 reads %q writes %q", r, w)
	}
	if g := globals(st)["got"]; g != 2 {
		t.Errorf("got = %d, want 2", g)
	}
	if len(st.Live()) != 0 || st.Enabled(0) || len(st.EnabledProcs(nil)) != 0 {
		t.Errorf("processes left: %v", st.Live())
	}
	ev = st.Step(0)
	if ev.Err == nil || ev.Err.Msg != "process has finished" || ev.Err.Proc != "waiter#1" {
		t.Errorf("stepping a finished process: %v", ev.Err)
	}
}

// TestRunOutcomes checks deadlock detection, yields inside loops, cut runs
// and replay.
func TestRunOutcomes(t *testing.T) {
	t.Parallel()
	const deadlock = `global int a, b;
proc p() { await(a == 1); b = 1; }
proc q() { await(b == 1); a = 1; }
init { spawn p(); spawn q(); }
`
	const loop = `global int c;
proc p() { int i; while (i < 3) { c = c + 1; yield; i = i + 1; } }
proc q() { c = c * 10; }
init { spawn p(); spawn q(); }
`
	replay := func(names ...string) Policy { p, _ := Replay(names); return p }
	cases := []struct {
		name     string
		src      string
		policy   Policy
		max      int
		schedule string // process names
		blocks   string // block ids
		blocked  []int
		cut      bool
		want     map[string]int64
	}{
		{name: "deadlock", src: deadlock, policy: First, schedule: "p#1 q#2", blocks: "p q", blocked: []int{0, 1}},
		{name: "yield-in-loop", src: loop, policy: First, schedule: "p#1 p#1 p#1 p#1 q#2", blocks: "p p@2 p@2 p@2 q",
			want: map[string]int64{"c": 30}},
		{name: "yield-in-loop-replay", src: loop, policy: replay("p#1", "2", "1", "p#1", "1"),
			schedule: "p#1 q#2 p#1 p#1 p#1", blocks: "p q p@2 p@2 p@2", want: map[string]int64{"c": 12}},
		{name: "cut-by-max", src: loop, policy: First, max: 2, schedule: "p#1 p#1", blocks: "p p@2", cut: true,
			want: map[string]int64{"c": 2}},
		{name: "cut-by-replay", src: loop, policy: replay("q#2"), schedule: "q#2", blocks: "q", cut: true,
			want: map[string]int64{"c": 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, c.src, nil)
			out := m.Run(c.policy, c.max)
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			var blocks []string
			for _, s := range out.Schedule {
				blocks = append(blocks, s.Block)
			}
			if got := out.Schedule.String(); got != c.schedule {
				t.Errorf("schedule = %q, want %q", got, c.schedule)
			}
			if got := strings.Join(blocks, " "); got != c.blocks {
				t.Errorf("blocks = %q, want %q", got, c.blocks)
			}
			if !slices.Equal(out.Blocked, c.blocked) || out.Cut != c.cut {
				t.Errorf("blocked=%v cut=%v, want %v %v", out.Blocked, out.Cut, c.blocked, c.cut)
			}
			if len(out.Events) != len(out.Schedule) {
				t.Errorf("%d events for %d steps", len(out.Events), len(out.Schedule))
			}
			for i, ev := range out.Events {
				if ev.Block.ID != out.Schedule[i].Block {
					t.Errorf("event %d ran %s, schedule says %s", i, ev.Block.ID, out.Schedule[i].Block)
				}
			}
			g := globals(out.Final)
			for name, want := range c.want {
				if g[name] != want {
					t.Errorf("%s = %d, want %d", name, g[name], want)
				}
			}
		})
	}
}

// TestReplay checks replays by name and by id, and that a process that is
// not enabled (or a name that names none) stops the run with an error.
func TestReplay(t *testing.T) {
	t.Parallel()
	m := newMachine(t, fig1Src, nil)
	cases := []struct {
		names  []string
		events int
		err    string
	}{
		{names: []string{"r#3", "q#2", "p#1"}, events: 3},
		{names: []string{"3", "2", "1"}, events: 3},
		{names: []string{"q#2", "q#2"}, events: 1, err: "step 2: process q#2 is not enabled"},
		{names: []string{"p#2"}, err: "step 1: process p#2 is not enabled"},
		{names: []string{"p#4"}, err: "step 1: process p#4 is not enabled"},
		{names: []string{"1.1"}, err: "step 1: process 1.1 is not enabled"},
		{names: []string{"p#x"}, err: `step 1: "p#x" is not a process name (like p#1.2) or id (like 1.2)`},
		{names: []string{"#"}, err: `step 1: "#" is not a process name (like p#1.2) or id (like 1.2)`},
	}
	for _, c := range cases {
		pol, perr := Replay(c.names)
		out := m.Run(pol, 0)
		got := ""
		if *perr != nil {
			got = (*perr).Error()
		}
		if got != c.err || len(out.Events) != c.events || c.err != "" && !out.Cut {
			t.Errorf("replay %q: %d events, cut %v, error %q; want %d events, error %q", c.names, len(out.Events), out.Cut, got, c.events, c.err)
		}
	}
}

// TestReadWriteSets checks the dynamic read and write sets of each event of
// a run: globals only (array elements one by one), await guards included,
// accesses of funcs included, locals never.
func TestReadWriteSets(t *testing.T) {
	t.Parallel()
	type ev struct{ block, reads, writes string }
	cases := []struct {
		name     string
		src      string
		set      map[string]int64
		schedule []string // nil: First
		want     []ev
	}{
		{name: "fig1", src: fig1Src, want: []ev{
			{"p", "x", "x"}, {"q", "z", ""}, {"r", "x z", "x z"},
		}},
		{name: "fig1-q-takes-branch", src: fig1Src, set: map[string]int64{"z": -1}, schedule: []string{"r#3", "q#2", "p#1"}, want: []ev{
			{"r", "x z", "x z"}, {"q", "x z", "z"}, {"p", "x", "x"},
		}},
		{name: "array-elements", src: `global int a[4], i = 2;
proc p() { a[i] = a[i + 1] + 1; a[0] = 3; }
init { spawn p(); }
`, want: []ev{{"p", "a[3] i", "a[0] a[2]"}}},
		{name: "write-only-and-locals", src: `global int x, y;
proc p(int v) { int t = v + 1; x = t; t = t * 2; y = t; }
init { spawn p(4); }
`, want: []ev{{"p", "", "x y"}}},
		{name: "read-after-write", src: `global int x;
proc p() { x = 5; x = x + 1; }
init { spawn p(); }
`, want: []ev{{"p", "x", "x"}}},
		{name: "await-guard-short-circuit", src: `global int a[2], g, h;
proc w() { await(a[1] > 0 || g > 0); h = 1; }
proc s() { a[1] = 1; }
init { spawn w(); spawn s(); }
`, schedule: []string{"w#1", "s#2", "w#1"}, want: []ev{
			{"w", "", ""}, {"s", "", "a[1]"}, {"w@2", "a[1]", "h"},
		}},
		{name: "await-guard-both-sides", src: `global int a[2], g, h;
proc w() { await(a[1] > 0 || g > 0); h = 1; }
proc s() { g = 1; }
init { spawn w(); spawn s(); }
`, schedule: []string{"w#1", "s#2", "w#1"}, want: []ev{
			{"w", "", ""}, {"s", "", "g"}, {"w@2", "a[1] g", "h"},
		}},
		{name: "guard-only", src: `global int g = 1, h;
proc w() { yield; await(g > 0); }
init { spawn w(); }
`, want: []ev{{"w", "", ""}, {"w@2:12", "", ""}, {"w@2:19", "g", ""}}},
		{name: "funcs", src: `global int a[3], g, h, k;
func int get(int j) { int t = a[j]; return t + g; }
func put(int j, int v) { a[j] = v; k = k + 1; }
proc p() { int t = get(1); put(2, t); h = t; }
init { spawn p(); }
`, want: []ev{{"p", "a[1] g k", "a[2] h k"}}},
		{name: "branch-not-taken", src: `global int x, y, z;
proc p() { if (x > 0) { y = z; } else { z = 1; } }
init { spawn p(); }
`, want: []ev{{"p", "x", "z"}}},
		{name: "spawn-args", src: `global int g = 3, h;
proc c(int v) { h = v; }
proc p() { spawn c(g * 2); }
init { spawn p(); }
`, want: []ev{{"p", "g", ""}, {"c", "", "h"}}},
		{name: "loop", src: `global int a[4], s;
proc p() { int i; while (i < 4) { s = s + a[i]; i = i + 2; } }
init { spawn p(); }
`, want: []ev{{"p", "a[0] a[2] s", "s"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, c.src, c.set)
			pol := First
			if c.schedule != nil {
				pol, _ = Replay(c.schedule)
			}
			out := m.Run(pol, 0)
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			var got []ev
			for _, e := range out.Events {
				got = append(got, ev{e.Block.ID, strings.Join(m.LocNames(e.Reads), " "), strings.Join(m.LocNames(e.Writes), " ")})
				if !slices.IsSorted(e.Reads) || !slices.IsSorted(e.Writes) {
					t.Errorf("%s: sets not sorted: %v %v", e.Block.ID, e.Reads, e.Writes)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("events:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestFig1AllInterleavings runs the 3! = 6 orders of p, q, r of Fig. 1 with
// explicit steps.
//
// By hand, from x = -2, z = -2: r makes z = -1 and nothing else raises z,
// so q's test z >= 0 never holds and every order ends with x = 0 (two
// increments), z = -1.
//
// With -D z=-1: r makes z = 0. q changes z only when it runs after r, and
// then sets z to the current x: x = 0 if p ran before q (orders p r q,
// r p q), x = -1 if p runs last (r q p). Orders where q precedes r leave
// z = 0. So the final (x, z) are (0, 0) for five orders and (0, -1) for
// r q p.
func TestFig1AllInterleavings(t *testing.T) {
	t.Parallel()
	type xz struct{ x, z int64 }
	cases := []struct {
		name string
		set  map[string]int64
		want map[string]xz // order (proc names) -> final (x, z)
	}{
		{name: "default", want: map[string]xz{
			"pqr": {0, -1}, "prq": {0, -1}, "qpr": {0, -1}, "qrp": {0, -1}, "rpq": {0, -1}, "rqp": {0, -1},
		}},
		{name: "z=-1", set: map[string]int64{"z": -1}, want: map[string]xz{
			"pqr": {0, 0}, "prq": {0, 0}, "qpr": {0, 0}, "qrp": {0, 0}, "rpq": {0, 0}, "rqp": {0, -1},
		}},
	}
	perms := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, fig1Src, c.set)
			x, z := m.Prog.Global("x"), m.Prog.Global("z")
			got := map[string]xz{}
			finals := map[xz]bool{}
			for _, perm := range perms {
				st, err := m.Initial()
				if err != nil {
					t.Fatal(err)
				}
				order := ""
				for _, i := range perm {
					if !st.Enabled(i) {
						t.Fatalf("process %d not enabled", i)
					}
					ev := st.Step(i)
					if ev.Err != nil {
						t.Fatal(ev.Err)
					}
					order += st.Procs[i].Proc.Name
				}
				if len(st.Live()) != 0 || len(st.EnabledProcs(nil)) != 0 {
					t.Errorf("%s: processes left", order)
				}
				got[order] = xz{st.Global(x, 0), st.Global(z, 0)}
				finals[got[order]] = true
			}
			if len(got) != 6 {
				t.Fatalf("%d distinct orders, want 6", len(got))
			}
			for order, w := range c.want {
				if got[order] != w {
					t.Errorf("order %s: (x, z) = %v, want %v", order, got[order], w)
				}
			}
			wantFinals := map[xz]bool{}
			for _, w := range c.want {
				wantFinals[w] = true
			}
			if len(finals) != len(wantFinals) {
				t.Errorf("final states %v, want %v", finals, wantFinals)
			}
		})
	}
}

// TestBranchErrorStopsBlock checks that a runtime error in an if condition
// ends the block there: the else branch does not run (in particular it
// spawns nothing).
func TestBranchErrorStopsBlock(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src string }{
		{"if", `global int x, y = 7;
proc w() { x = 1; }
proc a() { if (y / x > 0) { x = 2; } else { spawn w(); } }
init { spawn a(); }
`},
		{"while", `global int x, y = 7;
proc w() { x = 1; }
proc a() { while (y / x > 0) { x = 2; } spawn w(); }
init { spawn a(); }
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, c.src, nil)
			st, err := m.Initial()
			if err != nil {
				t.Fatal(err)
			}
			ev := st.Step(0)
			if ev.Err == nil || ev.Err.Msg != "division by zero in 7 / 0" {
				t.Fatalf("error = %v", ev.Err)
			}
			if len(ev.Spawned) != 0 || len(st.Procs) != 1 || st.Procs[0].Spawned != 0 {
				t.Errorf("the block went on after the error: spawned %v, %d processes", ev.Spawned, len(st.Procs))
			}
		})
	}
}

// TestEnabledBudget checks that evaluating an await guard (which may call a
// func with a loop) does not use up the step budget of the next block:
// Enabled must give the same answer however often it is asked.
func TestEnabledBudget(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int g;
func bool ready() { int i; while (i < 10) { i = i + 1; } return g > 0; }
proc a() { await(ready()); }
proc b() { g = 1; }
proc c() { int j; while (j < 40) { j = j + 1; } }
init { spawn a(); spawn b(); spawn c(); }
`, nil)
	m.MaxSteps = 100
	st, err := m.Initial()
	if err != nil {
		t.Fatal(err)
	}
	st.Step(0)
	if ev := st.Step(2); ev.Err != nil { // c uses 82 of its 100 steps
		t.Fatal(ev.Err)
	}
	for k := 0; k < 20; k++ {
		if st.Enabled(0) {
			t.Fatalf("call %d: Enabled = true, guard is false", k)
		}
	}
	if got := st.Blocked(); !slices.Equal(got, []int{0}) {
		t.Fatalf("Blocked = %v", got)
	}
	st.Step(1)
	for k := 0; k < 20; k++ {
		if !st.Enabled(0) {
			t.Fatalf("call %d: Enabled = false, guard is true", k)
		}
	}
	if ev := st.Step(0); ev.Err != nil {
		t.Fatal(ev.Err)
	}
}

package lang

import (
	"strings"
	"testing"
)

// TestCompiles: programs at the edges of the naming and typing rules that
// must be accepted. want lists lines the printed IR must contain (the
// expression trees are fully parenthesized, so they show precedence).
func TestCompiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		want      []string
	}{
		{"else-if chain",
			"global int x; proc p() { if (x < 0) { x = 0; } else if (x < 5) { x = 1; } else if (x < 9) { x = 2; } else { x = 3; } }",
			[]string{"if (x < 0) -> 2 else 3", "if (x < 5) -> 4 else 5", "if (x < 9) -> 6 else 7", "x = 3 -> end"}},
		{"bool locals",
			"global bool b; proc p() { bool c = !b, d; b = c == d; d = c && (b || false); }",
			[]string{"c = !b", "d = false", "b = (c == d)", "d = (c && (b || false))"}},
		{"sibling scopes reuse a name",
			"global int x; proc p() { if (x > 0) { int t = 1; x = t; } else { int t = 2; x = t; } { int t = 3; x = t; } }",
			[]string{"locals 0:int t, 1:int t, 2:int t"}},
		{"a local reused after its scope ends",
			"proc p() { while (true) { int i = 0; yield; } { int i = 1; } }",
			[]string{"locals 0:int i, 1:int i"}},
		{"func calls a func declared later",
			"func int f(int v) { return g(v) + 1; } func int g(int v) { return v * 2; } global int x; proc p() { x = f(x); }",
			[]string{"return (g(v) + 1)", "calls {f, g}"}},
		{"void func as a statement",
			"global int x; func bump(int by) { x = x + by; } proc p() { bump(2); }",
			[]string{"call bump(2) -> end"}},
		{"int func as a statement drops its result",
			"global int x; func int next() { x = x + 1; return x; } proc p() { next(); }",
			[]string{"call next() -> end"}},
		{"unbounded array",
			"global int m[*]; proc p(int k) { m[k] = m[k - 1] + 1; }",
			[]string{"global int m[*]", "m[k] = (m[(k - 1)] + 1)"}},
		{"unary minus on literals",
			"param N = -3; global int x = -5; proc p() { x = -x - -1; x = -N; }",
			[]string{"param N = -3", "global int x = -5", "x = (-x - -1)", "x = -N"}},
		{"precedence",
			"global int x; global bool b; proc p() { b = 1 + 2 * 3 == 7 && !false || x < 0; }",
			[]string{"b = ((((1 + (2 * 3)) == 7) && !false) || (x < 0))"}},
		{"left associativity",
			"global int x; proc p() { x = 10 - 3 - 2; x = 8 / 2 % 3; }",
			[]string{"x = ((10 - 3) - 2)", "x = ((8 / 2) % 3)"}},
		{"parentheses override precedence",
			"global int x; proc p() { x = (1 + 2) * (3 - x); }",
			[]string{"x = ((1 + 2) * (3 - x))"}},
		{"labels and variables share names",
			"global int ready; proc p() { ready: await(ready > 0); ready = 0; }",
			[]string{"block p@ready"}},
		{"procs spawn procs declared later",
			"proc a() { spawn b(1); } proc b(int n) { if (n > 0) { spawn a(); } }",
			[]string{"spawn b(1)", "spawn a()"}},
		{"param sizes and initializers",
			"param N = 2; param V = 7; global int a[N] = V, b[N] = {V, -V};",
			[]string{"global int a[N] = V", "global int b[N] = {V, -V}"}},
		{"the most negative integer",
			"global int m = -9223372036854775807 - 1; proc p() { m = m + 9223372036854775807; }",
			[]string{"global int m = (-9223372036854775807 - 1)"}},
		{"no init", "global int x; proc p() { x = 1; }", nil},
		{"empty file", "", nil},
		{"only comments", "// nothing\n/* at\nall */", nil},
		{"return in a proc", "global int x; proc p() { if (x > 0) { return; } x = 1; }", []string{"return"}},
		{"int func returning on every path",
			"func int sign(int v) { if (v < 0) { return -1; } else if (v == 0) { return 0; } else { return 1; } }",
			nil},
		{"assert with and without message",
			"global int x; proc p() { assert(x >= 0); assert(x < 9, \"small\"); }",
			[]string{"assert (x >= 0) -> 2", "assert (x < 9) \"small\" -> end"}},
		{"params shadow nothing but may be assigned",
			"global int total; proc p(int n) { while (n > 0) { total = total + n; n = n - 1; } }",
			[]string{"n = (n - 1)"}},
		{"invariants over globals, params and array elements",
			"param N = 2; global int c, a[N]; global bool on; invariant (c >= 0); invariant on || a[N - 1] != c / 2; proc p() { c = c + 1; a[0] = 1; }",
			[]string{"invariant (c >= 0) reads {c}", "invariant (on || (a[(N - 1)] != (c / 2))) reads {c, a, on}"}},
		{"a block that writes what an invariant reads reads all of it",
			"global int c, d, e; invariant (c <= d); proc p() { c = 1; } proc q() { e = 1; }",
			[]string{"block p: reads {c, d} writes {c}", "block q: reads {} writes {e}"}},
		{"commute declarations with labels, lines and primed locals",
			"global int x;\nproc p(int v) { int t = v; again: yield; x = t + v; }\nproc q() { yield; yield; x = 0; }\ncommute p, q;\ncommute p@again, p@again when (t != t' || v == v');\ncommute q@3:12, q@3:19 when (x > 0);",
			[]string{"commute p, q\n", "commute p@again, p@again when ((t != t') || (v == v'))", "commute q@3:12, q@3:19 when (x > 0)"}},
		{"comments everywhere",
			"/* a */ global /* b */ int x; // c\nproc /* d */ p() { /* e */ x = 1; // f\n}",
			[]string{"x = 1 -> end"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := []byte(tc.src)
			p, errs := Compile("ok.blk", src)
			if errs != nil {
				t.Fatal(errs.Format(src))
			}
			sanity(t, p)
			ir := FormatIR(p)
			for _, w := range tc.want {
				if !strings.Contains(ir, w) {
					t.Errorf("IR lacks %q:\n%s", w, ir)
				}
			}
		})
	}
}

// TestHash: the program hash ignores param values and commute declarations
// (claims, not semantics) but not invariants.
func TestHash(t *testing.T) {
	t.Parallel()
	base := "param N = 3; global int c; proc p() { c = c + N; }\n"
	cases := []struct {
		name, src string
		same      bool
	}{
		{"param value", "param N = 17; global int c; proc p() { c = c + N; }\n", true},
		{"commute declaration", base + "commute p, p when (c > 0);\n", true},
		{"invariant", base + "invariant (c >= 0);\n", false},
		{"code", "param N = 3; global int c; proc p() { c = c - N; }\n", false},
	}
	hash := func(src string) string {
		p, errs := Compile("h.blk", []byte(src))
		if errs != nil {
			t.Fatal(errs.Format([]byte(src)))
		}
		return p.Hash
	}
	h0 := hash(base)
	for _, tc := range cases {
		if got := hash(tc.src) == h0; got != tc.same {
			t.Errorf("%s: same hash %v, want %v", tc.name, got, tc.same)
		}
	}
}

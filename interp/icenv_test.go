package interp

import (
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
)

func TestICEnvApply(t *testing.T) {
	t.Parallel()
	prog := testprog.Source(t, `global int a[4] = {1, 2, 3, 4}, total;
proc sum(int n) {
  int s = 0, i = 0;
  while (i < n) { s = s + a[i]; i = i + 1; }
  total = s;
}
proc bad(int d) {
  int i = 0;
  while (i < 2) { total = total + 10 / d; i = i + 1; }
}
`)
	m, err := New(prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := m.Initial()
	env := ICEnv{S: st, Funcs: map[string]ic.Function{
		"s":     {Name: "s", Kind: ic.FnValue, Proc: "sum", Line: 4, Col: 3, Out: "s", Ins: []string{"a", "n", "s", "i"}},
		"sok":   {Name: "sok", Kind: ic.FnOK, Proc: "sum", Line: 4, Col: 3, Ins: []string{"a", "n", "s", "i"}},
		"ok":    {Name: "ok", Kind: ic.FnOK, Proc: "bad", Line: 9, Col: 3, Ins: []string{"total", "d", "i"}},
		"tot":   {Name: "tot", Kind: ic.FnValue, Proc: "bad", Line: 9, Col: 3, Out: "total", Ins: []string{"total", "d", "i"}},
		"wrong": {Name: "wrong", Kind: ic.FnValue, Proc: "sum", Line: 2, Col: 1, Out: "s", Ins: []string{"n"}},
		"col":   {Name: "col", Kind: ic.FnValue, Proc: "sum", Line: 4, Col: 4, Out: "s", Ins: []string{"a", "n", "s", "i"}},
		"spawn": {Name: "spawn", Kind: ic.FnSpawns, Proc: "sum", Line: 4, Col: 3, Ins: []string{"a", "n", "s", "i"}},
	}}
	arr := &ic.Expr{Op: "global", Name: "a", Sort: "array"}
	cases := []struct {
		fn   string
		args []*ic.Expr
		want int64
		err  bool
	}{
		{"s", []*ic.Expr{arr, ic.Int(3), ic.Int(0), ic.Int(0)}, 6, false},   // 1 + 2 + 3
		{"s", []*ic.Expr{arr, ic.Int(4), ic.Int(10), ic.Int(2)}, 17, false}, // from s = 10, i = 2: + 3 + 4
		{"s", []*ic.Expr{arr, ic.Int(9), ic.Int(0), ic.Int(0)}, 0, true},    // a[4]: out of bounds
		{"sok", []*ic.Expr{arr, ic.Int(9), ic.Int(0), ic.Int(0)}, 0, false},
		{"sok", []*ic.Expr{arr, ic.Int(4), ic.Int(0), ic.Int(0)}, 1, false},
		{"s", []*ic.Expr{ic.Int(1), ic.Int(3), ic.Int(0), ic.Int(0)}, 0, true},
		{"ok", []*ic.Expr{ic.Int(0), ic.Int(5), ic.Int(0)}, 1, false},
		{"ok", []*ic.Expr{ic.Int(0), ic.Int(0), ic.Int(0)}, 0, false},                   // division by zero
		{"ok", []*ic.Expr{ic.Int(9223372036854775800), ic.Int(1), ic.Int(0)}, 0, false}, // overflow
		{"tot", []*ic.Expr{ic.Int(0), ic.Int(5), ic.Int(0)}, 4, false},
		{"tot", []*ic.Expr{ic.Int(0), ic.Int(0), ic.Int(0)}, 0, true}, // no value: the loop errs
		{"wrong", []*ic.Expr{ic.Int(1)}, 0, true},                     // no loop at that position
		{"col", []*ic.Expr{arr, ic.Int(3), ic.Int(0), ic.Int(0)}, 0, true},
		{"spawn", []*ic.Expr{arr, ic.Int(3), ic.Int(0), ic.Int(0)}, 0, true},
		{"nope", nil, 0, true},
	}
	for _, tc := range cases {
		got, err := env.Apply(tc.fn, tc.args)
		if (err != nil) != tc.err || err == nil && got != tc.want {
			t.Errorf("Apply(%s, %v) = %d, %v; want %d (error %v)", tc.fn, tc.args, got, err, tc.want, tc.err)
		}
	}
	if st.Global(prog.Global("total"), 0) != 0 {
		t.Error("Apply changed the state it evaluates in")
	}
}

// TestICEnvApplyBudget checks that a loop's ok function counts the step
// budget as a block runs the loop: from the same values, ok is false
// exactly when the process running the loop raises a budget error,
// however many steps its block ran before the loop.
func TestICEnvApplyBudget(t *testing.T) {
	t.Parallel()
	prog := testprog.Source(t, `global int n, x;
proc p() {
  int i = 0; x = 1; x = 2; x = 3; x = 4; x = 5;
  while (i < n) { i = i + 1; }
  x = i;
}
init { spawn p(); }
`)
	for _, n := range []int64{0, 5, 6, 7, 8, 100} {
		m, err := New(prog, map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		m.MaxSteps = 15 // the loop runs 2n+1 steps
		st, _ := m.Initial()
		env := ICEnv{S: st, Funcs: map[string]ic.Function{
			"ok": {Name: "ok", Kind: ic.FnOK, Proc: "p", Line: 4, Col: 3, Ins: []string{"n", "i"}},
		}}
		ok, err := env.Apply("ok", []*ic.Expr{ic.Int(n), ic.Int(0)})
		if err != nil {
			t.Fatal(err)
		}
		ev := st.Step(0)
		if want := b2i(ev.Err == nil); ok != want || (ok == 1) != (2*n+1 <= 15) {
			t.Errorf("n = %d: ok = %d, the block %v", n, ok, ev.Err)
		}
		if ev.Err != nil && ev.Err.Kind != ErrBudget {
			t.Errorf("n = %d: %v is not a budget error", n, ev.Err)
		}
	}
}

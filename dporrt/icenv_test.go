package dporrt

import (
	"testing"

	"github.com/icgen/icgen/ic"
)

func TestICEnvApply(t *testing.T) {
	t.Parallel()
	prog := compileSrc(t, `global int a[4] = {1, 2, 3, 4}, total;
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
		"s":     {Name: "s", Proc: "sum", Line: 4, Out: "s", Ins: []string{"a", "n", "s", "i"}},
		"ok":    {Name: "ok", Proc: "bad", Line: 9, Out: "ok", Ins: []string{"total", "d", "i"}},
		"noovf": {Name: "noovf", Proc: "bad", Line: 9, Out: "noovf", Ins: []string{"total", "d", "i"}},
		"wrong": {Name: "wrong", Proc: "sum", Line: 2, Out: "s", Ins: []string{"n"}},
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
		{"s", []*ic.Expr{ic.Int(1), ic.Int(3), ic.Int(0), ic.Int(0)}, 0, true},
		{"ok", []*ic.Expr{ic.Int(0), ic.Int(5), ic.Int(0)}, 1, false},
		{"ok", []*ic.Expr{ic.Int(0), ic.Int(0), ic.Int(0)}, 0, false}, // division by zero
		{"noovf", []*ic.Expr{ic.Int(0), ic.Int(0), ic.Int(0)}, 1, false},
		{"noovf", []*ic.Expr{ic.Int(9223372036854775800), ic.Int(1), ic.Int(0)}, 0, false},
		{"wrong", []*ic.Expr{ic.Int(1)}, 0, true}, // no loop at that line
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

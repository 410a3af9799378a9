package ic

import (
	"errors"
	"strings"
	"testing"
)

// countEnv counts the reads of globals and applies f(x) as 10 * x.
type countEnv struct {
	mapEnv
	reads int
}

func (c *countEnv) Global(n string) (int64, bool) { c.reads++; return c.mapEnv.Global(n) }
func (c *countEnv) Apply(fn string, args []*Expr) (int64, error) {
	if fn != "f" || len(args) != 1 {
		return 0, errors.New("no such function")
	}
	v, err := args[0].Eval(c) // without the let's definitions, as a runtime's environment does
	return 10 * v, err
}

func ref(name string) *Expr { return &Expr{Op: "ref", Name: name} }

func let(body *Expr, defs ...Def) *Expr { return &Expr{Op: "let", Defs: defs, Args: []*Expr{body}} }

// TestLet: a let's definitions are read by name, each evaluated once and
// only where read; they print as let ... in, and check names them.
func TestLet(t *testing.T) {
	t.Parallel()
	x := &Expr{Op: "global", Name: "x"}
	sum := op("+", x, x)
	// let $1 = x + x, $2 = $1 * $1 in $2 + $2 + $1
	e := let(op("+", ref("$2"), ref("$2"), ref("$1")), Def{"$1", sum}, Def{"$2", op("*", ref("$1"), ref("$1"))})
	if got, want := e.String(), "let $1 = x + x, $2 = $1 * $1 in $2 + $2 + $1"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if err := e.check(); err != nil {
		t.Fatal(err)
	}
	env := &countEnv{mapEnv: mapEnv{"x": 3, "big": 1 << 62}}
	if v, err := e.Eval(env); err != nil || v != 2*36+6 {
		t.Errorf("value %d, %v; want 78", v, err)
	}
	if env.reads != 2 {
		t.Errorf("x read %d times, want 2 (each definition once)", env.reads)
	}
	// Beyond int64 inside a definition: the mathematical value decides.
	b := &Expr{Op: "global", Name: "big"}
	huge := let(op("<", op("-", ref("$1"), b, b, b), Int(0)), Def{"$1", op("+", b, b, b, b)})
	if ok, err := huge.Holds(env); err != nil || ok {
		t.Errorf("4 big - 3 big < 0 = %v, %v; want false", ok, err)
	}
	// A definition that cannot be evaluated matters only where read.
	div := op("/", x, Int(0))
	lazy := let(op("||", op(">", x, Int(0)), op("==", ref("$1"), Int(1))), Def{"$1", div})
	if ok, err := lazy.Holds(env); err != nil || !ok {
		t.Errorf("x > 0 || $1 == 1 = %v, %v; want true", ok, err)
	}
	read := let(op("&&", op(">", x, Int(0)), op("==", ref("$1"), Int(1))), Def{"$1", div})
	if _, err := read.Holds(env); err == nil {
		t.Error("x > 0 && x / 0 == 1: no error")
	}
	// A function's arguments that read a definition are evaluated here.
	app := let(op("==", &Expr{Op: "apply", Name: "f", Args: []*Expr{ref("$1")}}, Int(60)), Def{"$1", sum})
	if ok, err := app.Holds(env); err != nil || !ok {
		t.Errorf("f($1) == 60 = %v, %v; want true", ok, err)
	}
	smt := SMTLIB(e)
	if want := "(let ((|$1| (+ x x))) (let ((|$2| (* |$1| |$1|))) (+ |$2| |$2| |$1|)))"; smt != want {
		t.Errorf("SMT-LIB %s, want %s", smt, want)
	}
	if d := e.Declarations(); len(d) != 1 || d[0] != "(declare-const x Int)" {
		t.Errorf("declarations %v", d)
	}
	bad := []struct {
		e    *Expr
		want string
	}{
		{let(ref("$2"), Def{"$1", x}), "no definition"},
		{let(x, Def{"$1", ref("$2")}, Def{"$2", x}), "no definition"},
		{let(x, Def{"$1", x}, Def{"$1", x}), "defined already"},
		{let(x, Def{"", x}), "without name"},
		{let(ref("$1")), "without definitions"},
		{let(&Expr{Op: "ref", Name: "$1", Sort: "bool"}, Def{"$1", x}), "sort"},
		{&Expr{Op: "+", Defs: []Def{{"$1", x}}, Args: []*Expr{x, x}}, "only let"},
		{ref("$1"), "no definition"},
	}
	for _, tc := range bad {
		if err := tc.e.check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: check = %v, want %q", tc.e, err, tc.want)
		}
	}
}

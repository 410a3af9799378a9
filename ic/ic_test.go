package ic

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/lang"
)

func compile(t *testing.T, path, src string) *lang.Program {
	t.Helper()
	var data []byte
	if src == "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	} else {
		data = []byte(src)
	}
	p, errs := lang.Compile(path, data)
	if errs != nil {
		t.Fatal(errs.Format(data))
	}
	return p
}

func TestW(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		path string
		src  string
		want map[string][]string
	}{
		// The paper's W(p) = {x} (CDPOR Example 5).
		{"fig1", "../testdata/fig1.blk", "", map[string][]string{"p": {"x"}, "q": {"z"}, "r": {"x", "z"}}},
		// fib spawns res, which writes nr and r: W(fib) includes them.
		{"fib", "../testdata/fib.blk", "", map[string][]string{"fib": {"nr", "r"}, "res": {"nr", "r"}}},
		{"continuations and unblocking", "w.blk", `
global int a, b, c, d;
proc p() { a = 1; yield; b = 1; }
proc q() { await(a > 0); c = 1; }
proc r() { d = 1; }
proc s() { spawn r(); }
`, map[string][]string{
			"p":   {"a", "b", "c"}, // p@3 writes b; a unblocks q@4, which writes c
			"p@3": {"b"},
			"q":   {"c"}, // q's entry leads to q@4
			"q@4": {"c"},
			"r":   {"d"},
			"s":   {"d"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := compile(t, tc.path, tc.src)
			w := W(p)
			for id, want := range tc.want {
				b := p.Block(id)
				if b == nil {
					t.Fatalf("no block %s", id)
				}
				got := names(w[b], false)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("W(%s) = %v, want %v", id, got, want)
				}
			}
		})
	}
}

type mapEnv map[string]int64

func (m mapEnv) Global(n string) (int64, bool) { v, ok := m[n]; return v, ok }
func (m mapEnv) Element(a string, i int64) (int64, bool) {
	v, ok := m[a+"["+itoa(i)+"]"]
	return v, ok
}
func (m mapEnv) Local(e int, n string) (int64, bool) {
	v, ok := m[n+strings.Repeat("'", e)]
	return v, ok
}
func (m mapEnv) Param(n string) (int64, bool) { v, ok := m[n]; return v, ok }
func (m mapEnv) Apply(fn string, args []*Expr) (int64, error) {
	return 0, errors.New("no functions")
}

func itoa(i int64) string { return Int(i).String() }

func op(o string, args ...*Expr) *Expr { return &Expr{Op: o, Args: args} }
func g(n string) *Expr                 { return &Expr{Op: "global", Name: n} }
func l(n string, e int) *Expr          { return &Expr{Op: "local", Name: n, Event: e} }
func sel(n string, i *Expr) *Expr      { return &Expr{Op: "select", Name: n, Args: []*Expr{i}} }

func TestEval(t *testing.T) {
	t.Parallel()
	env := mapEnv{"x": -7, "z": 2, "v": 3, "v'": 3, "a[1]": 9, "N": 4, "big": 1 << 62}
	cases := []struct {
		e    *Expr
		text string
		want int64
		err  bool
	}{
		{op("<=", g("z"), Int(-2)), "z <= -2", 0, false},
		{op("==", l("v", 0), l("v", 1)), "v == v'", 1, false},
		{op("div", g("x"), g("z")), "div(x, z)", -4, false}, // Euclidean
		{op("mod", g("x"), g("z")), "mod(x, z)", 1, false},
		{op("/", g("x"), g("z")), "x / z", -3, false}, // truncated
		{op("%", g("x"), g("z")), "x % z", -1, false},
		{op("div", g("x"), Int(0)), "div(x, 0)", 0, true},
		{op("+", g("big"), g("big"), g("big")), "big + big + big", 0, true}, // beyond int64
		{op("<", op("+", g("big"), g("big"), g("big")), Int(0)), "big + big + big < 0", 0, false},
		{op("==", &Expr{Op: "select", Name: "a", Args: []*Expr{Int(1)}}, Int(9)), "a[1] == 9", 1, false},
		{op("==", &Expr{Op: "select", Name: "a", Args: []*Expr{Int(5)}}, Int(9)), "a[5] == 9", 0, true},
		{op("&&", op(">", g("N"), Int(3)), op("!", op("==", g("z"), Int(0)))), "N > 3 && !(z == 0)", 1, false},
		{op("-", op("-", g("z"), Int(1)), Int(1)), "z - 1 - 1", 0, false},
		{op("-", g("z"), op("-", Int(1), Int(1))), "z - (1 - 1)", 2, false},
		{op("||", op("<", g("q"), Int(0)), op("true")), "q < 0 || true", 1, false}, // decided despite the unknown name
		{op("&&", op("<", g("q"), Int(0)), op("true")), "q < 0 && true", 0, true},  // not decided: error
		{op("&&", op("==", &Expr{Op: "select", Name: "a", Args: []*Expr{Int(-1)}}, Int(0)), op("false")), "a[-1] == 0 && false", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			if got := tc.e.String(); got != tc.text {
				t.Errorf("text %q, want %q", got, tc.text)
			}
			v, err := tc.e.Eval(env)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error: %v", err, tc.err)
			}
			if err == nil && v != tc.want {
				t.Errorf("value %d, want %d", v, tc.want)
			}
		})
	}
}

func TestMarshalParse(t *testing.T) {
	t.Parallel()
	p := compile(t, "../testdata/fig1.blk", "")
	f := Skeleton(p)
	c := op("<=", g("z"), Int(-1))
	f.Pairs = append(f.Pairs, Pair{A: "p", B: "q", Status: Conditional, Exact: true,
		Constraints: []Constraint{{Text: c.String(), SMTLIB: "(<= z (- 1))", Globals: c.Globals(), Expr: c}},
		NoOverflow:  op("<=", g("x"), Int(5)), NoOverflowKind: Interval})
	data, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	data2, _ := Marshal(again)
	if string(data) != string(data2) {
		t.Errorf("round trip changed the file:\n%s\n---\n%s", data, data2)
	}
	if pr, swapped := again.Pair("q", "p"); pr == nil || !swapped || pr.Constraints[0].Globals[0] != "z" {
		t.Errorf("Pair(q, p) = %v, %v", pr, swapped)
	}
	bad := []struct{ name, edit, want string }{
		{"version", `"version": 4`, "version"},
		{"version1", `"version": 4`, "synthesize the file again"},
		{"version2kind", `"version": 4`, "version 3 added it"},
		{"block", `"a": "p"`, "unknown block"},
		{"status", `"status": "conditional"`, "unknown status"},
		{"op", `"op":"<="`, "unknown operator"},
		{"kind", `"no_overflow_kind": "interval"`, "no_overflow_kind"},
		{"nokind", `,
      "no_overflow_kind": "interval"`, "no_overflow_kind"},
	}
	repl := map[string]string{"version": `"version": 99`, "version1": `"version": 1`, "version2kind": `"version": 2`, "block": `"a": "nope"`,
		"status": `"status": "maybe"`, "op": `"op":"<=>"`, "kind": `"no_overflow_kind": "tight"`, "nokind": ``}
	for _, b := range bad {
		mut := strings.Replace(string(data), b.edit, repl[b.name], 1)
		if _, err := Parse([]byte(mut)); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: err = %v, want %q", b.name, err, b.want)
		}
	}
	// A version 2 file wrote exact guards without their kind.
	v2 := strings.Replace(strings.Replace(string(data), `"version": 4`, `"version": 2`, 1), `,
      "no_overflow_kind": "interval"`, "", 1)
	if old, err := Parse([]byte(v2)); err != nil {
		t.Errorf("version 2: %v", err)
	} else if pr, _ := old.Pair("p", "q"); pr.NoOverflowKind != Exact || old.Version != FormatVersion {
		t.Errorf("version 2: kind %q, version %d; want %q, %d", pr.NoOverflowKind, old.Version, Exact, FormatVersion)
	}
	if _, err := Parse([]byte(`{"version": 1, "extra": true}`)); err == nil {
		t.Error("unknown field accepted")
	}
	// A version 3 file is read (it had no let); a let in one is refused,
	// as a ref to no definition is in any file.
	v3 := strings.Replace(string(data), `"version": 4`, `"version": 3`, 1)
	if old, err := Parse([]byte(v3)); err != nil || old.Version != FormatVersion {
		t.Errorf("version 3: %v", err)
	}
	x := g("x")
	f.Pairs[0].NoOverflow = &Expr{Op: "let", Defs: []Def{{"$1", op("+", x, Int(1))}}, Args: []*Expr{op("<=", &Expr{Op: "ref", Name: "$1"}, Int(5))}}
	withLet, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(withLet); err != nil {
		t.Errorf("a guard with a let: %v", err)
	}
	if _, err := Parse(bytes.Replace(withLet, []byte(`"version": 4`), []byte(`"version": 3`), 1)); err == nil || !strings.Contains(err.Error(), "version 4 added it") {
		t.Errorf("a let in a version 3 file: err = %v", err)
	}
	if _, err := Parse(bytes.Replace(withLet, []byte(`"name":"$1"}`), []byte(`"name":"$2"}`), 1)); err == nil || !strings.Contains(err.Error(), "no definition") {
		t.Errorf("a ref to no definition: err = %v", err)
	}
}

// TestMarshalLayout: the file is the same JSON as encoding/json writes
// (compacted, byte for byte), indented as json.Indent does, but for the
// expression trees, each on one line; strings holding quotes, backslashes
// and what looks like a key do not confuse the layout.
func TestMarshalLayout(t *testing.T) {
	t.Parallel()
	p := compile(t, "../testdata/fig1.blk", "")
	f := Skeleton(p)
	f.Program = `dir "expr": {[x]}\\y.blk`
	c := op("&&", op("<=", g("z"), Int(-1)), op("==", g("x"), op("+", g("z"), Int(1))))
	f.Pairs = append(f.Pairs, Pair{A: "p", B: "q", Status: Conditional, Exact: true, NoOverflow: op("<=", g("x"), Int(5)),
		Constraints: []Constraint{NewConstraint(c)}})
	data, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	e.SetEscapeHTML(false)
	if err := e.Encode(f); err != nil {
		t.Fatal(err)
	}
	plain := enc.Bytes()
	var a, b bytes.Buffer
	if err := json.Compact(&a, data); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	json.Compact(&b, plain)
	if a.String() != b.String() {
		t.Errorf("not the same JSON:\n%s\n%s", a.String(), b.String())
	}
	var want bytes.Buffer
	json.Indent(&want, plain, "", "  ")
	lines := strings.Split(string(data), "\n")
	for _, key := range []string{`"expr": `, `"no_overflow": `} {
		n := 0
		for _, l := range lines {
			if i := strings.Index(l, key); i >= 0 && strings.HasPrefix(strings.TrimSpace(l), key) {
				n++
				tree := l[i+len(key):]
				if !json.Valid([]byte(tree)) || !strings.HasPrefix(tree, "{") {
					t.Errorf("%s not one compact tree on its line: %s", key, l)
				}
			}
		}
		if n == 0 {
			t.Errorf("no %s line in\n%s", key, data)
		}
	}
	// Outside the trees, the lines are json.Indent's.
	var wantLines []string
	for _, l := range strings.Split(want.String(), "\n") {
		if !strings.Contains(l, `"op"`) && !strings.Contains(l, `"args"`) && !strings.Contains(l, `"name"`) && !strings.Contains(l, `"value"`) && !strings.Contains(l, `"expr"`) && !strings.Contains(l, `"no_overflow"`) && strings.Trim(l, " {}[],") != "" {
			wantLines = append(wantLines, l)
		}
	}
	for _, l := range wantLines {
		if !slices.Contains(lines, l) && !slices.Contains(lines, l+",") && !slices.Contains(lines, strings.TrimSuffix(l, ",")) {
			t.Errorf("line %q of json.Indent's layout is missing", l)
		}
	}
	if !strings.HasSuffix(string(data), "}\n") {
		t.Error("no final newline")
	}
}

// TestHoldsFastPath compares Holds (int64 fast path, big fallback) with
// the big-integer evaluation on random expressions whose values reach the
// int64 limits.
func TestHoldsFastPath(t *testing.T) {
	env := mapEnv{"x": -7, "z": 2, "big": math.MaxInt64, "small": math.MinInt64, "a[1]": 9}
	r := rand.New(rand.NewPCG(1, 2))
	leaves := []*Expr{Int(0), Int(1), Int(-1), Int(2), Int(-3), Int(math.MaxInt64), Int(math.MinInt64), {Op: "global", Name: "x"}, {Op: "global", Name: "big"},
		{Op: "global", Name: "small"}, {Op: "global", Name: "nope"}, {Op: "select", Name: "a", Args: []*Expr{Int(1)}}, {Op: "true"}, {Op: "false"}}
	ops := []string{"+", "-", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "!", "*", "ite", "%", "/", "div", "mod"}
	var gen func(d int) *Expr
	gen = func(d int) *Expr {
		if d == 0 || r.IntN(3) == 0 {
			return leaves[r.IntN(len(leaves))]
		}
		op := ops[r.IntN(len(ops))]
		switch op {
		case "!":
			return &Expr{Op: op, Args: []*Expr{gen(d - 1)}}
		case "ite":
			return &Expr{Op: op, Args: []*Expr{gen(d - 1), gen(d - 1), gen(d - 1)}}
		case "-":
			if r.IntN(3) == 0 {
				return &Expr{Op: op, Args: []*Expr{gen(d - 1)}}
			}
		}
		n := 2
		if op == "+" || op == "&&" || op == "||" {
			n += r.IntN(2)
		}
		e := &Expr{Op: op}
		for range n {
			e.Args = append(e.Args, gen(d-1))
		}
		return e
	}
	fast := 0
	for i := 0; i < 40000; i++ {
		e := gen(4)
		got, gerr := e.Holds(env)
		v, werr := e.eval(env)
		want := werr == nil && v.Sign() != 0
		if got != want || (gerr == nil) != (werr == nil) {
			t.Fatalf("%s: Holds = %v, %v; big evaluation %v, %v", e, got, gerr, v, werr)
		}
		if _, ok, _ := e.eval64(env); ok {
			fast++
		}
	}
	if fast < 10000 {
		t.Errorf("the fast path decided only %d of 40000 expressions", fast)
	}
}

// TestParseLocatesJSONProblems: a file that is not the IC format's JSON is
// refused with where and what, in the file's terms (not Go's types).
func TestParseLocatesJSONProblems(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"{\"version\": 2,\n ,}", "line 2, col 2: invalid character ','"},
		{"x", "line 1, col 1: invalid character 'x'"},
		{"{\"version\": 2,\n \"pairs\": [{\"constraints\": [{\"expr\": {\"value\": true}}]}]}", "line 2, col 48: want an integer for pairs.constraints.expr.value, got bool"},
		{"{\"version\": \"2\"}", "line 1, col 13: want an integer for version, got string"},
		{"{\"version\": 2, \"pairs\": {}}", "line 1, col 25: want a list for pairs, got object"},
		{"{\"version\": 2, \"pairs\": [", "the file ends before the JSON does"},
		{"", "the file ends before the JSON does"},
		{"{\"version\": 2,\n \"zork\": 1}", "line 2, col 11: unknown field \"zork\""},
		{"{\"version\": 2}\n junk", "line 2, col 2: text after the JSON object"},
	} {
		_, err := Parse([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "int64") {
			t.Errorf("Parse(%q) = %v, want %q", tc.data, err, tc.want)
		}
	}
}

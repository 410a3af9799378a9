package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

const fig1 = "../../testdata/fig1.blk"

func TestAuditFormats(t *testing.T) {
	t.Parallel()
	runCases(t, []cliCase{
		{"text", []string{"audit", fig1}, 0, []string{
			"testdata/fig1.blk: 3 blocks, 6 pairs: 4 always, 2 conditional, 0 never, 0 unknown",
			"p  always       conditional  always",
			"q  conditional  always       conditional",
			"r  always       conditional  always",
			"(p, q') conditional: commutes where {z <= -1} [exact]",
			"witness: the orders end in different states (z)",
			"start", "p; q'", "q'; p",
			"* z",
			"(q, r') conditional: commutes where {x == z, z <= -2, z >= 0} [exact]",
			"witness: the orders end in different states",
			"* z",
		}, nil},
		{"md", []string{"audit", "--format", "md", fig1}, 0, []string{
			"# Audit of `../../testdata/fig1.blk`",
			"| | `p` | `q` | `r` |",
			"| `p` | always | conditional | always |",
			"## `(p, q')`: conditional",
			"Commutes where: `z <= -1`. Exact.",
			"| | start | `p; q'` | `q'; p` |",
			"| `z` | 0 | **",
			"## `(q, r')`: conditional",
			"Commutes where: `x == z`, `z <= -2`, `z >= 0`. Exact.",
		}, nil},
		{"json", []string{"audit", "--format", "json", fig1}, 0, []string{
			`"matrix": [`, `"always"`, `"conditional"`, `"class": "conditional"`, `"constraints": [`, `"z <= -1"`, `"witness": {`, `"kind": "differ"`, `"differ": true`,
		}, nil},
		{"fib with a param", []string{"audit", "-D", "N=3", fig1[:len(fig1)-8] + "fib.blk"}, 0, []string{
			"with N=3: 2 blocks, 3 pairs: 2 always, 1 conditional",
			"(res, res') conditional: commutes where {nr > 0, v == v'}",
			"witness: the orders end in different states",
		}, nil},
		{"bad format", []string{"audit", "--format", "yaml", fig1}, 2, nil, []string{`--format "yaml": want text, md or json`}},
		{"bad define", []string{"audit", "-D", "Q=1", fig1}, 2, nil, []string{"no param or global named Q"}},
		{"syntax error is located", []string{"audit", "../../testdata/bad/" + firstBad(t)}, 2, nil, []string{":", "^"}},
		{"help", []string{"audit", "--help"}, 0, []string{"commutativity matrix", "Examples:", "icgen audit testdata/fig1.blk"}, nil},
	})
}

// firstBad names a malformed program of testdata/bad.
func firstBad(t *testing.T) string {
	files, _ := filepath.Glob("../../testdata/bad/*.blk")
	if len(files) == 0 {
		t.Fatal("no testdata/bad programs")
	}
	return filepath.Base(files[0])
}

type witnessOut struct {
	Kind  string `json:"kind"`
	Start []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"start"`
}

// runWitness builds the start state of a witness of the pair (a, b) in the
// interpreter and runs both orders; it reports whether they end alike.
func runWitness(t *testing.T, m *interp.Machine, a, b string, w witnessOut) (st *interp.State, alike bool) {
	t.Helper()
	vals := map[string]int64{}
	for _, v := range w.Start {
		n, err := strconv.ParseInt(v.Value, 10, 64)
		if err != nil {
			t.Fatalf("witness value %s = %q", v.Name, v.Value)
		}
		vals[v.Name] = n
	}
	store := make([]int64, m.Locs())
	for l := range store {
		store[l] = vals[m.LocName(interp.Loc(l))]
	}
	ba, bb := m.Prog.Block(a), m.Prog.Block(b)
	locals := func(bl *lang.Block, prime string) []int64 {
		out := make([]int64, len(bl.Proc.Locals))
		for _, v := range bl.Point.Live {
			out[v.Index] = vals[v.Name+prime]
		}
		return out
	}
	st = m.PairState(store, ba, locals(ba, ""), bb, locals(bb, "'"))
	if !st.Enabled(0) || !st.Enabled(1) {
		t.Fatalf("(%s, %s): a block is not enabled in the witness", a, b)
	}
	order := func(first, second int) (*interp.State, bool) {
		s := st.Clone()
		if ev := s.Step(first); ev.Err != nil || !s.Enabled(second) {
			return s, false
		}
		return s, s.Step(second).Err == nil
	}
	ab, ok1 := order(0, 1)
	bA, ok2 := order(1, 0)
	return st, ok1 && ok2 && ab.Equal(bA)
}

func fig1Machine(t *testing.T) *interp.Machine {
	src, err := os.ReadFile(fig1)
	if err != nil {
		t.Fatal(err)
	}
	p, errs := lang.Compile(fig1, src)
	if errs != nil {
		t.Fatal(errs)
	}
	m, err := interp.New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAuditWitnessesRun runs every witness of the Fig. 1 audit in the
// interpreter: the orders must really end in different states.
func TestAuditWitnessesRun(t *testing.T) {
	t.Parallel()
	out, errOut, code := icgen("audit", "--format", "json", fig1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Pairs []struct {
			A, B        string
			Class       string
			Constraints []string
			Witness     *witnessOut
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	m := fig1Machine(t)
	want := map[string]string{"p/p": "always", "p/q": "conditional", "p/r": "always", "q/q": "always", "q/r": "conditional", "r/r": "always"}
	for _, p := range r.Pairs {
		k := p.A + "/" + p.B
		if p.Class != want[k] {
			t.Errorf("(%s, %s) is %s, want %s", p.A, p.B, p.Class, want[k])
		}
		if p.Class == "always" {
			if p.Witness != nil {
				t.Errorf("(%s, %s) always commutes, yet has a witness", p.A, p.B)
			}
			continue
		}
		if p.Witness == nil || p.Witness.Kind != "differ" {
			t.Fatalf("(%s, %s): witness %+v", p.A, p.B, p.Witness)
		}
		if _, alike := runWitness(t, m, p.A, p.B, *p.Witness); alike {
			t.Errorf("(%s, %s): the witness %+v runs alike in both orders", p.A, p.B, p.Witness.Start)
		}
	}
}

// editedICs writes fig1's synthesized IC file, and copies of it changed by
// edit, into dir.
func editedICs(t *testing.T, dir string, edits map[string]func(*ic.File)) map[string]string {
	t.Helper()
	good := filepath.Join(dir, "fig1.ic.json")
	if _, errOut, code := icgen("synth", "-q", "-o", good, fig1); code != 0 {
		t.Fatalf("synth: %s", errOut)
	}
	out := map[string]string{"good": good}
	for name, edit := range edits {
		data, _ := os.ReadFile(good)
		f, err := ic.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		edit(f)
		data, _ = ic.Marshal(f)
		path := filepath.Join(dir, name+".ic.json")
		os.WriteFile(path, data, 0o644)
		out[name] = path
	}
	return out
}

// constraint finds the constraint with the given text.
func constraint(f *ic.File, text string) *ic.Constraint {
	for i := range f.Pairs {
		for j := range f.Pairs[i].Constraints {
			if c := &f.Pairs[i].Constraints[j]; c.Text == text {
				return c
			}
		}
	}
	return nil
}

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := editedICs(t, dir, map[string]func(*ic.File){
		// z <= -1 becomes z <= 0 in all its forms, as a careful hand edit.
		"weak": func(f *ic.File) {
			c := constraint(f, "z <= -1")
			zero := int64(0)
			c.Expr.Args[1].Value = &zero
			c.Text, c.SMTLIB = c.Expr.String(), ic.SMTLIB(c.Expr)
		},
		// Only the text changes: the forms disagree.
		"text": func(f *ic.File) { constraint(f, "z <= -1").Text = "z <= 0" },
		// W(r) loses z.
		"w": func(f *ic.File) { f.Block("r").W = []string{"x"} },
		// A local the block does not have.
		"name": func(f *ic.File) {
			c := constraint(f, "x == z")
			c.Expr.Args[0] = &ic.Expr{Op: "local", Name: "v", Event: 1}
		},
		"stale": func(f *ic.File) { f.Hash = strings.Repeat("0", 64) },
	})
	bad := filepath.Join(dir, "bad.ic.json")
	os.WriteFile(bad, []byte(`{"version": 1, "pairs": [`), 0o644)
	// p's loop, bounded by a param, makes F(p, q) inexact: the claim is not
	// proven, and no run shows the orders differ (they commute), so it is
	// not unsound either. With a literal bound the loop is unrolled, F is
	// exact and the claim proven.
	loop := filepath.Join(dir, "loop.blk")
	os.WriteFile(loop, []byte("param N = 3;\nglobal int x = 0;\nproc p() { int i = 0; while (i < N) { x = x + 1; i = i + 1; } }\nproc q() { x = x + 2; }\ncommute p, q;\ninit { spawn p(); spawn q(); }\n"), 0o644)
	counted := filepath.Join(dir, "counted.blk")
	os.WriteFile(counted, []byte("global int x = 0;\nproc p() { int i = 0; while (i < 3) { x = x + 1; i = i + 1; } }\nproc q() { x = x + 2; }\ncommute p, q;\ninit { spawn p(); spawn q(); }\n"), 0o644)
	runCases(t, []cliCase{
		{"inexact F: unknown, not unsound", []string{"check", loop}, 1,
			[]string{"I(p, q'): true: unknown", "1 constraint: 0 proven, 0 unsound, 1 unknown, 0 invalid"}, nil},
		{"counted loop: proven", []string{"check", counted}, 0,
			[]string{"I(p, q'): true: proven where no_overflow holds", "1 constraint: 1 proven (1 where no_overflow holds), 0 unsound, 0 unknown, 0 invalid"}, nil},
		{"synthesized file passes", []string{"check", "--ics", files["good"], fig1}, 0,
			// q reads and copies: (q, q') cannot overflow; every other pair adds.
			[]string{"I(p, q'): z <= -1: proven where no_overflow holds\n", "I(q, q'): true: proven\n", "I(q, r'): x == z: proven where no_overflow holds\n",
				"8 constraints: 8 proven (7 where no_overflow holds), 0 unsound, 0 unknown, 0 invalid; W(b) sound"}, nil},
		{"weakened constraint", []string{"check", "--ics", files["weak"], fig1}, 1,
			[]string{"I(p, q'): z <= 0: unsound", "witness: the orders end in different states (z)", "* z", "I(q, r'): x == z: proven",
				"8 constraints: 7 proven (6 where no_overflow holds), 1 unsound, 0 unknown, 0 invalid; W(b) sound"}, nil},
		{"text differs from expr", []string{"check", "--ics", files["text"], fig1}, 1,
			[]string{"I(p, q'): z <= -1: proven", `inconsistent: its text "z <= 0" is not its expression, z <= -1`, "1 inconsistent"}, nil},
		{"W lacks a global", []string{"check", "--ics", files["w"], fig1}, 1,
			[]string{"W(r): unsound: lacks {z}", "1 W(b) set unsound"}, nil},
		{"unknown local", []string{"check", "--ics", files["name"], fig1}, 1,
			[]string{"I(q, r'): v' == z: invalid: v' is not a local live at the start of block r"}, nil},
		{"stale file", []string{"check", "--ics", files["stale"], fig1}, 2, nil, []string{"was made for another version of", "run icgen synth again"}},
		{"not an IC file", []string{"check", "--ics", bad, fig1}, 2, nil, []string{"bad.ic.json: not an IC file"}},
		{"missing file", []string{"check", "--ics", filepath.Join(dir, "nope.json"), fig1}, 2, nil, []string{"nope.json: no such file"}},
		{"no --ics, no declarations", []string{"check", fig1}, 2, nil, []string{"declares no commute and --ics was not given"}},
		{"help", []string{"check", "--help"}, 0, []string{"is proven again with Z3", "Examples:", "icgen check"}, nil},
	})

	// --json says which proofs need the overflow guard, as the text does.
	out, _, code := icgen("check", "--json", "--ics", files["good"], fig1)
	var good struct {
		Constraints []struct {
			A, B, Text, Verdict string
			Guard               bool `json:"needs_no_overflow"`
		}
	}
	if err := json.Unmarshal([]byte(out), &good); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	for _, c := range good.Constraints {
		if c.Verdict != "proven" || c.Guard != (c.A != "q" || c.B != "q") {
			t.Errorf("I(%s, %s') %s: %s, needs_no_overflow %v", c.A, c.B, c.Text, c.Verdict, c.Guard)
		}
	}

	// The counterexample, run in the interpreter: z <= 0 holds there and
	// the orders end in different states.
	out, _, code = icgen("check", "--json", "--ics", files["weak"], fig1)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var r struct {
		Sound       bool `json:"sound"`
		Constraints []struct {
			A, B, Text, Verdict string
			Witness             *witnessOut
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Sound {
		t.Error("the report says sound")
	}
	m := fig1Machine(t)
	found := false
	for _, c := range r.Constraints {
		if c.Verdict != "unsound" {
			continue
		}
		found = true
		if c.Text != "z <= 0" || c.Witness == nil {
			t.Fatalf("unsound: %+v", c)
		}
		st, alike := runWitness(t, m, c.A, c.B, *c.Witness)
		if alike {
			t.Errorf("the counterexample %+v runs alike in both orders", c.Witness.Start)
		}
		z := st.Value(0 + 1) // x, z
		if m.LocName(1) != "z" || z > 0 {
			t.Errorf("the counterexample does not satisfy z <= 0: %v", c.Witness.Start)
		}
	}
	if !found {
		t.Error("no unsound constraint in the JSON report")
	}
}

func TestCompletionVisible(t *testing.T) {
	t.Parallel()
	out, _, code := icgen("--help")
	if code != 0 || !strings.Contains(out, "completion") || !strings.Contains(out, "audit") || !strings.Contains(out, "check") {
		t.Errorf("--help, exit %d:\n%s", code, out)
	}
	out, _, code = icgen("completion", "bash")
	if code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash, exit %d:\n%.300s", code, out)
	}
}

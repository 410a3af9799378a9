package ic

import (
	"encoding/json"
	"os"
	"testing"
)

// TestSchemaCoversFile checks that every key the writer emits is declared
// in docs/ic-format.schema.json, so the schema and the code cannot drift.
func TestSchemaCoversFile(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../docs/ic-format.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	var collect func(v any)
	collect = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for k := range props {
					declared[k] = true
				}
			}
			for _, x := range v {
				collect(x)
			}
		case []any:
			for _, x := range v {
				collect(x)
			}
		}
	}
	collect(schema)

	p := compile(t, "../testdata/fig1.blk", "")
	f := Skeleton(p)
	c := op("&&", op("<=", g("z"), Int(-1)), &Expr{Op: "apply", Name: "loop:p:1:1.x", Sort: "bool", Args: []*Expr{&Expr{Op: "local", Name: "v", Event: 1}}})
	f.Functions = []Function{{Name: "loop:p:1:1.x", Kind: FnValue, Proc: "p", Line: 1, Col: 1, Out: "x", Ins: []string{"v"}}}
	f.Invariants = []Constraint{NewConstraint(op(">=", g("z"), Int(-2)))}
	f.Shard = &Shard{Index: 1, Count: 2, Total: 6, Pairs: []int{1}, Options: map[string]string{"budget": "0", "check_timeout": "2s", "encoding": "merged", "guard": "interval", "rlimit": "0", "timeout": "30s"}}
	f.Pairs = []Pair{{A: "p", B: "q", Status: Unknown, Reason: "r", Notes: []string{"n"}, NoOverflowKind: Exact,
		NoOverflow:  &Expr{Op: "let", Defs: []Def{{"$1", g("z")}}, Args: []*Expr{op("&&", c, op("<=", &Expr{Op: "ref", Name: "$1"}, Int(0)))}},
		Constraints: []Constraint{{Text: c.String(), SMTLIB: SMTLIB(c), Declare: c.Declarations(), Globals: c.Globals(), Expr: c}}}}
	data, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var file any
	json.Unmarshal(data, &file)
	var check func(v any)
	check = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !declared[k] {
					t.Errorf("key %q is written but not in the schema", k)
				}
				check(x)
			}
		case []any:
			for _, x := range v {
				check(x)
			}
		}
	}
	check(file)
}

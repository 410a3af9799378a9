package synth

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// TestGuardOrders checks the algorithms that use ICs against dfs on small
// programs whose updates commute over the integers but overflow in some
// orders only (guardShapes), from starts with x at and near the ends of
// int64. Each pair's constraint is true there, and its overflow guard is
// what tells the orders apart: a race is uniform only where the guard
// holds and no other process may write what it reads (dporrt's icHolds),
// or where no run can overflow (dporrt's OverflowFree). The same IC file
// serves every start, as in the random differential test's edge starts;
// these fail where those did not (generated programs rarely have an
// overflow that some orders avoid): U⇒ asking nothing of the guards'
// globals, the guard taken as true, or the overflow proof taken as
// holding, each makes cdpor, codpor and codpor-ob miss a final state or an
// overflow of dfs's. On each start it also holds codpor to cdpor's and
// odpor-cs's complete traces, and codpor-ob to odpor-cs-ob's (neverWorse).
func TestGuardOrders(t *testing.T) {
	t.Parallel()
	shapes := guardShapes()
	starts := []int64{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 - 2, math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 2, 0}
	runs, overflows := 0, 0
	for _, src := range shapes {
		p, errs := lang.Compile("guard.blk", []byte(src))
		if errs != nil {
			t.Fatalf("shape does not compile:\n%s\n%s", errs.Format([]byte(src)), src)
		}
		ics, _, err := Run(context.Background(), p, randomPair)
		if err != nil {
			t.Fatalf("synth: %v\n%s", err, src)
		}
		for _, x := range starts {
			start := map[string]int64{"x": x}
			m, err := interp.New(p, start)
			if err != nil {
				t.Fatalf("x = %d: %v\n%s", x, err, src)
			}
			oracle, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.DFS})
			if err != nil {
				t.Fatal(err)
			}
			runs++
			if slices.ContainsFunc(oracle.Findings, func(f dporrt.Finding) bool { return f.Error != nil && f.Error.Kind == interp.ErrOverflow }) {
				overflows++
			}
			name := fmt.Sprintf("x = %d", x)
			checkICAlgorithms(t, name, src, p, m, oracle, ics)
			neverWorse(t, name, src, m, ics)
		}
	}
	t.Logf("%d programs, %d starts, %d with an overflow", len(shapes), runs, overflows)
	if overflows == 0 || overflows == runs {
		t.Errorf("%d of %d starts overflow: the starts no longer tell the orders apart", overflows, runs)
	}
}

// guardShapes returns the programs of TestGuardOrders. Three processes
// each run one block over x from a menu: add 1, -1 or 2, or add ±1 or ±2
// and take it back (the block changes nothing where it does
// not overflow, so it commutes with every other, and only its guard sees
// the others' writes). Every ordered triple with mixed signs or a block
// that takes back is there: the explored order follows the process ids.
// Besides, guard-float's shape (testdata/regress/guard-float.blk): one
// process adds y to x and takes it back, one adds 1 to x, one sets y.
func guardShapes() []string {
	type block struct {
		code string
		sign int // of what it adds; 0 where it takes it back
	}
	menu := []block{{"x = x + 1;", 1}, {"x = x - 1;", -1}, {"x = x + 2;", 1},
		{"x = x + 1; x = x - 1;", 0}, {"x = x - 1; x = x + 1;", 0}, {"x = x + 2; x = x - 2;", 0}, {"x = x - 2; x = x + 2;", 0}}
	var out []string
	for _, a := range menu {
		for _, b := range menu {
			for _, c := range menu {
				d := []block{a, b, c}
				if a.sign != 0 && a.sign == b.sign && b.sign == c.sign {
					continue // all add, of one sign: every order ends alike
				}
				var sb strings.Builder
				sb.WriteString("global int x = 0;\n")
				for i, k := range d {
					fmt.Fprintf(&sb, "proc p%d() { %s }\n", i, k.code)
				}
				sb.WriteString("init {\n  spawn p0();\n  spawn p1();\n  spawn p2();\n}\n")
				out = append(out, sb.String())
			}
		}
	}
	for _, y := range []string{"1", "-9223372036854775807 - 1", "9223372036854775807"} {
		out = append(out, fmt.Sprintf(`global int x = 0, y = 0;
proc a() { x = x + y; x = x - y; }
proc b() { x = x + 1; }
proc w() { y = %s; }
init {
  spawn a();
  spawn b();
  spawn w();
}
`, y))
	}
	return out
}

// neverWorse checks, on machine m, that codpor explores no more complete
// traces than cdpor and odpor-cs, and codpor-ob no more than odpor-cs-ob:
// met on these programs, not on every generated one (docs/algorithms.md,
// codpor).
func neverWorse(t *testing.T, name, src string, m *interp.Machine, ics *ic.File) {
	t.Helper()
	traces := map[dporrt.Algorithm]int{}
	for _, a := range []dporrt.Algorithm{dporrt.CDPOR, dporrt.ODPCS, dporrt.CODPOR, dporrt.ODPCSO, dporrt.CODPOB} {
		o := dporrt.Options{Algo: a}
		if info, _ := dporrt.Lookup(a); info.NeedsICs {
			o.ICs = ics
		}
		r, err := dporrt.Explore(context.Background(), m, o)
		if err != nil {
			t.Fatalf("%s: %s: %v", name, a, err)
		}
		traces[a] = r.Traces
	}
	for _, c := range [][2]dporrt.Algorithm{{dporrt.CODPOR, dporrt.CDPOR}, {dporrt.CODPOR, dporrt.ODPCS}, {dporrt.CODPOB, dporrt.ODPCSO}} {
		if traces[c[0]] > traces[c[1]] {
			t.Errorf("%s: %s explores %d complete traces, %s %d\n%s", name, c[0], traces[c[0]], c[1], traces[c[1]], src)
		}
	}
}

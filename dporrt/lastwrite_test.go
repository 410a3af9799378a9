package dporrt

import (
	"fmt"
	"testing"
)

// TestObserversLastWrite checks the pruning of odpor-ob under the observer
// dependency on LW(n) (testdata/bench/lw.blk): n writers of x, whose
// writes but the last nobody reads, then one reader. Its n! orders of the
// writes fall into n classes, one per last writer (the ISSTA'19 paper's
// Table 1: ODPOR^ob n, ODPOR_cs^ob 1). odpor-ob must explore each class
// once (each leaves x at its own writer's id), where odpor explores n!,
// and odpor-cs-ob, whose checks see that the writes nobody reads end
// alike, 1.
func TestObserversLastWrite(t *testing.T) {
	p := compileFile(t, "../testdata/bench/lw.blk")
	fact := 1
	for n := 1; n <= 6; n++ {
		fact *= n
		m, err := New(p, map[string]int64{"N": int64(n)})
		if err != nil {
			t.Fatal(err)
		}
		run := func(algo Algorithm, final bool) *Result {
			r, err := Explore(m, Options{Algo: algo, ObserveFinal: final})
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		name := fmt.Sprintf("LW(%d)", n)
		if r := run(ODPOR, false); r.Traces != fact {
			t.Errorf("%s: odpor explores %d traces, want the %d orders of the writes", name, r.Traces, fact)
		}
		ob := run(ODPOB, false)
		if ob.FinalCount != n {
			t.Errorf("%s: odpor-ob reaches %d final states, want one per last writer, %d", name, ob.FinalCount, n)
		}
		if ob.Traces != n {
			t.Errorf("%s: odpor-ob explores %d traces, want one per class, %d", name, ob.Traces, n)
		}
		if r := run(ODPCSO, false); r.Traces != 1 {
			t.Errorf("%s: odpor-cs-ob explores %d traces, want 1", name, r.Traces)
		}
	}
}

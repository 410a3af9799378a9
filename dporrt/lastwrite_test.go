package dporrt

import (
	"context"
	"fmt"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
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
	p := testprog.File(t, "../testdata/bench/lw.blk")
	fact := 1
	for n := 1; n <= 6; n++ {
		fact *= n
		m, err := interp.New(p, map[string]int64{"N": int64(n)})
		if err != nil {
			t.Fatal(err)
		}
		run := func(algo Algorithm, final bool) *Result {
			r, err := Explore(context.Background(), m, Options{Algo: algo, ObserveFinal: final})
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

// TestObserversFloatingRead checks odpor-ob and odpor-cs-ob on FR(n) and
// FR-a(n) (testdata/bench/fr.blk, fra.blk): n writers of x and one reader.
// Under observers FR has 1 + n * 2^(n-1) classes (the reader reads the
// initial value, or the store that is last among a set of stores before
// it), which odpor-ob explores once each (the ISSTA'19 paper's ODPOR^ob
// column); odpor-cs-ob, whose checks cover none of FR's reversals, must
// explore no more (it once explored 122 at FR(5), its trees taking the
// plain dependency's weak initials). On FR-a, whose reader's assertion
// holds whatever it reads, odpor-cs-ob explores 1 (the paper's 1).
func TestObserversFloatingRead(t *testing.T) {
	fr := testprog.File(t, "../testdata/bench/fr.blk")
	fra := testprog.File(t, "../testdata/bench/fra.blk")
	traces := func(p *lang.Program, n int, algo Algorithm) int {
		m, err := interp.New(p, map[string]int64{"N": int64(n)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Explore(context.Background(), m, Options{Algo: algo})
		if err != nil {
			t.Fatal(err)
		}
		return r.Traces
	}
	for n := 1; n <= 5; n++ {
		classes := 1 + n*(1<<(n-1))
		if got := traces(fr, n, ODPOB); got != classes {
			t.Errorf("FR(%d): odpor-ob explores %d traces, want the %d classes", n, got, classes)
		}
		if got := traces(fr, n, ODPCSO); got > classes {
			t.Errorf("FR(%d): odpor-cs-ob explores %d traces, more than odpor-ob's %d", n, got, classes)
		}
		if got := traces(fra, n, ODPCSO); got != 1 {
			t.Errorf("FR-a(%d): odpor-cs-ob explores %d traces, want 1", n, got)
		}
	}
}

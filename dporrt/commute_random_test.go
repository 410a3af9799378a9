package dporrt

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
)

// commuteProgram generates a small program whose blocks mostly commute:
// they add to shared counters (every pair of them syntactically
// dependent, as in the benchmarks' accumulators), with here and there a
// block whose outcome depends on the order (it copies a counter, tests
// one, asserts on one, or waits for one to reach a value), locals live
// across a yield, and a child spawned to add too. These are the programs
// where the state checks of csdpor and odpor-cs succeed most, and where
// their covers are carried furthest; progen's programs rarely commute. A
// program has at most 11 events, as progen's do, so dfs explores it.
func commuteProgram(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0xc0))
	n := func(k int) int { return r.IntN(k) }
	var b strings.Builder
	fmt.Fprintf(&b, "// commuting program, seed %d\n", seed)
	fmt.Fprintf(&b, "global int c0 = %d, c1 = %d, g = %d;\n", n(3), n(3), n(3)-1)
	// add returns a commuting update.
	add := func(v string) string {
		switch n(5) {
		case 0:
			return "c0 = c0 + " + v + ";"
		case 1:
			return "c1 = c1 + 1;"
		case 2:
			return "c0 = c0 + 1; c1 = c1 + " + v + ";"
		case 3:
			return "if (c1 > 50) { c0 = 0; } c0 = c0 + 2;" // never true: commutes
		default:
			return "c1 = c1 + " + v + "; c0 = c0 + 1;"
		}
	}
	// other returns a block body that does not commute with the updates
	// in every state.
	other := func(v string) string {
		switch n(6) {
		case 0:
			return "g = c0;"
		case 1:
			return "if (c0 == " + fmt.Sprint(1+n(4)) + ") { g = g + 1; }"
		case 2:
			return "assert(c1 != " + fmt.Sprint(1+n(4)) + ");"
		case 3:
			return "if (c1 > " + fmt.Sprint(n(4)) + ") { c0 = c0 + " + v + "; } else { c1 = c1 + 1; }"
		case 4:
			return "g = g + c1 - c0;"
		default:
			return "c0 = c0 * 2;"
		}
	}
	events := 0
	child := n(3) == 0
	if child {
		fmt.Fprintf(&b, "proc c(int v) { %s }\n", add("v"))
	}
	procs := 2 + n(3)
	for i := range procs {
		fmt.Fprintf(&b, "proc p%d(int v) {\n", i)
		blocks := 1 + n(2)
		if events+blocks > 9 {
			blocks = 1
		}
		for k := range blocks {
			if k > 0 {
				switch n(4) {
				case 0:
					fmt.Fprintf(&b, "  await(c0 >= %d);\n", n(4))
				case 1:
					fmt.Fprintf(&b, "  int t%d = c1;\n  yield;\n  g = g + t%d;\n", k, k)
				default:
					b.WriteString("  yield;\n")
				}
			}
			body := add("v")
			if n(4) == 0 {
				body = other("v")
			}
			fmt.Fprintf(&b, "  %s\n", body)
			if child && i == 0 && k == 0 {
				b.WriteString("  spawn c(v + 1);\n")
				events++
			}
			events++
		}
		b.WriteString("}\n")
	}
	b.WriteString("init {")
	for i := range procs {
		fmt.Fprintf(&b, " spawn p%d(%d);", i, 1+n(3))
	}
	b.WriteString(" }\n")
	return b.String()
}

// TestDifferentialCommuting compares every algorithm with dfs on generated
// programs whose blocks mostly commute (see commuteProgram): 30 with
// -short, 100 without, more with ICGEN_SOAK=N (internal/testsize).
func TestDifferentialCommuting(t *testing.T) {
	first, last := testsize.Seeds(30, 100)
	for seed := first; seed <= last; seed++ {
		src := commuteProgram(seed)
		m, err := interp.New(testprog.Source(t, src), nil)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		differential(t, fmt.Sprintf("commuting seed %d", seed), m, 100000, nil)
		if t.Failed() {
			t.Fatalf("the program of seed %d:\n%s", seed, src)
		}
	}
}

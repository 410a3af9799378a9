package synth

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// psNodes is testdata/bench/ps.blk with one proc and one pair of scalar
// globals per node instead of the arrays m and got indexed by the node:
// the same puts, forwarding the same values, but the static dependency
// then tells apart what puts to different nodes touch.
func psNodes(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "param N = %d;\n", n)
	for k := range n {
		fmt.Fprintf(&b, "global int m%d = N, got%d = 0;\n", k, k)
	}
	for k := range n {
		fmt.Fprintf(&b, "proc put%d(int v) {\n  int x = m%d;\n  int big = v;\n", k, k)
		fmt.Fprintf(&b, "  if (v < x) { m%d = v; big = x; }\n  got%d = got%d + 1;\n", k, k, k)
		if k+1 < n {
			fmt.Fprintf(&b, "  if (big < N) { spawn put%d(big); }\n", k+1)
		}
		b.WriteString("}\n")
	}
	b.WriteString("init {\n  int i = 0;\n  while (i < N) { spawn put0((i * 263 + 5) % N); i = i + 1; }\n}\n")
	return b.String()
}

// TestPSNodes: on PS with one location per node, and on ps.blk, where the
// static dependency tells apart the cells m[k] and got[k] a put indexes by
// its param k, cdpor and codpor explore 1 complete trace in N(N+1)/2
// states, the puts of one run and nothing else, and reach dfs's final
// states. With every array one location (WholeArrays, the papers'
// dependency), a put to node k and one to node k+1 forwarded by another
// put are dependent on ps.blk, their race is reversed, and both take more
// states (448 and 353 at N = 7). All of it over the paper's mathematical
// integers (AssumeNoOverflow), which dporrt's proof that no run of ps.blk
// overflows gives by default too (Machine.OverflowFree).
func TestPSNodes(t *testing.T) {
	t.Parallel()
	ps, err := os.ReadFile("../testdata/bench/ps.blk")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, 4, 5} {
		for _, src := range []string{psNodes(n), string(ps)} {
			p, errs := lang.Compile(fmt.Sprintf("psnodes%d.blk", n), []byte(src))
			if errs != nil {
				t.Fatalf("N=%d: %s\n%s", n, errs.Format([]byte(src)), src)
			}
			var ics *ic.File
			if src == string(ps) { // the same program at every N
				ics = synthesized(t, "../testdata/bench/ps.blk")
			} else if ics, _, err = Run(context.Background(), p, Options{}); err != nil {
				t.Fatal(err)
			}
			m, err := interp.New(p, map[string]int64{"N": int64(n)})
			if err != nil {
				t.Fatal(err)
			}
			oracle, _ := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: dporrt.DFS, MaxStates: 300000})
			for _, algo := range []dporrt.Algorithm{dporrt.CDPOR, dporrt.CODPOR} {
				r, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: algo, ICs: ics, AssumeNoOverflow: true})
				if err != nil {
					t.Fatal(err)
				}
				if r.Traces != 1 || r.Blocked != 0 || r.States != n*(n+1)/2 {
					t.Errorf("N=%d: %s explores %d complete traces, %d blocked, %d states; want 1, 0, %d\n%s", n, algo, r.Traces, r.Blocked, r.States, n*(n+1)/2, src)
				}
				if ok, why := r.Agrees(oracle); !oracle.Cut && !ok {
					t.Errorf("N=%d: %s differs from dfs: %s", n, algo, why)
				}
				whole, err := dporrt.Explore(context.Background(), m, dporrt.Options{Algo: algo, ICs: ics, WholeArrays: true, AssumeNoOverflow: true})
				if err != nil {
					t.Fatal(err)
				}
				if src == string(ps) && n > 3 && whole.States <= r.States {
					t.Errorf("N=%d: %s with whole arrays explores %d states, not more than with cells (%d)", n, algo, whole.States, r.States)
				}
			}
		}
	}
}

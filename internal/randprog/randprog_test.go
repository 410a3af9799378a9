package randprog

import (
	"strings"
	"testing"

	"github.com/icgen/icgen/lang"
)

func TestGenerate(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	for seed := uint64(1); seed <= 1000; seed++ {
		for _, awaits := range []bool{false, true} {
			src := Generate(seed, Options{Awaits: awaits})
			if _, errs := lang.Compile("gen.blk", []byte(src)); errs != nil {
				t.Fatalf("seed %d does not compile:\n%s\n%s", seed, errs.Format([]byte(src)), src)
			}
			if Generate(seed, Options{Awaits: awaits}) != src {
				t.Fatalf("seed %d: not deterministic", seed)
			}
			if !awaits && strings.Contains(src, "await") {
				t.Fatalf("seed %d: await without Awaits", seed)
			}
			for _, feature := range []string{"await", "spawn", "while", "assert", "a[", "yield", "if ("} {
				if strings.Contains(src, feature) {
					seen[feature]++
				}
			}
		}
	}
	for _, feature := range []string{"await", "spawn", "while", "assert", "a[", "yield", "if ("} {
		if seen[feature] < 100 {
			t.Errorf("only %d programs use %q", seen[feature], feature)
		}
	}
}

package cli

import (
	"io"
	"testing"

	"github.com/spf13/pflag"
)

// TestFlagFloors: every numeric flag of every command has a floor in
// flagFloors, every floor names a flag that exists, and a floor of 0 is
// only for a flag whose help says what 0 means.
func TestFlagFloors(t *testing.T) {
	t.Parallel()
	root := newRoot(&env{stdout: io.Discard, stderr: io.Discard})
	seen := map[string]bool{}
	for _, cmd := range root.Commands() {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !numericFlag(f) {
				return
			}
			key := flagKey(cmd, f)
			seen[key] = true
			floor, ok := flagFloors[key]
			switch {
			case !ok:
				t.Errorf("%s: no floor in flagFloors", key)
			case floor == 0 && zeroMeaning.FindString(f.Usage) == "":
				t.Errorf("%s: 0 is allowed but its help does not say what 0 means: %q", key, f.Usage)
			}
		})
	}
	for key := range flagFloors {
		if !seen[key] {
			t.Errorf("flagFloors has %s, which is no numeric flag", key)
		}
	}
}

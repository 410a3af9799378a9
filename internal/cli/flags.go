package cli

import (
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagFloors is the least value of every numeric flag, by "command/flag".
// A floor of 0 is only for flags whose help says what 0 means ("(0: no
// bound)"); durations with a floor of 1 must be positive. A test checks
// that every numeric flag of every command is listed.
var flagFloors = map[string]int64{
	"synth/jobs":          1,
	"synth/timeout":       0,
	"synth/check-timeout": 1,
	"audit/jobs":          1,
	"audit/timeout":       0,
	"audit/check-timeout": 1,
	"audit/tries":         1,
	"check/check-timeout": 1,
	"check/tries":         1,
	"explore/jobs":        0,
	"explore/max-traces":  0,
	"explore/max-states":  0,
	"explore/timeout":     0,
	"run/max-events":      0,
	"bench/timeout":       1,
	"bench/max-memory":    1,
}

// numericFlag reports whether a flag takes a signed number, which
// flagFloors must bound.
func numericFlag(f *pflag.Flag) bool {
	switch f.Value.Type() {
	case "int", "int64", "duration":
		return true
	}
	return false
}

// zeroMeaning is the "(0: ...)" clause of a flag's help.
var zeroMeaning = regexp.MustCompile(`\(0: [^)]*\)`)

// checkFlags refuses a numeric flag given below its floor, naming the flag
// (flags left at their defaults are not checked: -j's default 0 means one
// worker per CPU).
func checkFlags(cmd *cobra.Command) error {
	var bad error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		floor, ok := flagFloors[flagKey(cmd, f)]
		if !ok || bad != nil || !numericFlag(f) {
			return
		}
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + "/" + name
		}
		var v int64
		if f.Value.Type() == "duration" {
			d, _ := time.ParseDuration(f.Value.String())
			v = int64(d)
		} else {
			v, _ = strconv.ParseInt(f.Value.String(), 10, 64)
		}
		switch {
		case v >= floor:
		case floor == 0:
			bad = badInput("%s %s: must not be negative %s", name, f.Value, zeroMeaning.FindString(f.Usage))
		case f.Value.Type() == "duration":
			bad = badInput("%s %s: must be positive", name, f.Value)
		default:
			bad = badInput("%s %s: must be at least %d", name, f.Value, floor)
		}
	})
	return bad
}

// flagKey names a flag of a command as flagFloors does.
func flagKey(cmd *cobra.Command, f *pflag.Flag) string {
	return fmt.Sprintf("%s/%s", cmd.Name(), f.Name)
}

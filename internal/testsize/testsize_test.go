package testsize

import (
	"flag"
	"testing"
)

// short sets -test.short for the rest of t.
func short(t *testing.T, on bool) {
	t.Helper()
	was := flag.Lookup("test.short").Value.String()
	if err := flag.Set("test.short", map[bool]string{true: "true", false: "false"}[on]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("test.short", was) })
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		name  string
		short bool
		env   string
		want  int
	}{
		{"short", true, "", 40},
		{"full", false, "", 400},
		{"env over short", true, "7", 7},
		{"env over full", false, "1000", 1000},
		{"zero is unset", false, "0", 400},
		{"negative is unset", true, "-1", 40},
		{"env not a number", false, "many", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			short(t, tc.short)
			t.Setenv("ICGEN_TESTSIZE_TEST", tc.env)
			if got := Count("ICGEN_TESTSIZE_TEST", 40, 400); got != tc.want {
				t.Errorf("Count = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestSeeds(t *testing.T) {
	for _, tc := range []struct {
		name        string
		short       bool
		soak, from  string
		first, last uint64
	}{
		{"short", true, "", "", 1, 40},
		{"full", false, "", "", 1, 400},
		{"soak", true, "2000", "", 1, 2000},
		{"soak from", false, "2000", "1771", 1771, 2000},
		{"from alone", true, "", "30", 30, 40},
		{"zero soak is unset", false, "0", "0", 1, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			short(t, tc.short)
			t.Setenv("ICGEN_SOAK", tc.soak)
			t.Setenv("ICGEN_SOAK_FROM", tc.from)
			if first, last := Seeds(40, 400); first != tc.first || last != tc.last {
				t.Errorf("Seeds = %d, %d; want %d, %d", first, last, tc.first, tc.last)
			}
		})
	}
}

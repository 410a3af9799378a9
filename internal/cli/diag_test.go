package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDiagnosticsCap: text diagnostics stop after lang.MaxShown errors
// with a line saying how many more there were, then the total; --json
// lists every error.
func TestDiagnosticsCap(t *testing.T) {
	t.Parallel()
	cases := []struct {
		errors, shown int
		tail          string
	}{
		{100, 100, "    ^\n100 errors\n"},
		{101, 100, "    ^\n... and 1 more error\n101 errors\n"},
		{150, 100, "    ^\n... and 50 more errors\n150 errors\n"},
	}
	located := regexp.MustCompile(`(?m)^\S+many\.blk:\d+:16: invalid character '\$'$`)
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "many.blk")
		if err := os.WriteFile(path, []byte(strings.Repeat("global int x = $;\n", tc.errors)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := icgen("parse", path)
		if code != ExitBadInput || out != "" {
			t.Fatalf("%d errors: exit %d, stdout:\n%s", tc.errors, code, out)
		}
		if got := len(located.FindAllString(errOut, -1)); got != tc.shown {
			t.Errorf("%d errors: %d printed, want %d", tc.errors, got, tc.shown)
		}
		if !strings.HasSuffix(errOut, tc.tail) {
			t.Errorf("%d errors: output ends\n%s\nwant it to end\n%s", tc.errors, errOut[max(0, len(errOut)-120):], tc.tail)
		}
		out, _, code = icgen("parse", "--json", path)
		var d struct {
			Errors []diagJSON `json:"errors"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || code != ExitBadInput || len(d.Errors) != tc.errors {
			t.Errorf("%d errors: --json exit %d, err %v, %d errors", tc.errors, code, err, len(d.Errors))
		}
	}
}

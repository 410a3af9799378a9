package cli

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEConsole runs every command of the README's console blocks
// ("$ icgen ...") and compares its standard output with the lines the
// README shows after it, so the front page stays true.
func TestREADMEConsole(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	blocks := strings.Split(string(data), "```console\n")
	for _, b := range blocks[1:] {
		b, _, _ = strings.Cut(b, "```")
		var cmd string
		var want []string
		check := func() {
			if cmd == "" {
				return
			}
			runs++
			args := strings.Fields(cmd)
			for i, a := range args {
				args[i] = strings.Replace(a, "testdata/", "../../testdata/", 1)
			}
			out, stderr, _ := icgen(args...)
			out = strings.ReplaceAll(out, "../../testdata/", "testdata/")
			if got := strings.TrimRight(out, "\n"); got != strings.TrimRight(strings.Join(want, "\n"), "\n") {
				t.Errorf("README: $ icgen %s\nshows:\n%s\nbut prints:\n%s%s", cmd, strings.Join(want, "\n"), out, stderr)
			}
		}
		for _, line := range strings.Split(b, "\n") {
			if c, ok := strings.CutPrefix(line, "$ icgen "); ok {
				check()
				cmd, want = c, nil
				continue
			}
			want = append(want, line)
		}
		check()
	}
	if runs == 0 {
		t.Error("no console commands found in README.md")
	}
}

package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzParse: Compile never panics; what it accepts satisfies the IR
// invariants and prints; what it rejects has every error inside the file.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"../testdata/*.blk", "../testdata/bad/*.blk"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
	archives, _ := filepath.Glob("testdata/ir/*.txtar")
	for _, a := range archives {
		if ar, err := txtar.ParseFile(a); err == nil {
			for _, file := range ar.Files {
				if file.Name == "input.blk" {
					f.Add(file.Data)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, errs := Compile("fuzz.blk", src)
		if p == nil {
			if len(errs) == 0 {
				t.Fatal("no program and no errors")
			}
			lines := strings.Count(string(src), "\n") + 1
			for _, e := range errs {
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
					t.Fatalf("error %q at %v outside the file", e.Msg, e.Pos)
				}
			}
			_ = errs.Format(src)
			return
		}
		if err := checkIR(p); err != nil {
			t.Fatal(err)
		}
		_ = FormatIR(p)
	})
}

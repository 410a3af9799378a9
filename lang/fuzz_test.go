package lang

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzParse: Compile never panics on any input. What it accepts satisfies
// the IR invariants (checkIR), prints, and prints the same when compiled
// again; what it rejects comes with errors, each inside the file and
// printed with its source line and a caret under its column.
//
// Seeds: every program in ../testdata and ../testdata/bad, the inputs of the
// txtar cases in testdata/ir, and the regression inputs in
// testdata/fuzz/FuzzParse. Run it with
//
//	go test ./lang -run '^$' -fuzz FuzzParse -fuzztime 5m
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"../testdata/*.blk", "../testdata/bad/*.blk"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	archives, _ := filepath.Glob("testdata/ir/*.txtar")
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == "input.blk" {
				f.Add(file.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, errs := Compile("fuzz.blk", src)
		if p == nil {
			if len(errs) == 0 {
				t.Fatal("no program and no errors")
			}
			for i, e := range errs {
				if e.Pos.File != "fuzz.blk" || !e.Pos.IsValid() || e.Pos.Col < 1 {
					t.Fatalf("error %q has position %v", e.Msg, e.Pos)
				}
				if i > 0 && !posLess(errs[i-1].Pos, e.Pos) {
					t.Fatalf("errors not sorted: %v before %v", errs[i-1].Pos, e.Pos)
				}
			}
			if msg := checkFormat(errs, src, errs.Format(src)); msg != "" {
				t.Fatal(msg)
			}
			return
		}
		if len(errs) != 0 {
			t.Fatalf("a program and %d errors", len(errs))
		}
		if err := checkIR(p); err != nil {
			t.Fatal(err)
		}
		ir := FormatIR(p)
		_ = FormatBlocks(p)
		if p2, _ := Compile("fuzz.blk", src); p2 == nil || FormatIR(p2) != ir {
			t.Fatal("compiling twice prints different IR")
		}
	})
}

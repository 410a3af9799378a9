// Package golden compares test output with golden files and txtar
// sections, and rewrites them when tests run with -update. Only tests
// import it.
package golden

import (
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// Update is the -update flag: rewrite golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files")

// File compares got with the golden file at path.
func File(t testing.TB, path, got string) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// Archive is a txtar golden file: inputs and expected sections.
type Archive struct {
	path string
	ar   *txtar.Archive
}

// Open reads a txtar archive.
func Open(t testing.TB, path string) *Archive {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return &Archive{path: path, ar: ar}
}

// Get returns the data of a section (nil when absent).
func (a *Archive) Get(name string) []byte {
	for _, f := range a.ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// Check compares got with section name, or rewrites the section (adding it
// when absent) with -update.
func (a *Archive) Check(t testing.TB, name, got string) {
	t.Helper()
	idx := -1
	for i, f := range a.ar.Files {
		if f.Name == name {
			idx = i
		}
	}
	if *Update {
		if idx < 0 {
			a.ar.Files = append(a.ar.Files, txtar.File{Name: name})
			idx = len(a.ar.Files) - 1
		}
		a.ar.Files[idx].Data = []byte(got)
		if err := os.WriteFile(a.path, txtar.Format(a.ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if idx < 0 {
		t.Fatalf("%s has no -- %s -- section (run go test with -update)", a.path, name)
	}
	if d := cmp.Diff(string(a.ar.Files[idx].Data), got); d != "" {
		t.Errorf("%s, section %s differs (-want +got):\n%s", a.path, name, d)
	}
}

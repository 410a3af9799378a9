package gogen_test

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"testing"

	"github.com/icgen/icgen/internal/gogen"
	"github.com/icgen/icgen/internal/testsize"
)

// TestGenerate: the same seed and tag give the same source; every
// package type-checks, holds a block (a function that locks a mutex), and
// names its seed in its header.
func TestGenerate(t *testing.T) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	first, last := testsize.Seeds(100, 1000)
	for seed := first; seed <= last; seed++ {
		tag := strconv.FormatUint(seed, 10)
		src := gogen.Generate(seed, tag)
		if !bytes.Equal(src, gogen.Generate(seed, tag)) {
			t.Fatalf("seed %d: two sources", seed)
		}
		if !bytes.Contains(src, []byte("gogen.Generate("+tag+", \""+tag+"\")")) {
			t.Fatalf("seed %d: the header does not name the seed:\n%s", seed, src)
		}
		f, err := parser.ParseFile(fset, "gen"+tag+".go", src, 0)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check("gen", fset, []*ast.File{f}, nil); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if !bytes.Contains(src, []byte("t.mu.Lock()\n\tdefer t.mu.Unlock()")) {
			t.Fatalf("seed %d: no block:\n%s", seed, src)
		}
	}
}

// Package testprog compiles the programs tests run: a .blk file of
// testdata, or a source text written in the test. A program that does not
// compile fails the test with the compiler's diagnostics (each with its
// source line and a caret). It imports only lang, so the tests of every
// package may use it, dporrt's included (which must not link Z3). Only
// tests import it.
package testprog

import (
	"os"
	"testing"

	"github.com/icgen/icgen/lang"
)

// File compiles the program file at path.
func File(t testing.TB, path string) *lang.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, errs := lang.Compile(path, src)
	if errs != nil {
		t.Fatal(errs.Format(src))
	}
	return p
}

// Source compiles src as a file named test.blk (the name its diagnostics
// and positions carry).
func Source(t testing.TB, src string) *lang.Program {
	t.Helper()
	return Named(t, "test.blk", src)
}

// Named compiles src as a file named name.
func Named(t testing.TB, name, src string) *lang.Program {
	t.Helper()
	p, errs := lang.Compile(name, []byte(src))
	if errs != nil {
		t.Fatal(errs.Format([]byte(src)))
	}
	return p
}

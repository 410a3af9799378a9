package synth

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
)

// testdataICs holds the IC files of the programs of testdata, by path,
// each synthesized once for all the tests of the package: several check
// the same programs (TestSoundness and TestCDPORDifferential every example
// and regression program, TestBenchPrograms and TestISSTABenchCodporOb
// five benchmarks), and synthesis is most of their time. The tests only
// read the files.
var testdataICs sync.Map // path -> *testdataIC

type testdataIC struct {
	once sync.Once
	f    *ic.File
	err  string
}

// synthesized returns the IC file of the program at path, synthesized
// with no bound and a worker per CPU, so that a long synthesis
// (testdata/regress/guard-error.blk) uses the cores the other tests leave
// idle (the file is the same with any number of workers:
// TestDeterministic).
func synthesized(t testing.TB, path string) *ic.File {
	t.Helper()
	v, _ := testdataICs.LoadOrStore(filepath.Clean(path), &testdataIC{})
	c := v.(*testdataIC)
	c.once.Do(func() {
		src, err := os.ReadFile(path)
		if err != nil {
			c.err = err.Error()
			return
		}
		p, errs := lang.Compile(path, src)
		if errs != nil {
			c.err = errs.Format(src)
			return
		}
		f, _, err := Run(context.Background(), p, Options{})
		if err != nil {
			c.err = "synth: " + err.Error()
			return
		}
		c.f = f
	})
	if c.f == nil {
		t.Fatalf("%s: %s", path, c.err)
	}
	return c.f
}

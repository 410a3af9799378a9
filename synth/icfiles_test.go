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

// timedPair bounds each pair of goldenTimed's programs by a million of
// Z3's units (see synthesized): guard-error.blk then takes about 30 s of
// CPU, with 5 of its 36 pairs unknown (3 with the defaults).
var timedPair = Options{Budget: 1_000_000}

type testdataIC struct {
	once sync.Once
	f    *ic.File
	err  string
}

// synthesized returns the IC file of the program at path, synthesized
// with the defaults and a worker per CPU, so that a long synthesis uses
// the cores the other tests leave idle (the file is the same with any
// number of workers: TestDeterministic). The programs of goldenTimed,
// whose files depend on the machine's load anyway, get timedPair's budget
// besides: with the defaults alone guard-error.blk took 140 s of CPU and
// indexer.blk 58 s, most of the package's time.
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
		var opts Options
		if rel, err := filepath.Rel("..", path); err == nil && goldenTimed[filepath.ToSlash(rel)] {
			opts = timedPair
		}
		f, _, err := Run(context.Background(), p, opts)
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

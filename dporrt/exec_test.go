package dporrt

import (
	"os"
	"testing"

	"github.com/icgen/icgen/lang"
)

func compileFile(t testing.TB, path string) *lang.Program {
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

func compileSrc(t testing.TB, src string) *lang.Program {
	t.Helper()
	p, errs := lang.Compile("test.blk", []byte(src))
	if errs != nil {
		t.Fatal(errs.Format([]byte(src)))
	}
	return p
}

func TestFig1FirstSchedule(t *testing.T) {
	m, err := New(compileFile(t, "../testdata/fig1.blk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := m.Run(First, 0)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if got := out.Schedule.String(); got != "p#1 q#2 r#3" {
		t.Errorf("schedule = %q", got)
	}
	x, z := m.Prog.Global("x"), m.Prog.Global("z")
	if gx, gz := out.Final.Global(x, 0), out.Final.Global(z, 0); gx != 0 || gz != -1 {
		t.Errorf("final x=%d z=%d, want x=0 z=-1", gx, gz)
	}
}

package interp

import (
	"testing"

	"github.com/icgen/icgen/internal/testprog"
)

func TestFig1FirstSchedule(t *testing.T) {
	m, err := New(testprog.File(t, "../testdata/fig1.blk"), nil)
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

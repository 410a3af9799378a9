package testprog

import "testing"

func TestCompile(t *testing.T) {
	if p := File(t, "../../testdata/fig1.blk"); len(p.Blocks) != 3 || p.File != "../../testdata/fig1.blk" {
		t.Errorf("fig1: %d blocks, file %q", len(p.Blocks), p.File)
	}
	if p := Source(t, "global int x;\nproc p() { x = 1; }\ninit { spawn p(); }\n"); len(p.Blocks) != 1 || p.File != "test.blk" {
		t.Errorf("source: %d blocks, file %q", len(p.Blocks), p.File)
	}
}

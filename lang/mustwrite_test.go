package lang

import (
	"strings"
	"testing"
)

// TestMustWrite checks each block's MustWrite: the scalar globals assigned
// on every path through it. A write on one branch only, in a loop body
// that may run zero times, of an array cell, of a local or inside a called
// func is not one.
func TestMustWrite(t *testing.T) {
	src := `global int x, y, z;
global int arr[2];
func f() { z = 1; }
proc a() {
  x = 1;
  if (y > 0) { y = 2; z = 3; } else { z = 4; }
  yield;
  int i = 0;
  while (i < 2) { y = i; i = i + 1; }
  arr[0] = 1;
  f();
}
proc b() {
  int i = 0;
  while (i < 2) {
    x = i;
    yield;
    i = i + 1;
  }
}
proc c() {
  if (x > 0) { return; }
  y = 1;
}
proc d() {
  if (x > 0) { y = 1; } else { y = 2; }
}
init { spawn a(); spawn b(); spawn c(); spawn d(); }
`
	want := map[string]string{
		"a":    "x z", // y only on one branch
		"a@7":  "",    // the loop may not run; arr is an array; f's write is not counted
		"b":    "",    // the loop may exit at once
		"b@17": "",    // the last iteration exits without writing x
		"c":    "",    // the early return skips y
		"d":    "y",   // on both branches
	}
	checkBlocks(t, "mw.blk", src, "MustWrite", want, func(b *Block) string {
		var names []string
		for _, v := range b.MustWrite {
			names = append(names, v.Name)
		}
		return strings.Join(names, " ")
	})
}

// checkBlocks compiles src and compares, for each of its blocks, what
// describe says of it with want[block ID] (what names the property in a
// failure); every block must be in want, and every entry of want a block.
func checkBlocks(t *testing.T, file, src, what string, want map[string]string, describe func(*Block) string) {
	t.Helper()
	p, errs := Compile(file, []byte(src))
	if errs != nil {
		t.Fatalf("unexpected errors:\n%s", errs.Format([]byte(src)))
	}
	for _, b := range p.Blocks {
		w, ok := want[b.ID]
		if !ok {
			t.Errorf("unexpected block %s", b.ID)
			continue
		}
		if got := describe(b); got != w {
			t.Errorf("block %s: %s %q, want %q", b.ID, what, got, w)
		}
		delete(want, b.ID)
	}
	for id := range want {
		t.Errorf("no block %s", id)
	}
}

package lang

import (
	"fmt"
	"strings"
	"testing"
)

// TestCells checks each block's Cells: the arrays it touches only at
// indices fixed when it starts. An index that reads a global, an array
// element or a local the block assigns is not fixed, nor is an access
// inside a called func or by an invariant the block may check.
func TestCells(t *testing.T) {
	src := `param N = 3;
global int m[N], got[N], h[N], inv[2];
global int x;
invariant inv[0] >= 0;
func f(int i) { h[i] = 1; }
proc put(int k, int v) {
  int y = m[k];
  if (v < y) { m[k] = v; }
  got[k + 1 - 1] = got[k] + 1;
  x = h[x % N];
  yield;
  int j = k;
  m[j] = 0;
  got[N - 1] = 1;
  yield;
  h[j] = m[j];
  f(0);
  inv[j % 2] = 1;
}
proc q() {
  await (m[0] > 0);
  int i = 0;
  while (i < N) { got[i] = 1; i = i + 1; }
}
init { spawn put(0, 1); spawn q(); }
`
	want := map[string]string{
		// m and got at k; h at x % N, which reads a global
		"put": "m r[k] w[k]; got r[k] w[((k + 1) - 1)]",
		// j is assigned here; got's index is a param expression
		"put@11": "got w[(N - 1)]",
		// j was assigned before the block; f writes h; an invariant reads inv
		"put@15": "m r[j]",
		"q":      "",
		// the guard's index is fixed; the loop's i is assigned in the block
		"q@21": "m r[0]",
	}
	checkBlocks(t, "cells.blk", src, "Cells", want, func(b *Block) string {
		var parts []string
		for _, c := range b.Cells {
			s := c.Array.Name
			if len(c.Reads) > 0 {
				s += " r" + indices(c.Reads)
			}
			if len(c.Writes) > 0 {
				s += " w" + indices(c.Writes)
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, "; ")
	})
}

func indices(es []Expr) string {
	var s []string
	for _, e := range es {
		s = append(s, fmt.Sprintf("[%s]", ExprString(e)))
	}
	return strings.Join(s, "")
}

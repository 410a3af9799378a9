package synth

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testprog"
)

// TestSplit: the parts partition the pairs, each ascending, the same in
// every call; more parts than pairs leave parts empty.
func TestSplit(t *testing.T) {
	t.Parallel()
	p := testprog.File(t, "../testdata/features.blk")
	total := len(ic.PairPositions(len(p.Blocks)))
	for _, n := range []int{1, 2, 3, 7, total + 2} {
		parts := Split(p, n, encode.Merged)
		if !slices.EqualFunc(parts, Split(p, n, encode.Merged), slices.Equal[[]int]) {
			t.Errorf("%d parts: two calls split differently", n)
		}
		var all []int
		empty := 0
		for _, part := range parts {
			if !slices.IsSorted(part) {
				t.Errorf("%d parts: %v not ascending", n, part)
			}
			if len(part) == 0 {
				empty++
			}
			all = append(all, part...)
		}
		slices.Sort(all)
		for k, at := range all {
			if at != k {
				t.Fatalf("%d parts: positions %v, want each of 0..%d once", n, all, total-1)
			}
		}
		if len(all) != total || (n > total && empty != n-total) {
			t.Errorf("%d parts: %d positions, %d parts empty", n, len(all), empty)
		}
	}
}

// TestShardMerge: the parts of a sharded Run merge into the file of an
// unsharded one, byte for byte (with a budget and no time bound).
func TestShardMerge(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"../testdata/fig1.blk", "../testdata/mix.blk", "../testdata/arrays.blk"} {
		p := testprog.File(t, file)
		opts := Options{Workers: 1, Budget: 2_000_000}
		f, _, err := Run(context.Background(), p, opts)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ic.Marshal(f)
		for _, n := range []int{2, 3} {
			var parts []*ic.File
			var names []string
			for i := n; i >= 1; i-- {
				opts.Shard = Shard{Index: i, Count: n}
				part, _, err := Run(context.Background(), p, opts)
				if err != nil {
					t.Fatal(err)
				}
				if part.Shard == nil || part.Shard.Total != len(f.Pairs) || len(part.Pairs) != len(part.Shard.Pairs) {
					t.Fatalf("%s part %d/%d: shard %+v with %d pairs", file, i, n, part.Shard, len(part.Pairs))
				}
				parts, names = append(parts, part), append(names, opts.Shard.String())
			}
			m, err := ic.Merge(parts, names)
			if err != nil {
				t.Fatalf("%s, %d parts: %v", file, n, err)
			}
			if got, _ := ic.Marshal(m); !bytes.Equal(got, want) {
				t.Errorf("%s: the merge of %d parts differs from the unsharded file", file, n)
			}
		}
	}
}

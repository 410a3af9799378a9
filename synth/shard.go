package synth

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Shard selects one part of a sharded synthesis: part Index (1 to Count)
// of the pairs as [Split] deals them. The zero value is the whole file.
type Shard struct{ Index, Count int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Check refuses an index outside 1..Count.
func (s Shard) Check() error {
	if s.Count < 1 || s.Index < 1 || s.Index > s.Count {
		return fmt.Errorf("shard %d/%d: want 1 <= I <= N", s.Index, s.Count)
	}
	return nil
}

// Split deals the pairs of p (their positions in the IC file,
// ic.PairPositions) to n parts of about equal estimated cost, and returns
// each part's positions, ascending. It depends on the program and the
// encoding alone, so every part of a run computes the same split: the
// pairs are taken from the costliest down, each to the part with the least
// cost so far (the lowest part on a tie). A pair's cost is estimated as 1
// plus the number of atoms of its formula F (built with enc), over which
// its cover enumerates: building F takes a small part of a pair's time,
// and F predicts it better than the sizes of the blocks (docs/scaling.md
// has the balance measured).
func Split(p *lang.Program, n int, enc encode.Encoding) [][]int {
	pos := ic.PairPositions(len(p.Blocks))
	syms := ts.NewSymbols(p)
	cost := make([]int, len(pos))
	for k, ij := range pos {
		fm := encode.Build(enc, p.Blocks[ij[0]], p.Blocks[ij[1]], syms, p.Invariants...)
		cost[k] = 1 + len(allsat.Atoms(fm.Graph, fm.F))
	}
	order := make([]int, len(pos))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(x, y int) bool { return cost[order[x]] > cost[order[y]] })
	parts := make([][]int, n)
	load := make([]int, n)
	for _, k := range order {
		least := 0
		for i := 1; i < n; i++ {
			if load[i] < load[least] {
				least = i
			}
		}
		parts[least] = append(parts[least], k)
		load[least] += cost[k]
	}
	for _, part := range parts {
		sort.Ints(part)
	}
	return parts
}

// shardOptions are the options a part records: those that decide the
// constraints (every part of one file must share them). Workers and
// Progress do not.
func (o Options) shardOptions() map[string]string {
	return map[string]string{
		"timeout":       o.Timeout.String(),
		"check_timeout": o.CheckTimeout.String(),
		"rlimit":        strconv.FormatUint(o.Rlimit, 10),
		"budget":        strconv.FormatUint(o.Budget, 10),
		"encoding":      o.Encoding.String(),
		"guard":         o.Guard.String(),
	}
}

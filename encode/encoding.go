package encode

import (
	"fmt"

	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Encoding selects how F(a,b) is built.
type Encoding uint8

// Encodings: Merged (the default) builds F as one equality of the two
// orders' merged final states, linear in the size of the blocks; Paths is
// the CDPOR paper's Def. 5, a disjunction over pairs of paths, exponential
// in the number of branches, kept for comparison.
const (
	Merged Encoding = iota
	Paths
)

func (e Encoding) String() string { return [...]string{"merged", "paths"}[e] }

// ParseEncoding reads an encoding name.
func ParseEncoding(s string) (Encoding, error) {
	switch s {
	case "merged":
		return Merged, nil
	case "paths":
		return Paths, nil
	}
	return 0, fmt.Errorf("unknown encoding %q (want merged or paths)", s)
}

// Build builds F(a,b) with the given encoding. The merged encoding falls
// back to the path encoding for what it does not model (see [PairMerged]).
func Build(enc Encoding, a, b *lang.Block, syms *ts.Symbols, invs ...*lang.Invariant) *Formula {
	if enc == Paths {
		return Pair(a, b, syms, invs...)
	}
	return PairMerged(a, b, syms, invs...)
}

package ic

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Shard marks a part of a sharded synthesis (icgen synth --shard I/N): the
// file holds only the pairs of part Index (1 to Count), whose positions in
// the whole file's list of pairs (0 to Total-1) are Pairs, ascending.
// Options are the synthesis options that decide the constraints, which
// every part of one file must share. A part is not an IC file a runtime
// uses: [Merge] makes one of all the parts.
type Shard struct {
	Index   int               `json:"index"`
	Count   int               `json:"count"`
	Total   int               `json:"total"`
	Pairs   []int             `json:"pairs"`
	Options map[string]string `json:"options"`
}

// String is "shard I/N".
func (s *Shard) String() string { return fmt.Sprintf("shard %d/%d", s.Index, s.Count) }

// PairPositions are the blocks of the pair at each position of a file's
// list of pairs: (i, j) for every i <= j in block order, by i then j.
func PairPositions(blocks int) [][2]int {
	var out [][2]int
	for i := 0; i < blocks; i++ {
		for j := i; j < blocks; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// checkShard checks a part's own consistency: its index and count, and
// that its pairs are the pairs of the positions it names.
func (f *File) checkShard() error {
	s := f.Shard
	pos := PairPositions(len(f.Blocks))
	switch {
	case s.Count < 1 || s.Index < 1 || s.Index > s.Count:
		return fmt.Errorf("shard %d/%d: want 1 <= index <= count", s.Index, s.Count)
	case s.Total != len(pos):
		return fmt.Errorf("%v: %d pairs in all, but %d blocks make %d", s, s.Total, len(f.Blocks), len(pos))
	case len(s.Pairs) != len(f.Pairs):
		return fmt.Errorf("%v: names %d positions for %d pairs", s, len(s.Pairs), len(f.Pairs))
	}
	for k, at := range s.Pairs {
		if at < 0 || at >= len(pos) || (k > 0 && at <= s.Pairs[k-1]) {
			return fmt.Errorf("%v: positions must ascend from 0 to %d (position %d is %d)", s, len(pos)-1, k+1, at)
		}
		a, b := f.Blocks[pos[at][0]].ID, f.Blocks[pos[at][1]].ID
		if p := f.Pairs[k]; p.A != a || p.B != b {
			return fmt.Errorf("%v: pair %d is (%s, %s), but position %d is (%s, %s)", s, k+1, p.A, p.B, at, a, b)
		}
	}
	return nil
}

// Merge makes one IC file of the parts of a sharded synthesis: the file an
// unsharded run with the same options writes, byte for byte once
// marshalled. names name the parts in errors (their paths). It refuses
// parts that are not parts, of another program, of other options or
// another count of parts, a part given twice, and parts missing, naming
// them. The program path is the lowest part's.
func Merge(parts []*File, names []string) (*File, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no parts to merge")
	}
	for i, p := range parts {
		if p.Shard == nil {
			return nil, fmt.Errorf("%s is not a part of a sharded synthesis (it has no shard)", names[i])
		}
		if err := p.checkShard(); err != nil {
			return nil, fmt.Errorf("%s: %v", names[i], err)
		}
	}
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return parts[order[x]].Shard.Index < parts[order[y]].Shard.Index })
	first := parts[order[0]]
	fs, fn := first.Shard, names[order[0]]
	byIndex := map[int]int{}
	for _, i := range order {
		p, s := parts[i], parts[i].Shard
		switch {
		case p.Hash != first.Hash:
			return nil, fmt.Errorf("%s and %s are parts of different programs (hash %.12s, %.12s)", fn, names[i], first.Hash, p.Hash)
		case s.Count != fs.Count:
			return nil, fmt.Errorf("%s is a part of %d, %s of %d: parts of different splits", fn, fs.Count, names[i], s.Count)
		case !slices.Equal(blockIDs(p), blockIDs(first)):
			return nil, fmt.Errorf("%s and %s list different blocks", fn, names[i])
		}
		if d := optionDiff(fs.Options, s.Options); d != "" {
			return nil, fmt.Errorf("%s and %s were made with different options: %s", fn, names[i], d)
		}
		if j, ok := byIndex[s.Index]; ok {
			return nil, fmt.Errorf("%v given twice: %s and %s", s, names[j], names[i])
		}
		byIndex[s.Index] = i
	}
	var missing []string
	for k := 1; k <= fs.Count; k++ {
		if _, ok := byIndex[k]; !ok {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("parts missing: %s of %d", strings.Join(missing, ", "), fs.Count)
	}
	pairs := make([]*Pair, fs.Total)
	from := make([]int, fs.Total)
	fns := map[string]Function{}
	for _, i := range order {
		p := parts[i]
		for k, at := range p.Shard.Pairs {
			if pairs[at] != nil {
				return nil, fmt.Errorf("pair (%s, %s) is in both %s and %s", p.Pairs[k].A, p.Pairs[k].B, names[from[at]], names[i])
			}
			pairs[at], from[at] = &p.Pairs[k], i
		}
		for _, f := range p.Functions {
			if g, ok := fns[f.Name]; ok && !sameFunction(f, g) {
				return nil, fmt.Errorf("function %s differs between the parts (%s)", f.Name, names[i])
			}
			fns[f.Name] = f
		}
	}
	for at, p := range pairs {
		if p == nil {
			pos := PairPositions(len(first.Blocks))[at]
			return nil, fmt.Errorf("pair (%s, %s) is in no part", first.Blocks[pos[0]].ID, first.Blocks[pos[1]].ID)
		}
	}
	out := *first
	out.Shard = nil
	out.Pairs = make([]Pair, len(pairs))
	for at, p := range pairs {
		out.Pairs[at] = *p
	}
	out.Functions = nil
	for _, name := range slices.Sorted(maps.Keys(fns)) {
		out.Functions = append(out.Functions, fns[name])
	}
	return &out, nil
}

func blockIDs(f *File) []string {
	ids := make([]string, len(f.Blocks))
	for i, b := range f.Blocks {
		ids[i] = b.ID
	}
	return ids
}

func sameFunction(a, b Function) bool {
	return a.Name == b.Name && a.Kind == b.Kind && a.Proc == b.Proc && a.Line == b.Line && a.Col == b.Col && a.Out == b.Out && slices.Equal(a.Ins, b.Ins)
}

// optionDiff names the options on which a and b differ ("" if none).
func optionDiff(a, b map[string]string) string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		va, oka := a[k]
		vb, okb := b[k]
		switch {
		case !oka:
			va = "(none)"
		case !okb:
			vb = "(none)"
		}
		if va != vb || oka != okb {
			out = append(out, fmt.Sprintf("%s %s and %s", k, va, vb))
		}
	}
	return strings.Join(out, "; ")
}

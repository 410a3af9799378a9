package gofront_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/synth"
)

// TestGoText: constraints in Go syntax over the Go names, for examples
// that use fields, arrays of structs, narrow types and maps.
func TestGoText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dir, a, b string
		want      string
	}{
		{"../examples/go/bank", "Account.Withdraw", "Account.Withdraw", "a.balance + a.limit >= amt && a.balance + a.limit >= amt + amt2 && a.balance + a.limit >= amt2"},
		{"../examples/go/kvstore", "Store.Put", "Store.CompareAndSet", "uint32(s.clock + 1) != ver2 && 0 <= k2 && k2 <= 7 && k == k2 && !s.present[k2]"},
		{"testdata/maps", "M.Inc", "M.Take", "m.small != nil && int(int8(k)) + 128 != int(int8(k2)) + 128 && !has(m.small, int8(k2))"},
		{"testdata/maps", "M.Inc", "M.SetPair", "m.small != nil && has(m.pairs, uint8(k2)) && m.pairs[uint8(k2)].b"},
		{"testdata/maps", "M.Flag", "M.Flag", "m.flags == nil"},
		{"testdata/widemaps", "W.Set", "W.Val", "v == w.entries[k2].val"},
		{"testdata/strmaps", "Bank.Deposit", "Bank.Freeze", `b.accounts != nil && b.owner != caller2 && caller2 != "admin"`},
		{"testdata/strmaps", "Tag", "Tag", `tags != nil && tags[k2] == v && v == v2 && v2 != "none"`},
		{"testdata/widemaps", "W.Inc", "W.Take", "w.counts != nil && !has(w.counts, k2) && k != k2"},
		{"../examples/go/kvmap", "Store.Put", "Store.Get", "s.data != nil && has(s.data, uint8(k2)) && s.data[uint8(k2)].val == v"},
	} {
		p, errs, err := gofront.Load(filepath.FromSlash(tc.dir))
		if err != nil || errs != nil {
			t.Fatal(err, errs)
		}
		f, _, err := synth.Run(context.Background(), p.Prog, synth.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		pr, _ := f.Pair(tc.a, tc.b)
		var got []string
		for _, c := range pr.Constraints {
			got = append(got, p.GoText(c.Expr))
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s (%s, %s): %q", tc.dir, tc.a, tc.b, got)
		}
	}
}

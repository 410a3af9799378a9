package gofront_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/ic"
)

// env is a state for ic.Expr.Holds: globals and elements by name, the
// two calls' arguments.
type env struct {
	g    map[string][]int64
	args [2]map[string]int64
}

func (e env) Global(n string) (int64, bool) {
	v, ok := e.g[n]
	return v[0], ok && len(v) == 1
}
func (e env) Element(n string, i int64) (int64, bool) {
	v, ok := e.g[n]
	if !ok || i < 0 || i >= int64(len(v)) {
		return 0, false
	}
	return v[i], true
}
func (e env) Local(k int, n string) (int64, bool) { v, ok := e.args[k][n]; return v, ok }
func (e env) Param(string) (int64, bool)          { return 0, false }
func (e env) Apply(string, []*ic.Expr) (int64, error) {
	return 0, fmt.Errorf("no functions")
}

// TestDomain: the facts of Package.Domain hold in a state Go can be in
// (the zero state, a map with a key present and counted) and fail in
// each state that Go cannot be in: a bool element that is not 0 or 1, a
// narrow element out of its range, presence that is not 0 or 1, an
// absent key with a value, a length that is not the count, a nil map
// with a key, an argument out of its type's range.
func TestDomain(t *testing.T) {
	t.Parallel()
	load := func(dir string) *gofront.Package {
		p, errs, err := gofront.Load(filepath.FromSlash(dir))
		if err != nil || errs != nil {
			t.Fatal(err, errs)
		}
		return p
	}
	zero := func(p *gofront.Package) env {
		e := env{g: map[string][]int64{}, args: [2]map[string]int64{{}, {}}}
		for _, sv := range p.State {
			e.g[sv.Name] = make([]int64, max(sv.Size, 1))
		}
		for _, bl := range p.Blocks {
			for _, v := range bl.Params {
				e.args[0][v.Name], e.args[1][v.Name] = 0, 0
			}
		}
		return e
	}
	lru, kv, maps, wide := load("../examples/go/lru"), load("../examples/go/kvstore"), load("testdata/maps"), load("testdata/widemaps")
	for _, tc := range []struct {
		name  string
		p     *gofront.Package
		a, b  string
		set   func(e env)
		holds bool
	}{
		{"zero state", lru, "Cache.Get", "Cache.Put", func(env) {}, true},
		{"bool element 13", lru, "Cache.Get", "Cache.Put", func(e env) { e.g["c.entries.valid"][1] = 13 }, false},
		{"bool element -1", lru, "Cache.Get", "Cache.Put", func(e env) { e.g["c.entries.valid"][2] = -1 }, false},
		{"uint32 element", kv, "Store.Put", "Store.Put", func(e env) { e.g["s.vers"][0] = 1 << 32 }, false},
		{"uint32 element max", kv, "Store.Put", "Store.Put", func(e env) { e.g["s.vers"][0] = 1<<32 - 1 }, true},
		{"uint32 argument", kv, "Store.Put", "Store.CompareAndSet", func(e env) { e.args[1]["ver"] = -1 }, false},
		{"key present", maps, "M.Inc", "M.Take", func(e env) {
			e.g["has(m.small)"][3], e.g["m.small"][3], e.g["len(m.small)"][0] = 1, 5, 1
		}, true},
		{"presence 2", maps, "M.Inc", "M.Take", func(e env) { e.g["has(m.small)"][3], e.g["len(m.small)"][0] = 2, 2 }, false},
		{"absent key with a value", maps, "M.Inc", "M.Take", func(e env) { e.g["m.small"][3] = 5 }, false},
		{"length not the count", maps, "M.Inc", "M.Take", func(e env) { e.g["len(m.small)"][0] = 1 }, false},
		{"nil map with a key", maps, "M.Inc", "M.Take", func(e env) {
			e.g["has(m.small)"][3], e.g["len(m.small)"][0], e.g["isnil(m.small)"][0] = 1, 1, 1
		}, false},
		{"int8 argument", maps, "M.Inc", "M.Take", func(e env) { e.args[0]["k"] = 128 }, false},
		{"wide: a key present", wide, "W.Inc", "W.Take", func(e env) {
			e.args[0]["k"], e.g["has(w.counts)"][0], e.g["w.counts"][0], e.g["len(w.counts)"][0] = 0, 1, 3, 1
		}, true},
		{"wide: presence 2 at an argument", wide, "W.Inc", "W.Take", func(e env) { e.g["has(w.counts)"][0] = 2 }, false},
		{"wide: absent key with a value", wide, "W.Inc", "W.Take", func(e env) { e.g["w.counts"][0] = 3 }, false},
		{"wide: nil map with a key", wide, "W.Inc", "W.Take", func(e env) { e.g["has(w.counts)"][0], e.g["isnil(w.counts)"][0] = 1, 1 }, false},
		{"wide: int8 value out of range", wide, "W.Bump", "W.Bump", func(e env) { e.g["w.small"][0] = 200 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := zero(tc.p)
			tc.set(e)
			ds := tc.p.Domain(tc.a, tc.b)
			if len(ds) == 0 {
				t.Fatal("no facts")
			}
			holds := true
			for _, d := range ds {
				ok, err := d.Holds(e)
				if err != nil {
					t.Fatalf("%s: %v", d, err)
				}
				holds = holds && ok
			}
			if holds != tc.holds {
				t.Errorf("the facts hold: %t, want %t", holds, tc.holds)
			}
		})
	}
}

// TestGoWitness: a witness writes a string's integer as the constant it
// holds, or as a name "s1", "s2", ... in the order it meets them (the
// same name for the same integer, in values and in the keys of names).
func TestGoWitness(t *testing.T) {
	t.Parallel()
	p, errs, err := gofront.Load(filepath.FromSlash("testdata/strmaps"))
	if err != nil || errs != nil {
		t.Fatal(err, errs)
	}
	admin := int64(0)
	for i, s := range p.Strings {
		if s == "admin" {
			admin = int64(i + 1)
		}
	}
	if admin == 0 {
		t.Fatalf("no constant \"admin\" in %q", p.Strings)
	}
	name, value := p.GoWitness()
	who := &ic.Expr{Op: "local", Name: "who"}
	amt := &ic.Expr{Op: "local", Name: "amt"}
	has := &ic.Expr{Op: "select", Name: "has(b.accounts)", Args: []*ic.Expr{ic.Int(777)}}
	for _, c := range []struct{ got, want string }{
		{value(who, 12345), `"s1"`},
		{value(who, admin), `"admin"`},
		{value(who, 0), `""`},
		{name(has), `has(b.accounts, "s2")`},
		{value(who, 777), `"s2"`},
		{value(who, 12345), `"s1"`},
		{value(amt, 12345), "12345"},
		{value(has, 1), "true"},
	} {
		if c.got != c.want {
			t.Errorf("%s, want %s", c.got, c.want)
		}
	}
}

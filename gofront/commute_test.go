package gofront_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/synth"
)

// commuteHead is a package for declarations: the one under test goes on
// line 36.
const commuteHead = `package p

import "sync"

type E struct {
	key  int8
	used bool
}

type T struct {
	mu   sync.Mutex
	n    int
	v    uint8
	es   [4]E
	m    map[uint8]int
	s    map[int8]int
	free int
}

var hits int

func (t *T) Add(k int)          { t.mu.Lock(); defer t.mu.Unlock(); t.n += k; hits++ }
func (t *T) Put(k uint8, x int) { t.mu.Lock(); defer t.mu.Unlock(); t.m[k] = x; t.v++ }
func (t *T) Use(i int)          { t.mu.Lock(); defer t.mu.Unlock(); t.es[i].used = t.es[i].key > 0 }
func (t *T) Drop(k uint8)       { t.mu.Lock(); defer t.mu.Unlock(); delete(t.m, k) }
func (t *T) Set(k, unused int)  { t.mu.Lock(); defer t.mu.Unlock(); t.n = k }
func (t *T) Keys() []int        { t.mu.Lock(); defer t.mu.Unlock(); return nil }
func (t *T) Inc(k int8)         { t.mu.Lock(); defer t.mu.Unlock(); t.s[k]++ }
func (t *T) Early(k int)        { t.mu.Lock(); if k > 0 { return }; t.mu.Unlock() }

type U struct { mu sync.Mutex; n int }

func (u *U) Add(k int) { u.mu.Lock(); defer u.mu.Unlock(); u.n += k }
func (u *U) Sub(t int) { u.mu.Lock(); defer u.mu.Unlock(); u.n -= t }
`

// TestCommuteDecl: //icgen:commute declarations are read, type-checked as
// Go over the receivers' fields and both calls' parameters (the second's
// with the suffix 2) and lowered to the IR's commute conditions (want
// "A, B: COND" as the IR prints it, "A, B: unknown" for a block that is
// not modelled); the problems are errors at the construct ("line:col:
// message"; the declaration is on line 36).
func TestCommuteDecl(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, decl, want string }{

		{"always", "T.Add Use", "T.Add, T.Use: true"},
		{"by method name", "Put Drop when t.n > 0", "T.Put, T.Drop: ((t.n > 0) && ((((0 <= k) && (k <= 255)) && (0 <= k')) && (k' <= 255)))"},
		{"both calls", "T.Add T.Add when t.n+k >= k2", "T.Add, T.Add: ((t.n + k) >= k')"},
		{"package variable", "T.Add Use when hits == 0 || i2 < 0", "T.Add, T.Use: ((hits == 0) || (i' < 0))"},
		{"narrow arithmetic wraps", "Put Put when t.v+1 != 0 && -k2 != k", "T.Put, T.Put: (((((((t.v + 1) % 256) + 256) % 256) != 0) && ((((-k' % 256) + 256) % 256) != k)) && ((((0 <= k) && (k <= 255)) && (0 <= k')) && (k' <= 255)))"},
		{"conversion", "Put Put when uint8(x) == k && int8(k2) < 0 && int(k) < 300", "T.Put, T.Put: (((((((x % 256) + 256) % 256) == k) && ((((((k' + 128) % 256) + 256) % 256) - 128) < 0)) && (k < 300)) && ((((0 <= k) && (k <= 255)) && (0 <= k')) && (k' <= 255)))"},
		{"map", "Put Drop when has(t.m, k2) && t.m[k] == x && len(t.m) > 1 && t.m != nil", "T.Put, T.Drop: (((((has(t.m)[(((k' % 256) + 256) % 256)] != 0) && (t.m[(((k % 256) + 256) % 256)] == x)) && (len(t.m) > 1)) && !isnil(t.m)) && ((((0 <= k) && (k <= 255)) && (0 <= k')) && (k' <= 255)))"},
		{"map constant key", "Put Drop when t.m[3] == 0 && t.m == nil", "T.Put, T.Drop: (((t.m[3] == 0) && isnil(t.m)) && ((((0 <= k) && (k <= 255)) && (0 <= k')) && (k' <= 255)))"},
		{"signed map key", "Inc Inc when has(t.s, k2) && t.s[int8(k+1)] == 0 && t.s[-3] == 0", "T.Inc, T.Inc: ((((has(t.s)[((((k' + 128) % 256) + 256) % 256)] != 0) && (t.s[(((((k + 1) + 128) % 256) + 256) % 256)] == 0)) && (t.s[125] == 0)) && ((((-128 <= k) && (k <= 127)) && (-128 <= k')) && (k' <= 127)))"},
		{"ranges alone", "Inc Put", "T.Inc, T.Put: ((((-128 <= k) && (k <= 127)) && (0 <= k')) && (k' <= 255))"},
		{"array of structs", "Use Use when !t.es[i].used && t.es[i2].key == -1", "T.Use, T.Use: (!(t.es.used[i] != 0) && (t.es.key[i'] == -1))"},
		{"not modelled", "Keys Use when t.n > 0", "T.Keys, T.Use: unknown"},
		{"not modelled before lowering", "Early Early when k > k2", "T.Early, T.Early: unknown"},

		{"one block", "Add", "36:1: //icgen:commute needs two blocks: //icgen:commute A B [when COND]"},
		{"no when", "T.Add Use if i > 0", `36:27: expected "when" after the two blocks, found "if"`},
		{"no condition", "T.Add Use when", `36:27: "when" needs a condition`},
		{"unknown block", "T.Add Nope", "36:23: no atomic block Nope in package p (its blocks: T.Add, T.Put, T.Use, T.Drop, T.Set, T.Keys, T.Inc, T.Early, U.Add, U.Sub)"},
		{"ambiguous", "Add Use", "36:17: Add names several blocks (T.Add, U.Add): write Type.Method"},
		{"syntax", "T.Add Use when i >", "36:35: expected operand, found 'EOF'"},
		{"undefined", "T.Add Use when t.n > y", "36:38: undefined: y"},
		{"second call's name", "T.Add Use when k2 > 0", "36:32: undefined: k2"},
		{"type error", "T.Add Use when t.n + true", "36:32: invalid operation: t.n + true (mismatched types int and untyped bool)"},
		{"not bool", "T.Add Use when t.n + 1", "36:32: the condition is of type int, not bool"},
		{"bitwise", "T.Add Use when t.n&1 == 0", "36:35: the operator & is not supported in a commute condition: bitwise operations and shifts are not modelled"},
		{"call", "T.Add Use when min(t.n, 0) == 0", "36:32: the call min(t.n, 0) is not supported in a commute condition: a condition reads conversions, len of a map and has(m, k), and calls no other function"},
		{"not state", "T.Add Use when t.free > 0", "36:32: t.free is not state that a modelled block reads or writes"},
		{"mutex", "T.Add Use when t.mu == t.mu", "36:32: t.mu is not supported in a commute condition: values of type sync.Mutex are not modelled"},
		{"parameter not read", "Set Set when unused > 0", "36:30: parameter unused of T.Set is not read by the block (a commute condition reads only the parameters its blocks read)"},
		{"name clash", "U.Sub T.Add when t > 0", "36:1: t would name both a parameter of U.Sub and another variable of the condition"},
		{"not modelled, still checked", "Keys Use when y", "36:31: undefined: y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			src := commuteHead + "\n//icgen:commute " + tc.decl + "\n"
			if n := strings.Count(src[:len(src)-1], "\n") + 1; n != 36 {
				t.Fatalf("the declaration is on line %d", n)
			}
			if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			p, errs, err := gofront.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			switch {
			case errs != nil:
				got = strings.TrimPrefix(errs[0].Error(), filepath.Join(dir, "p.go")+":")
				if len(errs) > 1 {
					t.Errorf("%d errors: %v", len(errs), errs)
				}
			case len(p.Commutes) != 1:
				t.Fatalf("%d declarations", len(p.Commutes))
			default:
				c := p.Commutes[0]
				got = c.A + ", " + c.B + ": "
				switch {
				case c.Decl == nil:
					got += "unknown"
				case c.Decl.Cond == nil:
					got += "true"
				default:
					got += lang.ExprString(c.Decl.Cond)
				}
				if c.Decl != nil && lang.CommuteString(c.Decl) != "//icgen:commute "+tc.decl {
					t.Errorf("CommuteString: %q", lang.CommuteString(c.Decl))
				}
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// FuzzCommuteDecl: no declaration makes the front end panic; a
// declaration it takes has blocks, and its IR form when both are
// modelled.
func FuzzCommuteDecl(f *testing.F) {
	for _, s := range []string{
		"T.Add Use", "Put Drop when has(t.m, k2) && t.m[k] == x && len(t.m) > 1 && t.m != nil",
		"Put Put when uint8(x) == k && int8(k2) < 0", "Use Use when !t.es[i].used && t.es[i2].key == -1",
		"T.Add Use when min(t.n, 0) == 0", "U.Sub T.Add when t > 0", "Keys Use when y", "T.Add Use when t.n&1 == 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, decl string) {
		if strings.ContainsAny(decl, "\n\r") {
			return
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(commuteHead+"\n//icgen:commute "+decl+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		p, errs, err := gofront.Load(dir)
		if err != nil || errs != nil {
			return
		}
		for _, c := range p.Commutes {
			if c.A == "" || c.B == "" || (c.Decl == nil) == (c.Unknown == "") {
				t.Errorf("%q: %+v", decl, c)
			}
		}
	})
}

// TestCommutePasteBack: every constraint synth finds for a package, in
// its Go text, reads back as a declaration of the package, which is
// proven (with the arguments in their types' ranges, which Go knows and
// the IR does not). Under -short, every fifth.
func TestCommutePasteBack(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"testdata/maps", "../examples/go/kvstore"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			p, errs, err := gofront.Load(filepath.FromSlash(dir))
			if err != nil || errs != nil {
				t.Fatal(err, errs)
			}
			f, _, err := synth.Run(context.Background(), p.Prog, synth.Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			var decls []string
			for _, pr := range f.Pairs {
				if p.Hidden(pr.A) || p.Hidden(pr.B) || pr.Status == ic.Unknown {
					continue
				}
				for _, c := range pr.Constraints {
					if n := len(decls); testing.Short() && n%5 != 0 {
						decls = append(decls, "")
						continue
					}
					decls = append(decls, "//icgen:commute "+pr.A+" "+pr.B+" when "+p.GoText(c.Expr))
				}
			}
			tmp := t.TempDir()
			names, _ := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go"))
			for _, n := range names {
				b, err := os.ReadFile(n)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(tmp, filepath.Base(n)), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			src := "package " + p.Name + "\n\n" + strings.Join(decls, "\n") + "\n"
			if err := os.WriteFile(filepath.Join(tmp, "zz_decls.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			q, errs, err := gofront.Load(tmp)
			if err != nil || errs != nil {
				t.Fatal(err, errs)
			}
			rs, err := synth.Declared(context.Background(), q.Prog, synth.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) == 0 {
				t.Fatal("no declaration")
			}
			for _, r := range rs {
				if r.Verdict != allsat.Proven {
					t.Errorf("%s: %v: %s", lang.CommuteString(r.Commute), r.Verdict, r.Reason)
				}
			}
		})
	}
}

package gofront_test

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/testsize"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/synth"
)

// state is a sampled start state: the shared state and both calls'
// arguments.
type state struct {
	vars map[string][]int64 // by StateVar name; one value for a scalar
	args [2]map[string]int64
	// present holds the elements of the keys present in each map, by
	// the map's root and Go expression (a map may hold keys without
	// its has(m) array being state: no block reads it).
	present map[string][]int64
	isNil   map[string]bool // by the same key: the map is nil
	// sparse holds the unbounded arrays (a map with wide keys): the
	// elements that are not 0, by the key.
	sparse map[string]map[int64]int64
}

// elem is element i of an array of the state.
func (s *state) elem(name string, i int64) int64 {
	if sp, ok := s.sparse[name]; ok {
		return sp[i]
	}
	return s.vars[name][i]
}

func (s *state) Global(name string) (int64, bool) {
	v, ok := s.vars[name]
	if !ok || len(v) != 1 {
		return 0, false
	}
	return v[0], true
}

func (s *state) Element(array string, i int64) (int64, bool) {
	if sp, ok := s.sparse[array]; ok {
		return sp[i], true
	}
	v, ok := s.vars[array]
	if !ok || i < 0 || i >= int64(len(v)) {
		return 0, false
	}
	return v[i], true
}

func (s *state) Local(event int, name string) (int64, bool) {
	v, ok := s.args[event][name]
	return v, ok
}

func (s *state) Param(string) (int64, bool) { return 0, false }

func (s *state) Apply(fn string, _ []*ic.Expr) (int64, error) {
	return 0, fmt.Errorf("function %s is not evaluated here", fn)
}

// value samples an int of [lo, hi]: edges and small numbers most often,
// so equalities between sampled values hold often enough.
func value(r *rand.Rand, isBool bool, lo, hi int64) int64 {
	if isBool {
		return r.Int64N(2)
	}
	pick := func() int64 {
		switch r.IntN(10) {
		case 0:
			return lo
		case 1:
			return hi
		case 2:
			return []int64{lo + 1, hi - 1, math.MinInt64 / 2, math.MaxInt64 / 2}[r.IntN(4)]
		case 3, 4:
			return r.Int64N(201) - 100
		}
		return r.Int64N(7) - 3
	}
	for {
		if v := pick(); v >= lo && v <= hi {
			return v
		}
	}
}

func sample(r *rand.Rand, p *gofront.Package, a, b *gofront.Block) *state {
	s := &state{vars: map[string][]int64{}, present: map[string][]int64{}, isNil: map[string]bool{}, sparse: map[string]map[int64]int64{}}
	for e, bl := range []*gofront.Block{a, b} {
		s.args[e] = map[string]int64{}
		for _, v := range bl.Params {
			s.args[e][v.Name] = value(r, v.Bool, v.Min, v.Max)
		}
	}
	for _, sv := range p.State {
		if sv.Map != nil {
			continue
		}
		n := max(sv.Size, 1)
		vs := make([]int64, n)
		for i := range vs {
			vs[i] = value(r, sv.Bool, sv.Min, sv.Max)
		}
		s.vars[sv.Name] = vs
	}
	sampleMaps(r, p, s)
	return s
}

// sampleMaps samples the maps of the state as Go can hold them: nil (no
// key), or a few keys present (the calls' arguments among them, often),
// every absent key's values zero, the length their count.
func sampleMaps(r *rand.Rand, p *gofront.Package, s *state) {
	parts := map[string][]gofront.StateVar{}
	var order []string
	for _, sv := range p.State {
		if sv.Map == nil {
			continue
		}
		k := sv.Root + sv.Map.Go
		if parts[k] == nil {
			order = append(order, k)
		}
		parts[k] = append(parts[k], sv)
	}
	for _, k := range order {
		if parts[k][0].Map.Keys == 0 {
			sampleWide(r, parts[k], s)
			continue
		}
		var size int64
		for _, sv := range parts[k] {
			size = max(size, sv.Size)
		}
		if size == 0 {
			// Only len(m) or m == nil are state: keys are still present.
			size = 256
			if parts[k][0].Map.KeyBool {
				size = 2
			}
		}
		isNil := r.IntN(6) == 0
		present := map[int64]bool{}
		if !isNil {
			var cands []int64
			for e := range 2 {
				for _, v := range s.args[e] {
					if i := v - parts[k][0].Map.KeyMin; i >= 0 && i < size {
						cands = append(cands, i)
					}
				}
			}
			cands = append(cands, r.Int64N(size), r.Int64N(size))
			for _, i := range cands {
				if r.IntN(2) == 0 {
					present[i] = true
				}
			}
		}
		s.isNil[k] = isNil
		for i := range size {
			if present[i] {
				s.present[k] = append(s.present[k], i)
			}
		}
		for _, sv := range parts[k] {
			switch sv.Map.Part {
			case "nil":
				s.vars[sv.Name] = []int64{map[bool]int64{false: 0, true: 1}[isNil]}
			case "len":
				s.vars[sv.Name] = []int64{int64(len(present))}
			default:
				vs := make([]int64, sv.Size)
				for i := range present {
					if sv.Map.Part == "has" {
						vs[i] = 1
					} else {
						vs[i] = value(r, sv.Bool, sv.Min, sv.Max)
					}
				}
				s.vars[sv.Name] = vs
			}
		}
	}
}

// sampleWide samples a map with wide keys: nil, or a few keys present
// (the calls' arguments in the key type's range among them, often),
// with their values; every other key is absent.
func sampleWide(r *rand.Rand, parts []gofront.StateVar, s *state) {
	mp := parts[0].Map
	k := parts[0].Root + mp.Go
	isNil := r.IntN(6) == 0 && !mp.Slice
	var keys []int64
	if mp.Slice {
		// A slice: elements 0 to len-1.
		for i := range int64(r.IntN(4)) {
			keys = append(keys, i)
		}
	} else if !isNil {
		var cands []int64
		for e := range 2 {
			for _, v := range s.args[e] {
				cands = append(cands, v)
			}
		}
		cands = append(cands, value(r, false, mp.KeyLo, mp.KeyHi), value(r, false, mp.KeyLo, mp.KeyHi))
		seen := map[int64]bool{}
		for _, c := range cands {
			if c >= mp.KeyLo && c <= mp.KeyHi && !seen[c] && r.IntN(2) == 0 {
				seen[c] = true
				keys = append(keys, c)
			}
		}
		slices.Sort(keys)
	}
	s.isNil[k] = isNil
	s.present[k] = keys
	for _, sv := range parts {
		switch sv.Map.Part {
		case "nil":
			s.vars[sv.Name] = []int64{map[bool]int64{false: 0, true: 1}[isNil]}
		case "len":
			s.vars[sv.Name] = []int64{int64(len(keys))}
		default:
			els := map[int64]int64{}
			for _, key := range keys {
				v := int64(1)
				if sv.Map.Part != "has" {
					v = value(r, sv.Bool, sv.Min, sv.Max)
				}
				if v != 0 {
					els[key] = v
				}
			}
			s.sparse[sv.Name] = els
		}
	}
}

// goMaps writes the code that builds the sampled maps: nil, or made and
// given the keys present.
func goMaps(w *strings.Builder, p *gofront.Package, st *state) {
	made := map[string]bool{}
	x := func(sv gofront.StateVar) string {
		if sv.Root != "" {
			return "r" + sv.Root + sv.Map.Go
		}
		return sv.Map.Go
	}
	for _, sv := range p.State {
		switch {
		case sv.Map == nil || made[x(sv)]:
		case sv.Map.Slice:
			fmt.Fprintf(w, "\t%s = make(%s, %d)\n", x(sv), sv.Map.Type, len(st.present[sv.Root+sv.Map.Go]))
			made[x(sv)] = true
		case !st.isNil[sv.Root+sv.Map.Go]:
			fmt.Fprintf(w, "\t%s = make(%s)\n", x(sv), sv.Map.Type)
			made[x(sv)] = true
		case sv.Root == "":
			// A package map keeps what the case before left in it.
			fmt.Fprintf(w, "\t%s = nil\n", x(sv))
		}
	}
	done := map[string]bool{}
	for _, sv := range p.State {
		if sv.Map == nil || !made[x(sv)] || done[x(sv)] {
			continue
		}
		done[x(sv)] = true
		for _, i := range st.present[sv.Root+sv.Map.Go] {
			key := strconv.FormatInt(sv.Map.KeyMin+i, 10)
			if sv.Map.KeyBool {
				key = strconv.FormatBool(i == 1)
			}
			if sv.Map.KeyString {
				key = goLit(p, i, false, true)
			}
			fmt.Fprintf(w, "\t{\n\t\tm := %s\n\t\te := m[%s]\n", x(sv), key)
			for _, vv := range p.State {
				if vv.Map == nil || vv.Map.Part != "value" || x(vv) != x(sv) {
					continue
				}
				fmt.Fprintf(w, "\t\te%s = %s\n", vv.Map.Field, goLit(p, st.elem(vv.Name, i), vv.Bool, vv.String))
			}
			fmt.Fprintf(w, "\t\tm[%s] = e\n\t}\n", key)
		}
	}
}

// String prints the state: arrays of more than 8 elements (the maps'
// arrays) by their elements that are not 0.
func (s *state) String() string {
	var names []string
	for n := range s.vars {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		vs := s.vars[n]
		if len(vs) <= 8 {
			fmt.Fprintf(&b, "%s=%v ", n, vs)
			continue
		}
		var nz []string
		for i, v := range vs {
			if v != 0 {
				nz = append(nz, fmt.Sprintf("%d:%d", i, v))
			}
		}
		fmt.Fprintf(&b, "%s={%s} ", n, strings.Join(nz, " "))
	}
	for _, n := range slices.Sorted(maps.Keys(s.sparse)) {
		fmt.Fprintf(&b, "%s=%v ", n, s.sparse[n])
	}
	fmt.Fprintf(&b, "args %v %v", s.args[0], s.args[1])
	return b.String()
}

// oracleCase is a state where the two orders must end alike (commute) or
// must not (an exact pair outside its constraints).
type oracleCase struct {
	pair    string
	a, b    *gofront.Block
	st      *state
	commute bool
}

// goLit is the Go literal of the value v of a type: a bool, a string
// (the package's constant v holds, or a string of no constant, one for
// each v), or an integer.
func goLit(p *gofront.Package, v int64, isBool, isString bool) string {
	if !isString {
		return lit(v, isBool)
	}
	if s, ok := p.StringOf(v); ok {
		return strconv.Quote(s)
	}
	taken := map[string]bool{}
	for _, s := range p.Strings {
		taken[s] = true
	}
	s := "#" + strconv.FormatInt(v, 10)
	for taken[s] {
		s = "#" + s
	}
	return strconv.Quote(s)
}

func lit(v int64, isBool bool) string {
	if isBool {
		return strconv.FormatBool(v != 0)
	}
	return strconv.FormatInt(v, 10)
}

// goCase writes a function that sets the state up, runs both calls in
// the given order, and returns the end state, both calls' results and
// whether a call panicked.
func goCase(w *strings.Builder, i int, p *gofront.Package, c oracleCase) {
	fmt.Fprintf(w, "func oracle%d(order int) (out string) {\n", i)
	fmt.Fprintf(w, "\tdefer func() { if r := recover(); r != nil { out = \"panic\" } }()\n")
	roots := map[string]bool{}
	for _, sv := range p.State {
		if sv.Root != "" {
			roots[sv.Root] = true
		}
	}
	for _, bl := range []*gofront.Block{c.a, c.b} {
		if bl.Recv != "" {
			roots[bl.Recv] = true
		}
	}
	for r := range roots {
		fmt.Fprintf(w, "\tvar r%s %s\n", r, r)
	}
	goMaps(w, p, c.st)
	for _, sv := range p.State {
		if sv.Map != nil {
			continue
		}
		vs := c.st.vars[sv.Name]
		for k, v := range vs {
			x := sv.Go
			if sv.Size > 0 {
				x = fmt.Sprintf(x, k)
			}
			if sv.Root != "" {
				x = "r" + sv.Root + x
			}
			fmt.Fprintf(w, "\t%s = %s\n", x, goLit(p, v, sv.Bool, sv.String))
		}
	}
	fmt.Fprintf(w, "\tvar res [2]string\n")
	call := func(e int, bl *gofront.Block) string {
		var args []string
		for _, v := range bl.Params {
			args = append(args, goLit(p, c.st.args[e][v.Name], v.Bool, v.String))
		}
		x := bl.Func + "(" + strings.Join(args, ", ") + ")"
		if bl.Recv != "" {
			x = "r" + bl.Recv + "." + x
		}
		if bl.Result != "" {
			return fmt.Sprintf("res[%d] = fmt.Sprint(%s)", e, x)
		}
		return x
	}
	fmt.Fprintf(w, "\tif order == 0 {\n\t\t%s\n\t\t%s\n\t} else {\n\t\t%s\n\t\t%s\n\t}\n", call(0, c.a), call(1, c.b), call(1, c.b), call(0, c.a))
	var parts []string
	for r := range roots {
		parts = append(parts, "r"+r)
	}
	seen := map[string]bool{}
	for _, sv := range p.State {
		if v := strings.SplitN(sv.Go, "[", 2)[0]; sv.Root == "" && !seen[v] {
			seen[v] = true
			parts = append(parts, v)
		}
	}
	parts = append(parts, "res")
	fmt.Fprintf(w, "\treturn fmt.Sprintf(\"%s\", %s)\n}\n\n", strings.Repeat("%+v|", len(parts)), strings.Join(parts, ", "))
}

// oracleGroup is a package and the cases of its pairs; the packages of
// one run are compiled together (their files into one Go package).
type oracleGroup struct {
	name  string
	p     *gofront.Package
	cases []oracleCase
}

// runOracle compiles the packages with their cases into a test, runs it
// with go test, and checks every case: orders that must commute end in
// the same state with the same results and no panic; orders of an exact
// pair outside its constraints differ or panic. It returns the indices
// of the groups with a failing case.
func runOracle(t *testing.T, groups []oracleGroup) map[int]bool {
	tmp := t.TempDir()
	for _, g := range groups {
		for name, src := range g.p.Files {
			if err := os.WriteFile(filepath.Join(tmp, filepath.Base(name)), src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module oracle\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type ref struct{ g, c int }
	var refs []ref
	var w strings.Builder
	fmt.Fprintf(&w, "package %s\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\n", groups[0].p.Name)
	for gi, g := range groups {
		for ci, c := range g.cases {
			goCase(&w, len(refs), g.p, c)
			refs = append(refs, ref{gi, ci})
		}
	}
	fmt.Fprintf(&w, "var oracleCases = []func(int) string{")
	for i := range refs {
		fmt.Fprintf(&w, "oracle%d, ", i)
	}
	fmt.Fprintf(&w, "}\n\nfunc TestOracle(t *testing.T) {\n\tfor i, c := range oracleCases {\n\t\tab, ba := c(0), c(1)\n\t\tfmt.Printf(\"ORACLE %%d %%t %%t\\n\", i, ab == ba, ab == \"panic\" || ba == \"panic\")\n\t}\n}\n")
	if err := os.WriteFile(filepath.Join(tmp, "oracle_test.go"), []byte(w.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-vet=off", "-run", "^TestOracle$", "-v", ".")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	failed := map[int]bool{}
	if err != nil {
		for i := range groups {
			failed[i] = true
		}
		t.Errorf("go test of the oracle: %v\n%s", err, out)
		return failed
	}
	seen := 0
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var i int
		var equal, panicked bool
		if n, _ := fmt.Sscanf(sc.Text(), "ORACLE %d %t %t", &i, &equal, &panicked); n != 3 {
			continue
		}
		seen++
		g := groups[refs[i].g]
		c := g.cases[refs[i].c]
		switch {
		case c.commute && (panicked || !equal):
			t.Errorf("%s: %s: a constraint holds but the orders do not end alike in Go (panic %t) from %v", g.name, c.pair, panicked, c.st)
			failed[refs[i].g] = true
		case !c.commute && equal && !panicked:
			t.Errorf("%s: %s: exact, no constraint holds, but the orders end alike in Go from %v", g.name, c.pair, c.st)
			failed[refs[i].g] = true
		}
	}
	if seen != len(refs) {
		t.Errorf("go test ran %d of %d cases:\n%s", seen, len(refs), out)
		for i := range groups {
			failed[i] = true
		}
	}
	return failed
}

// irOverflow reports whether an order of the pair a, b, run by the
// interpreter from st, overflows int64 (over the IR's integers, on its
// way to a runtime error, where the overflow guard holds), or whether the
// state cannot be given to the interpreter.
func irOverflow(m *interp.Machine, p *gofront.Package, a, b *gofront.Block, st *state) bool {
	if m == nil || len(p.State) != len(p.Prog.Globals) {
		return true
	}
	store := make([]int64, m.Locs())
	for i, g := range p.Prog.Globals {
		first, n := m.GlobalLocs(g)
		vs := st.vars[p.State[i].Name]
		for k := 0; k < n && k < len(vs); k++ {
			store[int(first)+k] = vs[k]
		}
	}
	var bl [2]*lang.Block
	var locals [2][]int64
	for e, gb := range []*gofront.Block{a, b} {
		for _, x := range p.Prog.Blocks {
			if x.ID == gb.ID {
				bl[e] = x
			}
		}
		if bl[e] == nil || len(bl[e].Proc.Locals) < len(gb.Params) {
			return true
		}
		for _, v := range gb.Params {
			locals[e] = append(locals[e], st.args[e][v.Name])
		}
	}
	start := m.PairState(store, bl[0], locals[0], bl[1], locals[1])
	for i, g := range p.Prog.Globals {
		for k, v := range st.sparse[p.State[i].Name] {
			start.SetElement(g, k, v)
		}
	}
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		s := start.Clone()
		for _, i := range order {
			if !s.Enabled(i) {
				break
			}
			if ev := s.Step(i); ev.Err != nil {
				if ev.Err.Kind == interp.ErrOverflow {
					return true
				}
				break
			}
		}
	}
	return false
}

// pairCases samples, for every conditional or independent pair of f
// between blocks that are modelled, per states where a constraint and the
// pair's overflow guard hold, and for exact pairs per states where no
// constraint holds. With guarded set, a state outside the constraints
// where an order overflows in the interpreter is left out, with or
// without an overflow guard (a dependent pair has none): over the IR's
// integers the order goes on to a runtime error there, while Go wraps
// and may go on (docs/go.md, Known limits). It
// returns the cases and the counts of both kinds. Every sampled state is
// one Go can be in, so the pair's Domain holds in it: that is checked
// too.
func pairCases(t *testing.T, r *rand.Rand, p *gofront.Package, f *ic.File, per int, guarded bool) (cases []oracleCase, holds, outside int) {
	blocks := map[string]*gofront.Block{}
	for _, b := range p.Blocks {
		blocks[b.ID] = b
	}
	m, err := interp.New(p.Prog, nil)
	if err != nil {
		m = nil
	}
	for _, pr := range f.Pairs {
		a, b := blocks[pr.A], blocks[pr.B]
		if a == nil || b == nil || a.Reason != nil || b.Reason != nil {
			continue // a result block or a block not modelled
		}
		in, out := 0, 0
		exact := pr.Exact
		domain := p.Domain(a.ID, b.ID)
		for try := 0; try < 300*per && (in < per || exact && out < per); try++ {
			st := sample(r, p, a, b)
			for _, d := range domain {
				if ok, err := d.Holds(st); err != nil || !ok {
					t.Errorf("%s/%s: the domain's %s does not hold (%v) in a state Go holds: %v", pr.A, pr.B, d, err, st)
					return nil, 0, 0
				}
			}
			if pr.NoOverflow != nil {
				if ok, err := pr.NoOverflow.Holds(st); err != nil || !ok {
					continue
				}
			}
			any, undecided := false, false
			for _, c := range pr.Constraints {
				ok, err := c.Expr.Holds(st)
				undecided = undecided || err != nil
				any = any || ok && err == nil
			}
			switch {
			case any && in < per:
				cases = append(cases, oracleCase{pr.A + "/" + pr.B, a, b, st, true})
				in++
			case !any && !undecided && exact && out < per && !(guarded && irOverflow(m, p, a, b, st)):
				cases = append(cases, oracleCase{pr.A + "/" + pr.B, a, b, st, false})
				out++
			}
		}
		holds += in
		outside += out
	}
	return cases, holds, outside
}

// TestOracle checks every conditional or independent pair of the Go
// examples against the Go compiler: from sampled states where a
// constraint and the pair's overflow guard hold (int64 edges included),
// both orders run as real Go code end in the same state with the same
// results; for exact pairs, sampled states where no constraint holds
// show a difference.
func TestOracle(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	per := testsize.Count("ICGEN_GO_ORACLE_SAMPLES", 8, 40)
	dirs := map[string]string{"maps": filepath.Join("testdata", "maps"), "widemaps": filepath.Join("testdata", "widemaps"), "strmaps": filepath.Join("testdata", "strmaps"), "slices": filepath.Join("testdata", "slices"), "parallel": filepath.Join("testdata", "parallel")}
	for _, name := range []string{"bank", "counter", "set", "queue", "kvstore", "lru", "kvmap", "maps", "widemaps", "strmaps", "slices", "parallel"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "examples", "go", name)
			if d, ok := dirs[name]; ok {
				dir = d
			}
			p, errs, err := gofront.Load(dir)
			if err != nil || errs != nil {
				t.Fatal(err, errs)
			}
			f, _, err := synth.Run(context.Background(), p.Prog, synth.Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, uint64(len(name))))
			cases, holds, outside := pairCases(t, r, p, f, per, false)
			if len(cases) == 0 {
				t.Fatal("no state sampled")
			}
			runOracle(t, []oracleGroup{{name, p, cases}})
			t.Logf("%s: %d states where a constraint holds, %d outside every constraint of an exact pair", name, holds, outside)
		})
	}
}

package progen

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// optionSets are the option combinations the compile test cycles through.
var optionSets = []Options{
	Default(),
	{},
	{Procs: 2, MaxBlocks: 1},
	{Procs: 4, MaxBlocks: 3, Await: true},
	{Spawn: true, Loops: true},
	{Arrays: true, Funcs: true, Errors: true},
	{Procs: 3, MaxBlocks: 2, Asserts: true, Loops: true, Arrays: true},
	{Procs: 9, MaxBlocks: -1, Spawn: true}, // clamped to 4 and 1
	Shapes(),
	{Procs: 2, MaxBlocks: 1, Waits: true, Twins: true},
	{Arrays: true, Effects: true, Loops: true},
}

func compile(t *testing.T, seed uint64, src string) *lang.Program {
	t.Helper()
	prog, errs := lang.Compile(fmt.Sprintf("seed%d.blk", seed), []byte(src))
	if errs != nil {
		t.Fatalf("seed %d does not compile:\n%s\n%s", seed, errs.Format([]byte(src)), src)
	}
	return prog
}

func TestCompile(t *testing.T) {
	t.Parallel()
	for seed := range uint64(3000) {
		opts := optionSets[seed%uint64(len(optionSets))]
		src := Generate(seed, opts)
		prog := compile(t, seed, src)
		o := opts.normalize()
		started := 0 // the procs p0.. init starts; the shapes' come on top
		for _, p := range prog.Procs {
			if strings.HasPrefix(p.Name, "p") && len(p.Name) == 2 {
				started++
			}
		}
		if started < 1 || started > o.Procs || started < 2 && !o.Waits {
			t.Fatalf("seed %d: init starts %d procs, want 2..%d:\n%s", seed, started, o.Procs, src)
		}
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	distinct := map[string]bool{}
	for seed := range uint64(100) {
		a, b := Generate(seed, Default()), Generate(seed, Default())
		if a != b {
			t.Fatalf("seed %d gives two programs:\n%s\n%s", seed, a, b)
		}
		if !strings.HasPrefix(a, fmt.Sprintf("// progen seed %d (", seed)) {
			t.Fatalf("seed %d: no header:\n%s", seed, a)
		}
		distinct[a] = true
	}
	if len(distinct) < 100 {
		t.Errorf("100 seeds give only %d distinct programs", len(distinct))
	}
}

// features are the substrings that show a feature is used; off reports
// whether options exclude it.
var features = []struct {
	name string
	sub  string
	off  func(Options) bool
}{
	{"await", "await(", func(o Options) bool { return !o.Await && !o.Waits }},
	{"spawn", "spawn c(", func(o Options) bool { return !o.Spawn }},
	{"array", "arr[", func(o Options) bool { return !o.Arrays }},
	{"loop", "while (", func(o Options) bool { return !o.Loops }},
	{"assert", "assert(", func(o Options) bool { return !o.Asserts }},
	{"func", "func ", func(o Options) bool { return !o.Funcs && !o.Effects }},
	{"yield", "yield;", nil},
	{"if", "if (", nil},
	{"else", "} else {", nil},
	{"local", "int t", nil},
	{"init assignment", "  g", nil}, // in init or a proc: a global assigned at line start
}

// shapeFeatures are the substrings that show a feature of Shapes is used.
var shapeFeatures = []struct {
	name string
	sub  string
	off  func(Options) bool
}{
	{"waiter", "proc q(", func(o Options) bool { return !o.Waits }},
	{"lock", "proc lk(", func(o Options) bool { return !o.Waits }},
	{"handshake", "proc hs(", func(o Options) bool { return !o.Waits }},
	{"guard on several", " && ", nil},
	{"twin", "", func(o Options) bool { return !o.Twins }},
	{"effects", "func int eff(", func(o Options) bool { return !o.Effects }},
	{"effect in a spawn", "spawn c(eff(", func(o Options) bool { return !o.Effects }},
	{"effect in a guard", "await(eff(", func(o Options) bool { return !o.Effects }},
	{"effect in a loop", "&& eff(", func(o Options) bool { return !o.Effects }},
	{"effect in an index", "[(eff(", func(o Options) bool { return !o.Effects }},
}

// TestShapes: programs of Shapes use each shape often enough, and the
// options without it never.
func TestShapes(t *testing.T) {
	t.Parallel()
	const seeds = 400
	count := map[string]int{}
	twin := regexp.MustCompile(`(?m)^  (spawn p\d\(.*\);)\n  (spawn p\d\(.*\);)$`)
	has := func(src, name, sub string) bool {
		if name == "twin" {
			for _, m := range twin.FindAllStringSubmatch(src, -1) {
				if m[1] == m[2] {
					return true
				}
			}
			return false
		}
		return strings.Contains(src, sub)
	}
	for seed := range uint64(seeds) {
		src := Generate(seed, Shapes())
		for _, f := range shapeFeatures {
			if has(src, f.name, f.sub) {
				count[f.name]++
			}
		}
		body := Generate(seed, Default())
		for _, f := range shapeFeatures {
			if f.off != nil && has(body, f.name, f.sub) {
				t.Fatalf("seed %d uses %s without the option:\n%s", seed, f.name, body)
			}
		}
	}
	var names []string
	for _, f := range shapeFeatures {
		names = append(names, f.name)
	}
	reportUse(t, "shape", names, count, seeds, seeds/40)
}

// reportUse logs how many of seeds programs use each of names (count),
// and fails where fewer than least do.
func reportUse(t *testing.T, what string, names []string, count map[string]int, seeds, least int) {
	t.Helper()
	var report []string
	for _, name := range names {
		report = append(report, fmt.Sprintf("%s %d", name, count[name]))
		if count[name] < least {
			t.Errorf("only %d of %d programs use %s", count[name], seeds, name)
		}
	}
	t.Logf("programs using each %s, of %d: %s", what, seeds, strings.Join(report, ", "))
}

func TestFeatures(t *testing.T) {
	t.Parallel()
	const seeds = 200
	count := map[string]int{}
	for seed := range uint64(seeds) {
		src := Generate(seed, Default())
		for _, f := range features {
			if strings.Contains(src, f.sub) {
				count[f.name]++
			}
		}
		// Disabled features never show up.
		for _, opts := range optionSets {
			src := Generate(seed, opts)
			body := src[strings.IndexByte(src, '\n'):] // skip the header
			for _, f := range features {
				if f.off != nil && f.off(opts) && strings.Contains(body, f.sub) {
					t.Fatalf("seed %d uses %s with options %s:\n%s", seed, f.name, opts, src)
				}
			}
		}
	}
	var names []string
	for _, f := range features {
		names = append(names, f.name)
	}
	reportUse(t, "feature", names, count, seeds, seeds/10)
}

// dfsStats summarizes an exhaustive exploration.
type dfsStats struct {
	events     int // steps taken (tree edges)
	executions int // complete executions: no process enabled, or an error
	errors     int // executions ending in a runtime error
	deadlocks  int // executions ending with blocked processes
	violating  int // executions with at least one violation
	depth      int // longest execution, in events
	cut        bool
}

// dfs explores every interleaving from st with Mark/Undo, stopping after
// bound events.
func dfs(st *interp.State, depth, bound int, s *dfsStats) {
	en := st.EnabledProcs(nil)
	if len(en) == 0 {
		s.executions++
		s.depth = max(s.depth, depth)
		if len(st.Live()) > 0 {
			s.deadlocks++
		}
		if len(st.Violations) > 0 {
			s.violating++
		}
		return
	}
	mark := st.Mark()
	for _, i := range en {
		if s.events >= bound {
			s.cut = true
			return
		}
		s.events++
		if ev := st.Step(i); ev.Err != nil {
			s.executions++
			s.errors++
			s.depth = max(s.depth, depth+1)
		} else {
			dfs(st, depth+1, bound, s)
		}
		st.Undo(mark)
	}
}

func TestExplore(t *testing.T) {
	t.Parallel()
	const seeds, bound = 200, 200000
	var execs []int
	var total dfsStats
	withErrors, withViolations, withDeadlocks, maxEvents := 0, 0, 0, 0
	for seed := range uint64(seeds) {
		src := Generate(seed, Default())
		m, err := interp.New(compile(t, seed, src), nil)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		st, rerr := m.Initial()
		if rerr != nil {
			t.Fatalf("seed %d: init fails: %v\n%s", seed, rerr, src)
		}
		var s dfsStats
		dfs(st, 0, bound, &s)
		if s.cut {
			t.Fatalf("seed %d: more than %d events to explore:\n%s", seed, bound, src)
		}
		if s.depth > 12 {
			t.Errorf("seed %d: an execution of %d events:\n%s", seed, s.depth, src)
		}
		execs = append(execs, s.executions)
		total.events += s.events
		total.executions += s.executions
		total.errors += s.errors
		maxEvents = max(maxEvents, s.depth)
		if s.errors > 0 {
			withErrors++
		}
		if s.violating > 0 {
			withViolations++
		}
		if s.deadlocks > 0 {
			withDeadlocks++
		}
	}
	slices.Sort(execs)
	t.Logf("%d programs: interleavings max %d, median %d, total %d; %d events in all; longest execution %d events",
		seeds, execs[len(execs)-1], execs[len(execs)/2], total.executions, total.events, maxEvents)
	t.Logf("programs with a violation %d, with a deadlock %d, with an erring execution %d (%d erring executions)",
		withViolations, withDeadlocks, withErrors, total.errors)
	if withViolations == 0 || withDeadlocks == 0 {
		t.Errorf("no program violates an assert or deadlocks")
	}
}

// TestDelete: Delete is a pure function of its seed, removes statements
// only (every declaration and header stays), leaves loop bodies whole, and
// a result that compiles explores to its end within the generator's bound.
func TestDelete(t *testing.T) {
	t.Parallel()
	headers := func(src string) (n int) {
		for _, l := range strings.Split(src, "\n") {
			if isHeader(strings.TrimSpace(l)) {
				n++
			}
		}
		return n
	}
	loopBodies := func(src string) (bodies []string) {
		lines := strings.Split(src, "\n")
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), "while") {
				bodies = append(bodies, strings.Join(lines[i:blockEnd(lines, i)], "\n"))
			}
		}
		return bodies
	}
	compiled, changed := 0, 0
	for seed := range uint64(300) {
		src := Generate(seed, Default())
		del := Delete(src, seed, 1+int(seed%5))
		if del != Delete(src, seed, 1+int(seed%5)) {
			t.Fatalf("seed %d: Delete differs between two calls", seed)
		}
		if del != src {
			changed++
		}
		if headers(del) != headers(src) {
			t.Fatalf("seed %d: a declaration went:\n%s", seed, del)
		}
		for _, b := range loopBodies(del) {
			if !strings.Contains(src, b) {
				t.Fatalf("seed %d: a loop lost part of its body:\n%s", seed, del)
			}
		}
		prog, errs := lang.Compile("del.blk", []byte(del))
		if errs != nil {
			continue
		}
		compiled++
		m, err := interp.New(prog, nil)
		if err != nil {
			continue // e.g. an init that fails
		}
		st, rerr := m.Initial()
		if rerr != nil {
			continue
		}
		var s dfsStats
		dfs(st, 0, 200000, &s)
		if s.cut {
			t.Fatalf("seed %d: more than 200000 events to explore:\n%s", seed, del)
		}
	}
	if changed < 290 || compiled < 150 {
		t.Errorf("of 300 programs, Delete changed %d and %d compile; want most of both", changed, compiled)
	}
	t.Logf("of 300 programs, Delete changed %d, %d compile", changed, compiled)
}

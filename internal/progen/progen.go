package progen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// MaxInterleavings bounds the multinomial estimate of a program's
// interleavings (see the package contracts).
const MaxInterleavings = 5000

// maxEvents bounds the blocks of all processes of a program together.
const maxEvents = 12

// Options choose the size of programs and the features they may use. The
// zero value gives programs of default size with yields, ifs, locals and
// globals only.
type Options struct {
	Procs     int  // most processes init starts, 2-4 (0: 4); each program starts 2..Procs
	MaxBlocks int  // most atomic blocks per proc, 1-3 (0: 3)
	Await     bool // separate blocks with await(cond) as well as yield
	Spawn     bool // a child proc spawned with an argument, once or twice
	Arrays    bool // a shared int array of size 2 or 3
	Loops     bool // bounded while loops, some with a yield inside
	Asserts   bool // asserts over globals and locals
	Funcs     bool // helper funcs reading and writing globals
	Errors    bool // rarely, operations that may fail at run time
	// Waits adds a waiting shape (see shapes.go): a waiter whose guard
	// reads two or three globals or array cells that processes of their
	// own write independently, a lock built from await taken by two
	// processes, or a handshake; and compare-and-swap blocks among the
	// statements.
	Waits bool
	// Twins starts one proc twice with the same arguments: blocks that
	// are copies of each other.
	Twins bool
	// Effects adds a func that writes a global and returns a value,
	// called from spawn arguments, array indices, await guards, asserts
	// and the conditions of ifs and loops.
	Effects bool
	_       struct{}
}

// Default returns options enabling every feature of the first generator
// at the largest size. The seeds that regression programs name are seeds
// of Default: it does not take the shapes of Shapes, so that those seeds
// keep their programs.
func Default() Options {
	return Options{Procs: 4, MaxBlocks: 3, Await: true, Spawn: true, Arrays: true,
		Loops: true, Asserts: true, Funcs: true, Errors: true}
}

// Shapes returns Default with the waiting shapes, twins and funcs with
// effects: the shapes of programs that broke explorers from outside
// (awaits disabled by several independent writes, copies of one writer,
// writes made in spawn arguments and guards).
func Shapes() Options {
	o := Default()
	o.Waits, o.Twins, o.Effects = true, true, true
	return o
}

// normalize clamps the sizes into their ranges.
func (o Options) normalize() Options {
	if o.Procs == 0 {
		o.Procs = 4
	}
	o.Procs = min(max(o.Procs, 2), 4)
	if o.MaxBlocks == 0 {
		o.MaxBlocks = 3
	}
	o.MaxBlocks = min(max(o.MaxBlocks, 1), 3)
	return o
}

// String lists the options as the header of generated programs does.
func (o Options) String() string {
	o = o.normalize()
	s := fmt.Sprintf("procs %d, blocks %d", o.Procs, o.MaxBlocks)
	for _, f := range []struct {
		on   bool
		name string
	}{{o.Await, "await"}, {o.Spawn, "spawn"}, {o.Arrays, "arrays"}, {o.Loops, "loops"},
		{o.Asserts, "asserts"}, {o.Funcs, "funcs"}, {o.Errors, "errors"},
		{o.Waits, "waits"}, {o.Twins, "twins"}, {o.Effects, "effects"}} {
		if f.on {
			s += ", " + f.name
		}
	}
	return s
}

// Generate returns the .blk source of the program of a seed. It is a pure
// function of seed and opts.
func Generate(seed uint64, opts Options) string {
	opts = opts.normalize()
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x70726f67656e)), o: opts}
	g.program(seed)
	return g.b.String()
}

// Names: globals g0.., the array arr, procs p0.., the child c, funcs f (int
// result), h (void) and eff (Effects); proc parameters v and w, func
// parameter a, locals t1.. and loop counters i1..; and the shapes' (see
// shapes.go): globals l, sig and ack, procs q, wr, wr0.., lk, hs and ha,
// parameter k of wr. None can clash.

// local is an int local or parameter in scope.
type local struct {
	name    string
	counter bool // a loop counter: read only
	below   int  // for a counter inside its loop: its value is in 0..below-1
}

// plan is the shape of a program fixed before its text: how many blocks
// each proc has and where the spawns go.
type plan struct {
	blocks      []int   // per proc started by init
	childBlocks int     // 0: no child proc
	spawns      [][]int // per proc, per block: spawns placed there
	spawnCount  int     // spawn statements in all
	twin        int     // the proc init starts twice (Twins), or -1
	fixed       []int   // blocks of the processes of the waiting shape
}

type gen struct {
	r *rand.Rand
	o Options
	b strings.Builder

	globals []string
	arrSize int  // 0: no array
	hasF    bool // func int f(int a)
	hasH    bool // func h(int a)
	hasK    bool // func int eff(int a), which writes a global (Effects)
	plan    plan
	shape   shape // the waiting shape, if any (Waits)

	// per proc
	scope  []local
	fresh  int
	indent int
	inFunc bool // generating a func: no calls
}

func (g *gen) n(k int) int       { return g.r.IntN(k) }
func (g *gen) chance(k int) bool { return g.r.IntN(k) == 0 }

func (g *gen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", g.indent))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *gen) program(seed uint64) {
	fmt.Fprintf(&g.b, "// progen seed %d (%s)\n", seed, g.o)
	g.makePlan()

	ng := 2 + g.n(2)
	var decls []string
	for i := range ng {
		name := fmt.Sprintf("g%d", i)
		g.globals = append(g.globals, name)
		if g.chance(5) {
			decls = append(decls, name) // 0
		} else {
			decls = append(decls, fmt.Sprintf("%s = %d", name, g.n(5)-2))
		}
	}
	g.line("global int %s;", strings.Join(decls, ", "))
	if g.o.Arrays && !g.chance(4) {
		g.arrSize = 2 + g.n(2)
		if g.chance(2) {
			g.line("global int arr[%d] = %d;", g.arrSize, g.n(3)-1)
		} else {
			vals := make([]string, g.arrSize)
			for i := range vals {
				vals[i] = fmt.Sprint(g.n(5) - 2)
			}
			g.line("global int arr[%d] = {%s};", g.arrSize, strings.Join(vals, ", "))
		}
	}
	if g.o.Funcs {
		g.hasF, g.hasH = g.chance(2), g.chance(2)
		if g.hasF {
			g.funcF()
		}
		if g.hasH {
			g.funcH()
		}
	}
	if g.o.Effects {
		g.hasK = true
		g.funcK()
	}
	g.shapeProcs()
	if g.plan.childBlocks > 0 {
		g.proc("c", []string{"v"}, g.plan.childBlocks, nil)
	}
	params := make([][]string, len(g.plan.blocks))
	for i, nb := range g.plan.blocks {
		params[i] = []string{"v"}
		if g.chance(4) {
			params[i] = append(params[i], "w")
		}
		g.proc(fmt.Sprintf("p%d", i), params[i], nb, g.plan.spawns[i])
	}
	g.init(params)
}

// makePlan picks the number of procs and of their blocks, shrinking them
// until the program's events and interleavings are within bounds.
func (g *gen) makePlan() {
	p := &g.plan
	np := 2 + g.n(g.o.Procs-1)
	p.blocks = make([]int, np)
	for i := range p.blocks {
		p.blocks[i] = 1 + g.n(g.o.MaxBlocks)
	}
	if g.o.Spawn && !g.chance(3) {
		p.childBlocks = 1 + g.n(min(2, g.o.MaxBlocks))
		p.spawnCount = 1 + g.n(2)
	}
	p.twin = -1
	if g.o.Waits {
		g.pickShape()
		p.fixed = g.shape.blocks()
		if len(p.fixed) > 0 && np > 1 {
			np = 1 + g.n(np-1) // room for the shape's processes
			p.blocks = p.blocks[:np]
		}
	}
	if g.o.Twins && g.chance(2) {
		p.twin = g.n(np)
	}
	for {
		sizes := append([]int(nil), p.blocks...)
		if p.twin >= 0 {
			sizes = append(sizes, p.blocks[p.twin])
		}
		sizes = append(sizes, p.fixed...)
		for range p.spawnCount {
			sizes = append(sizes, p.childBlocks)
		}
		if sum(sizes) <= maxEvents && multinomial(sizes) <= MaxInterleavings {
			break
		}
		// Shrink something: a proc's blocks, the child's, or a spawn.
		var big []int
		for i, b := range p.blocks {
			if b > 1 {
				big = append(big, i)
			}
		}
		if len(big) == 0 && p.childBlocks <= 1 && p.spawnCount == 0 {
			// Only the twin and the shape's processes can go (Default
			// never gets here: one-block procs stay within the bounds).
			switch {
			case p.twin >= 0:
				p.twin = -1
			case len(p.blocks) > 1:
				p.blocks = p.blocks[:len(p.blocks)-1]
			default:
				g.shape, p.fixed = shape{}, nil
			}
			continue
		}
		switch k := g.n(len(big) + 2); {
		case k < len(big):
			p.blocks[big[k]]--
		case k == len(big) && p.childBlocks > 1:
			p.childBlocks--
		case p.spawnCount > 0:
			p.spawnCount--
			if p.spawnCount == 0 {
				p.childBlocks = 0
			}
		case len(big) > 0:
			p.blocks[big[0]]--
		default:
			p.childBlocks = 1 // only ones left: the bound is never hit there
		}
	}
	p.spawns = make([][]int, np)
	for i, b := range p.blocks {
		p.spawns[i] = make([]int, b)
	}
	for range p.spawnCount {
		i := g.n(np)
		p.spawns[i][g.n(p.blocks[i])]++
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// multinomial returns (sum xs)! / prod(x!), the number of interleavings of
// sequences of those lengths. The sum is at most maxEvents, so it fits.
func multinomial(xs []int) int {
	r, n := 1, 0
	for _, x := range xs {
		for k := 1; k <= x; k++ {
			n++
			r = r * n / k // exact: r*n/k is C(n, k)-style and stays integral
		}
	}
	return r
}

func (g *gen) funcF() {
	g.scope, g.inFunc = []local{{name: "a"}}, true
	defer func() { g.scope, g.inFunc = nil, false }()
	g.line("func int f(int a) {")
	g.indent++
	if g.chance(2) {
		g.line("if (%s) {", g.cond(1))
		g.indent++
		g.line("return %s;", g.sum(2))
		g.indent--
		g.line("}")
	}
	g.line("return %s;", g.sum(2))
	g.indent--
	g.line("}")
}

func (g *gen) funcH() {
	g.scope, g.inFunc = []local{{name: "a"}}, true
	defer func() { g.scope, g.inFunc = nil, false }()
	g.line("func h(int a) {")
	g.indent++
	g.line("%s = %s;", g.global(), g.sum(2))
	if g.chance(2) {
		g.line("%s = %s;", g.global(), g.sum(2))
	}
	g.indent--
	g.line("}")
}

// proc writes a proc of nb blocks; spawns[b] spawn statements go in block b.
func (g *gen) proc(name string, params []string, nb int, spawns []int) {
	g.scope, g.fresh = nil, 0
	formals := make([]string, len(params))
	for i, p := range params {
		g.scope = append(g.scope, local{name: p})
		formals[i] = "int " + p
	}
	g.line("proc %s(%s) {", name, strings.Join(formals, ", "))
	g.indent++
	block := 0
	g.blockStmts(spawnsAt(spawns, block))
	for points := nb - 1; points > 0; {
		if g.o.Loops && g.chance(4) {
			k := 1 + g.n(min(points, 2))
			g.yieldLoop(k)
			points -= k
			s := 0 // spawns planned in the blocks the loop spans go after it
			for range k {
				block++
				s += spawnsAt(spawns, block)
			}
			if g.chance(2) {
				g.blockStmts(s)
			} else {
				g.stmts(0, s)
			}
			continue
		}
		if g.o.Await && g.chance(3) {
			if g.hasK && g.chance(3) {
				g.line("await(%s >= %s);", g.callK(), g.sum(2))
			} else {
				g.line("await(%s);", g.cond(2))
			}
		} else {
			g.line("yield;")
		}
		points--
		block++
		g.blockStmts(spawnsAt(spawns, block))
	}
	g.indent--
	g.line("}")
}

func spawnsAt(spawns []int, b int) int {
	if b < len(spawns) {
		return spawns[b]
	}
	return 0
}

// blockStmts writes the 1-3 statements of a block, with spawns spawns among
// them.
func (g *gen) blockStmts(spawns int) {
	g.stmts(1+g.n(3), spawns)
}

func (g *gen) stmts(count, spawns int) {
	for slots := count + spawns; slots > 0; slots-- {
		if g.n(slots) < spawns { // each order of the slots equally likely
			g.line("spawn c(%s);", g.sum(2))
			spawns--
		} else {
			g.stmt(true)
		}
	}
}

// yieldLoop writes a loop whose body yields: k points, k more blocks.
func (g *gen) yieldLoop(k int) {
	i := g.newCounter()
	g.line("int %s = 0;", i)
	g.line("while (%s < %d%s) {", i, k, g.loopCall())
	g.indent++
	g.withCounter(i, k, func() {
		g.stmt(false)
		g.line("yield;")
		if g.chance(2) {
			g.stmt(false)
		}
	})
	g.line("%s = %s + 1;", i, i)
	g.indent--
	g.line("}")
}

func (g *gen) newCounter() string {
	g.fresh++
	return fmt.Sprintf("i%d", g.fresh)
}

// withCounter runs body with counter i in scope as an index below k, then
// leaves i in scope as a read-only local.
func (g *gen) withCounter(i string, k int, body func()) {
	g.scope = append(g.scope, local{name: i, counter: true, below: k})
	n := len(g.scope)
	body()
	g.scope[n-1].below = 0
}

// stmt writes one statement; top statements may declare locals, loop and
// spawn.
func (g *gen) stmt(top bool) {
	if g.o.Waits && g.chance(8) {
		g.cas()
		return
	}
	for {
		switch g.n(16) {
		case 0, 1, 2, 3, 4:
			g.line("%s = %s;", g.global(), g.sum(3))
		case 5, 6:
			if !top {
				continue
			}
			g.fresh++
			t := fmt.Sprintf("t%d", g.fresh)
			g.line("int %s = %s;", t, g.sum(3))
			g.scope = append(g.scope, local{name: t})
		case 7:
			v, ok := g.assignable()
			if !ok {
				continue
			}
			g.line("%s = %s;", v, g.sum(2))
		case 8, 9:
			g.line("if (%s) {", g.cond(2))
			g.indent++
			g.stmt(false)
			g.indent--
			if g.chance(2) {
				g.line("} else {")
				g.indent++
				g.stmt(false)
				g.indent--
			}
			g.line("}")
		case 10:
			if !g.o.Loops || !top {
				continue
			}
			i := g.newCounter()
			k := 2 + g.n(2)
			g.line("int %s = 0;", i)
			g.line("while (%s < %d%s) {", i, k, g.loopCall())
			g.indent++
			g.withCounter(i, k, func() {
				g.stmt(false)
				if g.chance(3) {
					g.stmt(false)
				}
			})
			g.line("%s = %s + 1;", i, i)
			g.indent--
			g.line("}")
		case 11, 12:
			if g.arrSize == 0 {
				continue
			}
			g.line("arr[%s] = %s;", g.index(), g.sum(2))
		case 13, 14:
			if !g.o.Asserts {
				continue
			}
			g.line("assert(%s);", g.cond(2))
		case 15:
			if !g.hasH {
				continue
			}
			g.line("h(%s);", g.sum(2))
		}
		return
	}
}

// assignable returns a local that may be assigned (not a loop counter).
func (g *gen) assignable() (string, bool) {
	var vs []string
	for _, l := range g.scope {
		if !l.counter {
			vs = append(vs, l.name)
		}
	}
	if len(vs) == 0 {
		return "", false
	}
	return vs[g.n(len(vs))], true
}

func (g *gen) global() string { return g.globals[g.n(len(g.globals))] }

// index returns an index expression of arr that is in range.
func (g *gen) index() string {
	if g.o.Errors && g.chance(25) {
		return g.global() // may be out of range
	}
	var counters []string
	for _, l := range g.scope {
		if l.counter && l.below > 0 && l.below <= g.arrSize {
			counters = append(counters, l.name)
		}
	}
	switch g.n(4) {
	case 0:
		if len(counters) > 0 {
			return counters[g.n(len(counters))]
		}
	case 1:
		return fmt.Sprintf("(%s %% %d + %d) %% %d", g.variable(), g.arrSize, g.arrSize, g.arrSize)
	}
	if g.hasK && !g.inFunc && g.chance(3) {
		return fmt.Sprintf("(%s %% %d + %d) %% %d", g.callK(), g.arrSize, g.arrSize, g.arrSize)
	}
	return fmt.Sprint(g.n(g.arrSize))
}

// variable returns a global or a local in scope.
func (g *gen) variable() string {
	if len(g.scope) > 0 && g.chance(3) {
		return g.scope[g.n(len(g.scope))].name
	}
	return g.global()
}

// atom returns a leaf of an int expression: a variable, a constant, an
// array element or a call of f. Calls only when calls is set (not inside f).
func (g *gen) atom(calls bool) string {
	switch g.n(12) {
	case 0, 1:
		return fmt.Sprint(g.n(6) - 2)
	case 2, 3, 4:
		if len(g.scope) > 0 {
			return g.scope[g.n(len(g.scope))].name
		}
	case 5:
		if g.arrSize > 0 {
			return fmt.Sprintf("arr[%s]", g.index())
		}
	case 6:
		if calls && g.hasF {
			return fmt.Sprintf("f(%s)", g.atom(false))
		}
	}
	if calls && g.hasK && g.chance(3) {
		return g.callK()
	}
	return g.global()
}

// sum returns an int expression of up to terms atoms.
func (g *gen) sum(terms int) string {
	calls := !g.inFunc
	switch g.n(10) {
	case 0:
		return fmt.Sprintf("%d * %s", []int{2, -1, 3}[g.n(3)], g.atom(calls))
	case 1:
		op := []string{"/", "%"}[g.n(2)]
		d := []int{2, 3, -2}[g.n(3)]
		if g.o.Errors && g.chance(8) {
			return fmt.Sprintf("%s %s %s", g.atom(calls), op, g.global()) // may divide by zero
		}
		return fmt.Sprintf("(%s) %s %d", g.sum(2), op, d)
	case 2:
		return "-" + g.variable()
	}
	s := g.atom(calls)
	for range g.n(terms) {
		s += []string{" + ", " - "}[g.n(2)] + g.atom(calls)
	}
	return s
}

// cond returns a bool expression, nesting && || ! up to depth.
func (g *gen) cond(depth int) string {
	if depth > 0 {
		switch g.n(8) {
		case 0:
			return g.cond(depth-1) + " && " + g.cond(depth-1)
		case 1:
			return g.cond(depth-1) + " || " + g.cond(depth-1)
		case 2:
			return "!(" + g.cond(depth-1) + ")"
		}
	}
	ops := []string{"<", "<=", "==", "!=", ">", ">="}
	rhs := fmt.Sprint(g.n(5) - 2)
	if g.chance(2) {
		rhs = g.sum(2)
	}
	lhs := ""
	if g.hasK && !g.inFunc && g.chance(4) {
		lhs = g.callK()
	} else {
		lhs = g.variable()
	}
	return lhs + " " + ops[g.n(len(ops))] + " " + rhs
}

// init writes init: some global assignments, then the spawns of the procs.
func (g *gen) init(params [][]string) {
	g.scope = nil
	g.line("init {")
	g.indent++
	if g.chance(2) {
		g.line("%s = %d;", g.global(), g.n(5)-2)
	}
	if g.arrSize > 0 && g.chance(3) {
		g.line("arr[%d] = %d;", g.n(g.arrSize), g.n(5)-2)
	}
	for i, ps := range params {
		args := make([]string, len(ps))
		for j := range args {
			if g.chance(3) {
				args[j] = g.global()
			} else {
				args[j] = fmt.Sprint(g.n(5) - 2)
			}
		}
		g.line("spawn p%d(%s);", i, strings.Join(args, ", "))
		if i == g.plan.twin {
			g.line("spawn p%d(%s);", i, strings.Join(args, ", "))
		}
	}
	g.shapeSpawns()
	g.indent--
	g.line("}")
}

// Delete returns src, a generated program, with up to n of its statements
// deleted, chosen by seed: a line that is a statement, or an if or a while
// with its whole body. Declarations, headers and init's first line stay,
// and nothing inside a loop's body goes, so that its counter still counts
// (every execution of the result terminates). The result need not compile
// (a use of a deleted local). Programs cut down this way meet orders and
// dependencies the generator's shapes do not: a reduction of one that
// passed found the program of dporrt/testdata/regress/cs-carry-lost.blk.
func Delete(src string, seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 0x64656c657465))
	lines := strings.Split(src, "\n")
	for range n {
		spans := deletable(lines)
		if len(spans) == 0 {
			break
		}
		s := spans[r.IntN(len(spans))]
		lines = append(lines[:s[0]:s[0]], lines[s[1]:]...)
	}
	return strings.Join(lines, "\n")
}

// Mutant returns the k-th cut-down version of src, the program of a seed:
// Delete with 1 to 5 statements, by k.
func Mutant(src string, seed uint64, k int) string {
	return Delete(src, seed<<8|uint64(k), 1+k%5)
}

// Soak returns the seeds a random differential test runs, first to last:
// 1 to def in make test; ICGEN_SOAK=N makes last N, and ICGEN_SOAK_FROM=M
// makes first M (to go on with a soak that stopped, or to run one part of
// it beside another).
func Soak(def int) (first, last uint64) {
	first, last = 1, uint64(def)
	if n, err := strconv.Atoi(os.Getenv("ICGEN_SOAK")); err == nil && n > 0 {
		last = uint64(n)
	}
	if n, err := strconv.Atoi(os.Getenv("ICGEN_SOAK_FROM")); err == nil && n > 0 {
		first = uint64(n)
	}
	return first, last
}

// Mutants is how many cut-down versions (Mutant) of the program of a seed
// a differential test runs besides it: ICGEN_MUTANTS=N for every seed in a
// soak (0: none), else one for each seed up to upTo.
func Mutants(seed, upTo uint64) int {
	if n, err := strconv.Atoi(os.Getenv("ICGEN_MUTANTS")); err == nil && n >= 0 {
		return n
	}
	if seed <= upTo {
		return 1
	}
	return 0
}

// deletable returns the spans [from, to) of lines that Delete may remove.
func deletable(lines []string) [][2]int {
	var out [][2]int
	loopEnd := -1 // the line after the body of the loop the scan is in
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if i < loopEnd || s == "" || s == "}" || strings.HasPrefix(s, "//") || strings.HasPrefix(s, "} else") {
			continue
		}
		if isHeader(s) {
			continue
		}
		end := i + 1
		if strings.HasSuffix(s, "{") {
			end = blockEnd(lines, i)
			if end < 0 {
				continue
			}
			if strings.HasPrefix(s, "while") {
				loopEnd = end
			}
		}
		out = append(out, [2]int{i, end})
	}
	return out
}

// isHeader reports whether a line opens a declaration: globals, params,
// procs, funcs and init.
func isHeader(s string) bool {
	for _, p := range []string{"global ", "param ", "proc ", "func ", "init"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// blockEnd returns the line after the one that closes the block opened on
// line i, with its else branches (-1 if it is not closed).
func blockEnd(lines []string, i int) int {
	depth := 0
	for j := i; j < len(lines); j++ {
		depth += strings.Count(lines[j], "{") - strings.Count(lines[j], "}")
		if depth == 0 && !strings.HasSuffix(strings.TrimSpace(lines[j]), "{") {
			return j + 1
		}
	}
	return -1
}

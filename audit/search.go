package audit

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/smt"
	"github.com/icgen/icgen/internal/z3"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// answer is the solver's three-valued answer. unknown is never taken for
// unsat or for sat.
type answer = z3.Status

const (
	unknown = z3.Unknown
	sat     = z3.Sat
	unsat   = z3.Unsat
)

// smallBound bounds the integers of a first attempt at a witness, so that
// witnesses read easily; later attempts use the whole int64 range.
const smallBound = 100

// prover holds one solver session; it belongs to one goroutine.
type prover struct {
	sess  *smt.Session
	x     *z3.Context
	s     *smt.Solver
	opts  Options
	check time.Duration
}

func newProver(opts Options) (*prover, error) {
	sess, err := smt.NewSession(smt.Limits{Rlimit: opts.Rlimit})
	if err != nil {
		return nil, err
	}
	s := sess.NewSolver()
	if err := s.Err(); err != nil {
		sess.Close()
		return nil, err
	}
	d := opts.CheckTimeout
	if d <= 0 {
		d = 2 * time.Second
	}
	return &prover{sess: sess, x: sess.X, s: s, opts: opts, check: d}, nil
}

func (p *prover) close() {
	p.s.Close()
	p.sess.Close()
}

// query is a conjunction of SMT-LIB2 terms with their declarations.
type query struct {
	decls map[string]bool // declaration lines
	defs  []string        // define-fun lines of one formula graph, in order
	terms []string
}

func newQuery() *query { return &query{decls: map[string]bool{}} }

func (q *query) declare(lines ...string) {
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l != "" {
			q.decls[l] = true
		}
	}
}

// runs is the condition under which a path system runs to completion
// without a runtime error (encode.Runs), with the graph that holds it.
func runs(s *ts.System) (*ts.Graph, ts.Ref) { return s.G, encode.Runs(s) }

// term adds term r of graph g, written as a tree (so that it shares no
// definitions with the query's graph), and its declarations.
func (q *query) term(g *ts.Graph, r ts.Ref) {
	q.declare(strings.Split(encode.CollectGraph(g, r).Declarations(), "\n")...)
	q.terms = append(q.terms, encode.SMT(g, r))
}

// graph adds terms of a merged formula's graph (pos as they are, neg
// negated), with their declarations and the definitions of the subterms
// they share. A query holds terms of one graph only (the definitions'
// names are the graph's).
func (q *query) graph(g *ts.Graph, pos, neg []ts.Ref) {
	roots := append(append([]ts.Ref(nil), pos...), neg...)
	q.declare(strings.Split(encode.CollectGraph(g, roots...).Declarations(), "\n")...)
	defs, exprs := encode.GraphSMT(g, roots...)
	// A definition names one term of the graph, but its text depends on
	// the roots it was written for (which subterms it shares by name):
	// a name already defined keeps its first definition, which says the
	// same, as Z3 refuses a name defined twice.
	have := map[string]bool{}
	for _, d := range q.defs {
		have[defName(d)] = true
	}
	for _, d := range strings.Split(defs, "\n") {
		if d != "" && !have[defName(d)] {
			have[defName(d)] = true
			q.defs = append(q.defs, d)
		}
	}
	for i, e := range exprs {
		if i >= len(pos) {
			e = "(not " + e + ")"
		}
		q.terms = append(q.terms, e)
	}
}

// defName is the name a define-fun line defines.
func defName(d string) string {
	f := strings.Fields(d)
	if len(f) < 2 {
		return d
	}
	return f[1]
}

// expr adds an IC expression and its declarations.
func (q *query) expr(e *ic.Expr) {
	q.declare(e.Declarations()...)
	q.terms = append(q.terms, ic.SMTLIB(e))
}

func (q *query) clone() *query {
	c := newQuery()
	for d := range q.decls {
		c.decls[d] = true
	}
	c.defs = append(c.defs, q.defs...)
	c.terms = append(c.terms, q.terms...)
	return c
}

func (q *query) text() string {
	var ds []string
	for d := range q.decls {
		ds = append(ds, d)
	}
	sort.Strings(ds)
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d + "\n")
	}
	for _, d := range q.defs {
		b.WriteString(d + "\n")
	}
	for _, t := range q.terms {
		fmt.Fprintf(&b, "(assert %s)\n", t)
	}
	return b.String()
}

// solve checks a query on a fresh scope of the solver. The scope stays
// open (for models and blocking clauses) until the returned release runs.
func (p *prover) solve(ctx context.Context, q *query) (answer, string, func(), error) {
	mark := p.x.Mark()
	release := func() {
		p.s.Pop(1)
		p.x.Release(mark)
	}
	if err := p.s.Push(); err != nil {
		p.x.Release(mark)
		return unknown, "", func() {}, err
	}
	hs, err := p.x.Parse(q.text())
	if err != nil {
		release()
		return unknown, "", func() {}, err
	}
	if err := p.s.Assert(hs...); err != nil {
		release()
		return unknown, "", func() {}, err
	}
	a, why := p.recheck(ctx)
	return a, why, release, nil
}

// recheck checks the current scope again (after a blocking clause).
func (p *prover) recheck(ctx context.Context) (answer, string) {
	cctx, cancel := context.WithTimeout(ctx, p.check)
	defer cancel()
	r := p.s.CheckContext(cctx)
	return r.Status, r.Reason
}

// space is the state space of a pair: the input symbols of the program for
// the pair's two processes, and how to read a model into a concrete state.
type space struct {
	p      *lang.Program
	a, b   *lang.Block
	syms   *ts.Symbols
	m      *interp.Machine
	funcs  map[string]ic.Function
	checks []*ic.Expr // must hold in the start state, as the runtime evaluates them
	domain []*ic.Expr // Options.Domain of the pair (in checks too)
}

// restrict confines the space, and region, to the states where the
// pair's Options.Domain holds.
func (sp *space) restrict(opts Options, region *query) {
	if opts.Domain == nil {
		return
	}
	sp.domain = opts.Domain(sp.a.ID, sp.b.ID)
	sp.checks = append(sp.checks, sp.domain...)
	for _, d := range sp.domain {
		region.expr(d)
	}
}

// scalar is one scalar input of a state: a global, an array element, a
// local of one process.
type scalar struct {
	sym  *ts.Sym
	g    *lang.Var // the global, for globals and elements
	elem int       // the element, for arrays
	sort ts.Sort   // of the value
	proc int       // 0 or 1 for a local, else -1
	slot int
}

// smt renders the input as an SMT-LIB2 term.
func (s scalar) smt() string {
	if s.elem < 0 {
		return encode.Symbol(s.sym.Name)
	}
	if s.sym.Sort == ts.SortArray {
		return fmt.Sprintf("(select %s %d)", encode.Symbol(s.sym.Name), s.elem)
	}
	return encode.Symbol(s.sym.Name)
}

// z3 builds the input as a solver term.
func (s scalar) z3(x *z3.Context) z3.Term {
	switch {
	case s.elem < 0:
		return x.ArrayConst(ic.SymbolName(s.sym.Name))
	case s.sym.Sort == ts.SortArray:
		return x.Select(x.ArrayConst(ic.SymbolName(s.sym.Name)), x.Int(int64(s.elem)))
	case s.sym.Sort == ts.SortBool:
		return x.BoolConst(ic.SymbolName(s.sym.Name))
	}
	return x.IntConst(ic.SymbolName(s.sym.Name))
}

// scalars lists the inputs of the state for machine m, and declares them.
func (sp *space) scalars(m *interp.Machine, q *query) []scalar {
	var out []scalar
	for _, g := range sp.p.Globals {
		sym := sp.syms.Global(g)
		q.declare(encode.DeclareConst(sym))
		_, n := m.GlobalLocs(g)
		if g.Unbounded() {
			out = append(out, scalar{sym: sym, g: g, elem: -1, sort: ts.SortArray, proc: -1})
			continue
		}
		if g.Type == lang.IntArray {
			for i := 0; i < n; i++ {
				out = append(out, scalar{sym: sym, g: g, elem: i, sort: ts.SortInt, proc: -1})
			}
			continue
		}
		out = append(out, scalar{sym: sym, g: g, sort: sym.Sort, proc: -1})
	}
	for k, bl := range []*lang.Block{sp.a, sp.b} {
		for _, v := range bl.Point.Live {
			sym := sp.syms.Local(v, k)
			q.declare(encode.DeclareConst(sym))
			out = append(out, scalar{sym: sym, sort: sym.Sort, proc: k, slot: v.Index})
		}
	}
	return out
}

// bounds constrains the integer inputs to [-n, n] (n = 0: int64).
func bounds(q *query, in []scalar, n int64) {
	lo, hi := fmt.Sprint(n), fmt.Sprint(n)
	if n == 0 {
		lo, hi = "9223372036854775808", "9223372036854775807"
	}
	for _, s := range in {
		if s.sort == ts.SortInt {
			q.terms = append(q.terms, fmt.Sprintf("(<= (- %s) %s %s)", lo, s.smt(), hi))
		}
	}
}

// pin fixes the params to their values in m.
func (sp *space) pin(q *query, m *interp.Machine) {
	for _, pa := range sp.p.Params {
		sym := sp.syms.Param(pa)
		q.declare(encode.DeclareConst(sym))
		q.terms = append(q.terms, fmt.Sprintf("(= %s %s)", encode.Symbol(sym.Name), smtInt(m.Param(pa))))
	}
}

func smtInt(v int64) string {
	if v < 0 {
		return fmt.Sprintf("(- %d)", -v) // params are never -2^63 here: -D parses int64 and negation of it only fails there
	}
	return fmt.Sprint(v)
}

// stage is one way of asking for a witness: a region of states, whether the
// params stay at the machine's values, and the kinds of difference that
// count.
type stage struct {
	region *query
	pinned bool
	accept func(*Witness) bool
	// empty, when set, is what it means that the region has no state;
	// unless apart (when set) has none either: then vacuous says why.
	empty   string
	apart   *query
	vacuous string
}

// search looks for a witness: for each stage, models of the region (small
// values first, then any int64 values), each run in the interpreter, a
// model that shows no difference blocked and the next one asked for, at
// most opts.Tries models per stage and bound. It returns the witness, or
// why there is none.
func (p *prover) search(ctx context.Context, sp *space, stages []stage) (*Witness, string, error) {
	tries := p.opts.Tries
	if tries <= 0 {
		tries = 5
	}
	var unknowns, empties []string
	misses := map[miss]int{}
	for _, st := range stages {
		for _, bound := range []int64{smallBound, 0} {
			if err := ctx.Err(); err != nil {
				return nil, "", err
			}
			q := st.region.clone()
			m := sp.m
			if st.pinned {
				sp.pin(q, m)
			}
			in := sp.scalars(m, q)
			bounds(q, in, bound)
			ans, why, release, err := p.solve(ctx, q)
			if err != nil {
				return nil, "", err
			}
			isEmpty := ans == unsat && bound == 0 && st.empty != ""
			for k := 0; k < tries && ans == sat; k++ {
				w, mi, block, err := p.candidate(sp, st, in)
				if err != nil {
					release()
					return nil, "", err
				}
				if w != nil {
					release()
					return w, "", nil
				}
				misses[mi]++
				if err := p.s.Assert(block); err != nil {
					break
				}
				ans, why = p.recheck(ctx)
			}
			release()
			if ans == unknown {
				unknowns = append(unknowns, why)
			}
			if isEmpty {
				msg := st.empty
				if st.apart != nil {
					q := st.apart.clone()
					if st.pinned {
						sp.pin(q, m)
					}
					sp.scalars(m, q)
					bounds(q, nil, 0)
					a, _, rel, err := p.solve(ctx, q)
					if err != nil {
						return nil, "", err
					}
					rel()
					if a == unsat {
						msg = st.vacuous
					}
				}
				empties = append(empties, msg)
			}

		}
	}
	for _, st := range stages {
		if w := sp.seed(st); w != nil {
			return w, "", nil
		}
	}
	var parts []string
	if len(empties) > 0 {
		parts = append(parts, empties[0])
	}
	total := 0
	for _, n := range misses {
		total += n
	}
	if total > 0 {
		var ks []string
		for _, k := range []struct {
			mi   miss
			what string
		}{
			{alike, "ended alike in both orders"},
			{bothErr, "raised a runtime error in both orders"},
			{notEnabled, "had a block not enabled"},
			{notHolding, "did not satisfy the constraint as the runtime evaluates it"},
			{notRunnable, "could not be run"},
			{notWanted, "showed no difference of the kind looked for"},
		} {
			if n := misses[k.mi]; n > 0 {
				ks = append(ks, fmt.Sprintf("%d %s", n, k.what))
			}
		}
		parts = append(parts, fmt.Sprintf("of %d solver model%s run, %s", total, plural(total), strings.Join(ks, ", ")))
	}
	if len(unknowns) > 0 {
		parts = append(parts, "the solver could not decide ("+unknowns[0]+")")
	}
	if len(parts) == 0 {
		parts = append(parts, "the solver found no candidate state")
	}
	return nil, "no concrete witness found: " + strings.Join(parts, "; "), nil
}

// seed tries the program's own initial state (after init, at the
// machine's params) as a witness, with the locals of processes init left
// at the two blocks (zero where there are none): a program is written to
// run from there, and it holds values a solver's models seldom pick, such
// as a loop bound that runs a loop out of steps.
func (sp *space) seed(st stage) *Witness {
	s, err := sp.m.Initial()
	if err != nil {
		return nil
	}
	locals := [2][]int64{make([]int64, len(sp.a.Proc.Locals)), make([]int64, len(sp.b.Proc.Locals))}
	used := map[int]bool{}
	for k, bl := range []*lang.Block{sp.a, sp.b} {
		for i, pr := range s.Procs {
			if !used[i] && pr.Point == bl.Point {
				copy(locals[k], pr.Locals)
				used[i] = true
				break
			}
		}
	}
	globals := s.Values(0, sp.m.Locs())
	if !holdsAt(sp.m, sp.a, sp.b, globals, nil, locals[0], locals[1], sp.funcs, sp.checks...) {
		return nil
	}
	if w, _ := runPair(sp.m, sp.a, sp.b, globals, nil, locals[0], locals[1]); w != nil && st.accept(w) {
		return w
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// candidate reads the current model into a state and runs it. It returns
// the witness when the orders really differ, else a clause blocking the
// model.
func (p *prover) candidate(sp *space, st stage, in []scalar) (*Witness, miss, z3.Term, error) {
	model, err := p.s.Model()
	if err != nil {
		return nil, 0, z3.Term{}, err
	}
	x := p.x
	m := sp.m
	var params map[string]int64
	var eqs []z3.Term
	if !st.pinned {
		params = map[string]int64{}
		changed := false
		for _, pa := range sp.p.Params {
			t := x.IntConst(ic.SymbolName(sp.syms.Param(pa).Name))
			v, ok := model.Eval(t, true).Int64()
			if !ok {
				v = m.Param(pa)
			}
			params[pa.Name] = v
			eqs = append(eqs, x.Eq(t, x.Int(v)))
			changed = changed || v != m.Param(pa)
		}
		if changed {
			m2, err := interp.New(sp.p, params)
			if err != nil { // e.g. an array size out of range: not runnable
				return nil, notRunnable, x.Not(x.And(eqs...)), x.Err()
			}
			m = m2
		} else {
			params = nil
		}
	}
	store := make([]int64, m.Locs())
	locals := [2][]int64{make([]int64, len(sp.a.Proc.Locals)), make([]int64, len(sp.b.Proc.Locals))}
	ok := true
	var arrays []scalar
	var ints []int64 // the values of the integer locals: indices the blocks may read
	for _, s := range in {
		t := s.z3(x)
		if s.elem < 0 {
			arrays = append(arrays, s)
			continue
		}
		val := model.Eval(t, true)
		var v int64
		if s.sort == ts.SortBool {
			if b, _ := val.Bool(); b {
				v = 1
			}
			eqs = append(eqs, x.Eq(t, val))
		} else {
			var good bool
			if v, good = val.Int64(); !good {
				ok = false
				continue
			}
			eqs = append(eqs, x.Eq(t, x.Int(v)))
			if s.proc >= 0 {
				ints = append(ints, v)
			}
		}
		if s.proc >= 0 {
			locals[s.proc][s.slot] = v
			continue
		}
		if first, n := m.GlobalLocs(s.g); s.elem < n {
			store[int(first)+s.elem] = v
		}
	}
	var sparse sparseVals
	for _, s := range arrays {
		els, good := arrayModel(x, model, s.z3(x), ints)
		ok = ok && good
		if sparse == nil {
			sparse = sparseVals{}
		}
		sparse[s.g] = els
		for i, v := range els {
			eqs = append(eqs, x.Eq(x.Select(s.z3(x), x.Int(i)), x.Int(v)))
		}
	}
	block := x.Not(x.And(eqs...))
	if err := x.Err(); err != nil {
		return nil, 0, z3.Term{}, err
	}
	switch {
	case !ok:
		return nil, notRunnable, block, nil
	case !holdsAt(m, sp.a, sp.b, store, sparse, locals[0], locals[1], sp.funcs, sp.checks...):
		return nil, notHolding, block, nil
	}
	w, mi := runPair(m, sp.a, sp.b, store, sparse, locals[0], locals[1])
	switch {
	case w == nil:
		return nil, mi, block, nil
	case !st.accept(w):
		return nil, notWanted, block, nil
	}
	w.Params = params
	return w, hit, block, nil
}

// arrayModel reads the model's value of an unbounded array: a store
// chain over a constant array. A state holds finitely many elements that
// are not 0, so the constant stands only at the indices in ints (the
// values of the processes' integer locals, which the blocks may read as
// indices), and
// every other element is 0: a candidate, which runs decide on. false when
// the value is not of that form.
func arrayModel(x *z3.Context, model *z3.Model, a z3.Term, ints []int64) (map[int64]int64, bool) {
	v := model.Eval(a, true)
	els := map[int64]int64{}
	set := map[int64]bool{}
	for v.DeclKind() == z3.OpStore && v.NumArgs() == 3 {
		i, ok1 := v.Arg(1).Int64()
		e, ok2 := v.Arg(2).Int64()
		if !ok1 || !ok2 {
			return nil, false
		}
		if !set[i] { // the outermost store of an index is its value
			set[i] = true
			if e != 0 {
				els[i] = e
			}
		}
		v = v.Arg(0)
	}
	if v.DeclKind() != z3.OpConstArray || v.NumArgs() != 1 {
		return nil, false
	}
	d, ok := v.Arg(0).Int64()
	if !ok {
		return nil, false
	}
	if d != 0 {
		for _, i := range ints {
			if !set[i] {
				set[i] = true
				els[i] = d
			}
		}
	}
	return els, true
}

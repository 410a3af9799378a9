package audit

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Claim is one constraint to prove: blocks A and B commute wherever Expr
// (and NoOverflow, when given) holds. A's process is the first of the pair:
// its locals are the unprimed ones (event 0), B's the primed ones.
type Claim struct {
	A, B       string
	Expr       *ic.Expr
	NoOverflow *ic.Expr // the guard the claim comes with, as a runtime evaluates C && guard (nil: none)
	// Where the claim comes from, for messages: Source names it (e.g.
	// "pair (p, q), constraint 1"); Pos is set when it was written in a
	// program's source.
	Source string
	Pos    lang.Pos
	// Text, for a claim without Expr, is how its source writes the
	// condition (a declaration over a block that is not modelled).
	Text string
	// Mismatch, when set, says the claim's written forms disagree with
	// Expr (an IC file's text or SMT-LIB form): a finding even when Expr
	// is proven.
	Mismatch string
	_        struct{}
}

// Verdict is the outcome of checking one claim.
type Verdict int

// Verdicts. Undecided is never taken for Proven or for Unsound.
const (
	Proven    Verdict = iota // C & !F(a,b) is unsat
	Unsound                  // C & !F(a,b) is sat: somewhere C holds and the pair does not commute
	Undecided                // the solver could not decide (Result.Reason)
	Invalid                  // the claim names unknown blocks or variables, or is ill-sorted (Result.Reason)
)

func (v Verdict) String() string {
	switch v {
	case Proven:
		return "proven"
	case Unsound:
		return "unsound"
	case Undecided:
		return "unknown"
	case Invalid:
		return "invalid"
	}
	return "verdict(" + strconv.Itoa(int(v)) + ")"
}

// Result is the check of one claim.
type Result struct {
	Claim   Claim
	Verdict Verdict
	Reason  string
	// For Unsound claims: a state where the claim holds (as a runtime
	// evaluates it) and the orders do not end alike, confirmed by running
	// them; NoWitness says why there is none.
	Witness   *Witness
	NoWitness string
	// GuardNeeded, for a Proven claim: the proof is over mathematical
	// integers, and at int64 the claim holds only where its pair's overflow
	// guard (no_overflow) holds too: somewhere it holds, an order may
	// overflow, or the solver could not rule that out (see
	// Checker.GuardNeeded).
	GuardNeeded bool
}

// Checker proves claims about one program. It holds a solver context and
// belongs to one goroutine; Close releases it.
type Checker struct {
	m     *interp.Machine
	opts  Options
	pr    *prover
	syms  *ts.Symbols
	funcs map[string]ic.Function
	fms   map[[2]string]*encode.Formula
}

// NewChecker returns a checker for the program of m. Witnesses run in m
// (its params), or in another instance when none exists with its params.
// funcs are the functions claims may apply (an IC file's, for loops).
func NewChecker(m *interp.Machine, funcs []ic.Function, opts Options) (*Checker, error) {
	pr, err := newProver(opts)
	if err != nil {
		return nil, err
	}
	c := &Checker{m: m, opts: opts, pr: pr, syms: ts.NewSymbols(m.Prog), funcs: map[string]ic.Function{}, fms: map[[2]string]*encode.Formula{}}
	for _, f := range funcs {
		c.funcs[f.Name] = f
	}
	return c, nil
}

// Close releases the solver context.
func (c *Checker) Close() { c.pr.close() }

func (c *Checker) formula(a, b *lang.Block) *encode.Formula {
	k := [2]string{a.ID, b.ID}
	if f, ok := c.fms[k]; ok {
		return f
	}
	f := formula(a, b, c.syms, c.m.Prog.Invariants)
	c.fms[k] = f
	return f
}

// Check proves each claim: C & !F(a,b) must be unsat (the rule every
// synthesized constraint obeys). A claim the solver refutes is Unsound and
// comes with a witness when one can be confirmed by running both orders
// from a state where the claim holds. An error means the tool failed.
func (c *Checker) Check(ctx context.Context, claims []Claim) ([]Result, error) {
	out := make([]Result, 0, len(claims))
	for _, cl := range claims {
		r, err := c.check(ctx, cl)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (c *Checker) check(ctx context.Context, cl Claim) (Result, error) {
	r := Result{Claim: cl}
	p := c.m.Prog
	a, b := p.Block(cl.A), p.Block(cl.B)
	if a == nil || b == nil {
		r.Verdict, r.Reason = Invalid, fmt.Sprintf("the program has no block %q", firstMissing(p, cl.A, cl.B))
		return r, nil
	}
	for _, e := range []*ic.Expr{cl.Expr, cl.NoOverflow} {
		if e == nil {
			continue
		}
		if why := c.names(e, a, b); why != "" {
			r.Verdict, r.Reason = Invalid, why
			return r, nil
		}
	}
	fm := c.formula(a, b)
	if fm.Unknown != "" {
		r.Verdict, r.Reason = Undecided, "the pair has no formula: "+fm.Unknown
		return r, nil
	}
	region := outside(fm, false)
	region.expr(cl.Expr)
	ans, why, release, err := c.pr.solve(ctx, region)
	if err != nil {
		// The claim's declarations clash with the program's (a name used
		// with another sort): it cannot be read over this program.
		r.Verdict, r.Reason = Invalid, "not a constraint over this program's state: "+err.Error()
		return r, nil
	}
	release()
	switch ans {
	case unsat:
		r.Verdict = Proven
		return r, nil
	case unknown:
		r.Verdict, r.Reason = Undecided, "solver: "+why
		return r, nil
	}
	r.Verdict = Unsound
	if cl.NoOverflow != nil {
		region.expr(cl.NoOverflow)
	}
	sp := &space{p: p, a: a, b: b, syms: c.syms, m: c.m, funcs: c.funcs, checks: []*ic.Expr{cl.Expr, cl.NoOverflow}}
	sp.restrict(c.opts, region)
	r.Witness, r.NoWitness, err = c.pr.search(ctx, sp, stages(sp, fm, region))
	c.rename(r.Witness)
	if err == nil && r.Witness == nil && (!fm.Exact || fm.Kept) {
		// F under-approximates where the pair commutes (when it asks both
		// orders to keep the invariants, too: orders that break one alike
		// commute): a state outside F that no run shows to differ does
		// not refute the claim.
		r.Verdict = Undecided
		r.Reason = fmt.Sprintf("not proven, and F(%s, %s) is not exact: no state found where the orders differ (%s)", a.ID, b.ID, r.NoWitness)
	}
	return r, err
}

// GuardNeeded reports whether proven constraints of the pair of blocks a
// and b (a's process first) need the pair's overflow guard to hold at
// int64: whether, under the invariants, some state where one of them holds
// lets an order overflow. It asks the solver once, of their disjunction, so
// a constraint that alone rules overflow out is counted with the others;
// an undecided answer counts as needed. A pair whose orders cannot
// overflow needs no guard, and asks nothing.
func (c *Checker) GuardNeeded(ctx context.Context, a, b string, proven []*ic.Expr) (bool, error) {
	ba, bb := c.m.Prog.Block(a), c.m.Prog.Block(b)
	if ba == nil || bb == nil || len(proven) == 0 {
		return false, nil
	}
	fm := c.formula(ba, bb)
	if fm.Unknown != "" || fm.NoOverflowTrue() {
		return false, nil
	}
	region := outside(fm, true)
	region.expr(anyOf(proven))
	ans, _, release, err := c.pr.solve(ctx, region)
	if err != nil {
		return true, nil // not readable with this program's names: not shown to need none
	}
	release()
	return ans != unsat, ctx.Err()
}

// guard checks that where one of the proven constraints and the pair's
// overflow guard hold, neither order overflows: otherwise the guard is too
// weak and a runtime trusting C && guard is misled near the int64 limits.
// needed is GuardNeeded's answer: where the constraints alone rule
// overflow out, so do they with any guard, and the solver is not asked.
//
// A guard of a kind (interval or exact, as synthesis writes them) says
// more: wherever it holds, neither order overflows, whatever the
// constraints. That is checked too, by itself.
func (c *Checker) guard(ctx context.Context, a, b *lang.Block, proven []*ic.Expr, g *ic.Expr, kind string, needed bool) (Result, bool, error) {
	r := Result{Claim: Claim{A: a.ID, B: b.ID, NoOverflow: g, Source: fmt.Sprintf("pair (%s, %s), no_overflow", a.ID, b.ID)}}
	fm := c.formula(a, b)
	if fm.Unknown != "" || fm.NoOverflowTrue() || len(proven) == 0 {
		return r, false, nil
	}
	if g != nil {
		if why := c.names(g, a, b); why != "" {
			r.Verdict, r.Reason = Invalid, why
			return r, true, nil
		}
	}
	if g != nil && kind != "" {
		alone := outside(fm, true)
		alone.expr(g)
		ans, why, release, err := c.pr.solve(ctx, alone)
		if err != nil {
			r.Verdict, r.Reason = Invalid, "not a condition over this program's state: "+err.Error()
			return r, true, nil
		}
		release()
		switch ans {
		case unknown:
			r.Verdict, r.Reason = Undecided, "solver: "+why
			return r, true, nil
		case sat:
			r.Verdict, r.Reason = Unsound, fmt.Sprintf("where the %s guard holds, an order can overflow int64 (a guard of a kind rules overflow out by itself)", kind)
			r.NoWitness = "not searched: the guard is wrong whatever the constraints"
			return r, true, ctx.Err()
		}
	}
	if !needed {
		return r, false, nil
	}
	region := outside(fm, true)
	r.Claim.Expr = anyOf(proven)
	region.expr(r.Claim.Expr)
	if g != nil {
		region.expr(g)
	}
	ans, why, release, err := c.pr.solve(ctx, region)
	if err != nil {
		r.Verdict, r.Reason = Invalid, "not a constraint over this program's state: "+err.Error()
		return r, true, nil
	}
	release()
	switch ans {
	case unsat:
		return r, false, nil
	case unknown:
		r.Verdict, r.Reason = Undecided, "solver: "+why
		return r, true, nil
	}
	r.Verdict = Unsound
	r.Reason = "where a constraint and the guard hold, an order can overflow int64"
	sp := &space{p: c.m.Prog, a: a, b: b, syms: c.syms, m: c.m, funcs: c.funcs, checks: []*ic.Expr{r.Claim.Expr, g}}
	sp.restrict(c.opts, region)
	alone := region.clone()
	alone.term(runs(ts.Block(a, 0, c.syms, ts.NewGraph())))
	alone.term(runs(ts.Block(b, 1, c.syms, ts.NewGraph())))
	overflow := func(w *Witness) bool { return w.Kind == Error }
	r.Witness, r.NoWitness, err = c.pr.search(ctx, sp, []stage{{region: alone, pinned: true, accept: overflow}})
	c.rename(r.Witness)
	return r, true, err
}

// anyOf is the disjunction of constraints, as one expression.
func anyOf(cs []*ic.Expr) *ic.Expr {
	if len(cs) == 1 {
		return cs[0]
	}
	return &ic.Expr{Op: "||", Args: cs}
}

func firstMissing(p *lang.Program, ids ...string) string {
	for _, id := range ids {
		if p.Block(id) == nil {
			return id
		}
	}
	return ""
}

// names checks that an expression speaks of this pair's state: globals and
// params of the program, locals live at the entry of the block of the
// process they belong to, and known functions.
func (c *Checker) names(e *ic.Expr, a, b *lang.Block) string {
	p := c.m.Prog
	switch e.Op {
	case "global":
		g := p.Global(e.Name)
		if g == nil {
			return fmt.Sprintf("%s is not a global of the program", e.Name)
		}
		if (g.Type == lang.IntArray) != (e.Sort == "array") || (g.Type == lang.Bool) != (e.Sort == "bool") {
			return fmt.Sprintf("global %s is used as %s, but it is %s", e.Name, sortWord(e.Sort), g.Type)
		}
	case "select":
		if g := p.Global(e.Name); g == nil || g.Type != lang.IntArray {
			return fmt.Sprintf("%s is not a global array of the program", e.Name)
		}
	case "param":
		if p.Param(e.Name) == nil {
			return fmt.Sprintf("%s is not a param of the program", e.Name)
		}
	case "local":
		bl := a
		if e.Event == 1 {
			bl = b
		} else if e.Event != 0 {
			return fmt.Sprintf("local %s of process %d: a pair has processes 0 and 1", e.Name, e.Event)
		}
		i := slices.IndexFunc(bl.Point.Live, func(v *lang.Var) bool { return v.Name == e.Name })
		if i < 0 {
			return fmt.Sprintf("%s%s is not a local live at the start of block %s", e.Name, strings.Repeat("'", e.Event), bl.ID)
		}
		if v := bl.Point.Live[i]; (v.Type == lang.Bool) != (e.Sort == "bool") {
			return fmt.Sprintf("local %s%s is used as %s, but it is %s", e.Name, strings.Repeat("'", e.Event), sortWord(e.Sort), v.Type)
		}
	case "apply":
		if _, ok := c.funcs[e.Name]; !ok {
			return fmt.Sprintf("%s is not a function of the IC file", e.Name)
		}
	}
	for _, d := range e.Defs {
		if why := c.names(d.Expr, a, b); why != "" {
			return why
		}
	}
	for _, x := range e.Args {
		if why := c.names(x, a, b); why != "" {
			return why
		}
	}
	return ""
}

func sortWord(s string) string {
	if s == "" {
		return "int"
	}
	return s
}

// rename names and writes a witness's values by Options.Text and Value.
func (c *Checker) rename(w *Witness) { w.rename(c.opts) }

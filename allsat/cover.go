package allsat

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/ts"
)

// Options bound the work spent on one pair.
type Options struct {
	Timeout        time.Duration // wall-clock budget of the pair (0: none)
	CheckTimeout   time.Duration // wall-clock budget of one solver check (0: 2s); non-linear arithmetic needs it
	Rlimit         uint64        // Z3 resource limit per check (0: none); deterministic, unlike Timeout
	MaxConstraints int           // stop after this many constraints (0: 256)
	// Budget bounds the Z3 resources of the pair, all its checks
	// together (0: none): deterministic, unlike Timeout, so the result
	// does not depend on the machine or its load. It is counted in Z3's
	// rlimit units, and like Rlimit it bounds no time Z3 spends outside
	// its resource count (see internal/z3, Solver.SetRlimit).
	Budget uint64
	_      struct{}
}

// MaxUndecided is the number of regions of F the solver may fail to decide
// before the enumeration stops (each costs up to a check's budget).
const MaxUndecided = 4

// Result is a cover of F(a,b) by proven implicants.
type Result struct {
	Constraints []ic.Constraint // sorted by text; each one proven to imply F
	Complete    bool            // the constraints cover F: their disjunction is equivalent to F
	Reason      string          // why the cover is incomplete
	Checks      int             // solver checks made
	Spent       uint64          // Z3 resources spent, in Options.Budget's units (0 where Z3 does not count them)
}

// Cover enumerates a cover of f.F by prime implicants over F's atoms (the
// recipe of shared/Z3.md): take a model of F and the blocking clauses so
// far, the cube of atom literals it satisfies, shrink the cube with the
// unsat core of cube & !F and by dropping literals while cube & !F stays
// unsat (preferring literals that read fewer globals), emit it in canonical form (re-proven), block it, repeat until F
// has no model left. Every emitted constraint C has been proven: C & !F is
// unsat. A solver answer of unknown, or the budget running out, ends the
// enumeration early with a reason; the constraints found so far stay.
//
// Cover uses a fresh solver context of its own, so its answer depends on
// the formula only, not on what was solved before: synthesis output is the
// same whatever the worker count.
func Cover(f *encode.Formula, opts Options) (*Result, error) {
	res := &Result{}
	if f.Unknown != "" {
		res.Reason = f.Unknown
		return res, nil
	}
	if opts.MaxConstraints <= 0 {
		opts.MaxConstraints = 256
	}
	if f.Trivial() != 0 {
		res.Complete = true
		if f.Trivial() > 0 {
			res.Constraints = []ic.Constraint{ic.NewConstraint(&ic.Expr{Op: "true"})}
		}
		return res, nil
	}
	c, err := newCover(f, opts, res)
	if err != nil {
		return nil, err
	}
	defer c.sess.close()
	for {
		lits, reason, more := c.next()
		if !more {
			return c.finish(reason), nil
		}
		kept, reason, ok := c.shrink(lits)
		if reason != "" {
			return c.finish(reason), nil
		}
		if !ok {
			continue
		}
		c.block(kept)
		if err := c.emit(kept); err != nil {
			return nil, err
		}
	}
}

// cover is the state of one enumeration of [Cover]: two solvers over the
// same parsed problem, models (the invariants, F and the blocking clauses
// so far) and refute (the invariants, !F and the indicator definitions
// b_i = atom_i, checked under assumptions on the b_i), and what the
// enumeration found.
type cover struct {
	opts           Options
	res            *Result
	sess           *session
	models, refute *solver
	formula        *formulaText
	graph          *ts.Graph
	atomRefs       []ts.Ref
	atoms          []*ts.Term
	atomH, bH      []handle // the atoms and their indicators b_i
	cost, levels   []int
	end            time.Time // the pair's deadline (zero: none)
	seen           map[string]bool
	// skipped counts the cubes the solver could not prove, unwritable the
	// implicants an IC file cannot hold.
	skipped, unwritable int
}

// coverText is the solver's input for p: the declarations, an indicator
// b_i per atom, F, the invariants, the atoms, the indicators, and the
// definitions b_i = atom_i, each asserted once, in that order.
func coverText(p *problem) string {
	var text strings.Builder
	text.WriteString(p.decls)
	for i := range p.atoms {
		fmt.Fprintf(&text, "(declare-const |@b%d| Bool)\n", i)
	}
	fmt.Fprintf(&text, "(assert %s)\n", p.f)
	fmt.Fprintf(&text, "(assert %s)\n", p.assume)
	for _, a := range p.atomSMT {
		fmt.Fprintf(&text, "(assert %s)\n", a)
	}
	for i := range p.atoms {
		fmt.Fprintf(&text, "(assert |@b%d|)\n", i)
	}
	for i, a := range p.atomSMT {
		fmt.Fprintf(&text, "(assert (= |@b%d| %s))\n", i, a)
	}
	return text.String()
}

// newCover parses f's problem into a fresh session and sets up the two
// solvers; the caller closes c.sess.
func newCover(f *encode.Formula, opts Options, res *Result) (*cover, error) {
	pb := coverProblem(f)
	sess, err := newSession(opts)
	if err != nil {
		return nil, err
	}
	hs, err := sess.parse(coverText(pb))
	if err != nil {
		sess.close()
		return nil, fmt.Errorf("encoding F(%s, %s): %v", f.A.ID, f.B.ID, err)
	}
	n := len(pb.atoms)
	fF, inv, defs := hs[0], hs[1], hs[2+2*n:]
	c := &cover{opts: opts, res: res, sess: sess, formula: pb.formula, graph: pb.graph, atomRefs: pb.atomRefs, atoms: pb.atoms,
		atomH: hs[2 : 2+n], bH: hs[2+n : 2+2*n], cost: pb.cost, levels: levels(pb.cost), seen: map[string]bool{}}
	c.models = sess.newSolver()
	c.models.assert(inv)
	c.models.assert(fF)
	c.refute = sess.newSolver()
	c.refute.assert(inv)
	c.refute.assert(sess.not(fF))
	for _, d := range defs {
		c.refute.assert(d)
	}
	c.end = deadline(opts)
	if c.opts.CheckTimeout <= 0 {
		c.opts.CheckTimeout = 2 * time.Second
	}
	return c, nil
}

// each bounds one check by the per-check budget and the pair's deadline.
func (c *cover) each() time.Time {
	d := time.Now().Add(c.opts.CheckTimeout)
	if !c.end.IsZero() && c.end.Before(d) {
		return c.end
	}
	return d
}

// finish ends the enumeration: complete when reason is empty, else
// stopped early for reason, with the constraints found so far.
func (c *cover) finish(reason string) *Result {
	c.res.Reason = reason
	c.res.Complete = reason == ""
	c.res.Spent = c.models.used()
	sortConstraints(c.res.Constraints)
	return c.res
}

// next is the cube of atom literals that the next model of F outside the
// blocked cubes satisfies; more is false when the enumeration ends, for
// reason (empty: F has no model left and every region of it is covered).
func (c *cover) next() (lits []lit, reason string, more bool) {
	opts, res, models := c.opts, c.res, c.models
	if !c.end.IsZero() && time.Now().After(c.end) {
		return nil, fmt.Sprintf("timeout after %s (%d constraints found)", opts.Timeout, len(res.Constraints)), false
	}
	if models.spent() {
		return nil, fmt.Sprintf("resource budget of %d spent (%d constraints found)", opts.Budget, len(res.Constraints)), false
	}
	if len(res.Constraints) >= opts.MaxConstraints {
		return nil, fmt.Sprintf("more than %d constraints", opts.MaxConstraints), false
	}
	res.Checks++
	st, why := models.check(c.each())
	switch st {
	case unsat:
		if c.skipped > 0 {
			return nil, fmt.Sprintf("solver could not decide %d region(s) of F", c.skipped), false
		}
		if c.unwritable > 0 {
			// The constraints do not cover F: not complete, so the
			// pair is neither dependent nor exact.
			return nil, fmt.Sprintf("%d region(s) of F cannot be written in an IC file", c.unwritable), false
		}
		return nil, "", false
	case unknown:
		if models.spent() {
			return nil, fmt.Sprintf("resource budget of %d spent (%d constraints found)", opts.Budget, len(res.Constraints)), false
		}
		return nil, "solver: " + why, false
	}
	vals, err := models.modelValues(c.atomH)
	if err != nil {
		return nil, "solver: " + err.Error(), false
	}
	lits = make([]lit, len(c.atoms))
	for i := range c.atoms {
		lits[i] = lit{atom: i, pos: vals[i]}
	}
	return lits, "", true
}

// assume is the indicators of literals ls, as assumptions of refute.
func (c *cover) assume(ls []lit) []handle {
	out := make([]handle, len(ls))
	for k, l := range ls {
		out[k] = c.bH[l.atom]
		if !l.pos {
			out[k] = c.sess.not(c.bH[l.atom])
		}
	}
	return out
}

// block excludes the cube of literals ls from the models to come.
func (c *cover) block(ls []lit) {
	hs := make([]handle, len(ls))
	for k, l := range ls {
		hs[k] = c.atomH[l.atom]
		if !l.pos {
			hs[k] = c.sess.not(c.atomH[l.atom])
		}
	}
	c.models.assert(c.sess.not(c.sess.and(hs...)))
}

// shrink proves that the cube lits implies F and makes it a prime
// implicant: the unsat core of lits & !F, first of the cheapest levels of
// the cube that refute !F on their own, then without each literal whose
// removal keeps !F refuted. ok is false when the solver cannot prove the
// cube (its region is then blocked, left without a constraint); reason
// ends the enumeration.
func (c *cover) shrink(lits []lit) (kept []lit, reason string, ok bool) {
	res, refute, cost := c.res, c.refute, c.cost
	res.Checks++
	st, _ := refute.checkAssuming(c.assume(lits), c.each())
	if st == sat {
		// Cannot happen when the atoms are complete: a full cube decides F.
		return nil, "internal: a cube of atoms does not decide F", false
	}
	if st == unknown {
		// The solver cannot show this cube implies F: leave its region
		// without a constraint and go on with the rest.
		c.skipped++
		if c.skipped > MaxUndecided {
			return nil, fmt.Sprintf("solver could not decide more than %d region(s) of F", MaxUndecided), false
		}
		c.block(lits)
		return nil, "", false
	}
	core := refute.coreAtoms(c.bH)
	// A trial below that the solver cannot decide changes nothing (the
	// implicant stays proven, only less general); after one, the
	// cube's other trials get a short budget, so that a cube of
	// non-linear atoms does not cost a full check budget per literal.
	undecided := false
	budget := func() time.Time {
		d := c.each()
		if short := time.Now().Add(c.opts.CheckTimeout / shrinkAfterUnknown); undecided && short.Before(d) {
			return short
		}
		return d
	}
	// Prefer literals that read fewer globals: the cheapest levels of
	// the cube that still refute !F are shrunk instead of the whole
	// cube, so an implicant over locals and params is found when the
	// cube holds one (a constraint reading no global another process
	// may write is one the runtime can use uniformly).
	for _, lv := range c.levels {
		var part []lit
		for _, l := range lits {
			if cost[l.atom] <= lv {
				part = append(part, l)
			}
		}
		if len(part) == 0 || len(part) == len(lits) {
			continue
		}
		res.Checks++
		st, _ := refute.checkAssuming(c.assume(part), budget())
		if st == unsat {
			core = refute.coreAtoms(c.bH)
			break
		}
		undecided = undecided || st == unknown
	}
	for _, l := range lits {
		if core[l.atom] {
			kept = append(kept, l)
		}
	}
	// Drop literals while the rest still refutes !F: a prime implicant.
	// The literals reading the most globals are tried first.
	sort.SliceStable(kept, func(i, j int) bool { return cost[kept[i].atom] > cost[kept[j].atom] })
	for k := 0; k < len(kept); {
		trial := append(append([]lit(nil), kept[:k]...), kept[k+1:]...)
		res.Checks++
		st, _ := refute.checkAssuming(c.assume(trial), budget())
		if st == unsat {
			kept = trial
			continue
		}
		undecided = undecided || st == unknown
		k++
	}
	return kept, "", true
}

// emit adds the constraint of implicant kept to the result, once; an
// implicant an IC file cannot hold counts as unwritable.
func (c *cover) emit(kept []lit) error {
	var con ic.Constraint
	t, ok := c.implicant(kept)
	if ok {
		var err error
		if con, ok, err = emit(c.sess, c.formula, t, c.each()); err != nil {
			return err
		}
	}
	c.res.Checks += 2
	if !ok {
		c.unwritable++
		return nil
	}
	if !c.seen[con.Text] {
		c.seen[con.Text] = true
		c.res.Constraints = append(c.res.Constraints, con)
	}
	return nil
}

// shrinkAfterUnknown divides the check budget of the shrinking trials of a
// cube once one of them was undecided.
const shrinkAfterUnknown = 10

// levels returns the distinct costs in increasing order.
func levels(cost []int) []int {
	have := map[int]bool{}
	var out []int
	for _, c := range cost {
		if !have[c] {
			have[c] = true
			out = append(out, c)
		}
	}
	sort.Ints(out)
	return out
}

// Globals returns the names of the globals a term reads, sorted.
func Globals(t *ts.Term) []string {
	seen := map[string]bool{}
	var walk func(*ts.Term)
	walk = func(x *ts.Term) {
		if x.Kind == ts.KSym && x.Sym.Kind == ts.SymGlobal {
			seen[x.Sym.Name] = true
		}
		for _, a := range x.Args {
			walk(a)
		}
	}
	walk(t)
	out := make([]string, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

type lit struct {
	atom int
	pos  bool
}

// implicant is the conjunction of the literals kept, as a tree view;
// false when an atom has no tree view (too large to print), which makes
// the implicant unwritable. It is built in a graph of its own: the
// formula's stays as the cover found it.
func (c *cover) implicant(kept []lit) (*ts.Term, bool) {
	h := ts.NewGraph()
	conj := make([]ts.Ref, len(kept))
	for k, l := range kept {
		if c.atoms[l.atom] == nil {
			return nil, false
		}
		conj[k] = h.Import(c.graph, c.atomRefs[l.atom])
		if !l.pos {
			conj[k] = h.Not(conj[k])
		}
	}
	return h.Tree(h.And(conj...)), true
}

// emit turns an implicant into a constraint in canonical form, proving the
// canonical form again (C & !F unsat); if that proof fails or is not
// reached, the raw implicant, proven by the enumeration, is used.
func emit(sess *session, fm *formulaText, implicant *ts.Term, deadline time.Time) (ic.Constraint, bool, error) {
	raw, err := ToExpr(implicant)
	if err != nil {
		return ic.Constraint{}, false, nil // not expressible in IC files: not emitted
	}
	canon := ic.Canon(raw)
	if canon.String() != raw.String() {
		proved, err := sess.proves(fm, canon, deadline)
		if err != nil {
			return ic.Constraint{}, false, err
		}
		if proved {
			return ic.NewConstraint(canon), true, nil
		}
	}
	return ic.NewConstraint(raw), true, nil
}

func sortConstraints(cs []ic.Constraint) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Text < cs[j].Text })
}

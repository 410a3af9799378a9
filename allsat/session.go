package allsat

import (
	"fmt"
	"strings"
	"time"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/smt"
	"github.com/icgen/icgen/internal/z3"
	"github.com/icgen/icgen/ts"
)

// This file is the only one that talks to the solver binding.

type handle = z3.Term

// status is the solver's three-valued answer; unknown is never taken for
// sat or unsat.
type status = z3.Status

const (
	unknown = z3.Unknown
	sat     = z3.Sat
	unsat   = z3.Unsat
)

type session struct {
	*smt.Session
	ctx    *z3.Context
	opts   Options
	parsed map[*formulaText]parsedFormula // see formula
}

// parsedFormula is a formulaText's F and invariants read by the solver.
type parsedFormula struct{ f, assume handle }

// formula returns fm's F and invariants as terms, read once a session:
// every condition proves checks against the same F, whose text (with the
// definitions of its shared subterms) is most of what the solver would
// otherwise read each time.
func (s *session) formula(fm *formulaText) (parsedFormula, error) {
	if p, ok := s.parsed[fm]; ok {
		return p, nil
	}
	hs, err := s.ctx.Parse(fm.decls + "(assert " + fm.f + ")\n(assert " + fm.assume + ")\n")
	if err != nil {
		return parsedFormula{}, err
	}
	if len(hs) != 2 {
		return parsedFormula{}, fmt.Errorf("F read as %d assertions", len(hs))
	}
	p := parsedFormula{f: hs[0], assume: hs[1]}
	if s.parsed == nil {
		s.parsed = map[*formulaText]parsedFormula{}
	}
	s.parsed[fm] = p
	return p, nil
}

func newSession(opts Options) (*session, error) {
	sess, err := smt.NewSession(smt.Limits{Rlimit: opts.Rlimit, Budget: opts.Budget})
	if err != nil {
		return nil, err
	}
	return &session{Session: sess, ctx: sess.X, opts: opts}, nil
}

func (s *session) close()                           { s.Close() }
func (s *session) parse(t string) ([]handle, error) { return s.ctx.Parse(t) }
func (s *session) not(h handle) handle              { return s.ctx.Not(h) }
func (s *session) and(hs ...handle) handle          { return s.ctx.And(hs...) }

type solver struct {
	*smt.Solver
	sess *session
}

func (s *session) newSolver() *solver { return &solver{Solver: s.NewSolver(), sess: s} }

// used returns the resources the session has spent (0 where Z3 does not
// count them).
func (v *solver) used() uint64 { return v.Used() }

// spent reports whether the session's budget is spent (never without one).
func (v *solver) spent() bool { return v.BudgetSpent() }

func (v *solver) assert(h handle) { v.Add(h) }

func (v *solver) check(deadline time.Time) (status, string) {
	r := v.Check(deadline)
	return r.Status, r.Reason
}

func (v *solver) checkAssuming(lits []handle, deadline time.Time) (status, string) {
	r := v.Check(deadline, lits...)
	return r.Status, r.Reason
}

// modelValues evaluates atoms in the last model.
func (v *solver) modelValues(hs []handle) ([]bool, error) {
	m, err := v.Model()
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(hs))
	for i, h := range hs {
		out[i], _ = m.Eval(h, true).Bool()
	}
	return out, v.sess.ctx.Err()
}

// coreAtoms returns the indices of the indicator constants (or their
// negations) in the last unsat core.
func (v *solver) coreAtoms(indicators []handle) map[int]bool {
	ctx := v.sess.ctx
	byID := map[uint32]int{}
	for i, b := range indicators {
		byID[b.ID()] = i
		byID[ctx.Not(b).ID()] = i
	}
	out := map[int]bool{}
	for _, t := range v.UnsatCore() {
		if i, ok := byID[t.ID()]; ok {
			out[i] = true
		}
	}
	return out
}

// proves reports whether c implies F where the invariants hold: Assume &
// c & !F is unsat, in a fresh solver.
func (s *session) proves(fm *formulaText, c *ic.Expr, deadline time.Time) (bool, error) {
	p, err := s.formula(fm)
	if err != nil {
		return false, nil // unknown: see refute
	}
	hs, err := s.ctx.Parse(fm.symDecls + "(assert " + ic.SMTLIB(c) + ")\n")
	if err != nil || len(hs) != 1 {
		return false, nil // c mentions names F does not: unknown
	}
	v := s.newSolver()
	v.assert(s.and(p.assume, hs[0], s.not(p.f)))
	st, _ := v.check(deadline)
	return st == unsat, s.ctx.Err()
}

// refute checks Assume & c & !F (c in SMT-LIB2, over fm's declarations)
// in a fresh solver. When it is sat, the values of the constants syms in
// the model are returned. A c the declarations do not cover is not
// provable here: unknown.
func (s *session) refute(fm *formulaText, c string, deadline time.Time, syms []*ts.Sym) (status, string, []Value, error) {
	var text strings.Builder
	text.WriteString(fm.decls)
	fmt.Fprintf(&text, "(assert (and %s %s (not %s)))\n", fm.assume, c, fm.f)
	hs, err := s.ctx.Parse(text.String())
	if err != nil {
		return unknown, "the condition mentions names F does not: " + err.Error(), nil, nil
	}
	v := s.newSolver()
	for _, h := range hs {
		v.assert(h)
	}
	st, why := v.check(deadline)
	if st != sat || syms == nil {
		return st, why, nil, nil
	}
	m, err := v.Model()
	if err != nil {
		return unknown, "solver: " + err.Error(), nil, nil
	}
	vals := make([]Value, len(syms))
	for i, sym := range syms {
		vals[i].Sym = sym
		switch sym.Sort {
		case ts.SortInt:
			n, ok := m.Eval(s.ctx.IntConst(ic.SymbolName(sym.Name)), true).Int64()
			vals[i].Int, vals[i].Text = n, fmt.Sprint(n)
			if !ok {
				vals[i].Text = m.Eval(s.ctx.IntConst(ic.SymbolName(sym.Name)), true).String()
			}
		case ts.SortBool:
			b, _ := m.Eval(s.ctx.BoolConst(ic.SymbolName(sym.Name)), true).Bool()
			vals[i].Text = fmt.Sprint(b)
			if b {
				vals[i].Int = 1
			}
		default:
			vals[i].Text = m.Eval(s.ctx.ArrayConst(ic.SymbolName(sym.Name)), true).String()
		}
	}
	return sat, "", vals, s.ctx.Err()
}

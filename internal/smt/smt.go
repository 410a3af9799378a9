// Package smt is the solver layer of synthesis (package allsat) and of the
// audit: a [Session] is one solver context with its limits, and its
// [Solver]s check under a deadline and what is left of the session's
// resource budget. Every check answers with the binding's three-valued
// [z3.Result]: Sat, Unsat, or Unknown with a reason, which no caller takes
// for either of the others.
//
// The package reads SMT-LIB2 text and the binding's terms; printing
// formulas as SMT-LIB2 is the encoder's job (package encode).
package smt

import (
	"context"
	"math"
	"time"

	"github.com/icgen/icgen/internal/z3"
)

// Limits bound the work of a session's checks. Both are counted in Z3's
// resource units: deterministic, unlike wall-clock time, and blind to the
// time Z3 spends outside its resource count (see z3.Solver.SetRlimit).
type Limits struct {
	Rlimit uint64 // resources of one check (0: none)
	Budget uint64 // resources of all the session's checks together (0: none)
}

// Session is one solver context and its limits. It belongs to one
// goroutine, as the context does.
type Session struct {
	X   *z3.Context
	lim Limits
}

// NewSession opens a solver context.
func NewSession(lim Limits) (*Session, error) {
	x, err := z3.NewContext()
	if err != nil {
		return nil, err
	}
	return &Session{X: x, lim: lim}, nil
}

// Close releases the context and every term and solver of it.
func (s *Session) Close() { s.X.Close() }

// Solver is a solver of a session. Its first error (setting its limit, an
// assertion the binding refused) is kept, and every later check answers
// Unknown with it.
type Solver struct {
	*z3.Solver
	sess *Session
	err  error
}

// NewSolver returns a fresh solver of the session, with the session's
// per-check resource limit.
func (s *Session) NewSolver() *Solver {
	v := &Solver{Solver: s.X.NewSolver(), sess: s}
	if s.lim.Rlimit > 0 {
		v.err = v.Solver.SetRlimit(s.lim.Rlimit)
	}
	return v
}

// Err is the solver's first error, if any.
func (v *Solver) Err() error { return v.err }

// Add asserts terms, keeping the first error.
func (v *Solver) Add(hs ...z3.Term) {
	if err := v.Solver.Assert(hs...); err != nil && v.err == nil {
		v.err = err
	}
}

// Used is the resources the session's context has spent (0 where Z3 does
// not count them).
func (v *Solver) Used() uint64 {
	n, _ := v.Solver.Spent()
	return n
}

// BudgetSpent reports whether the session's budget is spent (never without
// one; always where Z3 does not count resources).
func (v *Solver) BudgetSpent() bool {
	if v.sess.lim.Budget == 0 {
		return false
	}
	used, ok := v.Solver.Spent()
	return !ok || used >= v.sess.lim.Budget
}

// Check checks the solver's assertions under lits until deadline (zero:
// none), within what is left of the session's budget.
func (v *Solver) Check(deadline time.Time, lits ...z3.Term) z3.Result {
	if deadline.IsZero() {
		return v.CheckContext(context.Background(), lits...)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	return v.CheckContext(ctx, lits...)
}

// CheckContext checks the solver's assertions under lits until ctx is done,
// within what is left of the session's budget.
func (v *Solver) CheckContext(ctx context.Context, lits ...z3.Term) z3.Result {
	if v.err != nil {
		return z3.Result{Status: z3.Unknown, Reason: v.err.Error()}
	}
	if b := v.sess.lim.Budget; b > 0 {
		used, ok := v.Solver.Spent()
		if !ok {
			return z3.Result{Status: z3.Unknown, Reason: "Z3 reports no resource count: no budget can be kept"}
		}
		if used >= b {
			return z3.Result{Status: z3.Unknown, Reason: "resource budget spent"}
		}
		left := min(b-used, math.MaxUint32)
		if r := v.sess.lim.Rlimit; r > 0 {
			left = min(left, r)
		}
		if err := v.Solver.SetRlimit(left); err != nil {
			return z3.Result{Status: z3.Unknown, Reason: err.Error()}
		}
	}
	if ctx.Done() == nil {
		return v.Solver.CheckAssumptions(lits...)
	}
	return v.Solver.CheckContext(ctx, lits...)
}

package allsat

import (
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/ts"
)

// Prove reports whether constraint c implies F(a,b) where the invariants
// hold (Assume & c & !F is unsat), with a solver context of its own: Sat or
// Unknown both mean "not proven".
func Prove(f *encode.Formula, c *ic.Expr, opts Options) (bool, error) {
	if f.Unknown != "" {
		return false, nil
	}
	sess, err := newSession(opts)
	if err != nil {
		return false, err
	}
	defer sess.close()
	return sess.proves(textOf(f), c, deadline(opts))
}

func deadline(opts Options) time.Time {
	if opts.Timeout > 0 {
		return time.Now().Add(opts.Timeout)
	}
	return time.Time{}
}

// CheckSwapped checks, as [Check] does, that F holds wherever the two
// orders end in states equal modulo process naming (f.Swapped): only then
// is an exact cover exact modulo naming too.
func CheckSwapped(f *encode.Formula, opts Options) (*Checked, error) {
	return checkImplies(f, f.Swapped, opts)
}

// CheckKept checks, as [Check] does, that F holds wherever the two orders
// end alike whether or not they keep the invariants (f.Bare): F asks both
// to keep them, and is exact only if that loses nothing. Proven when F
// asks nothing of the invariants (f.Kept unset).
func CheckKept(f *encode.Formula, opts Options) (*Checked, error) {
	if !f.Kept {
		return &Checked{Verdict: Proven}, nil
	}
	return checkImplies(f, f.Bare, opts)
}

// checkImplies checks that r, a term of f's graph, implies F where the
// invariants hold (see [Check]).
func checkImplies(f *encode.Formula, r ts.Ref, opts Options) (*Checked, error) {
	if f.Unknown != "" {
		return &Checked{Reason: f.Unknown}, nil
	}
	if f.Graph.IsFalse(r) || r == f.F {
		return &Checked{Verdict: Proven}, nil
	}
	sess, err := newSession(opts)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	fm := textOf(f, r)
	dl := deadline(opts)
	if dl.IsZero() {
		dl = time.Now().Add(2 * time.Second)
		if opts.CheckTimeout > 0 {
			dl = time.Now().Add(opts.CheckTimeout)
		}
	}
	st, why, model, err := sess.refute(fm, fm.extra[0], dl, fm.syms)
	if err != nil {
		return nil, err
	}
	switch st {
	case unsat:
		return &Checked{Verdict: Proven}, nil
	case sat:
		return &Checked{Verdict: Refuted, Model: model}, nil
	}
	return &Checked{Reason: "solver: " + why}, nil
}

// Verdict is the answer of [Check].
type Verdict int

// Verdicts. Unknown is never taken for either of the others.
const (
	Unknown Verdict = iota // the solver could not decide (timeout, non-linear arithmetic, ...)
	Proven                 // the condition implies F where the invariants hold
	Refuted                // a state where the invariants and the condition hold but F does not
)

func (v Verdict) String() string { return [...]string{"unknown", "proven", "refuted"}[v] }

// Checked is the outcome of [Check].
type Checked struct {
	Verdict Verdict
	Reason  string  // why Unknown
	Model   []Value // Refuted: a state where the condition holds and F does not
}

// Value is the value of an input symbol (global, param, local v or v') in
// a model: Int for ints and bools (0 or 1); Text for every sort (arrays in
// the solver's notation).
type Value struct {
	Sym  *ts.Sym
	Int  int64
	Text string
}

// Check proves or refutes a condition (term c of graph g, over F's input
// symbols, which may mention symbols F does not) as an independence constraint of
// the pair: Assume & c & !F unsat proves it; a model refutes it, and its
// values of every symbol of F, the invariants and c are returned. The
// model refutes c against F: when F is not exact (f.Exact), the two orders
// may still commute there.
func Check(f *encode.Formula, g *ts.Graph, c ts.Ref, opts Options) (*Checked, error) {
	if f.Unknown != "" {
		return &Checked{Reason: f.Unknown}, nil
	}
	return checkImplies(f, f.Graph.Import(g, c), opts)
}

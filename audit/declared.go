package audit

import (
	"context"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/synth"
)

// CheckFile checks an IC file against m's program, with a Checker of its
// own (see Checker.CheckFile): what icgen check --ics reports.
func CheckFile(ctx context.Context, m *interp.Machine, f *ic.File, opts Options) (*FileReport, error) {
	c, err := NewChecker(m, f.Functions, opts)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.CheckFile(ctx, f)
}

// CheckDeclared proves the commute declarations of m's program: what
// icgen check reports without --ics. The verdict proven is
// synth.Declared's, the one judgement exploration uses: a declaration is
// proven exactly when icgen explore --algo cdpor uses it. Every other
// declaration is then checked as a claim located at its declaration, so an
// unsound one gets a witness confirmed by running both orders; a claim the
// checker proves but synth.Declared does not (no overflow guard could be
// given) stays undecided, with synth's reason.
func CheckDeclared(ctx context.Context, m *interp.Machine, opts Options) (*FileReport, error) {
	rs, err := synth.Declared(ctx, m.Prog, synth.Options{CheckTimeout: opts.CheckTimeout})
	if err != nil {
		return nil, err
	}
	c, err := NewChecker(m, nil, opts)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	rep := &FileReport{}
	for _, r := range rs {
		cl := Claim{A: r.A, B: r.B, Expr: r.Constraint.Expr, NoOverflow: r.NoOverflow,
			Source: "declared: " + lang.CommuteString(r.Commute), Pos: r.Commute.Pos}
		switch {
		case r.Verdict == allsat.Proven:
			needed, err := c.GuardNeeded(ctx, r.A, r.B, []*ic.Expr{cl.Expr})
			if err != nil {
				return nil, err
			}
			rep.Constraints = append(rep.Constraints, Result{Claim: cl, Verdict: Proven, GuardNeeded: needed})
			continue
		case cl.Expr == nil: // the condition has no IC form
			rep.Constraints = append(rep.Constraints, Result{Claim: cl, Verdict: Undecided, Reason: r.Reason})
			continue
		}
		res, err := c.Check(ctx, []Claim{cl})
		if err != nil {
			return nil, err
		}
		if res[0].Verdict == Proven {
			res[0].Verdict, res[0].Reason = Undecided, r.Reason
		}
		rep.Constraints = append(rep.Constraints, res...)
	}
	return rep, nil
}

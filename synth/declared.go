package synth

import (
	"context"
	"fmt"
	"sort"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// DeclaredResult is the verdict on one commute declaration of a program
// (lang.Commute): its condition C is proven when Inv & C & !F(a,b) is
// unsat, Inv being the program's invariants, as synthesis proves the
// constraints it emits.
type DeclaredResult struct {
	Commute *lang.Commute
	// Verdict is Proven, Refuted (only when F(a,b) is exact: then the two
	// orders really differ in the counterexample) or Unknown (Reason).
	Verdict allsat.Verdict
	Reason  string
	// A and B are the pair as the IC file stores it (A before B in block
	// order): Constraint and Counterexample name A's locals v and B's v',
	// which swaps the declaration's roles when it names the later block
	// first.
	A, B string
	// Constraint is the condition as an IC ("true" for a declaration
	// without a condition); NoOverflow the guard it needs with it (nil:
	// none), as in an IC file's pair, and NoOverflowKind its kind.
	Constraint     ic.Constraint
	NoOverflow     *ic.Expr
	NoOverflowKind string
	// Counterexample is a state where the invariants and the condition
	// hold but the blocks do not commute: the values of the globals,
	// params and locals (v, v') the formula mentions. Set when Refuted, and
	// when Unknown because F is inexact (then the orders may still commute
	// there).
	Counterexample []allsat.Value
	fns            map[string]*ts.Fn
}

// Declared proves the commute declarations of a program, in declaration
// order. opts.Timeout and CheckTimeout bound each proof (CheckTimeout
// defaults to 2s when neither is set); Workers is not used. An error means
// the solver could not be used; ctx cancels between declarations.
func Declared(ctx context.Context, p *lang.Program, opts Options) ([]DeclaredResult, error) {
	syms := ts.NewSymbols(p)
	out := make([]DeclaredResult, 0, len(p.Commutes))
	for _, cm := range p.Commutes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := declared(cm, syms, p.Invariants, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", cm.Pos, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func declared(cm *lang.Commute, syms *ts.Symbols, invs []*lang.Invariant, opts Options) (DeclaredResult, error) {
	a, b, swap := cm.A, cm.B, cm.A.Index > cm.B.Index
	if swap {
		a, b = b, a
	}
	r := DeclaredResult{Commute: cm, A: a.ID, B: b.ID}
	cg := ts.NewGraph()
	c := cg.True()
	if cm.Cond != nil {
		c = encode.Cond(cg, cm.Cond, syms, swap)
	}
	e, err := allsat.ToExpr(cg.Tree(c))
	if err != nil {
		r.Reason = "the condition cannot be written as an IC: " + err.Error()
		return r, nil
	}
	r.Constraint = ic.NewConstraint(e)
	fm := encode.Build(opts.Encoding, a, b, syms, invs...)
	chk, err := allsat.Check(fm, cg, c, opts.solver())
	if err != nil {
		return r, err
	}
	r.Verdict, r.Reason, r.Counterexample = chk.Verdict, chk.Reason, chk.Model
	if r.Verdict == allsat.Refuted && !fm.Exact {
		r.Verdict = allsat.Unknown
		r.Reason = fmt.Sprintf("not proven, and F(%s, %s) is not exact (%v): the counterexample may commute", a.ID, b.ID, fm.Inexact)
	}
	if r.Verdict == allsat.Refuted && fm.Kept {
		// F asks both orders to keep the invariants: the counterexample
		// refutes the claim only if the orders end apart there anyway.
		bare := *fm
		bare.F = fm.Bare
		chk, err := allsat.Check(&bare, cg, c, opts.solver())
		if err != nil {
			return r, err
		}
		if chk.Verdict != allsat.Refuted {
			r.Verdict = allsat.Unknown
			r.Reason = fmt.Sprintf("not proven: where the condition holds, an order of (%s, %s) may break an invariant, and orders that break one alike commute", a.ID, b.ID)
		}
	}
	if r.Verdict == allsat.Proven {
		gd := guardOf(fm, opts.Guard)
		if gd.reason != "" {
			r.Verdict, r.Reason = allsat.Unknown, gd.reason
		}
		pr := ic.Pair{Constraints: []ic.Constraint{r.Constraint}}
		setGuard(&pr, gd)
		r.NoOverflow, r.NoOverflowKind = pr.NoOverflow, pr.NoOverflowKind
		r.fns = fm.Fns()
	}
	return r, nil
}

// DeclaredFile turns the proven declarations among rs (from [Declared] on
// p) into an IC file a runtime can use: each pair with proven
// declarations is conditional (independent when one has no condition),
// with those constraints; every other pair is dependent (no constraint:
// sound). No pair is exact.
func DeclaredFile(p *lang.Program, rs []DeclaredResult) (*ic.File, error) {
	f, err := skeleton(p)
	if err != nil {
		return nil, err
	}
	type key struct{ a, b string }
	byPair := map[key][]*DeclaredResult{}
	var fns []map[string]*ts.Fn
	for i := range rs {
		r := &rs[i]
		if r.Verdict == allsat.Proven {
			byPair[key{r.A, r.B}] = append(byPair[key{r.A, r.B}], r)
			fns = append(fns, r.fns)
		}
	}
	for i, a := range p.Blocks {
		for _, b := range p.Blocks[i:] {
			pr := ic.Pair{A: a.ID, B: b.ID, Status: ic.Dependent, Constraints: []ic.Constraint{}}
			seen := map[string]bool{}
			for _, r := range byPair[key{a.ID, b.ID}] {
				pr.Notes = append(pr.Notes, "declared at "+r.Commute.Pos.String()+": "+lang.CommuteString(r.Commute))
				if pr.NoOverflow == nil {
					pr.NoOverflow, pr.NoOverflowKind = r.NoOverflow, r.NoOverflowKind
				}
				if c := r.Constraint; !seen[c.Text] {
					seen[c.Text] = true
					pr.Constraints = append(pr.Constraints, c)
				}
			}
			switch {
			case seen["true"]:
				pr.Status, pr.Constraints = ic.Independent, []ic.Constraint{ic.NewConstraint(&ic.Expr{Op: "true"})}
			case len(pr.Constraints) > 0:
				pr.Status = ic.Conditional
				sort.Slice(pr.Constraints, func(i, j int) bool { return pr.Constraints[i].Text < pr.Constraints[j].Text })
			}
			f.Pairs = append(f.Pairs, pr)
		}
	}
	f.Functions = functions(fns)
	return f, nil
}

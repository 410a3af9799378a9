package audit

import (
	"context"
	"fmt"
	"slices"

	"github.com/icgen/icgen/ic"
)

// FileReport is the check of an IC file against its program.
type FileReport struct {
	// Constraints holds one result per constraint of the file, in file
	// order.
	Constraints []Result
	// Guards holds the pairs whose no_overflow guard does not rule out an
	// int64 overflow where one of their proven constraints holds, or for
	// which that could not be decided.
	Guards []Result
	// W lists the blocks whose W(b) differs from the one computed from the
	// program.
	W []WDiff
	_ struct{}
}

// WDiff is a block whose W(b) in the file differs from the recomputed one.
// Missing globals make the file unsound (the runtime's uniformity check
// U⇒ relies on W(b) being closed); extra ones only cost reductions.
type WDiff struct {
	Block   string
	Missing []string // in the recomputed W(b), not in the file's
	Extra   []string // in the file's W(b), not in the recomputed one
	Unknown bool     // the program has no such block
}

// Sound reports whether every constraint and guard is proven, consistent
// with its written forms, and no W(b) lacks a global.
func (r *FileReport) Sound() bool {
	for _, c := range r.Constraints {
		if c.Verdict != Proven || c.Claim.Mismatch != "" {
			return false
		}
	}
	if len(r.Guards) > 0 {
		return false
	}
	for _, w := range r.W {
		if len(w.Missing) > 0 || w.Unknown {
			return false
		}
	}
	return true
}

// FileClaims turns the constraints of an IC file into claims: each with
// its pair's no_overflow guard, and a Mismatch when its text or SMT-LIB
// form is not the one its expression gives.
func FileClaims(f *ic.File) []Claim {
	var out []Claim
	for _, p := range f.Pairs {
		for k, c := range p.Constraints {
			cl := Claim{A: p.A, B: p.B, Expr: c.Expr, NoOverflow: p.NoOverflow,
				Source: fmt.Sprintf("I(%s, %s') constraint %d", p.A, p.B, k+1)}
			switch {
			case c.Text != c.Expr.String():
				cl.Mismatch = fmt.Sprintf("its text %q is not its expression, %s", c.Text, c.Expr)
			case c.SMTLIB != ic.SMTLIB(c.Expr):
				cl.Mismatch = fmt.Sprintf("its SMT-LIB form %s is not its expression's, %s", c.SMTLIB, ic.SMTLIB(c.Expr))
			}
			out = append(out, cl)
		}
	}
	return out
}

// CheckFile re-proves every constraint of an IC file made for the
// checker's program (the caller checks the hash), checks each pair's
// no_overflow guard, and compares each block's W(b) with the recomputed
// one.
func (c *Checker) CheckFile(ctx context.Context, f *ic.File) (*FileReport, error) {
	rep := &FileReport{}
	claims := FileClaims(f)
	res, err := c.Check(ctx, claims)
	if err != nil {
		return nil, err
	}
	rep.Constraints = res
	k := 0
	for _, p := range f.Pairs {
		var proven []*ic.Expr
		for range p.Constraints {
			if res[k].Verdict == Proven {
				proven = append(proven, res[k].Claim.Expr)
			}
			k++
		}
		a, b := c.m.Prog.Block(p.A), c.m.Prog.Block(p.B)
		if a == nil || b == nil {
			continue
		}
		g, bad, err := c.guard(ctx, a, b, proven, p.NoOverflow)
		if err != nil {
			return nil, err
		}
		if bad {
			rep.Guards = append(rep.Guards, g)
		}
	}
	want := map[string][]string{}
	for _, b := range ic.Skeleton(c.m.Prog).Blocks {
		want[b.ID] = b.W
	}
	for _, b := range f.Blocks {
		w, ok := want[b.ID]
		if !ok {
			rep.W = append(rep.W, WDiff{Block: b.ID, Unknown: true})
			continue
		}
		d := WDiff{Block: b.ID}
		for _, g := range w {
			if !slices.Contains(b.W, g) {
				d.Missing = append(d.Missing, g)
			}
		}
		for _, g := range b.W {
			if !slices.Contains(w, g) {
				d.Extra = append(d.Extra, g)
			}
		}
		if len(d.Missing)+len(d.Extra) > 0 {
			rep.W = append(rep.W, d)
		}
	}
	return rep, nil
}

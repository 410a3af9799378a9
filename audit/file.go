package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/synth"
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
	// Mismatches lists the entries of the functions table and the
	// invariants that are not the program's (see [Mismatches]); those of
	// constraints are in Constraints, as Claim.Mismatch.
	Mismatches []Mismatch
	_          struct{}
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
// with its written forms, every function and invariant is the program's,
// and no W(b) lacks a global.
func (r *FileReport) Sound() bool {
	if len(r.Mismatches) > 0 {
		return false
	}
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
// its pair's no_overflow guard, and a Mismatch when its written forms are
// not those its expression gives (see formsMismatch).
func FileClaims(f *ic.File) []Claim {
	var out []Claim
	for _, p := range f.Pairs {
		for k, c := range p.Constraints {
			out = append(out, Claim{A: p.A, B: p.B, Expr: c.Expr, NoOverflow: p.NoOverflow,
				Source:   fmt.Sprintf("I(%s, %s') constraint %d", p.A, p.B, k+1),
				Mismatch: formsMismatch(c)})
		}
	}
	return out
}

// formsMismatch says how a constraint's text, SMT-LIB form or globals
// (G(C), which a runtime's uniformity check reads) are not those its
// expression gives; "" when they are.
func formsMismatch(c ic.Constraint) string {
	switch {
	case c.Text != c.Expr.String():
		return fmt.Sprintf("its text %q is not its expression, %s", c.Text, c.Expr)
	case c.SMTLIB != ic.SMTLIB(c.Expr):
		return fmt.Sprintf("its SMT-LIB form %s is not its expression's, %s", c.SMTLIB, ic.SMTLIB(c.Expr))
	case !slices.Equal(c.Globals, c.Expr.Globals()):
		return fmt.Sprintf("its globals {%s} are not those its expression reads, {%s}", strings.Join(c.Globals, ", "), strings.Join(c.Expr.Globals(), ", "))
	}
	return ""
}

// goMismatch says how a constraint's go field is not the Go rendering of
// its expression (goText, nil when the program is not Go code); "" when
// it is, or when the field is absent. The go field is for people (a
// runtime evaluates the expression), so it is checked as text and SMT-LIB
// are: it must be what its expression renders as, nothing else, even
// something equivalent.
func goMismatch(c ic.Constraint, goText func(*ic.Expr) string) string {
	switch {
	case c.Go == "":
		return ""
	case goText == nil:
		return fmt.Sprintf("it has a Go text, %q, but its program is not Go code", c.Go)
	case c.Go != goText(c.Expr):
		return fmt.Sprintf("its Go text %q is not its expression's, %q", c.Go, goText(c.Expr))
	}
	return ""
}

// Mismatch is an entry of an IC file that does not say what its program,
// or its own expression, says.
type Mismatch struct {
	Entry string // the entry: "I(p, q') constraint 1", "function loop:p:2:23.s", "invariant 1", "invariants"
	Msg   string // what differs
}

func (m Mismatch) String() string { return m.Entry + ": " + m.Msg }

// Mismatches checks an IC file made for p (same hash) against p without a
// solver: each constraint's written forms against its expression
// ([FileClaims]), each entry of the functions table against the loop it
// names (a runtime evaluates a function by running the loop at the
// entry's proc, line and column, from its ins, while the constraint was
// proven of the program's loop of that name: ts.LoopFns), and the
// invariants against the program's. It is the one such check: icgen
// explore refuses a file with a mismatch, icgen check reports each
// ([Checker.CheckFile]).
func Mismatches(p *lang.Program, f *ic.File) []Mismatch {
	var out []Mismatch
	for _, cl := range FileClaims(f) {
		if cl.Mismatch != "" {
			out = append(out, Mismatch{Entry: cl.Source, Msg: cl.Mismatch})
		}
	}
	return append(out, programMismatches(p, f)...)
}

// programMismatches is Mismatches for what the file says of its program:
// the functions table and the invariants.
func programMismatches(p *lang.Program, f *ic.File) []Mismatch {
	var out []Mismatch
	want := map[string]ic.Function{}
	for _, fn := range synth.Functions(p) {
		want[fn.Name] = fn
	}
	for _, fn := range f.Functions {
		entry := "function " + fn.Name
		w, ok := want[fn.Name]
		if !ok {
			out = append(out, Mismatch{entry, "no in-block loop of the program has a function of this name"})
			continue
		}
		var have, prog []string
		differs := func(field, h, w string) {
			if h != w {
				have, prog = append(have, field+" "+h), append(prog, field+" "+w)
			}
		}
		differs("kind", fn.Kind, w.Kind)
		differs("proc", fn.Proc, w.Proc)
		differs("line", strconv.Itoa(fn.Line), strconv.Itoa(w.Line))
		differs("col", strconv.Itoa(fn.Col), strconv.Itoa(w.Col))
		differs("out", orNone(fn.Out), orNone(w.Out))
		differs("ins", "["+strings.Join(fn.Ins, ", ")+"]", "["+strings.Join(w.Ins, ", ")+"]")
		if len(have) > 0 {
			out = append(out, Mismatch{entry, fmt.Sprintf("has %s, where the program's function of this name has %s (a runtime runs the loop the entry names)",
				strings.Join(have, ", "), strings.Join(prog, ", "))})
		}
	}
	invs, err := synth.Invariants(p)
	if err != nil {
		return append(out, Mismatch{"invariants", fmt.Sprintf("the program's have no IC form (%v)", err)})
	}
	if len(f.Invariants) != len(invs) {
		out = append(out, Mismatch{"invariants", fmt.Sprintf("the file has %d, the program %d", len(f.Invariants), len(invs))})
	}
	for i, c := range f.Invariants {
		entry := fmt.Sprintf("invariant %d", i+1)
		switch {
		case i < len(invs) && !sameExpr(c.Expr, invs[i].Expr):
			out = append(out, Mismatch{entry, fmt.Sprintf("its expression, %s, is not the program's invariant %d, %s", c.Expr, i+1, invs[i].Expr)})
		case formsMismatch(c) != "":
			out = append(out, Mismatch{entry, formsMismatch(c)})
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// sameExpr reports whether two expression trees are the same tree.
func sameExpr(a, b *ic.Expr) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && bytes.Equal(ja, jb)
}

// CheckFile re-proves every constraint of an IC file made for the
// checker's program (the caller checks the hash), checks each pair's
// no_overflow guard, compares each block's W(b) with the recomputed one,
// and reports the file's [Mismatches].
func (c *Checker) CheckFile(ctx context.Context, f *ic.File) (*FileReport, error) {
	rep := &FileReport{Mismatches: programMismatches(c.m.Prog, f)}
	claims := FileClaims(f)
	k := 0
	for _, p := range f.Pairs {
		for _, con := range p.Constraints {
			if claims[k].Mismatch == "" {
				claims[k].Mismatch = goMismatch(con, c.opts.GoText)
			}
			k++
		}
	}
	res, err := c.Check(ctx, claims)
	if err != nil {
		return nil, err
	}
	rep.Constraints = res
	k = 0
	for _, p := range f.Pairs {
		var proven []*ic.Expr
		var ks []int
		for range p.Constraints {
			if res[k].Verdict == Proven {
				proven = append(proven, res[k].Claim.Expr)
				ks = append(ks, k)
			}
			k++
		}
		a, b := c.m.Prog.Block(p.A), c.m.Prog.Block(p.B)
		if a == nil || b == nil {
			continue
		}
		needed, err := c.GuardNeeded(ctx, p.A, p.B, proven)
		if err != nil {
			return nil, err
		}
		for _, i := range ks {
			res[i].GuardNeeded = needed
		}
		g, bad, err := c.guard(ctx, a, b, proven, p.NoOverflow, p.NoOverflowKind, needed)
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

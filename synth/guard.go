package synth

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/ts"
)

// GuardKind chooses how a pair's overflow guard is written.
type GuardKind uint8

// Guard kinds: GuardInterval (the default) writes bounds on the values
// the orders' arithmetic reads, proven to rule overflow out (ic.Interval),
// and the exact guard where no such bounds are found; GuardExact writes
// the condition under which neither order overflows (ic.Exact), and the
// interval guard where that is too large to write.
const (
	GuardInterval GuardKind = iota
	GuardExact
)

func (k GuardKind) String() string { return [...]string{"interval", "exact"}[k] }

// ParseGuardKind reads a guard kind's name.
func ParseGuardKind(s string) (GuardKind, error) {
	switch s {
	case "interval":
		return GuardInterval, nil
	case "exact":
		return GuardExact, nil
	}
	return 0, fmt.Errorf("unknown guard kind %q (want interval or exact)", s)
}

// MaxGuardText bounds the text of a pair's overflow guard: an exact guard
// is as large as the part of the formula's graph it reaches, and an
// interval guard's bounds name array elements and loop functions by their
// arguments, which the graph shares and a bound prints whole.
const MaxGuardText = 1 << 20

// overflowGuard is a pair's overflow guard, worked out before its cover:
// expr is nil where neither order can overflow, reason says why no guard
// could be written (the pair is then unknown).
type overflowGuard struct {
	expr   *ic.Expr
	kind   string
	reason string
}

// guardOf writes the overflow guard of fm in the kind asked for, or in the
// other kind where that one cannot be written.
func guardOf(fm *encode.Formula, kind GuardKind) overflowGuard {
	if fm.NoOverflowTrue() {
		return overflowGuard{}
	}
	g, root := fm.Graph, fm.NoOverflow
	tries := []func() (*ic.Expr, string){
		func() (*ic.Expr, string) { return intervalGuard(g, root) },
		func() (*ic.Expr, string) { return exactGuard(g, root) },
	}
	kinds := []string{ic.Interval, ic.Exact}
	if kind == GuardExact {
		slices.Reverse(tries)
		slices.Reverse(kinds)
	}
	var why []string
	for i, try := range tries {
		if e, reason := try(); e != nil {
			return overflowGuard{expr: e, kind: kinds[i]}
		} else {
			why = append(why, reason)
		}
	}
	return overflowGuard{reason: fmt.Sprintf("overflow condition not written: %s; %s", why[0], why[1])}
}

// intervalGuard is the conjunction of encode.IntervalGuard's bounds:
// `lo <= x` and `x <= hi`, by the text of x.
func intervalGuard(g *ts.Graph, root ts.Ref) (*ic.Expr, string) {
	bounds, ok := encode.IntervalGuard(g, root)
	if !ok {
		return nil, "no bounds on the values read rule overflow out"
	}
	type bound struct {
		x      *ic.Expr
		text   string
		lo, hi *int64
	}
	var bs []bound
	budget := MaxGuardText
	for _, b := range bounds {
		t, ok := g.Term(b.Term, budget)
		if !ok {
			return nil, fmt.Sprintf("the values bounded take more than %d characters to write", MaxGuardText)
		}
		x, err := allsat.ToExpr(t)
		if err != nil {
			return nil, "a value bounded is not expressible: " + err.Error()
		}
		s := x.String()
		if budget -= len(s); budget < 0 {
			return nil, fmt.Sprintf("the values bounded take more than %d characters to write", MaxGuardText)
		}
		bs = append(bs, bound{x, s, b.Lo, b.Hi})
	}
	slices.SortStableFunc(bs, func(p, q bound) int { return cmp.Compare(p.text, q.text) })
	var atoms []*ic.Expr
	for _, b := range bs {
		if b.lo != nil {
			atoms = append(atoms, &ic.Expr{Op: "<=", Args: []*ic.Expr{ic.Int(*b.lo), b.x}})
		}
		if b.hi != nil {
			atoms = append(atoms, &ic.Expr{Op: "<=", Args: []*ic.Expr{b.x, ic.Int(*b.hi)}})
		}
	}
	switch len(atoms) {
	case 0:
		return &ic.Expr{Op: "true"}, ""
	case 1:
		return atoms[0], ""
	}
	return &ic.Expr{Op: "&&", Args: atoms}, ""
}

// exactGuard writes the guard itself: the graph's terms as they are, ites
// kept, and each subterm read in more than one place named once by a let
// (allsat.GraphExpr), so its text grows with the graph, not with the
// paths through it.
func exactGuard(g *ts.Graph, root ts.Ref) (*ic.Expr, string) {
	e, err := allsat.GraphExpr(g, root)
	if err != nil {
		return nil, "the exact condition is not expressible: " + err.Error()
	}
	if len(e.String()) > MaxGuardText {
		return nil, fmt.Sprintf("the exact condition is too large to write (more than %d characters)", MaxGuardText)
	}
	return e, ""
}

// setGuard records the pair's overflow guard, which its constraints need.
func setGuard(out *ic.Pair, gd overflowGuard) {
	if len(out.Constraints) == 0 || gd.expr == nil || gd.expr.Op == "true" {
		return
	}
	out.NoOverflow, out.NoOverflowKind = gd.expr, gd.kind
}

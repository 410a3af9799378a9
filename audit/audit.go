package audit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/synth"
	"github.com/icgen/icgen/ts"
)

// Options configure an audit or a check.
type Options struct {
	Synth        synth.Options // how pairs are classified (Audit only)
	Tries        int           // solver models run per query before giving up on a witness (0: 5)
	CheckTimeout time.Duration // budget of one solver check (0: 2s)
	Rlimit       uint64        // Z3 resource limit per check (0: none)
	// Text renders a constraint in the report (nil: its canonical text,
	// ic.Expr.String), and names the values of its witnesses (a global,
	// an element, a local of either process, given as such a term); the
	// Go front end's names them as Go code does.
	Text func(*ic.Expr) string
	// GoText, for a program made from Go code, renders a constraint in Go
	// syntax (gofront's Package.GoText): an IC file's go field must be
	// that rendering of its expression (CheckFile). nil: the program is
	// not Go code, and a constraint has no go field.
	GoText func(*ic.Expr) string
	// Domain, when set, gives for a pair of blocks (by id, the first's
	// process first) conditions that every state of the source language
	// satisfies and the IR does not know: the range of an array's
	// elements of a narrow type, what a map's parts say of each other.
	// Witnesses are searched in the states where they hold, so that they
	// are states the source can be in; constraints are still proven over
	// every state, and a pair's class does not depend on them.
	Domain func(a, b string) []*ic.Expr
	// Witness, when set, makes the namer and the writer of the values of
	// one witness: name renders a global, element or local term (instead
	// of Text), value what the term holds when the IR holds v there (Go's
	// false and true for an element of a bool array, a string for the
	// integer that holds it). They may name values in the order they
	// meet them (start values first, then rows, each value before its
	// name), so they are made anew for each witness. nil: Text, and
	// values as the IR holds them.
	Witness func() (name func(*ic.Expr) string, value func(term *ic.Expr, v int64) string)
	// Progress, when set, is called after each pair is classified (stage
	// "classifying") and after each pair's witness search ("witnesses"),
	// from one goroutine at a time.
	Progress func(stage string, done, total int)
	_        struct{}
}

// Class is how a pair of blocks commutes.
type Class int

// Classes of pairs.
const (
	Always      Class = iota // commute in every state (the constraint true)
	Conditional              // commute where one of the constraints holds
	Never                    // never proven to commute
	Unknown                  // the analysis gave up (Pair.Reason)
)

func (c Class) String() string {
	switch c {
	case Always:
		return "always"
	case Conditional:
		return "conditional"
	case Never:
		return "never"
	case Unknown:
		return "unknown"
	}
	return "class(" + strconv.Itoa(int(c)) + ")"
}

func classOf(s ic.Status) Class {
	switch s {
	case ic.Independent:
		return Always
	case ic.Conditional:
		return Conditional
	case ic.Dependent:
		return Never
	}
	return Unknown
}

// Report is the commutativity matrix of a program with witnesses.
type Report struct {
	Program string
	Params  map[string]int64 // the param values the witnesses were run with
	Blocks  []string         // block ids, in program order
	Pairs   []Pair           // every unordered pair, self pairs included, in block order
	_       struct{}
}

// Pair is one pair of the matrix. A's process is the first (its locals
// unprimed), B's the second (primed).
type Pair struct {
	A, B        string
	Class       Class
	Exact       bool     // the constraints hold exactly where the pair commutes, wherever its overflow guard holds
	Constraints []string // their texts (Options.Text), for Conditional (and partial Unknown) pairs
	Reason      string   // why the pair is Unknown
	Notes       []string // what made the pair inexact
	// Witness, for pairs that are not Always: a state where both blocks
	// are enabled and the orders end differently, confirmed by running
	// them. NoWitness says why there is none.
	Witness   *Witness
	NoWitness string
}

// Matrix is the class of every pair of blocks, row a and column b in the
// order of Blocks, as text ("always", ...).
func (r *Report) Matrix() [][]string {
	index := map[string]int{}
	for i, b := range r.Blocks {
		index[b] = i
	}
	m := make([][]string, len(r.Blocks))
	for i := range m {
		m[i] = make([]string, len(r.Blocks))
		for j := range m[i] {
			m[i][j] = Unknown.String() // every pair is in Pairs
		}
	}
	for _, p := range r.Pairs {
		i, iok := index[p.A]
		j, jok := index[p.B]
		if iok && jok {
			m[i][j], m[j][i] = p.Class.String(), p.Class.String()
		}
	}
	return m
}

// Counts counts the pairs of each class.
func (r *Report) Counts() map[Class]int {
	out := map[Class]int{}
	for _, p := range r.Pairs {
		out[p.Class]++
	}
	return out
}

// Run audits the program of machine m: it classifies every pair of blocks
// by synthesizing its constraints (package synth) and, for every pair that
// does not always commute, looks for a witness with the solver (a model of
// not F(a,b), first where both orders run without error, then where both
// blocks can run) and confirms it by running both orders in m. Params stay
// at m's values unless no witness exists with them. An error means the tool
// failed; ctx cancels the run.
func Run(ctx context.Context, m *interp.Machine, opts Options) (*Report, error) {
	p := m.Prog
	progress := func(string, int, int) {}
	if opts.Progress != nil {
		progress = opts.Progress
		opts.Synth.Progress = func(done, total int) { progress("classifying", done, total) }
	}
	f, _, err := synth.Run(ctx, p, opts.Synth)
	if err != nil {
		return nil, err
	}
	r := &Report{Program: p.File, Params: map[string]int64{}}
	for _, pa := range p.Params {
		r.Params[pa.Name] = m.Param(pa)
	}
	for _, b := range p.Blocks {
		r.Blocks = append(r.Blocks, b.ID)
	}
	pr, err := newProver(opts)
	if err != nil {
		return nil, err
	}
	defer pr.close()
	syms := ts.NewSymbols(p)
	funcs := map[string]ic.Function{}
	for _, fn := range f.Functions {
		funcs[fn.Name] = fn
	}
	for i, fp := range f.Pairs {
		progress("witnesses", i, len(f.Pairs))
		out := Pair{A: fp.A, B: fp.B, Class: classOf(fp.Status), Exact: fp.Exact, Reason: fp.Reason, Notes: fp.Notes}
		for _, c := range fp.Constraints {
			text := c.Text
			if opts.Text != nil {
				text = opts.Text(c.Expr)
			}
			out.Constraints = append(out.Constraints, text)
		}
		if out.Class != Always {
			a, b := p.Block(fp.A), p.Block(fp.B)
			fm := formula(a, b, syms, p.Invariants)
			if fm.Unknown != "" {
				out.NoWitness = "no witness: the pair has no formula (" + fm.Unknown + ")"
			} else {
				sp := &space{p: p, a: a, b: b, syms: syms, m: m, funcs: funcs}
				region := outside(fm, false)
				sp.restrict(opts, region)
				out.Witness, out.NoWitness, err = pr.search(ctx, sp, stages(sp, fm, region))
				if err != nil {
					return nil, err
				}
				out.Witness.rename(opts)
			}
		}
		r.Pairs = append(r.Pairs, out)
	}
	return r, nil
}

// stages are the ways to ask for a witness within region: where both
// orders run to completion (a difference in the final states), then where
// both blocks can run alone (a difference may be an error or a block that
// gets disabled), then anywhere (an order may raise an error the other
// does not); each first with the machine's params, then, if the program
// has params, with any.
func stages(sp *space, fm *encode.Formula, region *query) []stage {
	both := region.clone()
	both.graph(fm.Graph, []ts.Ref{fm.Runs(0), fm.Runs(1)}, nil)
	apart := newQuery()
	for _, d := range sp.domain {
		apart.expr(d)
	}
	apart.term(runs(ts.Block(sp.a, 0, sp.syms, ts.NewGraph())))
	apart.term(runs(ts.Block(sp.b, 1, sp.syms, ts.NewGraph())))
	alone := region.clone()
	alone.declare(keys(apart.decls)...)
	alone.terms = append(alone.terms, apart.terms...)
	differ := func(w *Witness) bool { return w.Kind == Differ }
	anyKind := func(*Witness) bool { return true }
	commute := "wherever both blocks can run without a runtime error, they commute"
	never := "the two blocks can never both run without a runtime error in the same state"
	with := ""
	if len(sp.p.Params) > 0 {
		with = " (with " + paramString(sp) + ")"
	}
	out := []stage{
		{region: both, pinned: true, accept: differ},
		{region: alone, pinned: true, accept: anyKind, empty: commute + with, apart: apart, vacuous: never + with},
		{region: region, pinned: true, accept: anyKind},
	}
	if len(sp.p.Params) > 0 {
		for _, st := range out[:3] {
			st.pinned = false
			out = append(out, st)
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func paramString(sp *space) string {
	var parts []string
	for _, pa := range sp.p.Params {
		parts = append(parts, fmt.Sprintf("%s=%d", pa.Name, sp.m.Param(pa)))
	}
	return strings.Join(parts, " ")
}

// formula is F(a,b) for the audit: the path encoding, whose terms the
// witness search reads, or the merged encoding where the paths are too
// many to build.
func formula(a, b *lang.Block, syms *ts.Symbols, invs []*lang.Invariant) *encode.Formula {
	f := encode.Pair(a, b, syms, invs...)
	if f.Unknown == "" {
		return f
	}
	if m := encode.PairMerged(a, b, syms, invs...); m.Unknown == "" {
		return m
	}
	return f
}

// outside is the region where the invariants hold and F does not (or,
// with overflow, where the overflow guard does not).
func outside(fm *encode.Formula, overflow bool) *query {
	q := newQuery()
	r := fm.F
	if overflow {
		r = fm.NoOverflow
	}
	q.graph(fm.Graph, []ts.Ref{fm.Assume}, []ts.Ref{r})
	return q
}

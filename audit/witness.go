package audit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
)

// Kind says how the two orders of a witness differ.
type Kind int

// Witness kinds.
const (
	// Differ: both orders run to completion without error and end in
	// different states.
	Differ Kind = iota
	// Error: one order, or both, raises a runtime error (division by zero,
	// an index out of bounds, an int64 overflow) where the other does not,
	// or both raise different ones.
	Error
	// Blocked: in one order the second block is not enabled after the
	// first (an await the first block falsifies).
	Blocked
)

func (k Kind) String() string {
	switch k {
	case Differ:
		return "differ"
	case Error:
		return "error"
	case Blocked:
		return "blocked"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Witness is a concrete state in which both blocks of a pair are enabled
// and the two orders do not end alike, found by the solver and confirmed by
// running both orders in the interpreter (package interp). The state need
// not be reachable from the program's initial state: independence
// constraints speak of every state.
type Witness struct {
	Kind Kind
	// Params are the param values of the instance the witness was run in,
	// set only when they differ from the machine's (the solver had to
	// choose other values to find one).
	Params map[string]int64
	// Start is the state: globals the blocks use (array elements one by
	// one), then the first process's live locals (v) and the second's (v').
	Start []Value
	// Rows compare the two final states side by side (Differ witnesses);
	// for Error and Blocked ones, the order that completed.
	Rows []Row
	AB   Order // the first block, then the second
	BA   Order // the second block, then the first
}

// Value is a named value of a state.
type Value struct {
	Name  string
	Value string
	term  *ic.Expr // what Name names, for Options.Text (nil: nothing to rename)
}

// Row is one variable (or the next point, the spawned processes, the
// violations) after each order; Differ marks the rows where they disagree.
type Row struct {
	Name   string
	Start  string // "" when the row has no initial value (spawned, next, ...)
	AB, BA string
	Differ bool
	term   *ic.Expr // what Name names, for Options.Text (nil: nothing to rename)
}

// locTerm is the term of location i of global g: the global, or its
// element i.
func locTerm(g *lang.Var, i int) *ic.Expr {
	if g.Type != lang.IntArray {
		return &ic.Expr{Op: "global", Name: g.Name}
	}
	v := int64(i)
	return &ic.Expr{Op: "select", Name: g.Name, Args: []*ic.Expr{{Op: "int", Value: &v}}}
}

// localTerm is the term of local v of the pair's first (k = 0) or second
// process.
func localTerm(v *lang.Var, k int) *ic.Expr { return &ic.Expr{Op: "local", Name: v.Name, Event: k} }

// rename names the witness's values and rows by Options.Text, and
// writes their values by Options.Value, when set.
func (w *Witness) rename(opts Options) {
	if w == nil {
		return
	}
	text := opts.Text
	var write func(*ic.Expr, int64) string
	if opts.Witness != nil {
		text, write = opts.Witness()
	}
	name := func(n *string, t *ic.Expr) {
		if text != nil {
			*n = text(t)
		}
	}
	value := func(s *string, t *ic.Expr) {
		if write == nil {
			return
		}
		if v, err := strconv.ParseInt(*s, 10, 64); err == nil {
			*s = write(t, v)
		}
	}
	for i := range w.Start {
		if t := w.Start[i].term; t != nil {
			value(&w.Start[i].Value, t)
			name(&w.Start[i].Name, t)
		}
	}
	for i := range w.Rows {
		if t := w.Rows[i].term; t != nil {
			for _, s := range []*string{&w.Rows[i].Start, &w.Rows[i].AB, &w.Rows[i].BA} {
				value(s, t)
			}
			name(&w.Rows[i].Name, t)
		}
	}
}

// Order is how one order of a witness ran.
type Order struct {
	Name    string               // e.g. "p; q'"
	Err     *interp.RuntimeError // the runtime error that ended it
	Blocked string               // the block that was not enabled
}

// Completed reports whether the order ran both blocks without error.
func (o Order) Completed() bool { return o.Err == nil && o.Blocked == "" }

// String renders the outcome of the order in one line.
func (o Order) String() string {
	switch {
	case o.Err != nil:
		return fmt.Sprintf("%s: runtime error at %d:%d: %s", o.Name, o.Err.Pos.Line, o.Err.Pos.Col, o.Err.Msg)
	case o.Blocked != "":
		return fmt.Sprintf("%s: %s is not enabled after the first block", o.Name, o.Blocked)
	}
	return o.Name + ": completes"
}

// Summary says in one line how the orders differ.
func (w *Witness) Summary() string {
	switch w.Kind {
	case Differ:
		var names []string
		for _, r := range w.Rows {
			if r.Differ {
				names = append(names, r.Name)
			}
		}
		return "the orders end in different states (" + strings.Join(names, ", ") + ")"
	case Blocked:
		for _, o := range []Order{w.AB, w.BA} {
			if o.Blocked != "" {
				return fmt.Sprintf("in the order %s, %s is not enabled after the first block", o.Name, o.Blocked)
			}
		}
	}
	var parts []string
	for _, o := range []Order{w.AB, w.BA} {
		if o.Err != nil {
			parts = append(parts, fmt.Sprintf("the order %s raises a runtime error (%s)", o.Name, o.Err.Msg))
		}
	}
	return strings.Join(parts, "; ")
}

// pairNames are the display names of the two processes of a pair: the
// first's block id, the second's primed.
func pairNames(a, b *lang.Block) (string, string) { return a.ID, b.ID + "'" }

// Why a candidate state is not a witness.
type miss int

const (
	hit         miss = iota
	notEnabled       // a block is not enabled in the state
	bothErr          // both orders raise a runtime error
	alike            // both orders end in equal states
	notHolding       // the claim does not hold there as a runtime evaluates it
	notRunnable      // the model's values do not fit the interpreter
	notWanted        // a difference of a kind the stage does not look for
)

// runPair builds the state of a witness candidate and runs both orders. It
// returns nil and the reason when the state does not show a difference.
func runPair(m *interp.Machine, a, b *lang.Block, store []int64, sparse sparseVals, la, lb []int64) (*Witness, miss) {
	st := pairState(m, a, b, store, sparse, la, lb)
	if !st.Enabled(0) || !st.Enabled(1) {
		return nil, notEnabled
	}
	na, nb := pairNames(a, b)
	abS, ab := runOrder(st.Clone(), 0, 1, na+"; "+nb, nb)
	baS, ba := runOrder(st.Clone(), 1, 0, nb+"; "+na, na)
	w := &Witness{AB: ab, BA: ba, Start: startValues(st, a, b)}
	switch {
	case ab.Completed() && ba.Completed():
		if abS.Equal(baS) {
			return nil, alike
		}
		w.Kind = Differ
	case ab.Err != nil && ba.Err != nil:
		// Both orders fail: the state is doomed either way, whichever
		// error is reported first; no difference worth showing.
		return nil, bothErr
	case ab.Blocked != "" && ba.Blocked != "":
		w.Kind = Blocked
	case ab.Blocked != "" || ba.Blocked != "":
		w.Kind = Blocked
		if ab.Err != nil || ba.Err != nil {
			w.Kind = Error
		}
	default:
		w.Kind = Error
	}
	w.Rows = compareRows(st, abS, baS, ab.Completed(), ba.Completed(), a, b)
	return w, hit
}

// runOrder runs process first then second.
func runOrder(st *interp.State, first, second int, name, secondName string) (*interp.State, Order) {
	o := Order{Name: name}
	if ev := st.Step(first); ev.Err != nil {
		o.Err = ev.Err
		return st, o
	}
	if !st.Enabled(second) {
		o.Blocked = secondName
		return st, o
	}
	if ev := st.Step(second); ev.Err != nil {
		o.Err = ev.Err
	}
	return st, o
}

func format(v *lang.Var, x int64) string {
	if v.Type == lang.Bool {
		return strconv.FormatBool(x != 0)
	}
	return strconv.FormatInt(x, 10)
}

// shownGlobals are the globals a witness shows: those either block reads
// or writes, in declaration order.
func shownGlobals(a, b *lang.Block) []*lang.Var {
	seen := map[*lang.Var]bool{}
	for _, bl := range []*lang.Block{a, b} {
		for _, vs := range [][]*lang.Var{bl.Reads, bl.Writes} {
			for _, v := range vs {
				if v.Kind == lang.Global {
					seen[v] = true
				}
			}
		}
	}
	var out []*lang.Var
	for v := range seen {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

// maxElements bounds the array elements a witness lists one by one;
// beyond it only the elements that change are listed.
const maxElements = 16

func startValues(st *interp.State, a, b *lang.Block) []Value {
	var out []Value
	m := st.Machine()
	for _, g := range shownGlobals(a, b) {
		first, n := m.GlobalLocs(g)
		if g.Unbounded() {
			els := st.Elements(g)
			for _, i := range slices.Sorted(maps.Keys(els)) {
				out = append(out, Value{fmt.Sprintf("%s[%d]", g.Name, i), format(g, els[i]), locTerm(g, int(i))})
			}
			continue
		}
		if n > maxElements {
			out = append(out, Value{Name: g.Name, Value: fmt.Sprintf("(%d elements)", n)})
			continue
		}
		for i := 0; i < n; i++ {
			out = append(out, Value{m.LocName(first + interp.Loc(i)), format(g, st.Value(first+interp.Loc(i))), locTerm(g, i)})
		}
	}
	for k, p := range st.Procs[:2] {
		for _, v := range p.Point.Live {
			out = append(out, Value{v.Name + strings.Repeat("'", k), format(v, p.Locals[v.Index]), localTerm(v, k)})
		}
	}
	return out
}

// compareRows lists the final states of the orders side by side: the
// globals the blocks use (and any other that differs), the live locals and
// next points of both processes, the processes spawned, the violations.
func compareRows(st, ab, ba *interp.State, abOK, baOK bool, a, b *lang.Block) []Row {
	m := st.Machine()
	get := func(s *interp.State, ok bool, f func(*interp.State) string) string {
		if !ok {
			return "-"
		}
		return f(s)
	}
	var rows []Row
	add := func(name string, term *ic.Expr, start string, f func(*interp.State) string) {
		r := Row{Name: name, Start: start, AB: get(ab, abOK, f), BA: get(ba, baOK, f), term: term}
		r.Differ = abOK && baOK && r.AB != r.BA
		rows = append(rows, r)
	}
	shown := map[*lang.Var]bool{}
	for _, g := range shownGlobals(a, b) {
		shown[g] = true
	}
	for _, g := range m.Prog.Globals {
		first, n := m.GlobalLocs(g)
		if g.Unbounded() {
			// The elements that are not 0 in a state, and those that change.
			keys := map[int64]bool{}
			for _, s := range []*interp.State{st, ab, ba} {
				for i := range s.Elements(g) {
					keys[i] = true
				}
			}
			for _, i := range slices.Sorted(maps.Keys(keys)) {
				el := func(s *interp.State) string { v, _ := s.Element(g, i); return format(g, v) }
				add(fmt.Sprintf("%s[%d]", g.Name, i), locTerm(g, int(i)), el(st), el)
			}
			continue
		}
		for i := 0; i < n; i++ {
			l := first + interp.Loc(i)
			changed := st.Value(l) != ab.Value(l) || st.Value(l) != ba.Value(l) || ab.Value(l) != ba.Value(l)
			if !changed && (!shown[g] || n > maxElements) {
				continue
			}
			g := g
			add(m.LocName(l), locTerm(g, i), format(g, st.Value(l)), func(s *interp.State) string { return format(g, s.Value(l)) })
		}
	}
	for k := 0; k < 2; k++ {
		k := k
		prime := strings.Repeat("'", k)
		p0 := st.Procs[k]
		names := map[string]bool{}
		var order []*lang.Var
		for _, v := range p0.Point.Live {
			names[v.Name] = true
			order = append(order, v)
		}
		for _, s := range []*interp.State{ab, ba} {
			if p := s.Procs[k]; !p.Done && p.Point != nil {
				for _, v := range p.Point.Live {
					if !names[v.Name] {
						names[v.Name] = true
						order = append(order, v)
					}
				}
			}
		}
		for _, v := range order {
			v := v
			add(v.Name+prime, localTerm(v, k), format(v, p0.Locals[v.Index]), func(s *interp.State) string {
				p := s.Procs[k]
				if p.Done || !slices.Contains(p.Point.Live, v) {
					return "-"
				}
				return format(v, p.Locals[v.Index])
			})
		}
		add("next"+prime, nil, "", func(s *interp.State) string {
			p := s.Procs[k]
			if p.Done {
				return "end"
			}
			return p.Point.Block.ID
		})
	}
	add("spawned", nil, "", spawned)
	add("violations", nil, "", violations)
	// Rows without information (a local of a process that ended, every
	// process ends, nothing spawned, no violation) are left out.
	if !abOK && !baOK {
		return nil
	}
	blank := func(v string) bool { return v == "end" || v == "{}" || v == "-" }
	out := rows[:0]
	for _, r := range rows {
		empty := blank(r.AB) && blank(r.BA) && (r.Start == "" || r.AB == "-")
		if !empty {
			out = append(out, r)
		}
	}
	return out
}

// spawned renders the processes created after the pair's two, as a sorted
// multiset proc(live locals).
func spawned(s *interp.State) string {
	var out []string
	for _, p := range s.Procs[2:] {
		if p.Done {
			continue
		}
		var args []string
		for _, v := range p.Point.Live {
			args = append(args, format(v, p.Locals[v.Index]))
		}
		out = append(out, p.Proc.Name+"("+strings.Join(args, ", ")+")")
	}
	sort.Strings(out)
	return "{" + strings.Join(out, ", ") + "}"
}

func violations(s *interp.State) string {
	var out []string
	for _, v := range s.Violations {
		out = append(out, fmt.Sprintf("%d:%d", v.Pos.Line, v.Pos.Col))
	}
	sort.Strings(out)
	return "{" + strings.Join(out, ", ") + "}"
}

// sparseVals are the elements of the unbounded arrays of a start state
// that are not 0.
type sparseVals map[*lang.Var]map[int64]int64

// pairState is the start state of a pair: the store, the unbounded
// arrays' elements, both processes' locals.
func pairState(m *interp.Machine, a, b *lang.Block, store []int64, sparse sparseVals, la, lb []int64) *interp.State {
	st := m.PairState(store, a, la, b, lb)
	for g, els := range sparse {
		for i, v := range els {
			st.SetElement(g, i, v)
		}
	}
	return st
}

// holdsAt reports whether constraint c (and the guard g, when not nil)
// holds in the witness's start state, as a runtime evaluates it.
func holdsAt(m *interp.Machine, a, b *lang.Block, store []int64, sparse sparseVals, la, lb []int64, funcs map[string]ic.Function, exprs ...*ic.Expr) bool {
	st := pairState(m, a, b, store, sparse, la, lb)
	env := interp.ICEnv{S: st, First: st.Procs[0], Second: st.Procs[1], Funcs: funcs}
	for _, e := range exprs {
		if e == nil {
			continue
		}
		if ok, err := e.Holds(env); err != nil || !ok {
			return false
		}
	}
	return true
}

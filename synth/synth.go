package synth

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
)

// Options configure a synthesis run.
type Options struct {
	Workers      int           // parallel workers (0: number of CPUs)
	Timeout      time.Duration // budget of each cover and each check of a pair (0: none)
	CheckTimeout time.Duration // budget per solver check (0: allsat's default)
	Rlimit       uint64        // Z3 resource limit per solver check (0: none)
	// Budget bounds the Z3 resources of each cover of a pair, and of
	// each check of one, all its solver checks together (0: none;
	// allsat.Options.Budget): unlike Timeout, the IC file it gives is the
	// same on every machine and under any load.
	Budget uint64
	// Encoding is how F(a,b) is built (the zero value: encode.Merged).
	Encoding encode.Encoding
	// Guard is the kind of overflow guard written (the zero value:
	// GuardInterval).
	Guard GuardKind
	// Shard, when its Count is set, limits the run to one part of the
	// pairs ([Split]): the file holds that part's pairs alone and says
	// which (ic.File.Shard); ic.Merge makes the whole file of the parts.
	Shard Shard
	// Progress, when set, is called after each pair (from one goroutine at
	// a time) with the number of pairs done and the total.
	Progress func(done, total int)
	_        struct{}
}

// solver returns the bounds of one cover or check of a pair.
func (o Options) solver() allsat.Options {
	return allsat.Options{Timeout: o.Timeout, CheckTimeout: o.CheckTimeout, Rlimit: o.Rlimit, Budget: o.Budget}
}

// Stats summarize a run.
type Stats struct {
	Pairs                                        int
	Independent, Conditional, Dependent, Unknown int
	Exact                                        int
	Constraints                                  int
	Checks                                       int
	Spent                                        uint64 // Z3 resources, in Options.Budget's units
	Elapsed                                      time.Duration
	PairTimes                                    []time.Duration // by pair index
	PairSpent                                    []uint64        // by pair index, in Options.Budget's units
}

// Count sets the counts of pairs by status, the exact pairs and the
// constraints from pairs.
func (st *Stats) Count(pairs []ic.Pair) {
	st.Independent, st.Conditional, st.Dependent, st.Unknown, st.Exact, st.Constraints = 0, 0, 0, 0, 0, 0
	for _, pr := range pairs {
		switch pr.Status {
		case ic.Independent:
			st.Independent++
		case ic.Conditional:
			st.Conditional++
		case ic.Dependent:
			st.Dependent++
		default:
			st.Unknown++
		}
		if pr.Exact {
			st.Exact++
		}
		st.Constraints += len(pr.Constraints)
	}
}

// work is what the covers of a pair cost the solver.
type work struct {
	checks int
	spent  uint64
}

func (w *work) add(r *allsat.Result) {
	w.checks += r.Checks
	w.spent += r.Spent
}

// Run synthesizes the IC file of a program. It stops early with ctx's error
// when ctx is cancelled. An error means the tool failed (the solver could
// not be used); problems of single pairs are recorded in the file as
// unknown pairs with their reason.
func Run(ctx context.Context, p *lang.Program, opts Options) (*ic.File, *Stats, error) {
	start := time.Now()
	f, err := skeleton(p)
	if err != nil {
		return nil, nil, err
	}
	type job struct{ i, a, b int }
	var jobs []job
	pos := ic.PairPositions(len(p.Blocks))
	mine := make([]int, len(pos))
	for k := range mine {
		mine[k] = k
	}
	if opts.Shard.Count > 0 {
		if err := opts.Shard.Check(); err != nil {
			return nil, nil, err
		}
		mine = Split(p, opts.Shard.Count, opts.Encoding)[opts.Shard.Index-1]
		f.Shard = &ic.Shard{Index: opts.Shard.Index, Count: opts.Shard.Count, Total: len(pos), Pairs: append([]int{}, mine...), Options: opts.shardOptions()}
	}
	for _, k := range mine {
		jobs = append(jobs, job{len(jobs), pos[k][0], pos[k][1]})
	}
	pairs := make([]ic.Pair, len(jobs))
	fns := make([]map[string]*ts.Fn, len(jobs))
	times := make([]time.Duration, len(jobs))
	costs := make([]work, len(jobs))
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	if workers > len(jobs) {
		workers = len(jobs)
	}
	work := make(chan job)
	var mu sync.Mutex
	var firstErr error
	done := 0
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			syms := ts.NewSymbols(p) // symbols are per worker: terms never cross goroutines
			for jb := range work {
				t0 := time.Now()
				pr, used, cost, err := safePair(p.Blocks[jb.a], p.Blocks[jb.b], syms, p.Invariants, opts)
				times[jb.i], costs[jb.i] = time.Since(t0), cost
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				pairs[jb.i], fns[jb.i] = pr, used
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, jb := range jobs {
		select {
		case work <- jb:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if firstErr != nil {
		return nil, nil, firstErr
	}
	f.Pairs = pairs
	f.Functions = functions(fns)
	st := &Stats{Pairs: len(pairs), Elapsed: time.Since(start), PairTimes: times, PairSpent: make([]uint64, len(pairs))}
	st.Count(pairs)
	for i := range pairs {
		st.Checks += costs[i].checks
		st.Spent += costs[i].spent
		st.PairSpent[i] = costs[i].spent
	}
	return f, st, nil
}

// safePair is pair with a panic turned into an error naming the pair: a
// bug in one pair must not take the process down without a word.
func safePair(a, b *lang.Block, syms *ts.Symbols, invs []*lang.Invariant, opts Options) (pr ic.Pair, used map[string]*ts.Fn, cost work, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pair (%s, %s): internal error: %v\n%s", a.ID, b.ID, r, debug.Stack())
		}
	}()
	return pair(a, b, syms, invs, opts)
}

// skeleton is ic.Skeleton with the program's invariants.
func skeleton(p *lang.Program) (*ic.File, error) {
	f := ic.Skeleton(p)
	invs, err := Invariants(p)
	if err != nil {
		return nil, err
	}
	f.Invariants = invs
	return f, nil
}

// Invariants returns the program's invariants as an IC file holds them
// (ic.File.Invariants), in declaration order.
func Invariants(p *lang.Program) ([]ic.Constraint, error) {
	var out []ic.Constraint
	syms := ts.NewSymbols(p)
	for _, inv := range p.Invariants {
		g := ts.NewGraph()
		e, err := allsat.ToExpr(g.Tree(encode.Cond(g, inv.Cond, syms, false)))
		if err != nil {
			return nil, fmt.Errorf("%s: invariant not expressible in an IC file: %v", inv.Pos, err)
		}
		out = append(out, ic.NewConstraint(e))
	}
	return out, nil
}

// pair synthesizes the constraints of one pair. Its overflow guard is
// written before the cover: a pair whose guard cannot be written is
// unknown, and is not covered only for its constraints to be dropped.
func pair(a, b *lang.Block, syms *ts.Symbols, invs []*lang.Invariant, opts Options) (ic.Pair, map[string]*ts.Fn, work, error) {
	var cost work
	fm := encode.Build(opts.Encoding, a, b, syms, invs...)
	out := ic.Pair{A: a.ID, B: b.ID, Constraints: []ic.Constraint{}, Notes: fm.Inexact}
	gd := guardOf(fm, opts.Guard)
	if gd.reason != "" && fm.Trivial() != -1 {
		out.Status, out.Reason = ic.Unknown, gd.reason
		return out, fm.Fns(), cost, nil
	}
	res, err := allsat.Cover(fm, opts.solver())
	if err != nil {
		return out, nil, cost, fmt.Errorf("pair (%s, %s): %v", a.ID, b.ID, err)
	}
	cost.add(res)
	if !res.Complete && fm.Encoding() == encode.Merged {
		// The merged formula's finer atoms can leave the solver undecided
		// where the path formula's cover completes: never end worse than
		// the path encoding when it can be built (and its guard written).
		if fp := encode.Pair(a, b, syms, invs...); fp.Unknown == "" {
			if gp := guardOf(fp, opts.Guard); gp.reason == "" || fp.Trivial() == -1 {
				rp, err := allsat.Cover(fp, opts.solver())
				if err != nil {
					return out, nil, cost, fmt.Errorf("pair (%s, %s): %v", a.ID, b.ID, err)
				}
				cost.add(rp)
				if rp.Complete {
					fm, res, gd = fp, rp, gp
					out.Notes = append(append([]string(nil), fm.Inexact...), "covered with the path encoding (the merged cover was incomplete)")
				}
			}
		}
	}
	out.Constraints = append([]ic.Constraint{}, res.Constraints...) // a list, never null
	switch {
	case !res.Complete:
		out.Status, out.Reason = ic.Unknown, res.Reason
	case len(res.Constraints) == 1 && res.Constraints[0].Text == "true":
		out.Status = ic.Independent
	case len(res.Constraints) == 0:
		out.Status = ic.Dependent
	default:
		out.Status = ic.Conditional
	}
	out.Exact = res.Complete && fm.Exact
	// F may hold in less than where the pair commutes, which a solver
	// decides: then the constraints are sufficient, not exact.
	for _, c := range []struct {
		may   bool
		check func(*encode.Formula, allsat.Options) (*allsat.Checked, error)
		note  string
	}{
		// The orders may end equal modulo process naming where F does not
		// hold.
		{swappable(fm), allsat.CheckSwapped, "the two processes may end swapped (states equal modulo process naming where no constraint holds)"},
		// F asks both orders to keep the invariants: where they break one
		// alike the pair commutes.
		{fm.Kept, allsat.CheckKept, "an order may break an invariant (the constraints ask both to keep them, and orders that break one alike commute)"},
	} {
		if !out.Exact || !c.may {
			continue
		}
		chk, err := c.check(fm, opts.solver())
		if err != nil {
			return out, nil, cost, fmt.Errorf("pair (%s, %s): %v", a.ID, b.ID, err)
		}
		if chk.Verdict != allsat.Proven {
			out.Exact = false
			out.Notes = append(out.Notes, c.note)
		}
	}
	setGuard(&out, gd)
	return out, fm.Fns(), cost, nil
}

// swappable reports whether the two orders may end in states equal modulo
// process naming other than where F holds.
func swappable(fm *encode.Formula) bool {
	return !fm.Graph.IsFalse(fm.Swapped) && fm.Swapped != fm.F
}

func fnKind(k ts.FnKind) string {
	switch k {
	case ts.FnOK:
		return ic.FnOK
	case ts.FnSpawns:
		return ic.FnSpawns
	}
	return ic.FnValue
}

// functions lists the uninterpreted functions the pairs use, by name.
func functions(fns []map[string]*ts.Fn) []ic.Function {
	all := map[string]*ts.Fn{}
	for _, m := range fns {
		for k, f := range m {
			all[k] = f
		}
	}
	var out []ic.Function
	for _, f := range all {
		out = append(out, function(f))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// function is the entry of an IC file's functions table for f.
func function(f *ts.Fn) ic.Function {
	fn := ic.Function{Name: f.Name, Kind: fnKind(f.Kind), Proc: f.Owner, Line: f.Line, Col: f.Col, Ins: []string{}}
	if f.Kind == ts.FnValue {
		fn.Out = f.VarName(f.Out)
	}
	for _, v := range f.Ins {
		fn.Ins = append(fn.Ins, f.VarName(v))
	}
	return fn
}

// Functions returns every function an IC file of the program may declare
// (ts.LoopFns), sorted by name, as its functions table holds them: the
// functions of a synthesized file are among them, entry for entry.
func Functions(p *lang.Program) []ic.Function {
	var out []ic.Function
	for _, f := range ts.LoopFns(p) {
		out = append(out, function(f))
	}
	return out
}

package dporrt

import (
	"context"
	"fmt"
	"strings"

	"github.com/icgen/icgen/interp"
)

// Algorithm names an exploration algorithm: a row of [Algorithms].
type Algorithm string

// The algorithms behind Explore. Their properties are in [Algorithms];
// nothing else in icgen decides by an algorithm's name.
const (
	DFS    Algorithm = "dfs"
	SDPOR  Algorithm = "sdpor"
	CSDPOR Algorithm = "csdpor"
	CDPOR  Algorithm = "cdpor"
	ODPOR  Algorithm = "odpor"
	ODPOB  Algorithm = "odpor-ob"
	ODPCS  Algorithm = "odpor-cs"
	ODPCSO Algorithm = "odpor-cs-ob"
	CODPOR Algorithm = "codpor"
	CODPOB Algorithm = "codpor-ob"
)

// Loop is the exploration loop an algorithm runs on.
type Loop int

// The loops.
const (
	// LoopDFS explores every interleaving: the oracle.
	LoopDFS Loop = iota
	// LoopSource explores from back (source) sets and sleep sets
	// (Source-DPOR, POPL'14 and JACM'17 Alg. 1; CAV'18 Alg. 1).
	LoopSource
	// LoopOptimal explores wakeup trees (Optimal DPOR, POPL'14 and JACM'17
	// Alg. 2; ISSTA'19 Alg. 1 and 2).
	LoopOptimal
)

func (l Loop) String() string { return [...]string{"dfs", "source", "optimal"}[l] }

// Check is what an algorithm does with a race besides reversing it.
type Check int

// The checks.
const (
	// CheckNone reverses every race of the dependency.
	CheckNone Check = iota
	// CheckState runs the reversed order and compares the states it
	// reaches (context-sensitive DPOR, CAV'17): a reversal that ends where
	// the explored order does is not explored to its end.
	CheckState
	// CheckICs evaluates independence constraints (CAV'18 Alg. 1): one that
	// holds uniformly removes the race; one that holds where the race
	// would be reversed does what CheckState does; pairs that are not exact
	// fall back on CheckState.
	CheckICs
)

func (c Check) String() string { return [...]string{"none", "state", "ics"}[c] }

// Info describes an algorithm. Explore, icgen explore, icgen bench and the
// tests read these rows, so an algorithm is added in one place.
type Info struct {
	Name  Algorithm
	Loop  Loop
	Check Check
	// Observers makes two writes of a location dependent only when a later
	// event reads what they wrote (TACAS'18): the algorithm preserves the
	// violations and the values read, not every final state (with
	// Options.ObserveFinal, a last event reads every global).
	Observers bool
	// NeedsICs: the algorithm uses an IC file (without one, cdpor is its
	// loop with CheckNone, and codpor its loop with CheckState: no pair is
	// exact, so every one falls back on the state check).
	NeedsICs bool
	// AtMost names the algorithms this one explores no more complete
	// traces than, on the same program and options: not proven, but
	// checked by the differential tests on every program they run (for an
	// algorithm that uses ICs, when it has them).
	AtMost []Algorithm
	// Parallel says how the algorithm runs on several workers
	// (Options.Workers), if it does.
	Parallel Parallelism
	// Paper is the paper and algorithm it implements; Promise what it
	// explores and preserves, in a line.
	Paper   string
	Promise string
}

// Parallelism is how an algorithm runs on several workers.
type Parallelism int

const (
	// Serial: on one worker only.
	Serial Parallelism = iota
	// FixedSplit: every worker explores the same upper tree and claims
	// the subtrees below it (split.go); the result is one worker's in
	// every count, schedule and order.
	FixedSplit
	// SharedSplit: the workers share the upper tree's back sets and claim
	// their entries (share.go); the final states and findings are one
	// worker's, the counts may differ.
	SharedSplit
)

// split returns how Explore runs the algorithm on several workers (valid
// options: the algorithm runs on several).
func (i Info) split() func(context.Context, *interp.Machine, Options, Info) (*Result, error) {
	if i.Parallel == SharedSplit {
		return exploreShared
	}
	return exploreSplit
}

// Algorithms lists the algorithms Explore knows, in a stable order: dfs
// first, then the source loop's, then the optimal loop's.
var Algorithms = []Info{
	{Name: DFS, Loop: LoopDFS, Parallel: FixedSplit,
		Paper:   "exhaustive depth-first search",
		Promise: "every interleaving: the oracle every other algorithm is checked against"},
	{Name: SDPOR, Loop: LoopSource, Parallel: SharedSplit,
		Paper:   "Source-DPOR with source sets and sleep sets (Abdulla et al., POPL'14 / JACM'17, Alg. 1)",
		Promise: "at least one trace per Mazurkiewicz trace, exactly one without awaits; the final states and violations of dfs"},
	{Name: CSDPOR, Loop: LoopSource, Check: CheckState,
		Paper:   "Context-sensitive DPOR (Albert et al., CAV'17): sleep sequences for races whose reversal ends in the same state",
		Promise: "the final states and violations of dfs, in fewer traces where reversed races end in equal states"},
	{Name: CDPOR, Loop: LoopSource, Check: CheckICs, NeedsICs: true,
		Paper:   "Constrained DPOR (Albert et al., CAV'18, Alg. 1)",
		Promise: "the final states and violations of dfs; races an independence constraint covers are not reversed"},
	{Name: ODPOR, Loop: LoopOptimal,
		Paper:   "Optimal DPOR with wakeup trees (Abdulla et al., POPL'14 / JACM'17, Alg. 2)",
		Promise: "exactly one trace per Mazurkiewicz trace, and no sleep-set-blocked trace without awaits; the final states and violations of dfs"},
	{Name: ODPOB, Loop: LoopOptimal, Observers: true, AtMost: []Algorithm{ODPOR},
		Paper:   "Optimal DPOR with observers (Aronis et al., TACAS'18; ISSTA'19 Fig. 1)",
		Promise: "no more traces than odpor, fewer where writes go unread (not always one per class of traces that read the same values); the violations of dfs, and its final states with --observe-final"},
	{Name: ODPCS, Loop: LoopOptimal, Check: CheckState, AtMost: []Algorithm{ODPOR},
		Paper:   "Optimal context-sensitive DPOR (Albert et al., ISSTA'19, Alg. 1): wakeup trees with don't-do sets",
		Promise: "no more traces than odpor, minus the reversals whose two orders end in the same state; the final states and violations of dfs"},
	{Name: ODPCSO, Loop: LoopOptimal, Check: CheckState, Observers: true, AtMost: []Algorithm{ODPOB},
		Paper:   "Optimal context-sensitive DPOR with observers (Albert et al., ISSTA'19, Alg. 2)",
		Promise: "no more traces than odpor-ob: its reversals, minus those after which every observer sees the same in both orders (one open counterexample with --observe-final: dporrt/testdata/open/cs-ob-forced-bound.blk); the violations of dfs, and its final states with --observe-final"},
	{Name: CODPOR, Loop: LoopOptimal, Check: CheckICs, NeedsICs: true,
		Paper:   "Constrained optimal DPOR: the CAV'18 paper's constraints (Alg. 1) on the ISSTA'19 paper's wakeup trees with don't-do sets (Alg. 1), the integration ISSTA'19 Sec. 6 leaves as future work",
		Promise: "races a constraint shows uniformly independent are no races, and those it covers stop early; the final states and violations of dfs"},
	{Name: CODPOB, Loop: LoopOptimal, Check: CheckICs, Observers: true, NeedsICs: true, AtMost: []Algorithm{ODPOB},
		Paper:   "Constrained optimal DPOR with observers: codpor's constraints on odpor-cs-ob's wakeup trees (ISSTA'19 Alg. 2)",
		Promise: "no more traces than odpor-ob (as odpor-cs-ob, one open counterexample with --observe-final): races a constraint shows uniformly independent are no races, and those after which every observer sees the same stop early; the violations of dfs, and its final states with --observe-final"},
}

// PreservesFinals reports whether the algorithm, run with opts, reaches
// every final state dfs does (not only its violations).
func (i Info) PreservesFinals(opts Options) bool { return !i.Observers || opts.ObserveFinal }

// Lookup returns the row of an algorithm.
func Lookup(name Algorithm) (Info, bool) {
	for _, a := range Algorithms {
		if a.Name == name {
			return a, true
		}
	}
	return Info{}, false
}

// Names lists the algorithms' names, in registry order.
func Names() []string { return NamesWhere(nil) }

// NamesWhere lists, in registry order, the names of the algorithms whose
// row keep accepts (every one for a nil keep).
func NamesWhere(keep func(Info) bool) []string {
	var out []string
	for _, a := range Algorithms {
		if keep == nil || keep(a) {
			out = append(out, string(a.Name))
		}
	}
	return out
}

// assemble gives the explorer the parts the algorithm's row names: its
// loop, its race check (the constraints' when it has an IC file; without
// one the optimal loop's constraint algorithms fall back on the state
// check, the source loop's on none), and how the optimal loop finds races
// (with observers or not). Nothing else decides by the row.
func (x *explorer) assemble(info Info) error {
	x.loop = loops[info.Loop]
	x.finder = plainFinder{}
	if info.Observers {
		x.finder = observedFinder{}
	}
	x.check = noCheck{}
	switch info.Check {
	case CheckState:
		x.check = stateCheck{}
	case CheckICs:
		if x.opts.ICs != nil {
			ics, err := newICIndex(x.m.Prog, x.opts.ICs)
			if err != nil {
				return err
			}
			ics.unguarded = x.opts.AssumeNoOverflow
			if !ics.unguarded {
				// Where no run can overflow, the runs compute over
				// mathematical integers, where a constraint alone shows
				// its pair commuting: U⇒ need ask nothing of the guards.
				ics.unguarded, _ = x.m.OverflowFree()
			}
			x.ics, x.check = ics, icCheck{byState: info.Loop == LoopSource}
			x.blocking = x.m.Prog.HasAwait()
		} else if info.Loop == LoopOptimal {
			x.check = stateCheck{}
		}
	}
	return nil
}

// OptionError is an option of [Options] that does not fit the others:
// Option names the field, Msg says why, after the option's name.
type OptionError struct{ Option, Msg string }

func (e *OptionError) Error() string { return e.Option + " " + e.Msg }

// Validate checks that the options fit together: a known algorithm (the
// zero value is sdpor) and dependency, bounds that are not negative, and
// ObserveFinal, ICs and AssumeNoOverflow only for the algorithms that use
// them. The errors are *OptionError.
func (o Options) Validate() error {
	algo := o.Algo
	if algo == "" {
		algo = SDPOR
	}
	info, ok := Lookup(algo)
	if !ok {
		return &OptionError{"Algo", fmt.Sprintf("%q: want one of %s", algo, strings.Join(Names(), ", "))}
	}
	if o.Dep != Locals && o.Dep != Static {
		return &OptionError{"Dep", fmt.Sprintf("%d: want Locals or Static", int(o.Dep))}
	}
	for _, b := range []struct {
		name string
		neg  bool
	}{{"MaxTraces", o.MaxTraces < 0}, {"MaxStates", o.MaxStates < 0}, {"MaxDepth", o.MaxDepth < 0}, {"Timeout", o.Timeout < 0}, {"Workers", o.Workers < 0}} {
		if b.neg {
			return &OptionError{b.name, "is negative"}
		}
	}
	with := func(keep func(Info) bool) string { return strings.Join(NamesWhere(keep), ", ") }
	observers := func(a Info) bool { return a.Observers }
	usesICs := func(a Info) bool { return a.NeedsICs }
	parallel := func(a Info) bool { return a.Parallel != Serial }
	switch {
	case o.Workers > 1 && info.Parallel == Serial:
		return &OptionError{"Workers", "above 1 is only for the algorithms that split their exploration (" + with(parallel) + ")"}
	case o.Workers > 1 && o.Tree != nil:
		return &OptionError{"Workers", "above 1 records no execution tree (Tree)"}
	case o.ObserveFinal && !info.Observers:
		return &OptionError{"ObserveFinal", "is only used by the algorithms with observers (" + with(observers) + ")"}
	case o.ICs != nil && !info.NeedsICs:
		return &OptionError{"ICs", "is only used by the algorithms that use independence constraints (" + with(usesICs) + ")"}
	case o.AssumeNoOverflow && !info.NeedsICs:
		return &OptionError{"AssumeNoOverflow", "is only used by the algorithms that use independence constraints (" + with(usesICs) + ")"}
	}
	return nil
}

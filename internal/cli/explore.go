package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/icgen/icgen/allsat"
	"github.com/icgen/icgen/audit"
	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/synth"
	"github.com/spf13/cobra"
)

func newExploreCmd(e *env) *cobra.Command {
	var (
		defs         []string
		algo         string
		dep          string
		maxTraces    int
		maxStates    int
		timeout      time.Duration
		stop         bool
		asJSON       bool
		showProgress bool
		icsPath      string
		observeFinal bool
		wholeArrays  bool
		noOverflow   bool
		dotPath      string
		svgPath      string
		jobs         int
	)
	names := dporrt.Names()
	cmd := &cobra.Command{
		Use:   "explore FILE",
		Short: "Explore the interleavings of a program with a DPOR algorithm",
		Long: `Explore the interleavings of a program from its initial state and report the
complete traces, the sleep-set-blocked traces, the states (events executed),
the distinct final states (modulo process naming) and every violation or
runtime error, once per site (its position, and for a runtime error its kind:
overflow, division by zero, ...), with how many times it was seen and a
schedule that reaches the first (replay it with icgen run --replay).

Algorithms (--algo):
` + algorithmsHelp() + `
The algorithms that use independence constraints (` + strings.Join(dporrt.NamesWhere(func(a dporrt.Info) bool { return a.NeedsICs }), ", ") + `) take them from
--ics FILE, or else from the program's proven commute declarations when it
has some, or else synthesize them first; for pairs whose constraints are not
exact they fall back on the state comparison.

` + depHelp() + `
A constraint shows two blocks commute only where the pair's overflow guard
holds too, so a race is uniformly independent (not reversed) only when no
other process may write what the constraint or the guard reads, unless no
run of the program can overflow. The algorithms with constraints try to
prove that first (docs/algorithms.md, "Programs that cannot overflow"):
counters that processes only add to or subtract from are bounded by the
most one run's updates can add, every other global by an interval that
holds in every state, and every operation is checked on those bounds.
Where it is proven (the CDPOR benchmarks Fib, QS, MS, Pi, PS, Reg and DBP
are), the runs compute over mathematical integers, where a constraint
alone shows its pair commuting, the guards ask nothing, and the report says "no overflow possible". Where it is not (a global
that a loop of unbounded length updates, a value that may grow past
int64), counters that many processes update are never uniform. --assume-no-overflow asks it of the
constraint alone in any case, as over mathematical integers (the CAV'18
paper's setting), but a run may then miss an overflow
(testdata/regress/guard-float.blk).
Constraints are proven under the program's invariants: none is applied in
a state where an invariant is broken, and a race is uniform only when no
other process may write what the invariants read either.


With observers (` + strings.Join(dporrt.NamesWhere(func(a dporrt.Info) bool { return a.Observers }), ", ") + `), two writes of a location are dependent only when
a later block reads the second one's value (a block observes every global
it may read: asserts, await guards and invariants included; see
docs/algorithms.md). The violations are those of dfs; final states that
differ only in values nobody reads are not all reached, unless
--observe-final adds a last event that reads every global.

--timeout bounds the whole command from its start: loading, set-up and the
synthesis of the ICs count. When it runs out during synthesis, nothing
is explored and the report says the run stopped early at the timeout, as
when it runs out while exploring. Given with --ics, the IC file must be this program's (same
hash) and consistent as icgen check tests it: each constraint's text,
SMT-LIB form and globals its expression's, each entry of the functions
table the program's loop function of its name, the invariants the
program's; otherwise explore refuses it (exit 2), naming each entry.

Several cores: -j N splits a dfs or sdpor exploration among N workers
(the report says how the workers shared the tasks). dfs: the levels above
a split depth are explored by every worker; the sequences that reach that
depth are the tasks, each explored below by the first worker to claim it,
and the result is the one-worker result in every count and schedule.
sdpor: the races found below a level add to what the levels above
explore, so the workers share those levels' back sets and claim their
branches; the final states and violations are the one-worker ones, the
counts may differ (a race adds a process by what the shared level holds
when it is found). The other algorithms explore on one core. With -j,
--max-traces and --max-states are checked against the finished tasks and
the worker's own, so a run may pass them by what the other workers' tasks
under way add; --stop-on-violation reports the violation one worker stops
at (dfs: the one -j 1 reports), the other counts being those of a cut run.

Progress: on a terminal, stderr shows a line redrawn in place with the
traces and states so far and their rates, and an estimate of the part of
the exploration done and of the time left. The estimate comes from the
branches seen so far along the current path and the sizes of those
explored: the algorithms find branches as they go, so it can go down as
well as up, and it is marked as an estimate. --json turns the line off;
--progress shows it in any case, as plain lines, one a second, where
stderr is not a terminal. stdout is never touched.

--json prints one object: file, params, algo, dependency, whole_arrays,
assume_no_overflow (when given), overflow_free (when proven, with
constraints), traces (complete), blocked, covered
(don't-do stops), states (events executed), max_dnd (MD), longest (the
events of the longest sequence: MS - 1), final_states, final_states_all
(they are all of dfs's: false with observers without --observe-final, with
--assume-no-overflow, or when the run stopped early), seconds, memory_mib,
stopped_early (when it did: timeout, max states, ...) and findings (each
with kind: violation, invariant or runtime-error; file, line, col,
message, process, block, schedule, count). A program's errors are
{file, errors: [{file, line, col, message}]}; any other error, a usage
error too, is {error, exit_code}.

` + outputFilesHelp + `

Exit code 1 when a violation or runtime error was found, 130 when
interrupted (nothing is written then).`,
		Example: `  icgen explore testdata/fig1.blk
  icgen explore --algo dfs -D z=-1 testdata/fig1.blk
  icgen explore --dep static --max-states 100000 testdata/fib.blk
  icgen explore --algo odpor -D N=5 testdata/bench/lastzero.blk
  icgen explore --algo cdpor testdata/fig1.blk
  icgen explore --algo odpor-ob --observe-final testdata/issta19.blk
  icgen explore --algo csdpor testdata/fig1.blk
  icgen synth -o fib.ic.json testdata/bench/fib.blk && icgen explore --algo cdpor --ics fib.ic.json -D N=8 testdata/bench/fib.blk
  icgen explore --algo codpor --assume-no-overflow -D N=8 testdata/bench/fib.blk
  icgen explore --json testdata/prodcons.blk
  icgen explore --progress --algo sdpor -D N=7 testdata/bench/fib.blk 2> progress.log
  icgen explore --algo cdpor --dot fig1.dot --svg fig1.svg testdata/fig1.blk
  icgen explore --algo dfs -j 2 -D N=5 testdata/bench/lastzero.blk`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// --timeout bounds the whole command: loading, synthesis of
			// the ICs and exploration.
			start := time.Now()
			opts := dporrt.Options{Algo: dporrt.Algorithm(algo), MaxTraces: maxTraces, MaxStates: maxStates, StopOnViolation: stop,
				ObserveFinal: observeFinal, WholeArrays: wholeArrays, AssumeNoOverflow: noOverflow, Workers: jobs}
			if jobs == 0 {
				opts.Workers = runtime.NumCPU()
			}
			d, err := dporrt.ParseDep(dep)
			if err != nil {
				return badInput("--dep %q: want locals or static", dep)
			}
			opts.Dep = d
			info, ok := dporrt.Lookup(opts.Algo)
			if !ok { // "" too, which Validate takes for sdpor
				return badInput("--algo %q: want one of %s", algo, strings.Join(names, ", "))
			}
			if asJSON && (dotPath == "-" || svgPath == "-") {
				return badInput("--json and --%s - both write to stdout: give the tree a file", map[bool]string{true: "dot", false: "svg"}[dotPath == "-"])
			}
			if opts.Workers > 1 && (dotPath != "" || svgPath != "") {
				return badInput("-j %d with --%s: the execution tree is drawn on one core", opts.Workers, map[bool]string{true: "dot", false: "svg"}[dotPath != ""])
			}
			// The ICs are read later: a stand-in tells Validate one is given.
			check := opts
			if icsPath != "" {
				check.ICs = &ic.File{}
			}
			if err := check.Validate(); err != nil {
				var oe *dporrt.OptionError
				if errors.As(err, &oe) {
					flag, ok := optionFlags[oe.Option]
					if !ok {
						flag = oe.Option
					}
					return badInput("%s %s", flag, oe.Msg)
				}
				return badInput("%v", err)
			}
			dot, err := prepareOutput("--dot", dotPath, args[0], icsPath)
			if err != nil {
				return err
			}
			svg, err := prepareOutput("--svg", svgPath, args[0], icsPath)
			if err != nil {
				return err
			}
			if err := distinctOutputs(dot, svg); err != nil {
				return err
			}
			ctx, stopSignals := interruptible(cmd.Context())
			defer stopSignals()
			bounded := ctx // ctx with the --timeout deadline
			deadline := start.Add(timeout)
			if timeout > 0 {
				var cancel context.CancelFunc
				bounded, cancel = context.WithDeadlineCause(ctx, deadline, errTimedOut)
				defer cancel()
			}
			l, m, err := e.loadMachine(args[0], defs, asJSON)
			if err != nil {
				return err
			}
			for _, g := range m.Prog.Globals {
				if g.Unbounded() {
					return badInput("%s: the unbounded array %s is not supported by explore (its accesses have no locations to compare)", g.Pos, g.Name)
				}
			}
			// Progress on stderr: on a terminal unless --json, anywhere
			// with --progress.
			prog := e.newProgress(!asJSON, showProgress)
			defer prog.done()
			var res *dporrt.Result
			if info.NeedsICs {
				opts.ICs, err = e.exploreICs(bounded, l, icsPath, timeout, prog)
				prog.clear()
				switch {
				case errors.Is(err, errTimedOut):
					fmt.Fprintf(e.stderr, "icgen: --timeout %s ran out while synthesizing the ICs: nothing was explored\n", timeout)
					res = &dporrt.Result{Dep: opts.Dep, Cut: true, CutBy: "timeout"}
				case err != nil:
					return toolFailed(ctx, err, "interrupted: nothing explored")
				}
			}
			if res == nil && timeout > 0 {
				if opts.Timeout = time.Until(deadline); opts.Timeout <= 0 {
					res = &dporrt.Result{Dep: opts.Dep, Cut: true, CutBy: "timeout"}
				}
			}
			if res == nil && prog != nil {
				opts.Progress = func(s dporrt.Stats) { prog.update(exploreLine(s)) }
			}
			if dot != nil || svg != nil {
				opts.Tree = &dporrt.Tree{}
			}
			if res == nil {
				res, err = await(ctx, func() (*dporrt.Result, error) { return dporrt.Explore(ctx, m, opts) })
				prog.done()
				if err != nil {
					return toolFailed(ctx, err, "interrupted: nothing written")
				}
			}
			// Peak memory: the process's peak resident set where the
			// system tells it, else the heap obtained from the system.
			peak := uint64(peakRSSMiB() * (1 << 20))
			if peak == 0 {
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				peak = after.HeapSys
			}
			if opts.Tree != nil {
				title := fmt.Sprintf("%s: %s, %d complete, %d blocked, %d states", l.path, opts.Algo, res.Traces, res.Blocked, res.States)
				if err := writeTreeFiles(e, opts.Tree, title, dot, svg); err != nil {
					return err
				}
			}
			switch {
			case dotPath == "-" || svgPath == "-":
				// stdout carries the tree
			case asJSON:
				writeJSON(e.stdout, exploreJSON(l, m, opts, res, peak))
			default:
				writeExplore(e, l, m, opts, res, peak)
			}
			if len(res.Findings) > 0 {
				return findings()
			}
			return nil
		},
	}
	f := cmd.Flags()
	defineFlag(f, &defs)
	f.StringVar(&algo, "algo", "sdpor", "algorithm: "+strings.Join(names, ", "))
	f.StringVar(&dep, "dep", "locals", "dependency: locals (what a block can touch with its process's locals) or static (the blocks' syntactic sets)")
	f.IntVar(&maxTraces, "max-traces", 0, "stop after this many complete traces (0: no bound)")
	f.IntVar(&maxStates, "max-states", 0, "stop after this many states (0: no bound); memory then stays in proportion to it (the explored sequence is at most this long), plus at most 256 MiB of final states and 256 MiB of state copies")
	f.DurationVar(&timeout, "timeout", 0, "stop after this long, counted from the start: loading and IC synthesis included (0: no bound)")
	f.BoolVar(&stop, "stop-on-violation", false, "stop at the first violation or runtime error")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.BoolVar(&showProgress, "progress", false, "show progress on stderr even where it is not a terminal (plain lines, one a second) or with --json")
	f.StringVar(&icsPath, "ics", "", "IC file for the algorithms that use independence constraints (default: the program's proven commute declarations, else the ICs synthesized first)")
	f.BoolVar(&wholeArrays, "whole-arrays", false, "static dependency: every array is one location (default: the cells of fixed indices apart)")
	f.BoolVar(&noOverflow, "assume-no-overflow", false, "with independence constraints: uniformity asks nothing of the overflow guards' globals, as over mathematical integers, even where no proof says no run overflows (then it may miss overflows)")
	f.BoolVar(&observeFinal, "observe-final", false, "with observers: a virtual last event reads every global, so the final states are preserved too")
	f.StringVar(&dotPath, "dot", "", "write the explored execution tree as Graphviz DOT to this file (- for stdout); see Output files")
	f.StringVar(&svgPath, "svg", "", "write the explored execution tree as SVG to this file (needs Graphviz)")
	f.IntVarP(&jobs, "jobs", "j", 1, "explore on this many cores (0: all), for "+strings.Join(dporrt.NamesWhere(func(a dporrt.Info) bool { return a.Parallel != dporrt.Serial }), " and ")+"; see Several cores")
	return cmd
}

// errTimedOut is the cause of a context whose --timeout deadline passed.
var errTimedOut = errors.New("timed out")

// optionFlags names the flag of each option dporrt.Options.Validate
// may refuse.
var optionFlags = map[string]string{
	"Algo": "--algo", "Dep": "--dep", "Workers": "-j", "MaxTraces": "--max-traces", "MaxStates": "--max-states",
	"Timeout": "--timeout", "ObserveFinal": "--observe-final",
	"ICs": "--ics", "AssumeNoOverflow": "--assume-no-overflow",
}

// exploreICs gives cdpor its ICs: the IC file at path, refused when made
// for another program or when a constraint's written forms disagree with
// its expression; else the program's proven commute declarations, when it
// has some; else the ICs synthesized now. Synthesis stops when ctx is done
// (an interrupt, or the --timeout deadline, each pair bounded by timeout
// when it is set), with context.Cause(ctx).
func (e *env) exploreICs(ctx context.Context, l *loaded, path string, timeout time.Duration, prog *progress) (*ic.File, error) {
	if path != "" {
		f, err := readICs(l, path)
		if err != nil {
			return nil, err
		}
		if err := consistentICs(l, path, f); err != nil {
			return nil, err
		}
		return f, nil
	}
	opts := synth.Options{Timeout: timeout}
	if len(l.prog.Commutes) > 0 {
		rs, err := await(ctx, func() ([]synth.DeclaredResult, error) { return synth.Declared(ctx, l.prog, opts) })
		if err != nil {
			return nil, err
		}
		proven := 0
		for _, r := range rs {
			if r.Verdict == allsat.Proven {
				proven++
			}
		}
		fmt.Fprintf(e.stderr, "icgen: using the %d proven commute declaration%s of %s (%d not proven: see icgen check); other pairs are dependent\n",
			proven, plural(proven), l.path, len(rs)-proven)
		f, err := synth.DeclaredFile(l.prog, rs)
		if err != nil {
			return nil, &exitError{code: ExitInternal, err: err}
		}
		return f, nil
	}
	if prog != nil {
		opts.Progress = func(done, total int) { prog.update(fmt.Sprintf("synthesizing the ICs: %d/%d pairs", done, total)) }
	}
	return await(ctx, func() (*ic.File, error) {
		f, _, err := synth.Run(ctx, l.prog, opts)
		return f, err
	})
}

// readICs reads the IC file at path, refusing one made for another
// version of the program.
func readICs(l *loaded, path string) (*ic.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("%v", unwrapPathError(err))
	}
	f, err := ic.Parse(data)
	if err != nil {
		return nil, badInput("%s: %v", path, err)
	}
	if f.Shard != nil {
		return nil, badInput("%s is %v of a sharded synthesis, with %d of the %d pairs: merge the parts with icgen merge", path, f.Shard, len(f.Pairs), f.Shard.Total)
	}
	if f.Hash != l.prog.Hash && f.Program != "" && filepath.Base(f.Program) != filepath.Base(l.path) {
		return nil, badInput("%s was made for %s, not %s: run icgen synth on %s", path, f.Program, l.path, l.path)
	}
	if f.Hash == "" {
		return nil, badInput("%s names no program hash, so it cannot be checked against %s: run icgen synth on it", path, l.path)
	}
	if f.Hash != l.prog.Hash {
		return nil, badInput("%s was made for another version of %s (its hash %.12s, the program's %.12s): run icgen synth again", path, l.path, f.Hash, l.prog.Hash)
	}
	return f, nil
}

// consistentICs refuses an IC file that does not say what the program
// says (audit.Mismatches, which icgen check reports as findings): a
// constraint whose text, SMT-LIB form or globals are not its expression's
// (explore evaluates the expression, and its uniformity check reads the
// globals, while a reader trusts the text), a function whose entry names
// another loop than the one its constraints were proven of (explore runs
// the loop the entry names), or invariants that are not the program's.
func consistentICs(l *loaded, path string, f *ic.File) error {
	ms := audit.Mismatches(l.prog, f)
	if len(ms) == 0 {
		return nil
	}
	bad := make([]string, len(ms))
	for i, m := range ms {
		bad[i] = "  " + m.String()
	}
	return badInput("%s: %d inconsistent entr%s, which explore would trust:\n%s\nicgen: run icgen check --ics %s %s for a full check, or icgen synth again",
		path, len(ms), map[bool]string{true: "y", false: "ies"}[len(ms) == 1], strings.Join(bad, "\n"), path, l.path)
}

func writeExplore(e *env, l *loaded, m *interp.Machine, opts dporrt.Options, r *dporrt.Result, peak uint64) {
	w := e.stdout
	params := ""
	if ps := m.ParamString(); ps != "" {
		params = " with " + ps
	}
	dep := r.Dep.String() + " dependency"
	if wholeArrays(opts) {
		dep += ", whole arrays"
	}
	if opts.AssumeNoOverflow {
		dep += ", assuming no overflow"
	} else if overflowFree(m, opts) {
		dep += ", no overflow possible"
	}
	fmt.Fprintf(w, "%s%s: %s (%s)\n", l.path, params, opts.Algo, dep)
	fmt.Fprintf(w, "  complete traces   %d\n", r.Traces)
	fmt.Fprintf(w, "  blocked traces    %d\n", r.Blocked)
	if info, _ := dporrt.Lookup(opts.Algo); info.Check != dporrt.CheckNone && info.Loop == dporrt.LoopOptimal {
		fmt.Fprintf(w, "  covered stops     %d (sequences a don't-do entry stopped: they end where explored ones do)\n", r.Covered)
		fmt.Fprintf(w, "  don't-do entries  %d at most along a sequence (MD)\n", r.MaxDnD)
	}
	fmt.Fprintf(w, "  states            %d (events executed; MS, the states of the longest sequence with the initial one: %d)\n", r.States, r.Longest+1)
	switch {
	case r.Cut:
		fmt.Fprintf(w, "  final states      %d (of the traces explored before the stop)\n", r.FinalCount)
	case opts.AssumeNoOverflow:
		fmt.Fprintf(w, "  final states      %d (--assume-no-overflow: an order that overflows may be missed, and the final states past it)\n", r.FinalCount)
	case finalsPreserved(opts):
		fmt.Fprintf(w, "  final states      %d\n", r.FinalCount)
	default:
		fmt.Fprintf(w, "  final states      %d (of the traces explored: observers preserve the violations, not every final state; see --observe-final)\n", r.FinalCount)
	}
	if sp := r.Split; sp != nil {
		where := fmt.Sprintf("at depth %d", sp.Depth)
		if sp.Shared {
			where = fmt.Sprintf("in the shared levels (above depth %d, and those published)", sp.Depth)
		}
		fmt.Fprintf(w, "  workers           %d: %d tasks %s, taken %s\n", len(sp.Workers), sp.Tasks, where, workerShares(sp))
	}
	fmt.Fprintf(w, "  time              %s\n", r.Elapsed.Round(time.Microsecond))
	fmt.Fprintf(w, "  peak memory       %.1f MiB (resident set)\n", float64(peak)/(1<<20))
	if r.Cut {
		fmt.Fprintf(w, "  stopped early     %s: the exploration is not exhaustive\n", r.CutBy)
	}
	if len(r.Findings) == 0 {
		if r.Cut {
			fmt.Fprintln(w, "no violations in the part explored")
		} else {
			fmt.Fprintln(w, "no violations")
		}
		return
	}
	fmt.Fprintf(w, "%d finding%s:\n", len(r.Findings), plural(len(r.Findings)))
	for _, f := range r.Findings {
		switch {
		case f.Violation != nil:
			v := f.Violation
			fmt.Fprint(w, l.caret(v.Pos, fmt.Sprintf("%s (%s, block %s)", v.Headline(), v.Proc, v.Block)))
		case f.Error != nil:
			fmt.Fprint(w, l.caret(f.Error.Pos, fmt.Sprintf("runtime error: %s (%s, block %s)", f.Error.Msg, f.Error.Proc, f.Error.Block)))
		}
		sched := f.Schedule.String()
		if len(f.Schedule) == 0 {
			sched = "(in init, before any process runs)"
		}
		if f.Count > 1 {
			fmt.Fprintf(w, "    seen %d times; the first:\n", f.Count)
		}
		fmt.Fprintf(w, "    schedule: %s\n", sched)
	}
}

func exploreJSON(l *loaded, m *interp.Machine, opts dporrt.Options, r *dporrt.Result, peak uint64) any {
	type findingJSON struct {
		Kind string `json:"kind"`
		diagJSON
		Process  string `json:"process"`
		Block    string `json:"block"`
		Schedule string `json:"schedule"`
		Count    int    `json:"count"`
	}
	out := struct {
		File   string           `json:"file"`
		Params map[string]int64 `json:"params"`
		Algo   string           `json:"algo"`
		Dep    string           `json:"dependency"`
		Whole  bool             `json:"whole_arrays"` // the static dependency took arrays whole
		// NoOverflow: --assume-no-overflow (uniformity ignored the
		// overflow guards); absent when not given.
		NoOverflow bool `json:"assume_no_overflow,omitempty"`
		// OverflowFree: no run of the program can overflow (proven), so
		// the overflow guards asked nothing of uniformity; absent
		// otherwise, and for algorithms without constraints.
		OverflowFree bool `json:"overflow_free,omitempty"`
		Traces       int  `json:"traces"`
		Blocked      int  `json:"blocked"`
		Covered      int  `json:"covered"`
		States       int  `json:"states"`
		// MaxDnD and Longest: the ISSTA'19 paper's MD and MS - 1.
		MaxDnD  int `json:"max_dnd"`
		Longest int `json:"longest"`
		Finals  int `json:"final_states"`
		// FinalsAll: the final states are all those dfs reaches (false
		// with observers without --observe-final, with
		// --assume-no-overflow, and when the run stopped early).
		FinalsAll bool    `json:"final_states_all"`
		Seconds   float64 `json:"seconds"`
		MemoryMiB float64 `json:"memory_mib"`
		Cut       string  `json:"stopped_early,omitempty"`
		// Split: how -j split the exploration; absent without it.
		Split    *splitJSON    `json:"split,omitempty"`
		Findings []findingJSON `json:"findings"`
	}{Split: splitOf(r), File: l.path, Params: map[string]int64{}, Algo: string(opts.Algo), Dep: r.Dep.String(), Whole: wholeArrays(opts), NoOverflow: opts.AssumeNoOverflow, OverflowFree: overflowFree(m, opts), Traces: r.Traces, Blocked: r.Blocked, Covered: r.Covered, States: r.States,
		MaxDnD: r.MaxDnD, Longest: r.Longest, Finals: r.FinalCount, FinalsAll: finalsPreserved(opts) && !opts.AssumeNoOverflow && !r.Cut, Seconds: r.Elapsed.Seconds(), MemoryMiB: float64(peak) / (1 << 20), Cut: r.CutBy, Findings: []findingJSON{}}
	for _, p := range m.Prog.Params {
		out.Params[p.Name] = m.Param(p)
	}
	for _, f := range r.Findings {
		fj := findingJSON{Schedule: f.Schedule.String(), Count: f.Count}
		if v := f.Violation; v != nil {
			fj.Kind, fj.diagJSON, fj.Process, fj.Block = "violation", diagJSON{v.Pos.File, v.Pos.Line, v.Pos.Col, v.Msg}, v.Proc, v.Block
			if v.Invariant {
				fj.Kind = "invariant"
			}
		} else {
			er := f.Error
			fj.Kind, fj.diagJSON, fj.Process, fj.Block = "runtime-error", diagJSON{er.Pos.File, er.Pos.Line, er.Pos.Col, er.Msg}, er.Proc, er.Block
		}
		out.Findings = append(out.Findings, fj)
	}
	return out
}

// algorithmsHelp describes the algorithms of the registry, a paragraph
// each.
func algorithmsHelp() string {
	var b strings.Builder
	for _, a := range dporrt.Algorithms {
		fmt.Fprintf(&b, "  %s: %s. %s.\n", a.Name, a.Paper, upperFirst(a.Promise))
	}
	return b.String()
}

// depHelp says what the dependencies are and which parts of an algorithm
// keep the blocks' sets.
func depHelp() string {
	return `Every algorithm takes --dep. The default, locals, gives each event what
its block can touch when run by its process with the locals it has at the
event's start, whatever the globals hold: a branch or an array index the
locals decide counts one way. --dep static takes the blocks' syntactic
read/write sets, as the papers' tools do (dynamic is an old name of
locals). Neither dependency changes with the values an event reads, which
the reasoning of every algorithm needs (races, sleep sets and wakeup trees
judged in one order and used in another): the locations a block really
touched would not do, and algorithms missed final states with them. The
parts that reason about blocks rather than events (W(b) and the
uniformity check of the constraints, what a process may still read) keep
the blocks' sets under either dependency: see docs/algorithms.md.

The static dependency tells apart the cells of an array that blocks index
at a fixed index: an expression of literals, params and locals the block
does not assign (put(k, v) writing m[k]), known before the block runs. A
block that indexes an array otherwise names the whole array, of any size
in one location. --whole-arrays takes every array as one
location, as the papers' tools do, under either dependency.`
}

// wholeArrays reports whether the run's dependency took every array as one
// location (--whole-arrays).
func wholeArrays(opts dporrt.Options) bool { return opts.WholeArrays }

// finalsPreserved reports whether the run reaches every final state dfs
// does, not only its violations.
// overflowFree reports whether the run used constraints without
// --assume-no-overflow on a program no run of which can overflow (proven:
// interp.Machine.OverflowFree), so that the overflow guards asked nothing.
func overflowFree(m *interp.Machine, opts dporrt.Options) bool {
	info, _ := dporrt.Lookup(opts.Algo)
	if !info.NeedsICs || opts.AssumeNoOverflow {
		return false
	}
	ok, _ := m.OverflowFree()
	return ok
}

func finalsPreserved(opts dporrt.Options) bool {
	info, _ := dporrt.Lookup(opts.Algo)
	return info.PreservesFinals(opts)
}

// exploreLine is the progress line of an exploration: the counts, their
// rates, and the explorer's estimate of the part done with the time left
// at the rate so far, both marked as estimates.
func exploreLine(s dporrt.Stats) string {
	line := fmt.Sprintf("exploring: %d traces (%.0f/s), %d states (%.0f/s), %s",
		s.Traces, rate(s.Traces, s.Elapsed), s.States, rate(s.States, s.Elapsed), span(s.Elapsed))
	f := min(max(s.Estimate, 0), 1)
	if f <= 0 {
		return line + "; no estimate yet"
	}
	pct := "~" + strconv.FormatFloat(100*f, 'f', 0, 64)
	switch {
	case f < 0.0001:
		pct = "<0.01"
	case f < 0.1:
		pct = "~" + strconv.FormatFloat(100*f, 'g', 2, 64)
	}
	eta := "over 100 days"
	if left := float64(s.Elapsed) * (1 - f) / f; left <= float64(100*24*time.Hour) {
		eta = "~" + span(time.Duration(left))
	}
	return fmt.Sprintf("%s; %s%% done, ETA %s (estimate)", line, pct, eta)
}

// splitJSON is a split exploration in explore --json: the split depth, the
// tasks met there, and per worker the tasks it took and the traces and
// states below them.
type splitJSON struct {
	Depth int `json:"depth"`
	Tasks int `json:"tasks"`
	// Shared: the levels above depth are shared and the tasks are their
	// branches; the workers' counts include those levels' states.
	Shared  bool         `json:"shared,omitempty"`
	Workers []workerJSON `json:"workers"`
}

type workerJSON struct {
	Tasks  int `json:"tasks"`
	Traces int `json:"traces"`
	States int `json:"states"`
}

func splitOf(r *dporrt.Result) *splitJSON {
	if r.Split == nil {
		return nil
	}
	out := &splitJSON{Depth: r.Split.Depth, Tasks: r.Split.Tasks, Shared: r.Split.Shared}
	for _, w := range r.Split.Workers {
		out.Workers = append(out.Workers, workerJSON(w))
	}
	return out
}

// workerShares says how the workers shared the tasks: each one's tasks and
// the part of the states below the split it explored.
func workerShares(sp *dporrt.Split) string {
	total := 0
	for _, w := range sp.Workers {
		total += w.States
	}
	parts := make([]string, len(sp.Workers))
	for i, w := range sp.Workers {
		share := 0.0
		if total > 0 {
			share = 100 * float64(w.States) / float64(total)
		}
		parts[i] = fmt.Sprintf("%d (%.0f%% of the states)", w.Tasks, share)
	}
	return strings.Join(parts, ", ")
}

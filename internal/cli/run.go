package cli

import (
	"bufio"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/spf13/cobra"
)

func newRunCmd(e *env) *cobra.Command {
	var (
		defs      []string
		schedule  string
		seed      uint64
		replay    string
		maxEvents int
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "run FILE",
		Short: "Run one complete interleaving of a program",
		Long: `Run init, then one block of one enabled process at a time until no process is
enabled, and print the final state, the violations (failed asserts), and the
schedule taken. A runtime error (division by zero, index out of bounds, integer
overflow) ends the run. An array of more than 32 elements prints as runs of
equal values: [0 ×5, 1, 0 ×10] (--json prints every element).

-D NAME=VALUE sets a param, or the initial value of a global scalar (applied
before init runs). --replay takes a schedule as printed by run or explore
(process names like "p#1 q#2", or bare ids like "1 2").

--max-events bounds the run as explore bounds a sequence: at ` + strconv.Itoa(dporrt.DefaultMaxDepth) + `
events by default. A program whose processes never all stop (one that
spawns copies of itself) then ends with memory in proportion to the bound,
as each event adds a step to the schedule and may leave processes behind,
not with all the machine has: a fork bomb takes about 130 MiB, 310 MiB
with --json. A run stopped there says it stopped early and is not complete
(--json: status cut, stopped_early); 0 takes the bound away.

Exit code 1 when a violation or runtime error occurred; a run stopped by
--max-events or by the end of --replay with neither exits 0, as explore
stopped by a bound does.`,
		Example: `  icgen run testdata/fig1.blk
  icgen run -D z=-1 testdata/fig1.blk
  icgen run --schedule random --seed 7 -D N=8 testdata/fib.blk
  icgen run --replay "r#3 q#2 p#1" testdata/fig1.blk
  icgen run --json testdata/prodcons.blk`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, m, err := e.loadMachine(args[0], defs, asJSON)
			if err != nil {
				return err
			}
			var policy interp.Policy
			var replayErr *error
			switch {
			case replay != "":
				if cmd.Flags().Changed("schedule") {
					return badInput("--replay and --schedule cannot be used together")
				}
				policy, replayErr = interp.Replay(strings.FieldsFunc(replay, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' }))
			case schedule == "first":
				policy = interp.First
			case schedule == "random":
				policy = interp.Random(seed)
			default:
				return badInput("--schedule %q: want first or random", schedule)
			}
			out := m.Run(policy, maxEvents)
			if replayErr != nil && *replayErr != nil {
				return badInput("--replay: %v", *replayErr)
			}
			if asJSON {
				writeJSON(e.stdout, outcomeJSON(l, m, out, maxEvents))
			} else {
				writeOutcome(e, l, m, out, maxEvents)
			}
			if out.Err != nil || len(out.Final.Violations) > 0 {
				return findings()
			}
			return nil
		},
	}
	f := cmd.Flags()
	defineFlag(f, &defs)
	f.StringVar(&schedule, "schedule", "first", "how to pick the next process: first (oldest enabled) or random")
	f.Uint64Var(&seed, "seed", 1, "seed for --schedule random")
	f.StringVar(&replay, "replay", "", "follow this schedule (process names or ids, space or comma separated)")
	f.IntVar(&maxEvents, "max-events", dporrt.DefaultMaxDepth, "stop after this many events, as explore bounds a sequence (0: no bound)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// globalValue renders a global's value in a state. An array longer than
// shortArray shows each run of equal values as "v ×count" (a run of one as
// v), so a large array with few distinct stretches stays short.
func globalValue(st *interp.State, m *interp.Machine, g *lang.Var) string {
	first, n := m.GlobalLocs(g)
	if g.Unbounded() {
		return sparseText(st.Elements(g))
	}
	switch g.Type {
	case lang.Bool:
		return fmt.Sprint(st.Value(first) != 0)
	case lang.IntArray:
		vals := st.Values(first, n)
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < n; {
			j := i + 1
			if n > shortArray {
				for j < n && vals[j] == vals[i] {
					j++
				}
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.FormatInt(vals[i], 10))
			if j-i > 1 {
				fmt.Fprintf(&b, " ×%d", j-i)
			}
			i = j
		}
		b.WriteByte(']')
		return b.String()
	}
	return fmt.Sprint(st.Value(first))
}

// shortArray is the longest array globalValue shows element by element.
const shortArray = 32

func localValue(v *lang.Var, x int64) string {
	if v.Type == lang.Bool {
		return fmt.Sprint(x != 0)
	}
	return fmt.Sprint(x)
}

// cutBy says why a run stopped before its end: the --max-events bound
// (checked before the policy is asked for the next event) or the end of
// the --replay schedule; "" for a run that went to its end.
func cutBy(out *interp.Outcome, maxEvents int) string {
	switch {
	case !out.Cut:
		return ""
	case maxEvents > 0 && len(out.Events) >= maxEvents:
		return fmt.Sprintf("--max-events %d reached", maxEvents)
	}
	return "the --replay schedule ended"
}

func writeOutcome(e *env, l *loaded, m *interp.Machine, out *interp.Outcome, maxEvents int) {
	bw := bufio.NewWriter(e.stdout)
	defer bw.Flush()
	w := bw
	status := "all processes finished"
	switch {
	case out.Err != nil:
		status = "stopped by a runtime error"
	case out.Cut:
		status = "stopped early (" + cutBy(out, maxEvents) + "): the run is not complete"
	case len(out.Blocked) > 0:
		status = fmt.Sprintf("%d process%s blocked (deadlock)", len(out.Blocked), pluralEs(len(out.Blocked)))
	}
	params := ""
	if ps := m.ParamString(); ps != "" {
		params = " with " + ps
	}
	fmt.Fprintf(w, "%s%s: %d event%s, %s\n", l.path, params, len(out.Events), plural(len(out.Events)), status)
	fmt.Fprintf(w, "schedule: %s\n", out.Schedule)
	for i, st := range out.Schedule {
		fmt.Fprintf(w, "  %3d  %-12s %s\n", i+1, st.Name, st.Block)
	}
	fmt.Fprintln(w, "final state:")
	for _, g := range m.Prog.Globals {
		fmt.Fprintf(w, "  %s = %s\n", g.Name, globalValue(out.Final, m, g))
	}
	if live := out.Final.Live(); len(live) > 0 {
		fmt.Fprintln(w, "processes left:")
		for _, p := range live {
			var locals []string
			for _, v := range p.Point.Live {
				locals = append(locals, v.Name+"="+localValue(v, p.Locals[v.Index]))
			}
			fmt.Fprintf(w, "  %-12s at %s %s\n", p.Name(), p.Point.Block.ID, strings.Join(locals, " "))
		}
	}
	if n := len(out.Final.Violations); n > 0 {
		sites := violationSites(out.Final.Violations)
		if len(sites) == n {
			fmt.Fprintf(w, "%d violation%s:\n", n, plural(n))
		} else {
			fmt.Fprintf(w, "%d violation%s at %d site%s:\n", n, plural(n), len(sites), plural(len(sites)))
		}
		for _, s := range sites {
			v := s.first
			fmt.Fprint(w, l.caret(v.Pos, fmt.Sprintf("%s (%s, block %s)", v.Headline(), v.Proc, v.Block)))
			if s.count > 1 {
				fmt.Fprintf(w, "    %d times at this site; the first is shown\n", s.count)
			}
		}
	} else {
		fmt.Fprintln(w, "violations: none")
	}
	if out.Err != nil {
		fmt.Fprint(w, l.caret(out.Err.Pos, fmt.Sprintf("runtime error: %s (%s, block %s)", out.Err.Msg, out.Err.Proc, out.Err.Block)))
	}
}

// site is the violations of a run at one position: the first, and how many.
type site struct {
	first interp.Violation
	count int
}

// violationSites groups violations by position, in order of first
// occurrence.
func violationSites(vs []interp.Violation) []site {
	var out []site
	at := map[lang.Pos]int{}
	for _, v := range vs {
		if k, ok := at[v.Pos]; ok {
			out[k].count++
			continue
		}
		at[v.Pos] = len(out)
		out = append(out, site{v, 1})
	}
	return out
}

func pluralEs(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

func outcomeJSON(l *loaded, m *interp.Machine, out *interp.Outcome, maxEvents int) any {
	type stepJSON struct {
		Process string `json:"process"`
		Block   string `json:"block"`
	}
	type procJSON struct {
		Name   string           `json:"name"`
		Proc   string           `json:"proc"`
		ID     string           `json:"id"`
		Block  string           `json:"block"`
		Locals map[string]int64 `json:"locals"`
	}
	type violJSON struct {
		diagJSON
		Process string `json:"process"`
		Block   string `json:"block"`
	}
	res := struct {
		File       string           `json:"file"`
		Params     map[string]int64 `json:"params"`
		Status     string           `json:"status"`
		Cut        string           `json:"stopped_early,omitempty"` // why a run with status cut stopped
		Schedule   []stepJSON       `json:"schedule"`
		Globals    map[string]any   `json:"globals"`
		Processes  []procJSON       `json:"processes"`
		Violations []violJSON       `json:"violations"`
		Error      *violJSON        `json:"error,omitempty"`
	}{File: l.path, Params: map[string]int64{}, Cut: cutBy(out, maxEvents), Schedule: []stepJSON{}, Globals: map[string]any{}, Processes: []procJSON{}, Violations: []violJSON{}}
	for _, p := range m.Prog.Params {
		res.Params[p.Name] = m.Param(p)
	}
	switch {
	case out.Err != nil:
		res.Status = "runtime-error"
	case out.Cut:
		res.Status = "cut"
	case len(out.Blocked) > 0:
		res.Status = "deadlock"
	default:
		res.Status = "finished"
	}
	for _, s := range out.Schedule {
		res.Schedule = append(res.Schedule, stepJSON{s.Name, s.Block})
	}
	for _, g := range m.Prog.Globals {
		first, n := m.GlobalLocs(g)
		switch {
		case g.Unbounded():
			els := map[string]int64{}
			for k, v := range out.Final.Elements(g) {
				els[strconv.FormatInt(k, 10)] = v
			}
			res.Globals[g.Name] = els
		case g.Type == lang.Bool:
			res.Globals[g.Name] = out.Final.Value(first) != 0
		case g.Type == lang.IntArray:
			res.Globals[g.Name] = out.Final.Values(first, n)
		default:
			res.Globals[g.Name] = out.Final.Value(first)
		}
	}
	for _, p := range out.Final.Live() {
		pj := procJSON{Name: p.Name(), Proc: p.Proc.Name, ID: p.ID.String(), Block: p.Point.Block.ID, Locals: map[string]int64{}}
		for _, v := range p.Point.Live {
			pj.Locals[v.Name] = p.Locals[v.Index]
		}
		res.Processes = append(res.Processes, pj)
	}
	for _, v := range out.Final.Violations {
		res.Violations = append(res.Violations, violJSON{diagJSON{v.Pos.File, v.Pos.Line, v.Pos.Col, v.Msg}, v.Proc, v.Block})
	}
	if out.Err != nil {
		res.Error = &violJSON{diagJSON{out.Err.Pos.File, out.Err.Pos.Line, out.Err.Pos.Col, out.Err.Msg}, out.Err.Proc, out.Err.Block}
	}
	return res
}

// sparseText renders the elements of an unbounded array that are not 0,
// by index: {-3: 1, 7: 2} ({} when every element is 0).
func sparseText(els map[int64]int64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(els)) {
		parts = append(parts, fmt.Sprintf("%d: %d", k, els[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

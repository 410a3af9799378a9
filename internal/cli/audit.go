package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/icgen/icgen/audit"
	"github.com/icgen/icgen/synth"
	"github.com/spf13/cobra"
)

func newAuditCmd(e *env) *cobra.Command {
	var (
		defs    []string
		format  string
		workers int
		timeout time.Duration
		checkTO time.Duration
		budget  uint64
		tries   int
	)
	cmd := &cobra.Command{
		Use:   "audit FILE",
		Short: "Show which blocks commute, under which condition, and a witness where they do not",
		Long: `Audit a program: the commutativity matrix of its atomic blocks, and for every
pair that does not always commute a concrete witness.

Each pair is always (commutes in every state), conditional (commutes where one
of its constraints holds: they are listed), never (never proven to commute) or
unknown (the analysis gave up: the reason is given). The classes come from
synthesis (icgen synth): every constraint is proven by Z3. A pair marked
exact has constraints that hold exactly where it commutes, wherever its
overflow guard holds, whatever the guard's kind (docs/ic-format.md,
Overflow guards).

A witness is a state in which both blocks are enabled and the two orders do
not end alike: different final states (the differing variables are marked
with *), or a runtime error in one order only, or a second block that the
first one disables. It is a model of not F(A,B) found by Z3 (first among the
states where both orders run without runtime error) and it is always
confirmed by running both orders in the interpreter; when no model gives a
difference that really shows when run, the pair says "no concrete witness
found" and why. Witness states need not be reachable from init: constraints
speak of every state. Params keep their values (defaults or -D) unless no
witness exists with them; the values used are then shown.

Formats: text (aligned; * marks differing rows, in color on a terminal),
md (Markdown tables), json.

Exit codes: 0 the audit ran (whatever it found), 2 bad input, 3 internal
failure.`,
		Example: `  icgen audit testdata/fig1.blk
  icgen audit --format md testdata/mix.blk > mix-audit.md
  icgen audit -D N=3 --format json testdata/fib.blk`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "text", "md", "json":
			default:
				return badInput("--format %q: want text, md or json", format)
			}
			l, m, err := e.loadMachine(args[0], defs, format == "json")
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			opts := audit.Options{
				Synth:        synth.Options{Workers: workers, Timeout: timeout, CheckTimeout: checkTO, Budget: budget},
				Tries:        tries,
				CheckTimeout: checkTO,
			}
			if l.go_ != nil {
				opts.Text, opts.Domain, opts.Witness = l.go_.GoText, l.go_.Domain, l.go_.GoWitness
			}
			prog := e.newProgress(true, false)
			defer prog.done()
			if prog != nil {
				opts.Progress = func(stage string, done, total int) { prog.update(fmt.Sprintf("%s: %d/%d pairs", stage, done, total)) }
			}
			r, err := await(ctx, func() (*audit.Report, error) { return audit.Run(ctx, m, opts) })
			prog.done()
			if err != nil {
				return toolFailed(ctx, err, "interrupted")
			}
			goReport(l, r)
			switch format {
			case "json":
				writeJSON(e.stdout, auditJSON(l, r))
			case "md":
				writeAuditMD(e.stdout, l, r)
			default:
				writeAuditText(e.stdout, l, r, isTerminal(e.stdout))
			}
			return nil
		},
	}
	f := cmd.Flags()
	defineFlag(f, &defs)
	f.StringVar(&format, "format", "text", "text, md or json")
	f.IntVarP(&workers, "jobs", "j", 0, "parallel workers for synthesis (default: number of CPUs)")
	f.DurationVar(&timeout, "timeout", 30*time.Second, "synthesis time per cover of a pair; a pair that runs out is unknown (0: none)")
	f.DurationVar(&checkTO, "check-timeout", 2*time.Second, "budget per solver check")
	f.Uint64Var(&budget, "budget", 0, "Z3 resources per cover of a pair when classifying, as icgen synth --budget (0: none); the witness searches stay bounded by --check-timeout and --tries")
	f.IntVar(&tries, "tries", 5, "solver models run per query before a pair is left without a witness")
	return cmd
}

func auditCounts(r *audit.Report) string {
	c := r.Counts()
	return fmt.Sprintf("%d block%s, %d pair%s: %d always, %d conditional, %d never, %d unknown",
		len(r.Blocks), plural(len(r.Blocks)), len(r.Pairs), plural(len(r.Pairs)),
		c[audit.Always], c[audit.Conditional], c[audit.Never], c[audit.Unknown])
}

func paramList(ps map[string]int64) string {
	var parts []string
	for _, k := range sortedKeys(ps) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, ps[k]))
	}
	return strings.Join(parts, " ")
}

// pairTitle names a pair as the IC text format does: the second process's
// block primed.
func pairTitle(a, b string) string { return fmt.Sprintf("(%s, %s')", a, b) }

func writeAuditText(w io.Writer, l *loaded, r *audit.Report, color bool) {
	params := ""
	if len(r.Params) > 0 {
		params = " with " + paramList(r.Params)
	}
	fmt.Fprintf(w, "%s%s: %s\n\n", l.path, params, auditCounts(r))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "\t"+strings.Join(r.Blocks, "\t")+"\n")
	for i, row := range r.Matrix() {
		fmt.Fprint(tw, r.Blocks[i]+"\t"+strings.Join(row, "\t")+"\n")
	}
	tw.Flush()
	for _, p := range r.Pairs {
		if p.Class == audit.Always {
			continue
		}
		fmt.Fprintf(w, "\n%s %s", pairTitle(p.A, p.B), p.Class)
		switch {
		case p.Class == audit.Conditional || len(p.Constraints) > 0:
			fmt.Fprintf(w, ": commutes where {%s}", strings.Join(p.Constraints, ", "))
		case p.Class == audit.Never:
			fmt.Fprint(w, ": no state is proven to commute")
		}
		if p.Exact {
			fmt.Fprint(w, " [exact]")
		}
		fmt.Fprintln(w)
		if p.Reason != "" {
			fmt.Fprintf(w, "  reason: %s\n", p.Reason)
		}
		for _, n := range p.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
		writeWitnessText(w, l, p.Witness, p.NoWitness, color, "  ")
	}
}

// writeWitnessText renders a witness: its summary, the start state, the
// two orders side by side with * on the rows that differ, and the located
// runtime errors.
func writeWitnessText(w io.Writer, l *loaded, wit *audit.Witness, none string, color bool, indent string) {
	if wit == nil {
		fmt.Fprintf(w, "%s%s\n", indent, none)
		return
	}
	fmt.Fprintf(w, "%switness: %s\n", indent, wit.Summary())
	if len(wit.Params) > 0 {
		fmt.Fprintf(w, "%s  with %s (no witness was found with the program's params)\n", indent, paramList(wit.Params))
	}
	var start []string
	for _, v := range wit.Start {
		start = append(start, v.Name+" = "+v.Value)
	}
	fmt.Fprintf(w, "%s  from %s\n", indent, strings.Join(start, ", "))
	writeRows(w, wit, color, indent)
	for _, o := range []audit.Order{wit.AB, wit.BA} {
		switch {
		case o.Err != nil:
			fmt.Fprintf(w, "%s  %s raises a runtime error:\n", indent, o.Name)
			fmt.Fprint(w, indentLines(l.caret(o.Err.Pos, fmt.Sprintf("runtime error: %s (block %s)", o.Err.Msg, o.Err.Block)), indent+"    "))
		case o.Blocked != "":
			fmt.Fprintf(w, "%s  %s: %s is not enabled after the first block\n", indent, o.Name, o.Blocked)
		}
	}
}

// writeRows renders the two orders side by side, * on the rows that differ
// (in color on a terminal).
func writeRows(w io.Writer, wit *audit.Witness, color bool, indent string) {
	if len(wit.Rows) == 0 {
		return
	}
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 3, ' ', 0)
	fmt.Fprintf(tw, "%s    \tstart\t%s\t%s\n", indent, wit.AB.Name, wit.BA.Name)
	for _, row := range wit.Rows {
		mark := " "
		if row.Differ {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s  %s %s\t%s\t%s\t%s\n", indent, mark, row.Name, row.Start, row.AB, row.BA)
	}
	tw.Flush()
	for i, line := range strings.SplitAfter(table.String(), "\n") {
		// Color goes around whole aligned lines, so it cannot upset the
		// alignment; the * stays for those who read without color.
		if color && i > 0 && strings.HasPrefix(line, indent+"  *") {
			line = "\033[1;31m" + strings.TrimSuffix(line, "\n") + "\033[0m\n"
		}
		fmt.Fprint(w, line)
	}
}

func indentLines(s, indent string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, ln := range lines {
		if ln != "" {
			b.WriteString(indent + ln)
		}
	}
	return b.String()
}

func writeAuditMD(w io.Writer, l *loaded, r *audit.Report) {
	fmt.Fprintf(w, "# Audit of `%s`\n\n", l.path)
	if len(r.Params) > 0 {
		fmt.Fprintf(w, "Params: `%s`.\n\n", paramList(r.Params))
	}
	fmt.Fprintf(w, "%s.\n\n", upperFirst(auditCounts(r)))
	fmt.Fprintf(w, "| | %s |\n|---|%s\n", strings.Join(mdCode(r.Blocks), " | "), strings.Repeat("---|", len(r.Blocks)))
	for i, row := range r.Matrix() {
		fmt.Fprintf(w, "| `%s` | %s |\n", r.Blocks[i], strings.Join(row, " | "))
	}
	for _, p := range r.Pairs {
		if p.Class == audit.Always {
			continue
		}
		fmt.Fprintf(w, "\n## `%s`: %s\n\n", pairTitle(p.A, p.B), p.Class)
		if len(p.Constraints) > 0 {
			fmt.Fprintf(w, "Commutes where: %s.", strings.Join(mdCode(p.Constraints), ", "))
			if p.Exact {
				fmt.Fprint(w, " Exact.")
			}
			fmt.Fprintln(w)
			fmt.Fprintln(w)
		}
		if p.Reason != "" {
			fmt.Fprintf(w, "Reason: %s.\n\n", p.Reason)
		}
		wit := p.Witness
		if wit == nil {
			fmt.Fprintf(w, "%s.\n", upperFirst(p.NoWitness))
			continue
		}
		fmt.Fprintf(w, "Witness: %s.", wit.Summary())
		if len(wit.Params) > 0 {
			fmt.Fprintf(w, " With `%s`.", paramList(wit.Params))
		}
		fmt.Fprintf(w, "\n\n| | start | `%s` | `%s` |\n|---|---|---|---|\n", wit.AB.Name, wit.BA.Name)
		for _, row := range wit.Rows {
			ab, ba := row.AB, row.BA
			if row.Differ {
				ab, ba = "**"+ab+"**", "**"+ba+"**"
			}
			fmt.Fprintf(w, "| `%s` | %s | %s | %s |\n", row.Name, row.Start, ab, ba)
		}
		for _, o := range []audit.Order{wit.AB, wit.BA} {
			if o.Err != nil {
				fmt.Fprintf(w, "\n`%s`: runtime error at `%s:%d:%d`: %s.\n", o.Name, o.Err.Pos.File, o.Err.Pos.Line, o.Err.Pos.Col, o.Err.Msg)
			} else if o.Blocked != "" {
				fmt.Fprintf(w, "\n`%s`: `%s` is not enabled after the first block.\n", o.Name, o.Blocked)
			}
		}
	}
}

func mdCode(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + strings.ReplaceAll(x, "|", `\|`) + "`"
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

type witnessJSONRow struct {
	Name   string `json:"name"`
	Start  string `json:"start,omitempty"`
	AB     string `json:"ab"`
	BA     string `json:"ba"`
	Differ bool   `json:"differ"`
}

type orderJSON struct {
	Name    string    `json:"name"`
	Error   *diagJSON `json:"error,omitempty"`
	Blocked string    `json:"blocked,omitempty"`
}

type valueJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type witnessJSONOut struct {
	Kind    string           `json:"kind"`
	Summary string           `json:"summary"`
	Params  map[string]int64 `json:"params,omitempty"`
	Start   []valueJSON      `json:"start"`
	Rows    []witnessJSONRow `json:"rows"`
	Orders  [2]orderJSON     `json:"orders"`
}

func witnessJSON(w *audit.Witness) *witnessJSONOut {
	if w == nil {
		return nil
	}
	out := &witnessJSONOut{Kind: w.Kind.String(), Summary: w.Summary(), Params: w.Params, Start: []valueJSON{}, Rows: []witnessJSONRow{}}
	for _, v := range w.Start {
		out.Start = append(out.Start, valueJSON{v.Name, v.Value})
	}
	for _, r := range w.Rows {
		out.Rows = append(out.Rows, witnessJSONRow{r.Name, r.Start, r.AB, r.BA, r.Differ})
	}
	for i, o := range []audit.Order{w.AB, w.BA} {
		oj := orderJSON{Name: o.Name, Blocked: o.Blocked}
		if o.Err != nil {
			oj.Error = &diagJSON{File: o.Err.Pos.File, Line: o.Err.Pos.Line, Col: o.Err.Pos.Col, Message: o.Err.Msg}
		}
		out.Orders[i] = oj
	}
	return out
}

func auditJSON(l *loaded, r *audit.Report) any {
	type pairJSON struct {
		A           string          `json:"a"`
		B           string          `json:"b"`
		Class       string          `json:"class"`
		Exact       bool            `json:"exact"`
		Constraints []string        `json:"constraints"`
		Reason      string          `json:"reason,omitempty"`
		Notes       []string        `json:"notes,omitempty"`
		Witness     *witnessJSONOut `json:"witness,omitempty"`
		NoWitness   string          `json:"no_witness,omitempty"`
	}
	out := struct {
		File   string           `json:"file"`
		Params map[string]int64 `json:"params"`
		Blocks []string         `json:"blocks"`
		Matrix [][]string       `json:"matrix"`
		Counts map[string]int   `json:"counts"`
		Pairs  []pairJSON       `json:"pairs"`
	}{File: l.path, Params: r.Params, Blocks: r.Blocks, Matrix: r.Matrix(), Counts: map[string]int{}}
	for c, n := range r.Counts() {
		out.Counts[c.String()] = n
	}
	for _, p := range r.Pairs {
		pj := pairJSON{A: p.A, B: p.B, Class: p.Class.String(), Exact: p.Exact, Constraints: p.Constraints, Reason: p.Reason,
			Notes: p.Notes, Witness: witnessJSON(p.Witness), NoWitness: p.NoWitness}
		if pj.Constraints == nil {
			pj.Constraints = []string{}
		}
		out.Pairs = append(out.Pairs, pj)
	}
	return out
}

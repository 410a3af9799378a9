package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/icgen/icgen/audit"
	"github.com/icgen/icgen/ic"
	"github.com/spf13/cobra"
)

func newCheckCmd(e *env) *cobra.Command {
	var (
		defs    []string
		icsPath string
		asJSON  bool
		checkTO time.Duration
		tries   int
	)
	cmd := &cobra.Command{
		Use:   "check FILE [--ics ICFILE]",
		Short: "Prove the commute declarations of a program, or re-prove an IC file",
		Long: `Without --ics, prove every commute declaration of the program
(commute a, b when (C); see docs/language.md; in Go code, comments
//icgen:commute A B when COND, see docs/go.md): C must imply that a and b
commute, under the program's invariants. With --ics, check an IC file,
written by hand, by another tool or by icgen synth, against its program:
every constraint C of every pair (a, b) is proven again with Z3
(C and not F(a,b) must be unsatisfiable: where C holds, both orders run
without runtime error and end in the same state).

Each constraint is proven, unsound, unknown (the solver could not decide:
the reason is given) or invalid (it names something the program does not
have). An unsound constraint comes with a counterexample: a state where it
holds (as a runtime evaluates it) and the two orders do not end alike,
confirmed by running both orders in the interpreter; the differing variables
are marked with *. When no model gives such a run, the constraint is still
unsound (the solver proved it) and the output says no concrete witness was
found.

A proof is over mathematical integers. Where an order can overflow int64
in a state where a constraint holds, the constraint holds at int64 only
with its pair's overflow guard (no_overflow), as runtimes apply it: check
then says "proven where no_overflow holds" (--json: needs_no_overflow).
It asks the solver once per pair whose orders can overflow, of the
disjunction of the pair's proven constraints, so a constraint that alone
rules overflow out is marked with the others of its pair; an undecided
answer marks them too. A plain "proven" holds at int64 as it stands.

Also checked: that each constraint's text, SMT-LIB form and globals are
those of its expression (a runtime evaluates the expression, and reads the
globals for uniformity), and its go text, for Go code, the expression's
rendering in Go (a file of a .blk program has none); that each entry of the functions table is the
program's function of its name, with the same kind, proc, line, col, out
and ins (a runtime evaluates a function by running the loop its entry
names, while Z3 proves the constraints of the loop its name names); that
the invariants are the program's; that each pair's no_overflow guard,
of either kind (interval: bounds on the values read; exact: the condition
itself), excludes int64 overflow where a constraint holds, and by itself,
as its kind says (no_overflow_kind); and that each
block's W(b) has every global the recomputed W(b) has (a missing one makes the
runtime's uniformity check unsound; an extra one is only noted). A
function or invariant that is not the program's is reported with its
entry and what differs (--json: inconsistent_entries); explore --ics
refuses a file with any such inconsistency.

The IC file must have been made for this version of the program (same hash,
params excluded), as for icgen explore.

Exit codes: 0 every constraint proven and every check passed, 1 a constraint
is unsound, unknown or invalid, or another check failed, 2 bad input (an
unreadable or stale IC file), 3 internal failure.`,
		Example: `  icgen check testdata/counter.blk        # its commute declarations
  icgen check ./examples/go/bank          # the //icgen:commute declarations of a Go package
  icgen synth testdata/fig1.blk && icgen check testdata/fig1.blk --ics testdata/fig1.ic.json
  icgen check --ics handwritten.ic.json --json testdata/fib.blk
  icgen check -D N=3 --ics fib.ic.json testdata/fib.blk   # witnesses run with N=3`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, m, err := e.loadMachine(args[0], defs, asJSON)
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			aopts := audit.Options{Tries: tries, CheckTimeout: checkTO}
			if l.go_ != nil {
				aopts.Text, aopts.GoText = l.go_.GoText, l.go_.GoText
				aopts.Domain, aopts.Witness = l.go_.Domain, l.go_.GoWitness
			}
			var rep *audit.FileReport
			if icsPath == "" {
				n := len(l.prog.Commutes)
				if l.go_ != nil {
					n = len(l.go_.Commutes)
				}
				if n == 0 {
					return badInput("%s declares no commute and --ics was not given: nothing to check (see icgen check --help)", l.path)
				}
				rep, err = await(ctx, func() (*audit.FileReport, error) { return audit.CheckDeclared(ctx, m, aopts) })
				if err == nil {
					goDeclared(l, rep)
				}
			} else {
				var f *ic.File
				if f, err = readICs(l, icsPath); err != nil {
					return err
				}
				rep, err = await(ctx, func() (*audit.FileReport, error) { return audit.CheckFile(ctx, m, f, aopts) })
			}
			if err != nil {
				return toolFailed(ctx, err, "interrupted")
			}
			if asJSON {
				writeJSON(e.stdout, checkJSON(l, icsPath, rep))
			} else {
				writeCheckText(e.stdout, l, icsPath, rep, isTerminal(e.stdout))
			}
			if !rep.Sound() {
				return findings()
			}
			return nil
		},
	}
	f := cmd.Flags()
	defineFlag(f, &defs)
	f.StringVar(&icsPath, "ics", "", "the IC file to check (default: the program's commute declarations)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.DurationVar(&checkTO, "check-timeout", 5*time.Second, "budget per solver check; a constraint that runs out is unknown")
	f.IntVar(&tries, "tries", 5, "solver models run per query when looking for a counterexample")
	return cmd
}

// claimTitle names a claim: its pair and its text.
func claimTitle(l *loaded, r audit.Result) string {
	cl := r.Claim
	text := "?"
	switch {
	case cl.Expr != nil:
		text = l.exprText(cl.Expr)
	case cl.Text != "":
		text = cl.Text
	}
	return fmt.Sprintf("I%s: %s", pairTitle(cl.A, cl.B), text)
}

// verdictText is a claim's verdict as check prints it: a proof that
// holds at int64 only with the pair's overflow guard says so.
func verdictText(r audit.Result) string {
	if r.Verdict == audit.Proven && r.GuardNeeded {
		return "proven where no_overflow holds"
	}
	return r.Verdict.String()
}

// writeResult renders the check of one claim; proven ones in one line.
func writeResult(w io.Writer, l *loaded, r audit.Result, color bool) {
	if r.Claim.Pos.Line > 0 {
		msg := fmt.Sprintf("%s: %s", claimTitle(l, r), verdictText(r))
		if r.Reason != "" {
			msg += ": " + r.Reason
		}
		fmt.Fprint(w, l.caret(r.Claim.Pos, msg))
	} else {
		fmt.Fprintf(w, "%s: %s", claimTitle(l, r), verdictText(r))
		if r.Reason != "" {
			fmt.Fprintf(w, ": %s", r.Reason)
		}
		fmt.Fprintln(w)
	}
	if r.Claim.Mismatch != "" {
		fmt.Fprintf(w, "  inconsistent: %s\n", r.Claim.Mismatch)
	}
	if r.Verdict == audit.Unsound {
		writeWitnessText(w, l, r.Witness, r.NoWitness, color, "  ")
	}
}

func writeCheckText(w io.Writer, l *loaded, icsPath string, rep *audit.FileReport, color bool) {
	if icsPath == "" {
		fmt.Fprintf(w, "checking the commute declarations of %s\n", l.path)
	} else {
		fmt.Fprintf(w, "checking %s against %s\n", icsPath, l.path)
	}
	counts := map[audit.Verdict]int{}
	mismatches, guarded := 0, 0
	for _, r := range rep.Constraints {
		counts[r.Verdict]++
		if r.Verdict == audit.Proven && r.GuardNeeded {
			guarded++
		}
		if r.Claim.Mismatch != "" {
			mismatches++
		}
		writeResult(w, l, r, color)
	}
	for _, g := range rep.Guards {
		fmt.Fprintf(w, "%s no_overflow: %s: %s\n", pairTitle(g.Claim.A, g.Claim.B), g.Verdict, g.Reason)
		if g.Verdict == audit.Unsound {
			writeWitnessText(w, l, g.Witness, g.NoWitness, color, "  ")
		}
	}
	wBad := 0
	for _, d := range rep.W {
		switch {
		case d.Unknown:
			wBad++
			fmt.Fprintf(w, "W(%s): the program has no block %s\n", d.Block, d.Block)
		case len(d.Missing) > 0:
			wBad++
			fmt.Fprintf(w, "W(%s): unsound: lacks {%s}, which the block or what it leads to may write", d.Block, strings.Join(d.Missing, ", "))
			if len(d.Extra) > 0 {
				fmt.Fprintf(w, "; has extra {%s}", strings.Join(d.Extra, ", "))
			}
			fmt.Fprintln(w)
		default:
			fmt.Fprintf(w, "W(%s): note: has {%s}, which nothing it leads to writes (sound, fewer reductions)\n", d.Block, strings.Join(d.Extra, ", "))
		}
	}
	for _, m := range rep.Mismatches {
		fmt.Fprintf(w, "%s: inconsistent: %s\n", m.Entry, m.Msg)
	}
	fmt.Fprintf(w, "%d constraint%s: %d proven", len(rep.Constraints), plural(len(rep.Constraints)), counts[audit.Proven])
	if guarded > 0 {
		fmt.Fprintf(w, " (%d where no_overflow holds)", guarded)
	}
	fmt.Fprintf(w, ", %d unsound, %d unknown, %d invalid", counts[audit.Unsound], counts[audit.Undecided], counts[audit.Invalid])
	if mismatches > 0 {
		fmt.Fprintf(w, ", %d inconsistent", mismatches)
	}
	if len(rep.Guards) > 0 {
		fmt.Fprintf(w, "; %d overflow guard%s not proven", len(rep.Guards), plural(len(rep.Guards)))
	}
	if n := len(rep.Mismatches); n > 0 {
		fmt.Fprintf(w, "; %d function or invariant entr%s inconsistent", n, map[bool]string{true: "y", false: "ies"}[n == 1])
	}
	switch {
	case wBad > 0:
		fmt.Fprintf(w, "; %d W(b) set%s unsound\n", wBad, plural(wBad))
	case icsPath == "":
		fmt.Fprintln(w)
	default:
		fmt.Fprintln(w, "; W(b) sound")
	}
}

func checkJSON(l *loaded, icsPath string, rep *audit.FileReport) any {
	type resultJSON struct {
		A         string          `json:"a"`
		B         string          `json:"b"`
		Text      string          `json:"text"`
		Source    string          `json:"source"`
		Verdict   string          `json:"verdict"`
		Guarded   bool            `json:"needs_no_overflow,omitempty"`
		Reason    string          `json:"reason,omitempty"`
		Mismatch  string          `json:"inconsistent,omitempty"`
		Witness   *witnessJSONOut `json:"witness,omitempty"`
		NoWitness string          `json:"no_witness,omitempty"`
	}
	type wJSON struct {
		Block   string   `json:"block"`
		Missing []string `json:"missing,omitempty"`
		Extra   []string `json:"extra,omitempty"`
		Unknown bool     `json:"unknown_block,omitempty"`
	}
	conv := func(r audit.Result) resultJSON {
		rj := resultJSON{A: r.Claim.A, B: r.Claim.B, Source: r.Claim.Source, Verdict: r.Verdict.String(), Guarded: r.GuardNeeded, Reason: r.Reason,
			Mismatch: r.Claim.Mismatch, Witness: witnessJSON(r.Witness)}
		if r.Claim.Expr != nil {
			rj.Text = l.exprText(r.Claim.Expr)
		}
		if r.Verdict == audit.Unsound && r.Witness == nil {
			rj.NoWitness = r.NoWitness
		}
		return rj
	}
	type mismatchJSON struct {
		Entry   string `json:"entry"`
		Message string `json:"message"`
	}
	out := struct {
		File        string         `json:"file"`
		ICs         string         `json:"ics"`
		Sound       bool           `json:"sound"`
		Constraints []resultJSON   `json:"constraints"`
		Guards      []resultJSON   `json:"overflow_guards"`
		W           []wJSON        `json:"w"`
		Mismatches  []mismatchJSON `json:"inconsistent_entries"`
	}{File: l.path, ICs: icsPath, Sound: rep.Sound(), Constraints: []resultJSON{}, Guards: []resultJSON{}, W: []wJSON{}, Mismatches: []mismatchJSON{}}
	for _, r := range rep.Constraints {
		out.Constraints = append(out.Constraints, conv(r))
	}
	for _, r := range rep.Guards {
		out.Guards = append(out.Guards, conv(r))
	}
	for _, d := range rep.W {
		out.W = append(out.W, wJSON{d.Block, d.Missing, d.Extra, d.Unknown})
	}
	for _, m := range rep.Mismatches {
		out.Mismatches = append(out.Mismatches, mismatchJSON{m.Entry, m.Msg})
	}
	return out
}

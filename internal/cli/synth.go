package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/synth"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newSynthCmd(e *env) *cobra.Command {
	var (
		out       string
		format    string
		workers   int
		timeout   time.Duration
		checkTO   time.Duration
		rlimit    uint64
		budget    uint64
		quiet     bool
		encName   string
		guardName string
		shardText string
	)
	cmd := &cobra.Command{
		Use:   "synth FILE",
		Short: "Synthesize the independence constraints of every pair of blocks",
		Long: `Synthesize independence constraints (ICs) for every unordered pair of atomic
blocks of a program, self pairs included. For each pair, F(a,b) describes the
states where both orders are possible, error-free and reach the same state;
icgen covers F with constraints each of which is proven (by Z3) to imply it.

Each pair is independent (always commutes), conditional (commutes where one
of its constraints holds), dependent (never proven to commute) or unknown
(the analysis gave up: the reason is given and any constraints kept are
proven). A pair is exact when its constraints hold exactly where it commutes.
Constraints are over mathematical integers; no_overflow in the file states
where neither order overflows int64, and both must hold.

Params stay symbolic: one IC file serves every value of -D.

--timeout bounds each pair's time, so a pair near its bound may end unknown
on a slow or busy machine and exact on another. --budget bounds each pair's
work in Z3's resource units instead (in the order of a million a second on
one core): the file is the same wherever it is made, with the same Z3.
Both bound each cover of a pair: a pair whose cover runs out with the merged
encoding is covered again with the path encoding where that can be built,
with a bound of its own, so it can take up to twice either (and its two
exactness checks have theirs). The summary on stderr gives the resources a
run spent and the most one pair took.
--check-timeout still bounds each check (non-linear arithmetic can run long
within a few units); --timeout 0 leaves the budget alone to bound a pair.

--guard chooses how each pair's overflow guard is written: interval (bounds
on the values the orders' arithmetic reads, proven to rule overflow out:
short and cheap to evaluate) or exact (the condition under which neither
order overflows, its shared subterms named once by a let: as large as
the formula of the blocks' arithmetic). Each kind is written
where the other cannot be; the file says which each pair has.

Formats: json (the IC file, docs/ic-format.md), text (one line per pair),
smtlib (each constraint a define-fun over declared state variables).

--shard I/N synthesizes part I (1 to N) of the pairs only, and writes it as
a part (json; default output FILE.ic.I-of-N.json): the pairs are dealt to
the N parts by an estimate of their cost, the same split in every run, so
the N parts can run anywhere (GNU parallel, a Slurm array, a Kubernetes
Indexed Job: docs/scaling.md). icgen merge makes the IC file of the parts,
the same bytes as an unsharded run with the same --budget (and --timeout 0).

` + outputFilesHelp,
		Example: `  icgen synth testdata/fig1.blk                 # writes testdata/fig1.ic.json
  icgen synth --format text testdata/fib.blk -o -  # readable summary on stdout
  icgen synth -j 2 --timeout 10s -o fib.ic.json testdata/fib.blk
  icgen synth --budget 20000000 testdata/fib.blk   # the same file on any machine
  icgen synth --timeout 0 --budget 20000000 --shard 2/3 testdata/fib.blk   # part 2 of 3 -> testdata/fib.ic.2-of-3.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "json", "text", "smtlib":
			default:
				return badInput("--format %q: want json, text or smtlib", format)
			}
			enc, err := encode.ParseEncoding(encName)
			if err != nil {
				return badInput("--encoding: %v", err)
			}
			gk, err := synth.ParseGuardKind(guardName)
			if err != nil {
				return badInput("--guard: %v", err)
			}
			var shard synth.Shard
			if shardText != "" {
				if shard, err = parseShard(shardText); err != nil {
					return badInput("--shard: %v", err)
				}
				if format != "json" {
					return badInput("--shard writes a part of an IC file, in json (what icgen merge reads), not %s", format)
				}
			}
			l, err := e.load(args[0], false)
			if err != nil {
				return err
			}
			if out == "" {
				ext := map[string]string{"json": ".ic.json", "text": ".ic.txt", "smtlib": ".ic.smt2"}[format]
				if shard.Count > 0 {
					ext = fmt.Sprintf(".ic.%d-of-%d.json", shard.Index, shard.Count)
				}
				out = defaultICPath(args[0], ext, l.go_ != nil)
			}
			dst, err := prepareOutput("-o", out, args[0])
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			opts := synth.Options{Workers: workers, Timeout: timeout, CheckTimeout: checkTO, Rlimit: rlimit, Budget: budget, Encoding: enc, Guard: gk, Shard: shard}
			prog := e.newProgress(!quiet, false)
			defer prog.done()
			if prog != nil {
				opts.Progress = func(done, total int) { prog.update(fmt.Sprintf("synthesizing: %d/%d pairs", done, total)) }
			}
			type synthesized struct {
				f  *ic.File
				st *synth.Stats
			}
			r, err := await(ctx, func() (synthesized, error) {
				f, st, err := synth.Run(ctx, l.prog, opts)
				return synthesized{f, st}, err
			})
			prog.done()
			if err != nil {
				return toolFailed(ctx, err, "interrupted: no file written")
			}
			f, st := r.f, r.st
			if l.go_ != nil {
				goPairs(l, f)
				st.Count(f.Pairs)
			}
			data, err := renderICs(f, format)
			if err != nil {
				return err
			}
			if err := dst.write(data, e.stdout); err != nil {
				return err
			}
			if !quiet {
				what := ""
				if shard.Count > 0 {
					what = fmt.Sprintf(" (shard %v, of %d pairs in all)", shard, f.Shard.Total)
				}
				fmt.Fprintf(e.stderr, "%s%s: %d pairs: %d independent, %d conditional, %d dependent, %d unknown (%d exact); %d constraints in %s (Z3 resources: %d, at most %d a pair) -> %s\n",
					l.path, what, st.Pairs, st.Independent, st.Conditional, st.Dependent, st.Unknown, st.Exact, st.Constraints, st.Elapsed.Round(time.Millisecond), st.Spent, slices.Max(append(st.PairSpent, 0)), destName(out))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output file (- for stdout; default: FILE with .ic.json, .ic.txt or .ic.smt2); see Output files")
	f.StringVar(&format, "format", "json", "json, text or smtlib")
	f.IntVarP(&workers, "jobs", "j", 0, "parallel workers (default: number of CPUs)")
	f.DurationVar(&timeout, "timeout", 30*time.Second, "time per cover of a pair; a pair that runs out is unknown (0: none)")
	f.DurationVar(&checkTO, "check-timeout", 2*time.Second, "budget per solver check (non-linear arithmetic can need a bound)")
	f.Uint64Var(&rlimit, "rlimit", 0, "Z3 resource limit per solver check, deterministic (0: none)")
	f.Uint64Var(&budget, "budget", 0, "Z3 resources per cover of a pair, all the cover's solver checks together (0: none); unlike --timeout the IC file does not depend on the machine or its load")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress or summary on stderr")
	f.StringVar(&encName, "encoding", "merged", "how F(a,b) is built: merged (one equality of merged final states, linear in the blocks) or paths (a disjunction over pairs of paths, exponential in branches)")
	f.StringVar(&guardName, "guard", "interval", "how overflow guards are written: interval (bounds on the values read) or exact (the condition itself)")
	f.StringVar(&shardText, "shard", "", "I/N: synthesize part I (1 to N) of the pairs only, as a part for icgen merge")
	return cmd
}

// destName names an output path in a summary line (- is stdout).
func destName(out string) string {
	if out == "-" {
		return "stdout"
	}
	return out
}

// parseShard reads I/N.
func parseShard(s string) (synth.Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil {
		return synth.Shard{}, fmt.Errorf("%q: want I/N, part I of N (2/3)", s)
	}
	sh := synth.Shard{Index: i, Count: n}
	return sh, sh.Check()
}

// defaultICPath is where an IC file of the program at path goes unless -o
// says otherwise: the path with ext for its extension, or, for Go code,
// icgen plus ext in the package's directory.
func defaultICPath(path, ext string, isGo bool) string {
	if isGo {
		return goOutput(path, ext)
	}
	return strings.TrimSuffix(path, filepath.Ext(path)) + ext
}

// renderICs writes an IC file in a format of icgen synth.
func renderICs(f *ic.File, format string) ([]byte, error) {
	switch format {
	case "text":
		return []byte(textICs(f)), nil
	case "smtlib":
		return []byte(smtlibICs(f)), nil
	}
	data, err := ic.Marshal(f)
	if err != nil {
		return nil, &exitError{code: ExitInternal, err: err}
	}
	return data, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// textICs renders one line per pair: I(a,b) = {constraints} [status].
func textICs(f *ic.File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# independence constraints of %s (hash %s)\n", f.Program, f.Hash[:12])
	if len(f.Invariants) > 0 {
		texts := make([]string, len(f.Invariants))
		for i, c := range f.Invariants {
			texts[i] = c.Text
		}
		fmt.Fprintf(&b, "# assuming the invariants {%s}\n", strings.Join(texts, ", "))
	}
	for _, p := range f.Pairs {
		texts := make([]string, len(p.Constraints))
		for i, c := range p.Constraints {
			texts[i] = c.Text
			if c.Go != "" {
				texts[i] = c.Go
			}
		}
		exact := ""
		if p.Exact {
			exact = ", exact"
		}
		fmt.Fprintf(&b, "I(%s, %s') = {%s}  [%s%s]", p.A, p.B, strings.Join(texts, ", "), p.Status, exact)
		// The guard is long; its globals are what uniformity (U⇒) asks of
		// besides the constraints'.
		if p.NoOverflow != nil && len(p.Constraints) > 0 {
			if gs := p.NoOverflow.Globals(); len(gs) > 0 {
				fmt.Fprintf(&b, "  %s overflow guard reads {%s}", p.NoOverflowKind, strings.Join(gs, ", "))
			}
		}
		if p.Reason != "" {
			fmt.Fprintf(&b, "  reason: %s", p.Reason)
		}
		b.WriteByte('\n')
	}
	for _, bl := range f.Blocks {
		fmt.Fprintf(&b, "W(%s) = {%s}\n", bl.ID, strings.Join(bl.W, ", "))
	}
	return b.String()
}

// smtlibICs renders every constraint as a define-fun over declared state
// variables, loadable by any SMT-LIB2 solver.
func smtlibICs(f *ic.File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "; independence constraints of %s (hash %s)\n", f.Program, f.Hash)
	fmt.Fprintf(&b, "; |ic(A,B).k| holds where blocks A and B commute (B's process's locals primed);\n")
	fmt.Fprintf(&b, "; it includes the pair's no-overflow guard")
	decls := map[string]bool{}
	var body strings.Builder
	if len(f.Invariants) > 0 {
		fmt.Fprintf(&b, ", and assumes invariants")
		var conj []string
		for _, c := range f.Invariants {
			for _, d := range c.Declare {
				decls[d] = true
			}
			conj = append(conj, c.SMTLIB)
		}
		fmt.Fprintf(&body, "(define-fun %s () Bool (and true %s))\n", ic.Symbol("invariants()"), strings.Join(conj, " "))
	}
	b.WriteString("\n")
	for _, p := range f.Pairs {
		fmt.Fprintf(&body, "; I(%s, %s): %s", p.A, p.B, p.Status)
		if p.Reason != "" {
			fmt.Fprintf(&body, " (%s)", p.Reason)
		}
		body.WriteByte('\n')
		for k, c := range p.Constraints {
			for _, d := range c.Declare {
				decls[d] = true
			}
			def := c.SMTLIB
			if p.NoOverflow != nil {
				guard := ic.Symbol(fmt.Sprintf("no_overflow(%s,%s)", p.A, p.B))
				if k == 0 {
					for _, d := range p.NoOverflow.Declarations() {
						decls[d] = true
					}
					fmt.Fprintf(&body, "(define-fun %s () Bool %s)\n", guard, ic.SMTLIB(p.NoOverflow))
				}
				def = "(and " + def + " " + guard + ")"
			}
			fmt.Fprintf(&body, "(define-fun %s () Bool %s) ; %s\n", ic.Symbol(fmt.Sprintf("ic(%s,%s).%d", p.A, p.B, k+1)), def, c.Text)
		}
	}
	var ds []string
	for d := range decls {
		ds = append(ds, d)
	}
	sort.Strings(ds)
	for _, d := range ds {
		b.WriteString(d + "\n")
	}
	b.WriteString(body.String())
	return b.String()
}

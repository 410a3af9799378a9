package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/synth"
	"github.com/spf13/cobra"
)

// childEnv marks an icgen process started by icgen bench for one run.
const childEnv = "ICGEN_CLI_CHILD"

// benchRun is the outcome of one exploration run in a child process.
type benchRun struct {
	Algo    string  `json:"algo"`
	Traces  int     `json:"traces"`
	States  int     `json:"states"`
	Seconds float64 `json:"seconds"`
	// Cut is why the run stopped early: "timeout", "memory", or a bound.
	Cut string `json:"stopped_early,omitempty"`
	// Error is set when the run failed (its message).
	Error  string  `json:"error,omitempty"`
	Finals int     `json:"final_states"`
	MiB    float64 `json:"peak_rss_mib"`
	// MaxDnD and Longest are the ISSTA'19 paper's MD and MS - 1 (see
	// dporrt.Stats).
	MaxDnD  int `json:"max_dnd"`
	Longest int `json:"longest"`
	// NoOverflow: the run had --assume-no-overflow (runs with ICs only).
	NoOverflow bool `json:"assume_no_overflow,omitempty"`
}

// benchTable is a table icgen bench prints: the papers' Table 1.
type benchTable struct {
	name   string
	sizes  *regexp.Regexp // the header line with a program's sizes for it
	algos  string         // the default --algos
	traces string         // the complete traces' column
	gains  []gain
	// dnd adds, for the algorithms that keep don't-do sets, MD, MS and
	// the peak resident memory.
	dnd bool
}

// benchTables are the tables of --table.
var benchTables = []benchTable{
	{name: "cav18", sizes: sizesLine("sizes"), algos: "sdpor,csdpor,cdpor,codpor", traces: "Tr", gains: []gain{
		{"G^s", dporrt.SDPOR, dporrt.CDPOR, false},
		{"G^cs", dporrt.CSDPOR, dporrt.CDPOR, false},
		{"G^smt", dporrt.CSDPOR, dporrt.CDPOR, true},
	}},
	{name: "issta19", sizes: sizesLine("issta19-sizes"), algos: "csdpor,odpor-ob,odpor-cs-ob,codpor,codpor-ob", traces: "E", dnd: true, gains: []gain{
		{"G_T^cs", dporrt.CSDPOR, dporrt.ODPCSO, false},
		{"G_T^ob", dporrt.ODPOB, dporrt.ODPCSO, false},
	}},
}

// sizesLine matches a header line "// KEY: N, N, ...".
func sizesLine(key string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*//\s*` + regexp.QuoteMeta(key) + `:\s*([0-9, ]+)\s*$`)
}

// keepsDnD reports whether an algorithm keeps don't-do sets (its MD and
// MS are printed).
func keepsDnD(a string) bool {
	info, _ := dporrt.Lookup(dporrt.Algorithm(a))
	return info.Loop == dporrt.LoopOptimal && info.Check != dporrt.CheckNone
}

// benchRow is one program at one size.
type benchRow struct {
	Bench   string              `json:"bench"`
	File    string              `json:"file"`
	N       int64               `json:"n"`
	SMT     float64             `json:"smt_seconds"`
	Runs    map[string]benchRun `json:"runs"`
	Speedup map[string]string   `json:"speedups"`
}

func newBenchCmd(e *env) *cobra.Command {
	var (
		algos   string
		table   string
		timeout time.Duration
		sizes   []string
		format  string
		dep     string
		whole   bool
		noOvf   bool
		maxMem  int
		showPrg bool
		out     string
		asJSON  bool
		cells   cellFlags
	)
	cmd := &cobra.Command{
		Use:   "bench [FILE...]",
		Short: "Compare the DPOR algorithms on benchmark programs (the papers' Table 1)",
		Long: `Run each benchmark program at each of its sizes with each algorithm and print
a table, the CAV'18 paper's Table 1 (--table cav18, the default) or the
ISSTA'19 paper's (--table issta19).

cav18: for each algorithm (default sdpor, csdpor, cdpor, codpor) the complete traces
(Tr), the states (S, events executed) and the time in seconds (T); T^smt,
the time to synthesize the ICs (once per program, used by cdpor at every
size); and the speedups G^s = T(sdpor)/T(cdpor), G^cs = T(csdpor)/T(cdpor)
and G^smt = T(csdpor)/(T(cdpor)+T^smt).

issta19: for each algorithm (default csdpor, odpor-ob, odpor-cs-ob, codpor,
codpor-ob) the complete traces (E), the states (S) and the time (T); for
those that keep don't-do sets (odpor-cs, odpor-cs-ob, codpor, codpor-ob) also MD, the largest sum of the
don't-do set sizes along a sequence, MS, the states of the longest
sequence (root included), and RSS, the peak resident memory in MiB; and the
speedups G_T^cs = T(csdpor)/T(odpor-cs-ob) and
G_T^ob = T(odpor-ob)/T(odpor-cs-ob).

A run stopped by --timeout shows its counts and time as >X, as the papers
do; a run over --max-memory shows mem. Any algorithms may be given with
--algos; a speedup is printed when both of its algorithms are.

Without FILE, the programs of testdata/bench that have the table's sizes
line are run: "// sizes: N, N, ..." for cav18, "// issta19-sizes: N, ..."
for issta19. A program given as FILE without that line is run at the sizes
of its other line, or at its default N. --sizes NAME=N,N,... overrides them
for the program named NAME (file name without .blk).

The papers' programs run over mathematical integers. Here an overflow is a
runtime error, and a race is uniform only where no other process may write
what the pair's overflow guard reads, unless no run of the program can
overflow (see icgen explore --help). That is proven on the CDPOR
benchmarks (all but BB, whose consumers wait on globals), so cdpor, codpor
and codpor-ob get the papers' reductions there by default.
--assume-no-overflow takes the guards as holding in any case, as the
papers' setting does, proven or not.

Interrupted (Ctrl-C), bench stops its runs and exits 130 without a table.

On a terminal, stderr shows a line per finished run and a live line for the
run under way (program, size, algorithm, time so far); --progress prints
them where stderr is not a terminal too, the live line as plain lines, one
a second.

Every run is a separate icgen process, so one blow-up cannot take the table
down; its resident memory is watched and the run is stopped beyond
--max-memory. Every run uses --dep: locals by default; --dep static is the
papers' tools' setting, where the papers' counts are comparable.

A batch engine runs a table one job per run through its cells. A cell is
one program at one size with one algorithm. The cells of the table that
the same flags and FILEs make are numbered from 0 in table order (the
programs, each size, each algorithm of --algos) and named NAME/N=SIZE/ALGO
(fib/N=6/cdpor; NAME is the file name without .blk). --list-cells prints
them, "INDEX ID" a line (JSON with --json). --cell ID|INDEX runs one and
writes it as JSON: the cell, its run, its T^smt when its algorithm uses
ICs, and its table (--table, --algos, --dep, --whole-arrays,
--assume-no-overflow, --timeout, --max-memory, the programs with their
source hashes and sizes). --cell-from-env VAR takes the index from the
environment variable VAR: SLURM_ARRAY_TASK_ID of a Slurm job array,
JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, both from 0.
--from-cells FILE... prints the table of the cells given, in any order:
the table one run prints, in every count. It refuses, naming them, cells
of different tables, a cell given twice and cells missing; --algos takes
some of the cells' algorithms as the columns, and then only their cells
must be there. One run synthesizes a program's ICs once, for all its rows;
a cell synthesizes them itself, so the cells of a row each have their own
T^smt, and the row's T^smt is the least of them. See docs/scaling.md.

` + depHelp() + `

` + outputFilesHelp,
		Example: `  icgen bench
  icgen bench --table issta19 --timeout 120s
  icgen bench --table issta19 --algos odpor,odpor-cs,odpor-ob,odpor-cs-ob testdata/bench/lw.blk
  icgen bench --algos sdpor,cdpor --timeout 10s --sizes fib=6,7,8 testdata/bench/fib.blk
  icgen bench --algos cdpor,codpor --assume-no-overflow
  icgen bench --format csv -o table.csv
  icgen bench --progress --format json testdata/bench/fib.blk > fib.json 2> fib.log
  icgen bench --list-cells --algos sdpor,cdpor testdata/bench/fib.blk    # 12 cells, 0 to 11
  icgen bench --cell fib/N=7/cdpor --algos sdpor,cdpor -o cells/3.json testdata/bench/fib.blk
  icgen bench --cell-from-env SLURM_ARRAY_TASK_ID --algos sdpor,cdpor \
    -o "cells/$SLURM_ARRAY_TASK_ID.json" testdata/bench/fib.blk
  icgen bench --from-cells cells/*.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				if cmd.Flags().Changed("format") && format != "json" {
					return badInput("--json and --format %s: give one of them", format)
				}
				format = "json"
			}
			switch format {
			case "md", "csv", "json":
			default:
				return badInput("--format %q: want md, csv or json", format)
			}
			if err := cells.check(cmd, format); err != nil {
				return err
			}
			ti := slices.IndexFunc(benchTables, func(t benchTable) bool { return t.name == table })
			if ti < 0 {
				return badInput("--table %q: want cav18 or issta19", table)
			}
			tab := benchTables[ti]
			var list []string
			if cmd.Flags().Changed("algos") || !cells.from {
				if !cmd.Flags().Changed("algos") {
					algos = tab.algos
				}
				var err error
				if list, err = parseAlgos(algos); err != nil {
					return err
				}
			}
			if cells.from {
				return e.benchFromCells(args, list, format, out)
			}
			if _, err := dporrt.ParseDep(dep); err != nil {
				return badInput("--dep %q: want locals or static", dep)
			}
			over := map[string][]int64{}
			for _, s := range sizes {
				name, vals, ok := strings.Cut(s, "=")
				ns, err := parseSizes(vals)
				if !ok || err != nil || name == "" {
					return badInput("--sizes %q: want NAME=N,N,...", s)
				}
				over[name] = ns
			}
			if len(args) == 0 {
				all, _ := filepath.Glob(filepath.Join("testdata", "bench", "*.blk"))
				for _, f := range all {
					if src, err := os.ReadFile(f); err == nil && tab.sizes.Match(src) {
						args = append(args, f)
					}
				}
				if len(args) == 0 {
					return badInput("no FILE given and no testdata/bench/*.blk here with a %q line", tab.name)
				}
			}
			// A --sizes name that no program run has would be ignored.
			run := make([]string, len(args))
			for i, f := range args {
				run[i] = benchName(f)
			}
			for name := range over {
				if !slices.Contains(run, name) {
					return badInput("--sizes %s=...: no program %s.blk among those run (%s)", name, name, strings.Join(run, ", "))
				}
			}
			dst, err := prepareOutput("-o", out, args...)
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			b := &bencher{e: e, ctx: ctx, tab: tab, algos: list, timeout: timeout, dep: dep, whole: whole, noOverflow: noOvf, maxMem: maxMem, prog: e.newProgress(true, showPrg)}
			defer b.prog.done()
			what := "table"
			switch {
			case cells.list:
				what = "cell list"
			case cells.runsOne():
				what = "cell"
			}
			progs, err := b.programs(args, over)
			var buf bytes.Buffer
			switch {
			case err != nil:
			case cells.list || cells.runsOne():
				err = b.cellOutput(&buf, cells, progs, format == "json")
			default:
				var rows []benchRow
				if rows, err = b.table(progs); err == nil {
					writeBenchTable(&buf, tab, list, rows, format, timeout, noOvf)
				}
			}
			b.prog.done()
			if err != nil {
				return toolFailed(ctx, err, "interrupted: no "+what+" written")
			}
			return dst.write(buf.Bytes(), e.stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&algos, "algos", "", "algorithms to compare, comma-separated (default: the table's, see above)")
	f.StringVar(&table, "table", "cav18", "the table: cav18 (CAV'18 Table 1) or issta19 (ISSTA'19 Table 1)")
	f.DurationVar(&timeout, "timeout", 60*time.Second, "time budget of each run")
	f.StringArrayVar(&sizes, "sizes", nil, "NAME=N,N,...: the sizes of program NAME (repeatable)")
	f.StringVar(&format, "format", "md", "output: md, csv or json")
	f.BoolVar(&asJSON, "json", false, "print JSON (--format json)")
	f.StringVarP(&out, "output", "o", "-", "write the table, the cell list or the cell to this file (- for stdout); see Output files")
	f.StringVar(&dep, "dep", "locals", "dependency of every algorithm: locals or static (the papers' tools' setting)")
	f.BoolVar(&noOvf, "assume-no-overflow", false, "cdpor, codpor, codpor-ob: uniformity ignores the overflow guards, as over the papers' mathematical integers, even where no proof says no run overflows (see icgen explore --help)")
	f.BoolVar(&whole, "whole-arrays", false, "static dependency: every array is one location, as the papers' tools (see icgen explore --help)")
	f.IntVar(&maxMem, "max-memory", 4096, "stop a run whose resident memory exceeds this many MiB")
	f.BoolVar(&showPrg, "progress", false, "show the runs' progress on stderr even where it is not a terminal (plain lines, one a second)")
	cells.add(f)
	return cmd
}

type bencher struct {
	e       *env
	tab     benchTable
	ctx     context.Context // an interrupt stops the runs
	algos   []string
	timeout time.Duration
	dep     string
	whole   bool // --whole-arrays
	// noOverflow: --assume-no-overflow, given to the runs with ICs.
	noOverflow bool
	maxMem     int
	prog       *progress // nil: no progress shown
}

// parseAlgos reads --algos: algorithm names, comma-separated.
func parseAlgos(s string) ([]string, error) {
	var list []string
	for _, a := range strings.Split(s, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if _, ok := dporrt.Lookup(dporrt.Algorithm(a)); !ok {
			return nil, badInput("--algos: unknown algorithm %q (known: %s)", a, strings.Join(dporrt.Names(), ", "))
		}
		list = append(list, a)
	}
	if len(list) == 0 {
		return nil, badInput("--algos: no algorithm")
	}
	return list, nil
}

func parseSizes(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no size")
	}
	return out, nil
}

// benchName is the name of a benchmark program in the tables and in
// --sizes: its file name without .blk.
func benchName(file string) string { return strings.TrimSuffix(filepath.Base(file), ".blk") }

// benchProgram is a program of a table with the sizes it runs at.
type benchProgram struct {
	name  string // benchName of file
	file  string
	l     *loaded
	sizes []int64
}

// programs loads the table's programs and reads their sizes: over[name]
// (--sizes), else the table's sizes line, else another table's, else the
// program's default N.
func (b *bencher) programs(files []string, over map[string][]int64) ([]benchProgram, error) {
	var out []benchProgram
	for _, file := range files {
		p, err := b.program(file, over)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// program loads one program of the table and reads its sizes.
func (b *bencher) program(file string, over map[string][]int64) (benchProgram, error) {
	l, err := b.e.load(file, false)
	if err != nil {
		return benchProgram{}, err
	}
	name := benchName(file)
	var ns []int64
	lines := []*regexp.Regexp{b.tab.sizes}
	for _, t := range benchTables {
		if t.name != b.tab.name {
			lines = append(lines, t.sizes)
		}
	}
	for _, re := range lines {
		if ns != nil || over[name] != nil || !re.Match(l.src) {
			continue
		}
		if ns, err = parseSizes(string(re.FindSubmatch(l.src)[1])); err != nil {
			return benchProgram{}, badInput("%s: sizes line: %v", file, err)
		}
	}
	switch {
	case over[name] != nil:
		ns = over[name]
	case ns != nil:
	default:
		m, err := l.machine(nil)
		if err != nil {
			return benchProgram{}, err
		}
		for _, p := range m.Prog.Params {
			if p.Name == "N" {
				ns = []int64{m.Param(p)}
			}
		}
		if ns == nil {
			return benchProgram{}, badInput("%s: no param N and no sizes line", file)
		}
	}
	return benchProgram{name: name, file: file, l: l, sizes: ns}, nil
}

// table runs every cell of the table, program by program.
func (b *bencher) table(progs []benchProgram) ([]benchRow, error) {
	var rows []benchRow
	for _, p := range progs {
		r, err := b.rows(p)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// rows runs p at each of its sizes with each algorithm; its ICs are
// synthesized once, for all its rows.
func (b *bencher) rows(p benchProgram) ([]benchRow, error) {
	smt := 0.0
	var icPath string
	if needsICs(b.algos) {
		path, secs, remove, err := b.ics(p)
		if err != nil {
			return nil, err
		}
		defer remove()
		icPath, smt = path, secs
	}
	var rows []benchRow
	for _, n := range p.sizes {
		row := benchRow{Bench: p.name, File: p.file, N: n, SMT: smt, Runs: map[string]benchRun{}}
		for _, a := range b.algos {
			r, err := b.cell(p, n, a, icPath)
			if err != nil {
				return nil, err
			}
			row.Runs[a] = r
		}
		row.Speedup = speedups(b.tab, row)
		rows = append(rows, row)
	}
	return rows, nil
}

// ics synthesizes the ICs of p into a temporary file for its runs, and
// returns the file, the time the synthesis took (T^smt) and a function
// that removes the file.
func (b *bencher) ics(p benchProgram) (path string, smt float64, remove func(), err error) {
	start := time.Now()
	opts := synth.Options{Workers: runtime.NumCPU()}
	if b.prog != nil {
		opts.Progress = func(done, total int) {
			b.prog.update(fmt.Sprintf("bench: %s: synthesizing the ICs: %d/%d pairs, %s", p.name, done, total, span(time.Since(start))))
		}
	}
	f, err := await(b.ctx, func() (*ic.File, error) {
		f, _, err := synth.Run(b.ctx, p.l.prog, opts)
		return f, err
	})
	if err != nil {
		return "", 0, nil, toolFailed(b.ctx, err, "interrupted")
	}
	smt = time.Since(start).Seconds()
	data, err := ic.Marshal(f)
	if err != nil {
		return "", 0, nil, &exitError{code: ExitInternal, err: err}
	}
	dir, err := os.MkdirTemp("", "icgen-bench")
	if err != nil {
		return "", 0, nil, &exitError{code: ExitInternal, err: err}
	}
	remove = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, p.name+".ic.json")
	dst, err := prepareOutput("the runs' IC file", path)
	if err == nil {
		err = dst.write(data, nil)
	}
	if err != nil {
		remove()
		return "", 0, nil, err
	}
	return path, smt, remove, nil
}

// cell runs p at size n with algo, the ICs (for an algorithm that uses
// them) read from icPath, and notes the outcome on the progress lines.
// A table run and a --cell run both run their cells here.
func (b *bencher) cell(p benchProgram, n int64, algo, icPath string) (benchRun, error) {
	what := fmt.Sprintf("%s N=%d %s", p.name, n, algo)
	r := b.run(p.file, algo, n, icPath, func(d time.Duration) {
		b.prog.update(fmt.Sprintf("bench: %s: running, %s of at most %s", what, span(d), b.timeout))
	})
	if b.ctx.Err() != nil {
		return benchRun{}, context.Cause(b.ctx)
	}
	b.prog.note(what + ": " + r.summary())
	return r, nil
}

func (r benchRun) summary() string {
	switch {
	case r.Error != "":
		return "error: " + r.Error
	case r.Cut != "":
		return fmt.Sprintf("%d traces, %d states, stopped (%s) after %.2fs", r.Traces, r.States, r.Cut, r.Seconds)
	}
	return fmt.Sprintf("%d traces, %d states, %.2fs", r.Traces, r.States, r.Seconds)
}

// run explores file at size n with algo in a child icgen process, watching
// its resident memory; tick is called with the time so far as it runs.
func (b *bencher) run(file, algo string, n int64, icPath string, tick func(time.Duration)) benchRun {
	out := benchRun{Algo: algo}
	self, err := os.Executable()
	if err != nil {
		out.Error = err.Error()
		return out
	}
	args := []string{"explore", "--json", "--algo", algo, "-D", fmt.Sprintf("N=%d", n), "--timeout", b.timeout.String()}
	if info, _ := dporrt.Lookup(dporrt.Algorithm(algo)); info.NeedsICs {
		args = append(args, "--ics", icPath)
		if b.noOverflow {
			args = append(args, "--assume-no-overflow")
			out.NoOverflow = true
		}
	}
	args = append(args, "--dep", b.dep)
	if b.whole {
		args = append(args, "--whole-arrays")
	}
	args = append(args, file)
	// The run stops itself at the timeout; the hard limit is for a run that
	// cannot (a single event that never ends is bounded by the step budget).
	ctx, cancel := context.WithTimeout(b.ctx, b.timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		out.Error = err.Error()
		return out
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	ticker := time.NewTicker(50 * time.Millisecond)
	defer ticker.Stop()
	for {
		select {
		case err = <-done:
		case <-ticker.C:
			tick(time.Since(start))
			mib := rssMiB(cmd.Process.Pid)
			if mib > out.MiB {
				out.MiB = mib
			}
			if b.maxMem > 0 && mib > float64(b.maxMem) {
				_ = cmd.Process.Kill()
				<-done
				out.Cut, out.Seconds = "memory", time.Since(start).Seconds()
				return out
			}
			continue
		}
		break
	}
	var res struct {
		Traces  int        `json:"traces"`
		States  int        `json:"states"`
		Finals  int        `json:"final_states"`
		Seconds float64    `json:"seconds"`
		Cut     string     `json:"stopped_early"`
		MaxDnD  int        `json:"max_dnd"`
		Longest int        `json:"longest"`
		MiB     float64    `json:"memory_mib"` // the child's own peak
		Algo    string     `json:"algo"`
		Error   string     `json:"error"` // the child failed: see executeIn
		Errors  []struct { // the program failed to load at n
			Line    int    `json:"line"`
			Col     int    `json:"col"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	jerr := json.Unmarshal(stdout.Bytes(), &res)
	if jerr == nil && res.Algo == "" {
		jerr = errors.New("not a report") // an error object, or diagnostics
	}
	if jerr != nil {
		msg := res.Error // the child's own report of its error
		if len(res.Errors) > 0 {
			d := res.Errors[0]
			msg = fmt.Sprintf("%s:%d:%d: %s", file, d.Line, d.Col, d.Message)
		}
		if msg == "" {
			msg = strings.TrimSpace(stderr.String())
		}
		if msg == "" && err != nil {
			msg = err.Error()
		}
		if ctx.Err() != nil {
			msg = "killed at the hard time limit"
		}
		out.Error = firstLine(msg)
		return out
	}
	out.Traces, out.States, out.Finals, out.Seconds, out.Cut = res.Traces, res.States, res.Finals, res.Seconds, res.Cut
	out.MaxDnD, out.Longest, out.MiB = res.MaxDnD, res.Longest, max(out.MiB, res.MiB)
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// rssMiB reads the resident set size of a process (Linux), 0 if unknown.
func rssMiB(pid int) float64 { return procStatusMiB(fmt.Sprint(pid), "VmRSS:") }

// peakRSSMiB reads this process's peak resident set size (Linux), 0 if
// unknown.
func peakRSSMiB() float64 { return procStatusMiB("self", "VmHWM:") }

// procStatusMiB reads a size field of /proc/PID/status in MiB, 0 if unknown.
func procStatusMiB(pid, field string) float64 {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

// gain is a speedup column, as the papers print them: T(num) / T(den),
// with T^smt added to the denominator when smt is set.
type gain struct {
	name     string
	num, den dporrt.Algorithm
	smt      bool
}

// speedups computes the gains of a row whose algorithms both ran: >X when
// the slower run hit the timeout, - when the faster did not finish or
// failed.
func speedups(tab benchTable, row benchRow) map[string]string {
	out := map[string]string{}
	for _, g := range tab.gains {
		num, ok1 := row.Runs[string(g.num)]
		den, ok2 := row.Runs[string(g.den)]
		if !ok1 || !ok2 {
			continue
		}
		t := den.Seconds
		if g.smt {
			t += row.SMT
		}
		switch {
		case num.Error != "" || den.Error != "" || den.Cut != "" || t <= 0:
			out[g.name] = "-"
		case num.Cut != "":
			out[g.name] = fmt.Sprintf(">%s", sig(num.Seconds/t))
		default:
			out[g.name] = sig(num.Seconds / t)
		}
	}
	return out
}

// needsICs reports whether one of the algorithms uses an IC file.
func needsICs(algos []string) bool {
	for _, a := range algos {
		if info, _ := dporrt.Lookup(dporrt.Algorithm(a)); info.NeedsICs {
			return true
		}
	}
	return false
}

// sig prints a ratio with about three significant digits.
func sig(x float64) string {
	switch {
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// fields are the Tr, S, T fields of a run in a table.
func (r benchRun) fields() [3]string {
	switch {
	case r.Error != "":
		return [3]string{"err", "err", "err"}
	case r.Cut == "memory":
		return [3]string{"mem", "mem", "mem"}
	case r.Cut != "":
		return [3]string{">" + compact(r.Traces), ">" + compact(r.States), fmt.Sprintf(">%.1f", r.Seconds)}
	}
	return [3]string{compact(r.Traces), compact(r.States), fmt.Sprintf("%.2f", r.Seconds)}
}

// dndFields are the MD, MS and RSS fields of a run: >X when it was cut.
func (r benchRun) dndFields() []string {
	switch {
	case r.Error != "":
		return []string{"err", "err", "err"}
	case r.Cut == "memory":
		return []string{"mem", "mem", "mem"}
	}
	more := ""
	if r.Cut != "" {
		more = ">"
	}
	return []string{more + compact(r.MaxDnD), more + compact(r.Longest+1), fmt.Sprintf("%.0f", r.MiB)}
}

// compact prints counts as the paper does: 26k for 26,000.
func compact(n int) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 10_000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

func benchHeader(tab benchTable, algos []string) []string {
	h := []string{"bench", "N"}
	for _, a := range algos {
		h = append(h, a+" "+tab.traces, a+" S", a+" T")
		if tab.dnd && keepsDnD(a) {
			h = append(h, a+" MD", a+" MS", a+" RSS")
		}
	}
	if needsICs(algos) {
		h = append(h, "T^smt")
	}
	for _, g := range tab.gains {
		if slices.Contains(algos, string(g.num)) && slices.Contains(algos, string(g.den)) {
			h = append(h, g.name)
		}
	}
	return h
}

func benchFields(tab benchTable, algos []string, r benchRow) []string {
	c := []string{r.Bench, strconv.FormatInt(r.N, 10)}
	for _, a := range algos {
		run := r.Runs[a]
		x := run.fields()
		c = append(c, x[:]...)
		if tab.dnd && keepsDnD(a) {
			c = append(c, run.dndFields()...)
		}
	}
	if needsICs(algos) {
		c = append(c, fmt.Sprintf("%.2f", r.SMT))
	}
	for _, g := range tab.gains {
		if slices.Contains(algos, string(g.num)) && slices.Contains(algos, string(g.den)) {
			c = append(c, r.Speedup[g.name])
		}
	}
	return c
}

// writeBenchTable writes the table of rows with the columns of algos in
// format (md, csv or json); timeout and noOverflow are the runs' options,
// which md and csv state.
func writeBenchTable(w io.Writer, tab benchTable, algos []string, rows []benchRow, format string, timeout time.Duration, noOverflow bool) {
	switch format {
	case "json":
		writeJSON(w, rows)
	case "csv":
		writeBenchCSV(w, tab, algos, rows, noOverflow)
	default:
		writeBenchMD(w, tab, algos, rows, timeout)
		if noOverflow {
			fmt.Fprintln(w, "The runs with ICs assumed no overflow (--assume-no-overflow).")
		}
	}
}

func writeBenchMD(w io.Writer, tab benchTable, algos []string, rows []benchRow, timeout time.Duration) {
	h := benchHeader(tab, algos)
	fmt.Fprintf(w, "| %s |\n", strings.Join(h, " | "))
	fmt.Fprintf(w, "|%s\n", strings.Repeat(" --- |", len(h)))
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(benchFields(tab, algos, r), " | "))
	}
	fmt.Fprintf(w, "\nTimes in seconds; runs stopped at %s show >X.\n", timeout)
}

// writeBenchCSV writes the table as CSV; with noOverflow
// (--assume-no-overflow) a last column says so on every row, as the md
// table's footer does.
func writeBenchCSV(w io.Writer, tab benchTable, algos []string, rows []benchRow, noOverflow bool) {
	cw := csv.NewWriter(w)
	h := benchHeader(tab, algos)
	if noOverflow {
		h = append(h, "assume_no_overflow")
	}
	_ = cw.Write(h)
	for _, r := range rows {
		c := benchFields(tab, algos, r)
		if noOverflow {
			c = append(c, "true")
		}
		_ = cw.Write(c)
	}
	cw.Flush()
}

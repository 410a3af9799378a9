package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A cell of a bench table is one program at one size with one algorithm:
// one run. The cells of a table are numbered from 0 in the order a table
// run runs them (programs in the order given, each at its sizes in order,
// each size with the algorithms in --algos order), so the same command
// line numbers them the same way on every machine, and a batch engine can
// run cell I of K as job I. A cell's ID is NAME/N=SIZE/ALGO
// (fib/N=6/sdpor): NAME, the program's file name without .blk, holds no
// slash.

// cellFlags are the flags of bench that run a table cell by cell.
type cellFlags struct {
	list bool   // --list-cells
	cell string // --cell ID|INDEX
	env  string // --cell-from-env VAR
	from bool   // --from-cells
}

func (c *cellFlags) add(f *pflag.FlagSet) {
	f.BoolVar(&c.list, "list-cells", false, "list the cells of the table, one a line: its index (from 0) and ID NAME/N=SIZE/ALGO; JSON with --json")
	f.StringVar(&c.cell, "cell", "", "run one cell of the table, given by ID or index, and write its result as JSON (for --from-cells)")
	f.StringVar(&c.env, "cell-from-env", "", "as --cell, with the index read from this environment variable (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)")
	f.BoolVar(&c.from, "from-cells", false, "FILE... are cells written by --cell: print their table")
}

// fromCellsFixed are the flags whose values --from-cells takes from the
// cells.
var fromCellsFixed = []string{"table", "dep", "whole-arrays", "assume-no-overflow", "timeout", "max-memory", "sizes"}

// check refuses cell flags that go together with another mode or that a
// mode cannot honour; format is the output format asked for.
func (c cellFlags) check(cmd *cobra.Command, format string) error {
	fl := cmd.Flags()
	var modes []string
	for _, name := range []string{"list-cells", "cell", "cell-from-env", "from-cells"} {
		if fl.Changed(name) {
			modes = append(modes, "--"+name)
		}
	}
	switch {
	case len(modes) > 1:
		return badInput("%s: give one of them", strings.Join(modes, " and "))
	case fl.Changed("cell") && c.cell == "":
		return badInput("--cell: want a cell's ID (NAME/N=SIZE/ALGO) or index")
	case fl.Changed("cell-from-env") && c.env == "":
		return badInput("--cell-from-env: want the name of an environment variable")
	case c.runsOne() && fl.Changed("format") && format != "json":
		return badInput("--cell writes its result as JSON (what --from-cells reads), not %s", format)
	case c.list && format == "csv":
		return badInput("--list-cells prints lines, or JSON with --json, not csv")
	}
	if c.from {
		for _, name := range fromCellsFixed {
			if fl.Changed(name) {
				return badInput("--from-cells takes --%s from the cells: leave it out", name)
			}
		}
	}
	return nil
}

// runsOne reports whether the flags ask for one cell to be run.
func (c cellFlags) runsOne() bool { return c.cell != "" || c.env != "" }

// cellRef is a cell of a table: its place and what it runs.
type cellRef struct {
	Index int    `json:"index"`
	ID    string `json:"id"`
	Bench string `json:"bench"`
	File  string `json:"file"`
	N     int64  `json:"n"`
	Algo  string `json:"algo"`
	prog  int    // the program's index in the table
}

// cellID is the ID of a cell: NAME/N=SIZE/ALGO.
func cellID(bench string, n int64, algo string) string {
	return fmt.Sprintf("%s/N=%d/%s", bench, n, algo)
}

// cellsOf lists the cells of a table with algos over progs, in table
// order. Two cells of one ID (two programs of one name, a size or an
// algorithm given twice) are refused.
func cellsOf(progs []benchProgram, algos []string) ([]cellRef, error) {
	var cells []cellRef
	seen := map[string]bool{}
	for i, p := range progs {
		if j := slices.IndexFunc(progs[:i], func(q benchProgram) bool { return q.name == p.name }); j >= 0 {
			return nil, badInput("%s and %s are both named %s: the cells of a table name their programs by file name", progs[j].file, p.file, p.name)
		}
		for _, n := range p.sizes {
			for _, a := range algos {
				id := cellID(p.name, n, a)
				if seen[id] {
					return nil, badInput("cell %s comes twice in the table: a size or an algorithm is given twice", id)
				}
				seen[id] = true
				cells = append(cells, cellRef{Index: len(cells), ID: id, Bench: p.name, File: p.file, N: n, Algo: a, prog: i})
			}
		}
	}
	return cells, nil
}

// howToList is how a user sees a table's cells, for messages.
const howToList = "icgen bench --list-cells with the same flags and FILEs lists them"

// pick returns the cell that --cell or --cell-from-env names; lookup
// reads the environment.
func (c cellFlags) pick(cells []cellRef, lookup func(string) (string, bool)) (cellRef, error) {
	what, arg := "--cell "+c.cell, c.cell
	if c.env != "" {
		v, ok := lookup(c.env)
		if !ok {
			return cellRef{}, badInput("--cell-from-env %s: %s is not set", c.env, c.env)
		}
		if _, err := strconv.Atoi(strings.TrimSpace(v)); err != nil {
			return cellRef{}, badInput("--cell-from-env %s: %s=%q is not a cell index (an integer from 0 to %d)", c.env, c.env, v, len(cells)-1)
		}
		what, arg = fmt.Sprintf("--cell-from-env %s: %s=%s", c.env, c.env, v), strings.TrimSpace(v)
	}
	if i, err := strconv.Atoi(arg); err == nil {
		if i < 0 || i >= len(cells) {
			return cellRef{}, badInput("%s: no such cell, the table has %d (0 to %d; %s)", what, len(cells), len(cells)-1, howToList)
		}
		return cells[i], nil
	}
	if i := slices.IndexFunc(cells, func(x cellRef) bool { return x.ID == arg }); i >= 0 {
		return cells[i], nil
	}
	return cellRef{}, badInput("%s: no such cell in the table (%s)", what, howToList)
}

// writeCellList writes the cells one a line, index and ID, or as JSON.
func writeCellList(w io.Writer, cells []cellRef, asJSON bool) {
	if asJSON {
		writeJSON(w, cells)
		return
	}
	for _, c := range cells {
		fmt.Fprintf(w, "%d %s\n", c.Index, c.ID)
	}
}

// benchCell is what a --cell run writes: the cell, its run and, for an
// algorithm that uses ICs, the time the cell took to synthesize them; and
// the table it is a cell of, which cells put together must share.
type benchCell struct {
	cellRef
	SMT   float64   `json:"smt_seconds,omitempty"`
	Run   benchRun  `json:"run"`
	Table cellTable `json:"table"`
}

// cellTable is a table as its cells record it: the options that decide
// its results and its programs with their sizes, which decide its cells
// and their order.
type cellTable struct {
	Name        string        `json:"name"`
	Algos       []string      `json:"algos"`
	Dep         string        `json:"dep"`
	WholeArrays bool          `json:"whole_arrays"`
	NoOverflow  bool          `json:"assume_no_overflow"`
	Timeout     string        `json:"timeout"`
	MaxMemory   int           `json:"max_memory_mib"`
	Programs    []cellProgram `json:"programs"`
}

// cellProgram is a program of a table: its name, the hash of its source
// (lang.Program.Hash) and its sizes.
type cellProgram struct {
	Bench string  `json:"bench"`
	Hash  string  `json:"hash"`
	Sizes []int64 `json:"sizes"`
}

// cellTable is the table b runs over progs, as its cells record it.
func (b *bencher) cellTable(progs []benchProgram) cellTable {
	t := cellTable{Name: b.tab.name, Algos: b.algos, Dep: b.dep, WholeArrays: b.whole, NoOverflow: b.noOverflow,
		Timeout: b.timeout.String(), MaxMemory: b.maxMem}
	for _, p := range progs {
		t.Programs = append(t.Programs, cellProgram{Bench: p.name, Hash: p.l.prog.Hash, Sizes: p.sizes})
	}
	return t
}

// runCell runs one cell of the table over progs. An algorithm that uses
// ICs has them synthesized for this cell alone, and the cell records how
// long that took.
func (b *bencher) runCell(progs []benchProgram, c cellRef) (benchCell, error) {
	out := benchCell{cellRef: c, Table: b.cellTable(progs)}
	p := progs[c.prog]
	var icPath string
	if needsICs([]string{c.Algo}) {
		path, smt, remove, err := b.ics(p)
		if err != nil {
			return benchCell{}, err
		}
		defer remove()
		icPath, out.SMT = path, smt
	}
	r, err := b.cell(p, c.N, c.Algo, icPath)
	if err != nil {
		return benchCell{}, err
	}
	out.Run = r
	return out, nil
}

// cellOutput writes the list of the table's cells (--list-cells), or runs the
// cell that c names and writes its result.
func (b *bencher) cellOutput(w io.Writer, c cellFlags, progs []benchProgram, asJSON bool) error {
	refs, err := cellsOf(progs, b.algos)
	if err != nil {
		return err
	}
	if c.list {
		writeCellList(w, refs, asJSON)
		return nil
	}
	ref, err := c.pick(refs, os.LookupEnv)
	if err != nil {
		return err
	}
	cell, err := b.runCell(progs, ref)
	if err != nil {
		return err
	}
	writeJSON(w, cell)
	return nil
}

// benchFromCells writes the table of the cells in paths (--from-cells),
// with the columns of algos (nil: the cells' table's).
func (e *env) benchFromCells(paths, algos []string, format, out string) error {
	if len(paths) == 0 {
		return badInput("--from-cells: no FILE: give the cells' files")
	}
	dst, err := prepareOutput("-o", out, paths...)
	if err != nil {
		return err
	}
	cells, err := readCells(paths)
	if err != nil {
		return err
	}
	t, err := joinCells(cells, paths, algos)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	writeBenchTable(&buf, t.tab, t.algos, t.rows, format, t.timeout, t.noOvf)
	return dst.write(buf.Bytes(), e.stdout)
}

// cellsTable is a table put together from cells.
type cellsTable struct {
	tab     benchTable
	algos   []string // the columns: --algos, or the cells' table's
	timeout time.Duration
	noOvf   bool
	rows    []benchRow
}

// readCells reads the cell files at paths.
func readCells(paths []string) ([]benchCell, error) {
	cells := make([]benchCell, len(paths))
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, badInput("%v", unwrapPathError(err))
		}
		if err := json.Unmarshal(data, &cells[i]); err != nil || cells[i].ID == "" || cells[i].Table.Name == "" {
			return nil, badInput("%s is not a bench cell (icgen bench --cell writes one)", path)
		}
	}
	return cells, nil
}

// joinCells makes the table of cells (read from paths), with the columns
// of algos (nil: the cells' table's). It refuses, naming the files, cells
// of different tables, a cell that is not where its table puts it, a cell
// given twice, and cells missing for the columns asked.
func joinCells(cells []benchCell, paths, algos []string) (cellsTable, error) {
	if len(cells) == 0 {
		return cellsTable{}, badInput("--from-cells: no cell files given")
	}
	first := cells[0].Table
	ti := slices.IndexFunc(benchTables, func(t benchTable) bool { return t.name == first.Name })
	timeout, err := time.ParseDuration(first.Timeout)
	if ti < 0 || err != nil {
		return cellsTable{}, badInput("%s is not a bench cell (table %q, timeout %q)", paths[0], first.Name, first.Timeout)
	}
	all, err := cellsOf(first.benchPrograms(), first.Algos)
	if err != nil {
		return cellsTable{}, err
	}
	at := map[int]int{} // a cell's index: the position of its file
	for i, c := range cells {
		if d := c.Table.diff(first); d != "" {
			return cellsTable{}, badInput("%s and %s are cells of different tables: %s", paths[0], paths[i], d)
		}
		if c.Index < 0 || c.Index >= len(all) || all[c.Index].ID != c.ID || c.Run.Algo != c.Algo || cellID(c.Bench, c.N, c.Algo) != c.ID {
			return cellsTable{}, badInput("%s: cell %d (%s) is not a cell of its table", paths[i], c.Index, c.ID)
		}
		if j, ok := at[c.Index]; ok {
			return cellsTable{}, badInput("cell %s given twice: %s and %s", c.ID, paths[j], paths[i])
		}
		at[c.Index] = i
	}
	if algos == nil {
		algos = first.Algos
	}
	for _, a := range algos {
		if !slices.Contains(first.Algos, a) {
			return cellsTable{}, badInput("--algos %s: the cells' table has no %s (its algorithms: %s)", a, a, strings.Join(first.Algos, ", "))
		}
	}
	out := cellsTable{tab: benchTables[ti], algos: algos, timeout: timeout, noOvf: first.NoOverflow}
	var missing []string
	for _, ref := range all {
		if k := len(out.rows); k == 0 || out.rows[k-1].Bench != ref.Bench || out.rows[k-1].N != ref.N {
			out.rows = append(out.rows, benchRow{Bench: ref.Bench, N: ref.N, Runs: map[string]benchRun{}})
		}
		row := &out.rows[len(out.rows)-1]
		if !slices.Contains(algos, ref.Algo) {
			continue
		}
		i, ok := at[ref.Index]
		if !ok {
			missing = append(missing, fmt.Sprintf("%s (cell %d)", ref.ID, ref.Index))
			continue
		}
		c := cells[i]
		if row.File == "" {
			row.File = c.File
		}
		row.Runs[c.Algo] = c.Run
		// T^smt of a row: the least of its cells' own syntheses.
		if needsICs([]string{c.Algo}) && (row.SMT == 0 || c.SMT < row.SMT) {
			row.SMT = c.SMT
		}
	}
	if len(missing) > 0 {
		shown := missing
		if len(shown) > 10 {
			shown = append(shown[:10:10], fmt.Sprintf("and %d more", len(missing)-10))
		}
		return cellsTable{}, badInput("cells missing, %d of %d: %s; icgen bench --cell INDEX runs one, --algos leaves algorithms out of the table",
			len(missing), len(all), strings.Join(shown, ", "))
	}
	for i := range out.rows {
		out.rows[i].Speedup = speedups(out.tab, out.rows[i])
	}
	return out, nil
}

// benchPrograms are the programs of t as cellsOf lists them.
func (t cellTable) benchPrograms() []benchProgram {
	progs := make([]benchProgram, len(t.Programs))
	for i, p := range t.Programs {
		progs[i] = benchProgram{name: p.Bench, sizes: p.Sizes}
	}
	return progs
}

// diff names the first difference between the tables t and u, "" if
// none.
func (t cellTable) diff(u cellTable) string {
	list := func(xs []int64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.FormatInt(x, 10)
		}
		return strings.Join(s, ",")
	}
	names := func(ps []cellProgram) string {
		s := make([]string, len(ps))
		for i, p := range ps {
			s[i] = p.Bench
		}
		return strings.Join(s, ",")
	}
	for _, d := range [][3]string{
		{"table", u.Name, t.Name},
		{"algos", strings.Join(u.Algos, ","), strings.Join(t.Algos, ",")},
		{"dep", u.Dep, t.Dep},
		{"whole_arrays", strconv.FormatBool(u.WholeArrays), strconv.FormatBool(t.WholeArrays)},
		{"assume_no_overflow", strconv.FormatBool(u.NoOverflow), strconv.FormatBool(t.NoOverflow)},
		{"timeout", u.Timeout, t.Timeout},
		{"max_memory_mib", strconv.Itoa(u.MaxMemory), strconv.Itoa(t.MaxMemory)},
		{"programs", names(u.Programs), names(t.Programs)},
	} {
		if d[1] != d[2] {
			return fmt.Sprintf("%s %s and %s", d[0], d[1], d[2])
		}
	}
	for i, p := range u.Programs {
		q := t.Programs[i]
		switch {
		case list(p.Sizes) != list(q.Sizes):
			return fmt.Sprintf("%s at sizes %s and %s", p.Bench, list(p.Sizes), list(q.Sizes))
		case p.Hash != q.Hash:
			return fmt.Sprintf("%s of different sources (hash %.12s, %.12s)", p.Bench, p.Hash, q.Hash)
		}
	}
	return ""
}

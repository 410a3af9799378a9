package cli

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/icgen/icgen/lang"
	"github.com/spf13/cobra"
)

func newParseCmd(e *env) *cobra.Command {
	var ir, asJSON bool
	cmd := &cobra.Command{
		Use:   "parse FILE",
		Short: "Check a program and list its atomic blocks with their read and write sets",
		Long: `Parse and check a program. On errors, print them as file:line:col:
message, with the source line and a caret (the first 100, then how many
more there were; --json lists all of them), and exit 2.
Otherwise list the atomic blocks: a block is the code a process runs from an
interleaving point (proc entry, yield, await) to the next one or its end.`,
		Example: `  icgen parse testdata/fig1.blk
  icgen parse --ir testdata/prodcons.blk
  icgen parse --json testdata/fib.blk | jq '.blocks[].id'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := e.load(args[0], asJSON)
			if err != nil {
				return err
			}
			switch {
			case asJSON:
				writeJSON(e.stdout, programJSON(l.prog, ir))
			case ir:
				fmt.Fprint(e.stdout, lang.FormatIR(l.prog))
			default:
				writeBlocks(e, l.prog)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&ir, "ir", false, "print the lowered IR (control-flow graphs with interleaving points)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func varNames(vs []*lang.Var) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return "{" + strings.Join(names, ", ") + "}"
}

func blockNames(bs []*lang.Block) string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.ID
	}
	return strings.Join(names, ", ")
}

func procNames(ps []*lang.Proc) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

func writeBlocks(e *env, p *lang.Program) {
	fmt.Fprintf(e.stdout, "%s: %d proc%s, %d block%s\n", p.File, len(p.Procs), plural(len(p.Procs)), len(p.Blocks), plural(len(p.Blocks)))
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	// CELLS, when some block has them: the array cells it indexes at fixed
	// indices, which the static dependency tells apart.
	cells := slices.ContainsFunc(p.Blocks, func(b *lang.Block) bool { return len(b.Cells) > 0 })
	head := "BLOCK\tAT\tREADS\tWRITES\tNEXT\tSPAWNS"
	if cells {
		head += "\tCELLS"
	}
	fmt.Fprintln(tw, head)
	for _, b := range p.Blocks {
		next := blockNames(b.Next)
		if b.MayEnd {
			if next != "" {
				next += ", "
			}
			next += "end"
		}
		at := fmt.Sprintf("%d:%d", b.Point.Pos.Line, b.Point.Pos.Col)
		if b.Point.Guard != nil {
			at += " await"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s", b.ID, at, varNames(b.Reads), varNames(b.Writes), next, procNames(b.Spawns))
		if cells {
			fmt.Fprintf(tw, "\t%s", strings.Join(lang.CellsText(b), ", "))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		fmt.Fprint(e.stdout, strings.TrimRight(line, " \n"), strings.Repeat("\n", strings.Count(line, "\n")))
	}
}

type blockJSON struct {
	ID     string   `json:"id"`
	Proc   string   `json:"proc"`
	Kind   string   `json:"kind"`
	Line   int      `json:"line"`
	Col    int      `json:"col"`
	Guard  bool     `json:"await"`
	Live   []string `json:"live"`
	Reads  []string `json:"reads"`
	Writes []string `json:"writes"`
	Next   []string `json:"next"`
	MayEnd bool     `json:"may_end"`
	Spawns []string `json:"spawns"`
	Calls  []string `json:"calls"`
	Loops  int      `json:"loops"`
	// Cells: the array cells the block indexes at fixed indices, as a[e]
	// (lang.Block.Cells); the static dependency tells them apart.
	Cells []string `json:"cells"`
}

type varJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size string `json:"size,omitempty"`
}

func names[T, R any](xs []T, name func(T) R) []R {
	out := make([]R, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

func programJSON(p *lang.Program, ir bool) any {
	type paramJSON struct {
		Name    string `json:"name"`
		Default int64  `json:"default"`
	}
	type procJSON struct {
		Name   string    `json:"name"`
		Params []varJSON `json:"params"`
		Blocks []string  `json:"blocks"`
	}
	out := struct {
		File    string      `json:"file"`
		Hash    string      `json:"hash"`
		Params  []paramJSON `json:"params"`
		Globals []varJSON   `json:"globals"`
		Procs   []procJSON  `json:"procs"`
		Blocks  []blockJSON `json:"blocks"`
		IR      string      `json:"ir,omitempty"`
	}{File: p.File, Hash: p.Hash, Params: []paramJSON{}, Globals: []varJSON{}, Procs: []procJSON{}, Blocks: []blockJSON{}}
	for _, pa := range p.Params {
		out.Params = append(out.Params, paramJSON{pa.Name, pa.Default})
	}
	vj := func(v *lang.Var) varJSON {
		j := varJSON{Name: v.Name, Type: v.Type.String()}
		switch s := v.Size.(type) {
		case *lang.IntLit:
			j.Size = fmt.Sprint(s.Val)
		case *lang.ParamRef:
			j.Size = s.Param.Name
		}
		if v.Unbounded() {
			j.Size = "*"
		}
		return j
	}
	for _, g := range p.Globals {
		out.Globals = append(out.Globals, vj(g))
	}
	vname := func(v *lang.Var) string { return v.Name }
	bname := func(b *lang.Block) string { return b.ID }
	for _, pr := range p.Procs {
		out.Procs = append(out.Procs, procJSON{Name: pr.Name, Params: names(pr.Params, vj), Blocks: names(pr.Blocks, bname)})
	}
	for _, b := range p.Blocks {
		out.Blocks = append(out.Blocks, blockJSON{
			ID: b.ID, Proc: b.Proc.Name, Kind: b.Point.Kind.String(),
			Line: b.Point.Pos.Line, Col: b.Point.Pos.Col, Guard: b.Point.Guard != nil,
			Live:  names(b.Point.Live, vname),
			Reads: names(b.Reads, vname), Writes: names(b.Writes, vname),
			Next: names(b.Next, bname), MayEnd: b.MayEnd,
			Spawns: names(b.Spawns, func(p *lang.Proc) string { return p.Name }),
			Calls:  names(b.Calls, func(f *lang.Func) string { return f.Name }),
			Loops:  len(b.Loops),
			Cells:  append([]string{}, lang.CellsText(b)...),
		})
	}
	if ir {
		out.IR = lang.FormatIR(p)
	}
	return out
}

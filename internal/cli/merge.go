package cli

import (
	"fmt"
	"os"

	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/ic"
	"github.com/spf13/cobra"
)

func newMergeCmd(e *env) *cobra.Command {
	var out, format string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "merge PART...",
		Short: "Merge the parts of a sharded synthesis (synth --shard) into one IC file",
		Long: `Merge the parts written by icgen synth --shard I/N into the IC file of the
program: the same bytes as an unsharded icgen synth with the same options
(deterministic with --budget and --timeout 0). The parts may come in any
order.

It refuses, naming the files: a file that is not a part, parts of another
program or of another split (N), parts made with other options (the
options that decide the constraints: --timeout, --check-timeout, --rlimit,
--budget, --encoding, --guard), a part given twice, and parts missing.

The output goes to -o, by default where icgen synth writes the program's
IC file. Formats as for synth: json, text, smtlib.

` + outputFilesHelp,
		Example: `  icgen synth --timeout 0 --budget 20000000 --shard 1/2 testdata/fib.blk
  icgen synth --timeout 0 --budget 20000000 --shard 2/2 testdata/fib.blk
  icgen merge testdata/fib.ic.1-of-2.json testdata/fib.ic.2-of-2.json   # -> testdata/fib.ic.json
  parallel icgen synth -q --timeout 0 --budget 20000000 --shard {}/4 -o part{}.json prog.blk ::: 1 2 3 4
  icgen merge -o prog.ic.json part*.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "json", "text", "smtlib":
			default:
				return badInput("--format %q: want json, text or smtlib", format)
			}
			parts := make([]*ic.File, len(args))
			for i, path := range args {
				data, err := os.ReadFile(path)
				if err != nil {
					return badInput("%v", unwrapPathError(err))
				}
				if parts[i], err = ic.Parse(data); err != nil {
					return badInput("%s: %v", path, err)
				}
			}
			f, err := ic.Merge(parts, args)
			if err != nil {
				return badInput("%v", err)
			}
			if out == "" {
				ext := map[string]string{"json": ".ic.json", "text": ".ic.txt", "smtlib": ".ic.smt2"}[format]
				out = defaultICPath(f.Program, ext, gofront.IsGo(f.Program))
			}
			dst, err := prepareOutput("-o", out, args...)
			if err != nil {
				return err
			}
			data, err := renderICs(f, format)
			if err != nil {
				return err
			}
			if err := dst.write(data, e.stdout); err != nil {
				return err
			}
			if !quiet {
				sum := f.Summary()
				fmt.Fprintf(e.stderr, "%s: %d parts, %d pairs: %d independent, %d conditional, %d dependent, %d unknown -> %s\n",
					f.Program, len(parts), len(f.Pairs), sum[ic.Independent], sum[ic.Conditional], sum[ic.Dependent], sum[ic.Unknown], destName(out))
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "output", "o", "", "output file (- for stdout; default: where icgen synth writes the program's IC file); see Output files")
	fl.StringVar(&format, "format", "json", "json, text or smtlib")
	fl.BoolVarP(&quiet, "quiet", "q", false, "no summary on stderr")
	return cmd
}

package cli

import (
	"fmt"
	"strings"

	"github.com/icgen/icgen/encode"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/ts"
	"github.com/spf13/cobra"
)

func newSmtCmd(e *env) *cobra.Command {
	var encName string
	cmd := &cobra.Command{
		Use:   "smt FILE A B",
		Short: "Print F(A,B), the formula of the states where blocks A and B commute, as SMT-LIB2",
		Long: `Print F(A,B) as an SMT-LIB2 benchmark: the states in which running block A
then block B, and B then A, are both possible, free of runtime errors, and end
in the same state (globals, live locals and next points of both processes,
spawned processes modulo naming, violations). A's process's locals keep their
names, B's are primed (v'). Integer division truncates toward zero and is
encoded over SMT-LIB's div. no_overflow is the condition under which neither
order overflows int64.

With --encoding merged (the default, as for synth) F is one equality of
the two orders' merged final states; with --encoding paths it is a
disjunction over pairs of paths (the CDPOR paper's Def. 5), exponential in
the blocks' branches. Either way its shared subterms are named once by
define-fun (|@t<id>|).

Any SMT-LIB2 solver can read the output, e.g. z3 -smt2 out.smt2.`,
		Example: `  icgen smt testdata/fig1.blk q r
  icgen smt testdata/fib.blk res res > res-res.smt2
  icgen smt --encoding paths testdata/fig1.blk q r`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := e.load(args[0], false)
			if err != nil {
				return err
			}
			a, err := findBlock(l.prog, args[1])
			if err != nil {
				return err
			}
			b, err := findBlock(l.prog, args[2])
			if err != nil {
				return err
			}
			enc, err := encode.ParseEncoding(encName)
			if err != nil {
				return badInput("--encoding: %v", err)
			}
			f := encode.Build(enc, a, b, ts.NewSymbols(l.prog), l.prog.Invariants...)
			fmt.Fprint(e.stdout, f.Benchmark())
			return nil
		},
	}
	cmd.Flags().StringVar(&encName, "encoding", "merged", "how F(A,B) is built: merged or paths (see synth --help)")
	return cmd
}

func findBlock(p *lang.Program, id string) (*lang.Block, error) {
	if b := p.Block(id); b != nil {
		return b, nil
	}
	ids := make([]string, len(p.Blocks))
	for i, b := range p.Blocks {
		ids[i] = b.ID
	}
	return nil, badInput("%s has no block %q (blocks: %s)", p.File, id, strings.Join(ids, ", "))
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// Exit codes of icgen.
const (
	ExitOK       = 0 // fine
	ExitFindings = 1 // violations or runtime errors found, or constraints not proven
	ExitBadInput = 2 // bad input or usage
	ExitInternal = 3 // the tool failed
	// ExitInterrupted is the exit of a command stopped by an interrupt
	// (Ctrl-C), as a shell reports a process killed by SIGINT.
	ExitInterrupted = 130
)

// Version is the release version; builds from a checkout add the VCS revision.
var Version = "0.1.0-dev"

// exitError carries an exit code with an optional message. A findings exit
// has already printed its report and carries no message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func badInput(format string, args ...any) error {
	return &exitError{code: ExitBadInput, err: fmt.Errorf(format, args...)}
}

// reported is a bad-input exit whose diagnostics were already printed.
var reported = &exitError{code: ExitBadInput}

func findings() error { return &exitError{code: ExitFindings} }

// toolFailed is the internal-failure exit for err, or, when ctx was
// interrupted, the interrupted exit with the message interrupted.
func toolFailed(ctx context.Context, err error, interrupted string) error {
	if wasInterrupted(ctx) {
		return &exitError{code: ExitInterrupted, err: errors.New(interrupted)}
	}
	var xe *exitError
	if errors.As(err, &xe) {
		return err
	}
	return &exitError{code: ExitInternal, err: err}
}

// errInterrupted is the cause of a context cancelled by an interrupt.
var errInterrupted = errors.New("interrupted")

// interruptible returns a context that an interrupt (SIGINT, Ctrl-C)
// cancels with the cause errInterrupted, and a function that stops
// listening. Commands that may run long listen; the others keep the
// default (the process dies at once).
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	if listening != nil {
		listening()
	}
	go func() {
		select {
		case <-sig:
			cancel(errInterrupted)
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		cancel(nil)
	}
}

// listening, when set, is called once an interrupt is listened for (a
// test's hook: it sends the signal only then).
var listening func()

// wasInterrupted reports whether ctx was cancelled by an interrupt.
func wasInterrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}

// await runs f in a goroutine of its own and returns its results, or
// context.Cause(ctx) as soon as ctx is done. The library calls it wraps
// look at a context only between coarse steps (synthesis between pairs, and
// one pair can take long) or not at all (exploration), while an
// interrupted or timed-out command must return now: the abandoned call's
// results are dropped, and it ends with the process. A panic in f is an
// internal failure, reported as Execute reports one.
func await[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	if ctx.Err() != nil {
		var zero T
		return zero, context.Cause(ctx)
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				var zero T
				ch <- result{zero, &exitError{code: ExitInternal, err: panicError(r)}}
			}
		}()
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil && ctx.Err() != nil {
			return r.v, context.Cause(ctx)
		}
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, context.Cause(ctx)
	}
}

// panicError describes a recovered panic, with its stack when ICGEN_DEBUG
// is set.
func panicError(r any) error {
	if os.Getenv("ICGEN_DEBUG") != "" {
		return fmt.Errorf("internal error: %v\n%s", r, debug.Stack())
	}
	return fmt.Errorf("internal error: %v\nicgen: please report this with the input that caused it (ICGEN_DEBUG=1 prints a stack trace)", r)
}

// env is what commands write to; tests inject buffers.
type env struct {
	stdout, stderr io.Writer
	// now is the clock of the progress lines (nil: time.Now); tests
	// inject one to check the throttle.
	now func() time.Time
}

// Execute runs icgen with args and returns the exit code. It never panics:
// a panic in a command is reported as an internal failure (exit 3).
func Execute(args []string, stdout, stderr io.Writer) (code int) {
	return execute(context.Background(), args, stdout, stderr)
}

// execute is Execute under ctx; tests cancel ctx with the cause
// errInterrupted to act as an interrupt.
func execute(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	return executeIn(ctx, &env{stdout: stdout, stderr: stderr}, args)
}

// executeIn is execute with the commands writing to e.
func executeIn(ctx context.Context, e *env, args []string) (code int) {
	stderr := e.stderr
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "icgen: %v\n", panicError(r))
			code = ExitInternal
		}
	}()
	root := newRoot(e)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	var xe *exitError
	if errors.As(err, &xe) {
		if xe.err != nil {
			fmt.Fprintf(stderr, "icgen: %v\n", xe.err)
			if xe.code != ExitInterrupted && jsonAsked(cmd) {
				writeJSONError(e, xe.err, xe.code)
			}
		}
		return xe.code
	}
	// cobra's own errors are usage errors: unknown flags or commands, bad args.
	fmt.Fprintf(stderr, "icgen: %v\n", err)
	if jsonAsked(cmd) {
		writeJSONError(e, err, ExitBadInput)
	}
	if !strings.Contains(err.Error(), "--help") {
		fmt.Fprintln(stderr, "Run 'icgen --help' for usage.")
	}
	return ExitBadInput
}

// writeJSONError writes err and the exit code to stdout as JSON: with
// --json a machine reading stdout gets the error there too, as it gets a
// program's diagnostics.
func writeJSONError(e *env, err error, code int) {
	writeJSON(e.stdout, struct {
		Error string `json:"error"`
		Code  int    `json:"exit_code"`
	}{err.Error(), code})
}

// jsonAsked reports whether cmd ran with --json.
func jsonAsked(cmd *cobra.Command) bool {
	if cmd == nil {
		return false
	}
	f := cmd.Flags().Lookup("json")
	return f != nil && f.Value.String() == "true"
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "icgen",
		Short: "Synthesize independence constraints between atomic blocks and explore concurrent programs",
		Long: `icgen synthesizes independence constraints (ICs) between the atomic blocks of a
concurrent program with an SMT solver, and explores programs with DPOR algorithms
that use them.

Programs are written in a small language (.blk files): see docs/language.md.

Exit codes: 0 fine; 1 a violation or runtime error found, or a constraint
not proven; 2 bad input or usage; 3 internal failure; 130 interrupted
(Ctrl-C).`,
		Example: `  icgen parse testdata/fig1.blk                  # blocks and their read/write sets
  icgen synth --format text -o - testdata/fig1.blk  # the ICs of every pair of blocks
  icgen synth testdata/fib.blk                   # writes testdata/fib.ic.json
  icgen explore --algo cdpor testdata/fig1.blk   # DPOR using the ICs
  icgen run --replay "r#3 q#2 p#1" testdata/fig1.blk
  icgen audit testdata/fig1.blk                  # which blocks commute, with witnesses
  icgen check testdata/counter.blk               # prove the program's commute declarations
  icgen explore --algo cdpor --svg tree.svg testdata/fig1.blk  # draw the explored tree`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return checkFlags(cmd)
		},
	}
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetVersionTemplate("icgen {{.Version}}\n")
	root.AddCommand(newParseCmd(e), newRunCmd(e), newSmtCmd(e), newSynthCmd(e), newExploreCmd(e), newBenchCmd(e))
	root.AddCommand(newAuditCmd(e), newCheckCmd(e), newMergeCmd(e))
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Example = `  source <(icgen completion bash)                  # this shell
  icgen completion bash > /etc/bash_completion.d/icgen   # every new shell
  icgen completion zsh > "${fpath[1]}/_icgen"`
		}
	}
	return root
}

func versionString() string {
	v := Version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}

package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterrupted runs the long-running commands under a context
// cancelled as an interrupt cancels it: each stops with exit 130 and a
// message, writes no output file and prints no report.
func TestInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.blk")
	mustWrite(t, prog, tinyProgram, 0o644)
	ics := filepath.Join(dir, "prog.ic.json")
	if _, errOut, code := icgen("synth", "-q", prog); code != 0 {
		t.Fatalf("synth: %s", errOut)
	}
	race := filepath.Join(dir, "race.blk")
	mustWrite(t, race, raceProgram, 0o644)
	cases := []struct {
		name string
		args []string
		err  string
	}{
		{"synth", []string{"synth", "-o", filepath.Join(dir, "out.json"), prog}, "interrupted: no file written"},
		{"explore", []string{"explore", "--dot", filepath.Join(dir, "out.dot"), prog}, "interrupted: nothing written"},
		{"explore synthesizing", []string{"explore", "--algo", "cdpor", "--dot", filepath.Join(dir, "out2.dot"), prog}, "interrupted: nothing explored"},
		{"explore with ICs", []string{"explore", "--algo", "cdpor", "--ics", ics, prog}, "interrupted: nothing written"},
		{"bench", []string{"bench", "--format", "json", race}, "interrupted: no table written"},
		{"bench without synthesis", []string{"bench", "--algos", "sdpor", race}, "interrupted: no table written"},
		{"bench cell", []string{"bench", "--cell", "1", "--algos", "sdpor,cdpor", "-o", filepath.Join(dir, "cell.json"), race}, "interrupted: no cell written"},
		{"audit", []string{"audit", prog}, "interrupted"},
		{"check", []string{"check", "--ics", ics, prog}, "interrupted"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(errInterrupted)
			var out, errb bytes.Buffer
			code := execute(ctx, tc.args, &out, &errb)
			if code != ExitInterrupted || errb.String() != "icgen: "+tc.err+"\n" || out.Len() > 0 {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitInterrupted, out.String(), errb.String())
			}
		})
	}
	t.Cleanup(func() {
		for _, name := range []string{"out.json", "out.dot", "out2.dot", "cell.json"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				t.Errorf("%s was written", name)
			}
		}
		noTempFiles(t, dir)
	})
}

// slowSynth is a program whose synthesis takes seconds (non-linear
// arithmetic), in little memory.
const slowSynth = `global int x = 1, y = 2, z = 3;
proc p() { x = x * y * z + y * y * x; z = z * x - y * y * y; }
proc q() { y = y * z * x - x * x * z; x = x * z + y * y; }
init { spawn p(); spawn q(); }
`

// slowExplore has 12! interleavings: dfs does not finish.
const slowExplore = `param N = 12;
global int c = 0;
proc add() { c = c + 1; }
proc start(int k) { if (k > 0) { spawn add(); spawn start(k - 1); } }
init { spawn start(N); }
`

// readyEnv asks a child icgen to write a byte on fd 3 once it catches
// interrupts.
const readyEnv = "ICGEN_CLI_TEST_READY"

// TestInterruptSignal sends a real SIGINT to an icgen process (this test
// binary, as TestMain runs it) while it synthesizes or explores: it must
// exit 130 at once, with a message and no stack trace, leaving no output
// or temporary file.
func TestInterruptSignal(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cases := []struct {
		name, src string
		args      []string // the output file is "out"
	}{
		{"synth", slowSynth, []string{"synth", "-j", "1", "-o", "out"}},
		{"explore", slowExplore, []string{"explore", "--algo", "dfs", "--dot", "out"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			mustWrite(t, filepath.Join(dir, "prog.blk"), tc.src, 0o644)
			cmd := exec.Command(self, append(tc.args, "prog.blk")...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), childEnv+"=1", readyEnv+"=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			ready, tell, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.ExtraFiles = []*os.File{tell} // fd 3: one byte once interrupts are caught
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			tell.Close()
			if _, err := ready.Read(make([]byte, 1)); err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the child never listened for interrupts: %v\n%s", err, stderr.String())
			}
			ready.Close()
			cmd.Process.Signal(os.Interrupt)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatal("still running 30s after the interrupt")
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
				if ee != nil && ee.Sys().(syscall.WaitStatus).Signaled() {
					t.Fatalf("killed by the signal, not stopped: %v\n%s", err, stderr.String())
				}
				t.Fatalf("exit: %v, want %d\nstdout:\n%s\nstderr:\n%s", err, ExitInterrupted, stdout.String(), stderr.String())
			}
			if !strings.HasPrefix(stderr.String(), "icgen: interrupted") || strings.Contains(stderr.String(), "goroutine") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("files left: %v", entries)
			}
		})
	}
}

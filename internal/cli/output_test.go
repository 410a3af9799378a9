package cli

import (
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// tinyProgram synthesizes in a few milliseconds; its text IC file starts
// with the header below.
const tinyProgram = "global int x;\nproc p() { x = x + 1; }\ninit { spawn p(); }\n"

const tinyHeader = "# independence constraints of "

// TestOutputTargets writes icgen synth's output (-o) to every kind of
// target: the kind of each target afterwards, where the data went, the
// exit code and the message, and that no temporary file is left behind.
func TestOutputTargets(t *testing.T) {
	t.Parallel()
	type outCase struct {
		name string
		// setup makes the target in dir and returns the -o argument.
		setup func(t *testing.T, dir string) string
		code  int
		err   []string // substrings of stderr, in order
		// check inspects dir afterwards.
		check func(t *testing.T, dir string)
	}
	cases := []outCase{
		{"new path", func(t *testing.T, dir string) string { return filepath.Join(dir, "new.txt") }, 0, nil,
			func(t *testing.T, dir string) {
				wantRegular(t, filepath.Join(dir, "new.txt"), 0o644)
			}},
		{"regular file keeps its permissions", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "old.txt")
			mustWrite(t, p, "old content", 0o600)
			return p
		}, 0, nil, func(t *testing.T, dir string) {
			wantRegular(t, filepath.Join(dir, "old.txt"), 0o600)
		}},
		{"symlink to a regular file", func(t *testing.T, dir string) string {
			mustWrite(t, filepath.Join(dir, "real.txt"), "old content", 0o644)
			mustSymlink(t, "real.txt", filepath.Join(dir, "link.txt"))
			return filepath.Join(dir, "link.txt")
		}, 0, nil, func(t *testing.T, dir string) {
			wantLink(t, filepath.Join(dir, "link.txt"), "real.txt")
			wantRegular(t, filepath.Join(dir, "real.txt"), 0o644)
		}},
		{"relative symlink from a subdirectory", func(t *testing.T, dir string) string {
			mustWrite(t, filepath.Join(dir, "real.txt"), "old content", 0o644)
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			mustSymlink(t, "../real.txt", filepath.Join(dir, "sub", "link.txt"))
			return filepath.Join(dir, "sub", "link.txt")
		}, 0, nil, func(t *testing.T, dir string) {
			wantLink(t, filepath.Join(dir, "sub", "link.txt"), "../real.txt")
			wantRegular(t, filepath.Join(dir, "real.txt"), 0o644)
		}},
		{"dangling symlink gets its target", func(t *testing.T, dir string) string {
			mustSymlink(t, "made.txt", filepath.Join(dir, "link.txt"))
			return filepath.Join(dir, "link.txt")
		}, 0, nil, func(t *testing.T, dir string) {
			wantLink(t, filepath.Join(dir, "link.txt"), "made.txt")
			wantRegular(t, filepath.Join(dir, "made.txt"), 0o644)
		}},
		{"symlink loop", func(t *testing.T, dir string) string {
			mustSymlink(t, "b", filepath.Join(dir, "a"))
			mustSymlink(t, "a", filepath.Join(dir, "b"))
			return filepath.Join(dir, "a")
		}, 2, []string{"a: too many levels of symbolic links"}, nil},
		{"directory", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "d"), 0o755)
			return filepath.Join(dir, "d")
		}, 2, []string{"d: is a directory"}, func(t *testing.T, dir string) {
			if fi, err := os.Stat(filepath.Join(dir, "d")); err != nil || !fi.IsDir() {
				t.Errorf("d is no longer a directory: %v", err)
			}
		}},
		{"symlink to a directory", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "d"), 0o755)
			mustSymlink(t, "d", filepath.Join(dir, "link"))
			return filepath.Join(dir, "link")
		}, 2, []string{"link: is a directory"}, nil},
		// A name that ends in / names a directory: d/ is not d/d.
		{"directory with a slash", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "d"), 0o755)
			return filepath.Join(dir, "d") + "/"
		}, 2, []string{"d/: is a directory"}, wantEmptyDir("d")},
		{"missing path with a slash", func(t *testing.T, dir string) string { return filepath.Join(dir, "nod") + "/" }, 2,
			[]string{"nod/: names a directory (it ends in /), not a file"}, func(t *testing.T, dir string) {
				if _, err := os.Lstat(filepath.Join(dir, "nod")); err == nil {
					t.Errorf("nod was made")
				}
			}},
		{"file with a slash", func(t *testing.T, dir string) string {
			mustWrite(t, filepath.Join(dir, "f"), "old content", 0o644)
			return filepath.Join(dir, "f") + "/"
		}, 2, []string{"f/: not a directory"}, wantContent("f", "old content")},
		{"symlink to a directory with a slash", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "d"), 0o755)
			mustSymlink(t, "d/", filepath.Join(dir, "link"))
			return filepath.Join(dir, "link")
		}, 2, []string{"link: is a directory"}, wantEmptyDir("d")},
		{"symlink to a file with a slash", func(t *testing.T, dir string) string {
			mustWrite(t, filepath.Join(dir, "f"), "old content", 0o644)
			mustSymlink(t, "f/", filepath.Join(dir, "link"))
			return filepath.Join(dir, "link")
		}, 2, []string{"link: not a directory"}, wantContent("f", "old content")},
		{"missing directory", func(t *testing.T, dir string) string { return filepath.Join(dir, "nodir", "x.txt") }, 2,
			[]string{"nodir/x.txt: no such directory ", "nodir"}, nil},
		{"a file as directory", func(t *testing.T, dir string) string {
			mustWrite(t, filepath.Join(dir, "f"), "old content", 0o644)
			return filepath.Join(dir, "f", "x.txt")
		}, 2, []string{"f/x.txt: ", "f is not a directory"}, nil},
		{"the input program", func(t *testing.T, dir string) string { return filepath.Join(dir, "prog.blk") }, 2,
			[]string{"prog.blk is the input file ", "prog.blk: refusing to overwrite it"}, nil},
		{"a symlink to the input program", func(t *testing.T, dir string) string {
			mustSymlink(t, "prog.blk", filepath.Join(dir, "alias.blk"))
			return filepath.Join(dir, "alias.blk")
		}, 2, []string{"alias.blk is the input file ", "prog.blk"}, func(t *testing.T, dir string) {
			wantLink(t, filepath.Join(dir, "alias.blk"), "prog.blk")
		}},
		{"a hard link to the input program", func(t *testing.T, dir string) string {
			if err := os.Link(filepath.Join(dir, "prog.blk"), filepath.Join(dir, "hard.blk")); err != nil {
				t.Skip(err)
			}
			return filepath.Join(dir, "hard.blk")
		}, 2, []string{"hard.blk is the input file "}, nil},
		{"a socket is not replaced", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "s.sock")
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Skip(err)
			}
			l.(*net.UnixListener).SetUnlinkOnClose(false)
			t.Cleanup(func() { l.Close() })
			return p
		}, 2, []string{"s.sock: no such device or address"}, func(t *testing.T, dir string) {
			if m := modeOf(filepath.Join(dir, "s.sock")); m&fs.ModeSocket == 0 {
				t.Errorf("s.sock is no longer a socket: %v", m)
			}
		}},
	}
	if os.Geteuid() != 0 {
		// root writes anywhere: the permission case only means something
		// for other users.
		cases = append(cases, outCase{"read-only directory", func(t *testing.T, dir string) string {
			ro := filepath.Join(dir, "ro")
			os.Mkdir(ro, 0o555)
			return filepath.Join(ro, "x.txt")
		}, 2, []string{"ro/x.txt: cannot create a file in ", "ro: permission denied"}, nil})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			prog := filepath.Join(dir, "prog.blk")
			mustWrite(t, prog, tinyProgram, 0o644)
			target := tc.setup(t, dir)
			out, errOut, code := icgen("synth", "-q", "--format", "text", "-o", target, prog)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			containsInOrder(t, "stderr", errOut, tc.err)
			if code != 0 && !strings.Contains(errOut, "-o "+target) {
				t.Errorf("the message does not name the path given, -o %s:\n%s", target, errOut)
			}
			if strings.Contains(errOut, ".tmp") || strings.Contains(errOut, "goroutine") {
				t.Errorf("a temporary name or a stack trace in:\n%s", errOut)
			}
			if data, _ := os.ReadFile(prog); string(data) != tinyProgram {
				t.Errorf("the program was overwritten:\n%s", data)
			}
			if tc.check != nil {
				tc.check(t, dir)
			}
			noTempFiles(t, dir)
		})
	}
}

// TestOutputFIFO: a FIFO is written through, not replaced by a file. The
// reader is opened (non-blocking) before icgen writes, so neither side
// waits for the other, and a FIFO replaced by a file would read empty
// instead of hanging.
func TestOutputFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.blk")
	mustWrite(t, prog, tinyProgram, 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, errOut, code := icgen("synth", "-q", "--format", "text", "-o", fifo, prog); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := io.ReadAll(r)
	if err != nil || !strings.HasPrefix(string(data), tinyHeader) {
		t.Errorf("read %q from the FIFO (%v)", data, err)
	}
	if m := modeOf(fifo); m&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is no longer a FIFO: %v", m)
	}
	noTempFiles(t, dir)
}

// TestOutputDevice: icgen synth -o on a character device (a /dev/null of
// the test's own, which only root can make) leaves it a character device.
func TestOutputDevice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.blk")
	mustWrite(t, prog, tinyProgram, 0o644)
	null := filepath.Join(dir, "null")
	// 1, 3 is Linux's /dev/null.
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("cannot make a device node (root only): %v", err)
	}
	if f, err := os.OpenFile(null, os.O_WRONLY, 0); err != nil {
		t.Skipf("device nodes do not open here (nodev mount?): %v", err)
	} else {
		f.Close()
	}
	for _, args := range [][]string{
		{"synth", "-q", "-o", null, prog},
		{"explore", "--dot", null, prog},
	} {
		if _, errOut, code := icgen(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if m := modeOf(null); m&fs.ModeCharDevice == 0 {
			t.Fatalf("%v: the device is no longer a character device: %v", args, m)
		}
	}
	noTempFiles(t, dir)
}

// TestOutputFlags: every flag that names an output file refuses the input
// files and a directory, and the two tree outputs one file.
func TestOutputFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.blk")
	mustWrite(t, prog, tinyProgram, 0o644)
	ics := filepath.Join(dir, "prog.ic.json")
	if _, errOut, code := icgen("synth", "-q", prog); code != 0 {
		t.Fatalf("synth: %s", errOut)
	}
	icsData, _ := os.ReadFile(ics)
	runCases(t, []cliCase{
		{"--dot on the program", []string{"explore", "--dot", prog, prog}, 2, nil, []string{"--dot " + prog + " is the input file " + prog}},
		{"--svg on the program", []string{"explore", "--svg", prog, prog}, 2, nil, []string{"--svg " + prog + " is the input file"}},
		{"--dot on the IC file", []string{"explore", "--algo", "cdpor", "--ics", ics, "--dot", ics, prog}, 2, nil, []string{"--dot " + ics + " is the input file " + ics}},
		{"--dot on a directory", []string{"explore", "--dot", dir, prog}, 2, nil, []string{"--dot " + dir + ": is a directory"}},
		{"--dot on a directory with a slash", []string{"explore", "--dot", dir + "/", prog}, 2, nil, []string{"--dot " + dir + "/: is a directory"}},
		{"--svg on a directory with a slash", []string{"explore", "--svg", dir + "/", prog}, 2, nil, []string{"--svg " + dir + "/: is a directory"}},
		{"-o on a directory with a slash", []string{"synth", "-o", dir + "/", prog}, 2, nil, []string{"-o " + dir + "/: is a directory"}},
		{"--dot and --svg on one file", []string{"explore", "--dot", filepath.Join(dir, "t"), "--svg", filepath.Join(dir, "t"), prog}, 2, nil, []string{"are the same file"}},
		{"-o in a missing directory", []string{"synth", "-o", filepath.Join(dir, "no", "x.json"), prog}, 2, nil, []string{"no such directory"}},
	})
	t.Cleanup(func() {
		if data, _ := os.ReadFile(prog); string(data) != tinyProgram {
			t.Errorf("the program was overwritten")
		}
		if data, _ := os.ReadFile(ics); string(data) != string(icsData) {
			t.Errorf("the IC file was overwritten")
		}
	})
}

// wantEmptyDir checks that dir/name is still an empty directory.
func wantEmptyDir(name string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if es, err := os.ReadDir(filepath.Join(dir, name)); err != nil || len(es) > 0 {
			t.Errorf("%s: want an empty directory, have %v (%v)", name, es, err)
		}
	}
}

// wantContent checks that dir/name still holds data.
func wantContent(name, data string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != data {
			t.Errorf("%s holds %q (%v), want %q", name, got, err, data)
		}
	}
}

func mustWrite(t *testing.T, path, data string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // whatever the umask
		t.Fatal(err)
	}
}

// modeOf is the mode of path itself (links not followed), 0 if it is gone.
func modeOf(path string) fs.FileMode {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	return fi.Mode()
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
}

// wantRegular checks path is a regular file with perm holding the output.
func wantRegular(t *testing.T, path string, perm fs.FileMode) {
	t.Helper()
	if m := modeOf(path); !m.IsRegular() || m.Perm() != perm {
		t.Errorf("%s: want a regular file with mode %v, have %v", filepath.Base(path), perm, m)
		return
	}
	if data, _ := os.ReadFile(path); !strings.HasPrefix(string(data), tinyHeader) {
		t.Errorf("%s holds %q", filepath.Base(path), data)
	}
}

// wantLink checks path is still a symbolic link to target.
func wantLink(t *testing.T, path, target string) {
	t.Helper()
	if got, err := os.Readlink(path); err != nil || got != target {
		t.Errorf("%s: want a link to %s, have %q (%v)", filepath.Base(path), target, got, err)
	}
}

// noTempFiles checks no temporary file is left anywhere under dir.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

// TestOutputOpenFiles: /dev/stdout and /dev/fd/N name files already open
// (links under /proc/PID/fd that name no path): they are written through,
// this process's standard output as "-" is, another open file appended to,
// and an open input file is refused.
func TestOutputOpenFiles(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	t.Parallel()
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.blk")
	mustWrite(t, prog, tinyProgram, 0o644)
	out, errOut, code := icgen("synth", "-q", "--format", "text", "-o", "/dev/stdout", prog)
	if code != 0 || !strings.HasPrefix(out, tinyHeader) {
		t.Errorf("-o /dev/stdout: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	log := filepath.Join(dir, "log.txt")
	mustWrite(t, log, "old content\n", 0o644)
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
	if _, errOut, code := icgen("synth", "-q", "--format", "text", "-o", fd, prog); code != 0 {
		t.Fatalf("-o %s: exit %d: %s", fd, code, errOut)
	}
	if data, _ := os.ReadFile(log); !strings.HasPrefix(string(data), "old content\n"+tinyHeader) {
		t.Errorf("-o %s: the open file holds %q", fd, data)
	}
	in, err := os.Open(prog)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	fd = "/dev/fd/" + strconv.Itoa(int(in.Fd()))
	if _, errOut, code := icgen("synth", "-q", "-o", fd, prog); code != 2 || !strings.Contains(errOut, "-o "+fd+" is the input file "+prog) {
		t.Errorf("-o %s (the program, open): exit %d: %s", fd, code, errOut)
	}
	if data, _ := os.ReadFile(prog); string(data) != tinyProgram {
		t.Errorf("the program was overwritten:\n%s", data)
	}
	noTempFiles(t, dir)
}

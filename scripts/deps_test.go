// Package scripts holds the tests of the repository's set-up: the
// scripts/deps.sh script that make runs before building, and the
// requirements README.md states.
package scripts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The fakes stand for the system's commands. apt-get "installs" by linking
// the fake gcc or dot into the PATH and marking libz3-dev installed; the
// fake gcc links -lz3 only when libz3-dev is marked (and, with
// FAKE_Z3_DIR, only given -L$FAKE_Z3_DIR); sudo runs its command with
// FAKE_UID=0. apt-get and sudo log their calls, with the uid apt-get ran
// as.
var fakes = map[string]string{
	"id": `[ "$1" = -u ] && echo "$FAKE_UID"`,
	"cellar/gcc": `while read -r line; do :; done
for a; do
	case $a in
	-lz3)
		if [ -e "$STATE/libz3" ] && [ -z "${FAKE_Z3_UNLINKABLE:-}" ]; then
			[ -z "${FAKE_Z3_DIR:-}" ] && exit 0
			for b; do [ "$b" = "-L$FAKE_Z3_DIR" ] && exit 0; done
		fi
		echo "ld: cannot find -lz3" >&2
		exit 1
		;;
	esac
done`,
	"cellar/dot":      `exit 0`,
	"cellar/parallel": `[ "$1" = --version ] && echo "GNU parallel 20221122"`,
	"dpkg-query": `for p; do :; done
if [ "$p" = libz3-dev ] && [ -e "$STATE/libz3" ]; then
	printf 'install ok installed'
	exit 0
fi
echo "dpkg-query: no packages found matching $p" >&2
exit 1`,
	"apt-get": `echo "apt-get uid=$FAKE_UID $*" >>"$STATE/log"
if [ "$FAKE_UID" != 0 ]; then
	echo "E: Could not open lock file - open (13: Permission denied)" >&2
	exit 100
fi
if [ -n "${FAKE_APT_FAIL:-}" ]; then
	echo "E: Failed to fetch: network unreachable" >&2
	exit 100
fi
case $1 in
update) echo "Reading package lists... Done" ;;
install)
	shift
	for p; do
		case $p in
		gcc) "$LN" -s "$CELLAR/gcc" "$BIN/gcc" ;;
		libz3-dev) : >"$STATE/libz3" ;;
		graphviz) "$LN" -s "$CELLAR/dot" "$BIN/dot" ;;
		parallel) "$LN" -s "$CELLAR/parallel" "$BIN/parallel" ;;
		esac
	done
	echo "Setting up $*"
	;;
esac`,
	"sudo-nopasswd": `case $1 in
-n | -v) exit 0 ;;
esac
echo "sudo $*" >>"$STATE/log"
FAKE_UID=0 exec "$@"`,
	"sudo-password": `case $1 in
-n) echo "sudo: a password is required" >&2 ;;
*) echo "sudo $*" >>"$STATE/log" ;;
esac
exit 1`,
}

type machine struct {
	uid       string   // what id -u prints
	installed []string // of gcc, libz3-dev, graphviz, parallel
	sudo      string   // "", "nopasswd" or "password"
	noGo      bool     // no go command
	noApt     bool     // no apt-get (not Debian)
	env       []string // more environment
}

type run struct {
	code int
	out  string   // stdout and stderr
	log  []string // the calls of sudo and apt-get
}

// setUp builds a machine in a temporary directory and returns the
// environment to run scripts/deps.sh in: a PATH of fakes only.
func setUp(t *testing.T, m machine) []string {
	t.Helper()
	dir := t.TempDir()
	bin, cellar, state := filepath.Join(dir, "bin"), filepath.Join(dir, "cellar"), filepath.Join(dir, "state")
	for _, d := range []string{bin, cellar, state} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := exec.LookPath("ln")
	if err != nil {
		t.Skip("no ln command")
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("bin/id", fakes["id"])
	write("bin/dpkg-query", fakes["dpkg-query"])
	write("cellar/gcc", fakes["cellar/gcc"])
	write("cellar/dot", fakes["cellar/dot"])
	write("cellar/parallel", fakes["cellar/parallel"])
	if !m.noApt {
		write("bin/apt-get", fakes["apt-get"])
	}
	if m.sudo != "" {
		write("bin/sudo", fakes["sudo-"+m.sudo])
	}
	if !m.noGo {
		write("bin/go", "exit 0")
	}
	for _, p := range m.installed {
		switch p {
		case "gcc":
			write("bin/gcc", fakes["cellar/gcc"])
		case "libz3-dev":
			write("state/libz3", "")
		case "graphviz":
			write("bin/dot", fakes["cellar/dot"])
		case "parallel":
			write("bin/parallel", fakes["cellar/parallel"])
		case "moreutils":
			write("bin/parallel", "exit 1") // moreutils' parallel has no --version
		default:
			t.Fatalf("unknown package %q", p)
		}
	}
	return append([]string{"PATH=" + bin, "HOME=" + dir, "LN=" + ln, "BIN=" + bin, "CELLAR=" + cellar,
		"STATE=" + state, "FAKE_UID=" + m.uid}, m.env...)
}

// deps runs scripts/deps.sh in env, stdin not a terminal.
func deps(t *testing.T, env []string, args ...string) run {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, append([]string{"deps.sh"}, args...)...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	r := run{out: out.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	var state string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "STATE="); ok {
			state = v
		}
	}
	if log, err := os.ReadFile(filepath.Join(state, "log")); err == nil {
		r.log = strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")
	}
	return r
}

func TestDeps(t *testing.T) {
	t.Parallel()
	all := []string{"gcc", "libz3-dev", "graphviz", "parallel"}
	cases := []struct {
		name    string
		m       machine
		code    int
		say     []string // in the output
		notSay  []string // not in the output
		log     []string // the calls of sudo and apt-get, in order
		quietly bool     // no output at all
		again   bool     // a second run finds everything and does nothing
	}{
		{name: "all present, no privileges", m: machine{uid: "1000", installed: all}, quietly: true},
		{name: "only graphviz missing: a note", m: machine{uid: "1000", installed: []string{"gcc", "libz3-dev", "parallel"}},
			say: []string{"deps: note: graphviz is not installed; only icgen explore --svg needs it (sudo apt-get install -y graphviz)"}},
		{name: "only graphviz missing as root: installed", m: machine{uid: "0", installed: []string{"gcc", "libz3-dev", "parallel"}},
			say: []string{"deps: installing graphviz with apt-get"}, log: []string{"apt-get uid=0 update", "apt-get uid=0 install -y graphviz"}, again: true},
		{name: "only graphviz missing, passwordless sudo: installed", m: machine{uid: "1000", sudo: "nopasswd", installed: []string{"gcc", "libz3-dev", "parallel"}},
			say: []string{"deps: installing graphviz with sudo apt-get"}, log: []string{"sudo apt-get update", "apt-get uid=0 update", "sudo apt-get install -y graphviz", "apt-get uid=0 install -y graphviz"}, again: true},
		{name: "only graphviz missing, sudo asks a password: a note", m: machine{uid: "1000", sudo: "password", installed: []string{"gcc", "libz3-dev", "parallel"}},
			say: []string{"deps: note: graphviz is not installed"}, notSay: []string{"installing"}},
		{name: "only parallel missing: a note", m: machine{uid: "1000", installed: []string{"gcc", "libz3-dev", "graphviz"}},
			say: []string{"deps: note: parallel is not installed; only the test of sharded synthesis (GNU parallel) needs it (sudo apt-get install -y parallel)"}},
		{name: "graphviz and parallel missing as root: both installed", m: machine{uid: "0", installed: []string{"gcc", "libz3-dev"}},
			say: []string{"deps: installing graphviz parallel with apt-get"}, log: []string{"apt-get uid=0 update", "apt-get uid=0 install -y graphviz parallel"}, again: true},
		{name: "optional ones missing, apt-get fails: notes", m: machine{uid: "0", installed: []string{"gcc", "libz3-dev"}, env: []string{"FAKE_APT_FAIL=1"}},
			say: []string{"deps: note: apt-get failed", "deps: note: graphviz is not installed", "deps: note: parallel is not installed"}, log: []string{"apt-get uid=0 update"}},
		{name: "user without sudo", m: machine{uid: "1000", installed: []string{"gcc", "parallel"}}, code: 1,
			say: []string{"  libz3-dev   Z3's header and library", "  graphviz    optional", "you are not root and sudo is not installed",
				"    su -c 'apt-get update && apt-get install -y libz3-dev graphviz'", "then run make again"},
			notSay: []string{"  gcc ", "sudo sh"}},
		{name: "user without sudo, nothing installed", m: machine{uid: "1000"}, code: 1,
			say: []string{"  gcc         the C compiler cgo uses", "su -c 'apt-get update && apt-get install -y gcc libz3-dev graphviz parallel'"}},
		{name: "gcc missing, libz3-dev recorded by dpkg", m: machine{uid: "1000", installed: []string{"libz3-dev", "graphviz", "parallel"}}, code: 1,
			say: []string{"  gcc ", "apt-get install -y gcc'"}, notSay: []string{"libz3-dev "}},
		{name: "sudo wants a password, no terminal", m: machine{uid: "1000", installed: []string{"gcc", "graphviz", "parallel"}, sudo: "password"}, code: 1,
			say:    []string{"sudo needs a password but there is no terminal", "    sudo sh -c 'apt-get update && apt-get install -y libz3-dev'"},
			notSay: []string{"su -c"}},
		{name: "root installs", m: machine{uid: "0", installed: []string{"gcc", "parallel"}},
			say: []string{"deps: installing libz3-dev graphviz with apt-get", "Reading package lists", "Setting up -y libz3-dev graphviz"},
			log: []string{"apt-get uid=0 update", "apt-get uid=0 install -y libz3-dev graphviz"}, again: true},
		{name: "passwordless sudo installs", m: machine{uid: "1000", sudo: "nopasswd"},
			say: []string{"deps: installing gcc libz3-dev graphviz parallel with sudo apt-get"},
			log: []string{"sudo apt-get update", "apt-get uid=0 update", "sudo apt-get install -y gcc libz3-dev graphviz parallel",
				"apt-get uid=0 install -y gcc libz3-dev graphviz parallel"}, again: true},
		{name: "apt-get fails", m: machine{uid: "0", installed: []string{"gcc", "graphviz", "parallel"}, env: []string{"FAKE_APT_FAIL=1"}}, code: 1,
			say: []string{"network unreachable", "deps: apt-get failed (exit status 100)"}, log: []string{"apt-get uid=0 update"}},
		{name: "installed but Z3 does not link", m: machine{uid: "0", installed: all, env: []string{"FAKE_Z3_UNLINKABLE=1"}}, code: 1,
			say: []string{"still missing after apt-get: libz3-dev", "check CGO_CFLAGS and CGO_LDFLAGS"},
			log: []string{"apt-get uid=0 update", "apt-get uid=0 install -y libz3-dev"}},
		{name: "Z3 outside the default paths, given by CGO_LDFLAGS",
			m:       machine{uid: "1000", installed: all, env: []string{"FAKE_Z3_DIR=/opt/z3/lib", "CGO_LDFLAGS=-L/opt/z3/lib"}},
			quietly: true},
		{name: "Z3 outside the default paths, not given", m: machine{uid: "1000", installed: all, env: []string{"FAKE_Z3_DIR=/opt/z3/lib"}}, code: 1,
			say: []string{"  libz3-dev "}},
		{name: "not Debian", m: machine{uid: "1000", noApt: true}, code: 1,
			say: []string{"  gcc ", "apt-get not found: install them with this system's package manager"}},
		{name: "no go", m: machine{uid: "1000", installed: all, noGo: true}, code: 1,
			say: []string{"deps: go: command not found", "https://go.dev/dl/"}},
		{name: "moreutils' parallel is not GNU parallel", m: machine{uid: "1000", installed: []string{"gcc", "libz3-dev", "graphviz", "moreutils"}},
			say: []string{"deps: note: parallel is not installed"}},
		{name: "GO names the go command", m: machine{uid: "1000", installed: all, noGo: true, env: []string{"GO=go1.26"}}, code: 1,
			say: []string{"deps: go1.26: command not found"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := setUp(t, tc.m)
			r := deps(t, env)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d", r.code, tc.code)
			}
			if tc.quietly && r.out != "" {
				t.Errorf("output on a machine with everything:\n%s", r.out)
			}
			for _, s := range tc.say {
				if !strings.Contains(r.out, s) {
					t.Errorf("output lacks %q", s)
				}
			}
			for _, s := range tc.notSay {
				if strings.Contains(r.out, s) {
					t.Errorf("output has %q", s)
				}
			}
			if strings.Join(r.log, "\n") != strings.Join(tc.log, "\n") {
				t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(r.log, "\n"), strings.Join(tc.log, "\n"))
			}
			if t.Failed() {
				t.Logf("output:\n%s", r.out)
			}
			if tc.again {
				again := deps(t, env)
				if again.code != 0 || again.out != "" || len(again.log) != len(r.log) {
					t.Errorf("second run: exit %d, calls %q, output:\n%s", again.code, again.log[len(r.log):], again.out)
				}
			}
		})
	}
	t.Run("usage", func(t *testing.T) {
		t.Parallel()
		env := setUp(t, machine{uid: "1000", installed: all})
		if r := deps(t, env, "--frobnicate"); r.code != 2 || !strings.Contains(r.out, "usage: scripts/deps.sh") {
			t.Errorf("bad argument: exit %d, %q", r.code, r.out)
		}
		if r := deps(t, env, "--help"); r.code != 0 || !strings.Contains(r.out, "usage: scripts/deps.sh") {
			t.Errorf("--help: exit %d, %q", r.code, r.out)
		}
	})
}

func (r run) stdout() string { return r.out }

// TestReadmeGoVersion: README.md names the Go version of go.mod's go line.
func TestReadmeGoVersion(t *testing.T) {
	t.Parallel()
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "Go " + string(m[1]) + " or later"
	if !bytes.Contains(readme, []byte(want)) {
		t.Errorf("README.md does not say %q (go.mod: go %s)", want, m[1])
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/internal/golden"
)

// goExamples are the Go packages of examples/go with a golden audit.
var goExamples = []string{"bank", "counter", "set", "queue", "kvstore", "lru"}

// goSynthExamples are every Go package of examples/go: kvmap's maps of
// 256 keys make its audit's witness searches take minutes, so it has no
// golden audit; the oracle checks its constraints (gofront).
var goSynthExamples = append(goExamples[:len(goExamples):len(goExamples)], "kvmap")

// TestGoAudit audits each Go example; the output (matrix, constraints,
// witnesses) is golden: examples/go/NAME/audit.golden.
func TestGoAudit(t *testing.T) {
	t.Parallel()
	for _, name := range goExamples {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "..", "examples", "go", name)
			out, errOut, code := icgen("audit", dir)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden.File(t, filepath.Join(dir, "audit.golden"), out)
		})
	}
}

// TestGoSynthStable: the IC file of each example is the same bytes
// across runs and numbers of workers.
func TestGoSynthStable(t *testing.T) {
	t.Parallel()
	for _, name := range goSynthExamples {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "..", "examples", "go", name)
			tmp := t.TempDir()
			var files []string
			for i, j := range []string{"1", "2"} {
				out := filepath.Join(tmp, "ic"+string(rune('a'+i))+".json")
				if _, errOut, code := icgen("synth", "-q", "-j", j, "-o", out, dir); code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, string(b))
			}
			if files[0] != files[1] {
				t.Errorf("IC files differ across runs and -j")
			}
			if !strings.Contains(files[0], `"program": "`+dir+`"`) {
				t.Errorf("the IC file does not name the package %s", dir)
			}
		})
	}
}

// TestGoAuditTime: auditing the bank example takes under 2 s (the best
// of three runs, so a busy machine does not fail it).
func TestGoAuditTime(t *testing.T) {
	best := time.Hour
	for range 3 {
		t0 := time.Now()
		if _, errOut, code := icgen("audit", filepath.Join("..", "..", "examples", "go", "bank")); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		best = min(best, time.Since(t0))
	}
	t.Logf("audit of examples/go/bank: %v", best)
	if best > 2*time.Second {
		t.Errorf("audit of examples/go/bank took %v, want under 2s", best)
	}
}

// TestGoInput: Go input through the commands: a pattern, a bad package,
// an unknown block's reason.
func TestGoInput(t *testing.T) {
	t.Parallel()
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "x.go"), []byte("package x\nfunc f() int { return y }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	multi := t.TempDir()
	for _, name := range []string{"p", "q"} {
		src := "package " + name + "\nimport \"sync\"\nvar (mu sync.Mutex; n int)\nfunc Inc() { mu.Lock(); defer mu.Unlock(); n++ }\n"
		if err := os.MkdirAll(filepath.Join(multi, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(multi, name, name+".go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runCases(t, []cliCase{
		{"type error", []string{"audit", bad}, 2, nil, []string{"x.go:2:23: undefined: y", "1 error"}},
		{"unknown block", []string{"audit", "../../examples/go/lru"}, 0,
			[]string{"(Cache.Keys, Cache.Keys') unknown", "reason: block Cache.Keys is not modelled: ../../examples/go/lru/lru.go:69:24: result: values of type []int are not modelled"}, nil},
		{"several packages", []string{"synth", "--format", "text", "-q", "-o", "-", multi + "/..."}, 0,
			[]string{"I(p.Inc, p.Inc') = {true}", "I(p.Inc, q.Inc') = {true}", "I(q.Inc, q.Inc') = {true}"}, nil},
	})
}

// TestGoICFile: an IC file of Go code gives every constraint its Go text
// (gofront's GoText of its expression, which the oracle checks) and every
// block the position of its Go function's name; a file of a .blk program
// has neither.
func TestGoICFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "examples", "go", "bank")
	out := filepath.Join(t.TempDir(), "bank.ic.json")
	if _, errOut, code := icgen("synth", "-q", "-o", out, dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ic.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p, errs, err := gofront.Load(dir)
	if err != nil || errs != nil {
		t.Fatalf("load: %v %v", err, errs)
	}
	n := 0
	for _, pr := range f.Pairs {
		for _, c := range pr.Constraints {
			if want := p.GoText(c.Expr); c.Go != want || want == "" {
				t.Errorf("(%s, %s') %s: go %q, want %q", pr.A, pr.B, c.Text, c.Go, want)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no constraint")
	}
	for _, b := range f.Blocks {
		file, rest, _ := strings.Cut(b.Pos, ":")
		line, _, _ := strings.Cut(rest, ":")
		src, err := os.ReadFile(file) // as the command was given the package
		k, _ := strconv.Atoi(line)
		lines := strings.Split(string(src), "\n")
		name := strings.TrimPrefix(strings.TrimSuffix(b.ID, "@result"), "Account.")
		if err != nil || k < 1 || k > len(lines) || !strings.Contains(lines[k-1], "func ") || !strings.Contains(lines[k-1], name+"(") {
			t.Errorf("block %s: pos %q is not its function", b.ID, b.Pos)
		}
	}
	blk := filepath.Join(t.TempDir(), "fig1.ic.json")
	if _, errOut, code := icgen("synth", "-q", "-o", blk, filepath.Join("..", "..", "testdata", "fig1.blk")); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(blk); strings.Contains(string(b), `"go"`) || strings.Contains(string(b), `"pos"`) {
		t.Errorf("an IC file of a .blk program has go or pos fields")
	}
}

// TestGoCheckOwnFile: icgen check --ics proves every constraint of the IC
// file synth writes for each Go example, whose globals gofront renames
// to the Go names after compiling (a lookup of a global by name once
// missed them all: "a.balance is not a global of the program").
func TestGoCheckOwnFile(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"bank", "counter", "queue"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "..", "examples", "go", name)
			out := filepath.Join(t.TempDir(), name+".ic.json")
			if _, errOut, code := icgen("synth", "-q", "-o", out, dir); code != 0 {
				t.Fatalf("synth: exit %d: %s", code, errOut)
			}
			stdout, errOut, code := icgen("check", "--ics", out, dir)
			if code != 0 || !strings.Contains(stdout, " 0 unsound, 0 unknown, 0 invalid") {
				t.Errorf("check: exit %d: %s%s", code, lastLine(stdout), errOut)
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestGoCheckGoText: icgen check --ics refuses an IC file of Go code
// whose go text is not its expression's rendering, and a file of a .blk
// program that has a go text, naming the constraint and both texts.
func TestGoCheckGoText(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "examples", "go", "bank")
	out := filepath.Join(t.TempDir(), "bank.ic.json")
	if _, errOut, code := icgen("synth", "-q", "-o", out, dir); code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	const orig, tampered = `"go": "a.frozen && amt > 0"`, `"go": "!a.frozen && amt > 0"`
	if !strings.Contains(string(data), orig) {
		t.Fatalf("the IC file has no %s", orig)
	}
	if err := os.WriteFile(out, []byte(strings.Replace(string(data), orig, tampered, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, errOut, code := icgen("check", "--ics", out, dir)
	for _, want := range []string{
		`inconsistent: its Go text "!a.frozen && amt > 0" is not its expression's, "a.frozen && amt > 0"`,
		", 1 inconsistent",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s%s", want, stdout, errOut)
		}
	}
	if code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}

	blk := filepath.Join(t.TempDir(), "fig1.ic.json")
	fig1 := filepath.Join("..", "..", "testdata", "fig1.blk")
	if _, errOut, code := icgen("synth", "-q", "-o", blk, fig1); code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errOut)
	}
	data, err = os.ReadFile(blk)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ic.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	added := false
	for i := range f.Pairs {
		if len(f.Pairs[i].Constraints) > 0 && !added {
			f.Pairs[i].Constraints[0].Go = "x > 0"
			added = true
		}
	}
	b, err := ic.Marshal(f)
	if err != nil || !added {
		t.Fatal(err, added)
	}
	if err := os.WriteFile(blk, b, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code = icgen("check", "--ics", blk, fig1)
	if want := `inconsistent: it has a Go text, "x > 0", but its program is not Go code`; code != ExitFindings || !strings.Contains(stdout, want) {
		t.Errorf("a .blk program's file with a go text: exit %d, no %q in:\n%s", code, want, stdout)
	}
}

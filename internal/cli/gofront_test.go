package cli

import (
	"fmt"
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

// TestGoDeclared: icgen check proves the //icgen:commute declarations of
// Go code as it proves a .blk program's: proven, unsound with a witness
// in Go terms (fields and both calls' arguments), unknown when a block is
// not modelled; a constraint synth writes, pasted back as a declaration,
// is proven; a bad declaration is an error at the construct, with its
// line and a caret (exit 2).
func TestGoDeclared(t *testing.T) {
	t.Parallel()
	out, errOut, code := icgen("check", filepath.Join("..", "..", "examples", "go", "bank"))
	if code != ExitOK || !strings.Contains(out, "bank.go:27:1: I(Account.Deposit, Account.Withdraw'): amt > 0 && a.balance + a.limit >= amt2: proven where no_overflow holds\n    //icgen:commute Deposit Withdraw") {
		t.Errorf("bank: exit %d\n%s%s", code, out, errOut)
	}

	const src = `package acct

import "sync"

type Account struct {
	mu      sync.Mutex
	balance int64
	frozen  bool
}

func (a *Account) Deposit(amt int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += amt
}

func (a *Account) Withdraw(amt int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.frozen || a.balance < amt {
		return false
	}
	a.balance -= amt
	return true
}

func (a *Account) Keys() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return nil
}
`
	write := func(decls string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "acct.go"), []byte(src+decls), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dir := write(`
//icgen:commute Deposit Deposit
//icgen:commute Withdraw Deposit when a.balance >= amt
//icgen:commute Keys Deposit
`)
	out, errOut, code = icgen("check", dir)
	for _, want := range []string{
		"acct.go:33:1: I(Account.Deposit, Account.Deposit'): true: proven where no_overflow holds\n",
		"acct.go:34:1: I(Account.Deposit, Account.Withdraw'): a.balance >= amt2: unsound\n    //icgen:commute Withdraw Deposit when a.balance >= amt\n    ^\n",
		"witness: the orders end in different states (ret2)",
		"from a.balance = ",
		"amt2 = ",
		"acct.go:35:1: I(Account.Keys, Account.Deposit'): true: unknown: block Account.Keys is not modelled: ",
		"acct.go:27:26: result: values of type []int are not modelled",
		"3 constraints: 1 proven (1 where no_overflow holds), 1 unsound, 1 unknown, 0 invalid",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check: no %q in:\n%s%s", want, out, errOut)
		}
	}
	if code != ExitFindings {
		t.Errorf("check: exit %d, want %d", code, ExitFindings)
	}
	out, _, _ = icgen("check", "--json", dir)
	for _, want := range []string{`"source": "declared: //icgen:commute Withdraw Deposit when a.balance >= amt"`, `"name": "amt2"`, `"name": "a.balance"`} {
		if !strings.Contains(out, want) {
			t.Errorf("check --json: no %q in:\n%s", want, out)
		}
	}

	// What synth writes reads back as a declaration, and is proven.
	out, errOut, code = icgen("synth", "--format", "text", "-q", "-o", "-", write(""))
	var pasted []string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "I(Account.Withdraw, Account.Withdraw') = {"); ok {
			cs, _, _ := strings.Cut(rest, "}")
			for _, c := range strings.Split(cs, ", ") {
				pasted = append(pasted, "//icgen:commute Withdraw Withdraw when "+c+"\n")
			}
		}
	}
	if code != ExitOK || len(pasted) == 0 {
		t.Fatalf("synth: exit %d, no constraint of (Withdraw, Withdraw):\n%s%s", code, out, errOut)
	}
	out, errOut, code = icgen("check", write("\n"+strings.Join(pasted, "")))
	if n := len(pasted); code != ExitOK || !strings.Contains(out, fmt.Sprintf("%d constraint%s: %d proven", n, plural(n), n)) {
		t.Errorf("pasted %q: exit %d\n%s%s", pasted, code, out, errOut)
	}

	// Errors: located, with the line and a caret; bad input.
	_, errOut, code = icgen("check", write("\n//icgen:commute Deposit Nope\n//icgen:commute Deposit Withdraw when a.balance > amt3\n"))
	for _, want := range []string{
		"acct.go:33:25: no atomic block Nope in package acct (its blocks: Account.Deposit, Account.Withdraw, Account.Keys)\n    //icgen:commute Deposit Nope\n    " + strings.Repeat(" ", 24) + "^\n",
		"acct.go:34:51: undefined: amt3\n    //icgen:commute Deposit Withdraw when a.balance > amt3\n    " + strings.Repeat(" ", 50) + "^\n",
		"2 errors",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("errors: no %q in:\n%s", want, errOut)
		}
	}
	if code != ExitBadInput {
		t.Errorf("errors: exit %d, want %d", code, ExitBadInput)
	}
}

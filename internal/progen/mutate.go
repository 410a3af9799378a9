package progen

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Mutation kinds of Mutate: small edits a hostile reader of a program
// makes to see whether what held still holds.
const (
	MutateSpawn    = iota // duplicate a spawn statement
	MutateLiteral         // change an integer literal by one, or negate it
	MutateDisabler        // add a process that writes what an await guard reads
	MutateDelete          // delete statements (Delete)
	mutationKinds
)

var (
	spawnStmt   = regexp.MustCompile(`\bspawn \w+\([^;]*\);`)
	literal     = regexp.MustCompile(`\b\d+\b`)
	globalDecl  = regexp.MustCompile(`^\s*global\s+(int|bool)\s+(.*);`)
	globalName  = regexp.MustCompile(`^\s*(\w+)\s*(\[[^\]]*\])?`)
	awaitGuard  = regexp.MustCompile(`await\((.*)\);`)
	identifier  = regexp.MustCompile(`\b[A-Za-z_]\w*\b`)
	cellRead    = regexp.MustCompile(`\b([A-Za-z_]\w*)\[(\d+)\]`)
	literalSkip = regexp.MustCompile(`^\s*(global|param)\b|\[|"`)
	counterStep = regexp.MustCompile(`^\s*(\w+) = (\w+) [-+] \d+;`)
)

// Mutate returns a mutant of src, any program, chosen by seed: one edit of
// kind kind (MutateSpawn, MutateLiteral, MutateDisabler, MutateDelete),
// or src itself where that kind finds nothing to edit. The result need not
// compile (a literal made out of range, say); what compiles is a program
// a differential test can run as it runs the original.
func Mutate(src string, seed uint64, kind int) string {
	r := rand.New(rand.NewPCG(seed, 0x6d7574617465))
	lines := strings.Split(src, "\n")
	switch kind % mutationKinds {
	case MutateSpawn:
		at := matches(lines, spawnStmt, nil)
		if len(at) == 0 {
			return src
		}
		m := at[r.IntN(len(at))]
		l := lines[m.line]
		lines[m.line] = l[:m.to] + " " + l[m.from:m.to] + l[m.to:]
	case MutateLiteral:
		// Sizes, params, indices and messages stay, and so do the steps of
		// counters: i = i + 0 makes a loop endless, and every run of its
		// block a million steps long.
		at := matches(lines, literal, func(code string) bool {
			return literalSkip.MatchString(code) || counterStep.MatchString(code)
		})
		if len(at) == 0 {
			return src
		}
		m := at[r.IntN(len(at))]
		l := lines[m.line]
		v, _ := strconv.ParseInt(l[m.from:m.to], 10, 64)
		nv := []int64{v + 1, v - 1, -v}[r.IntN(3)]
		if nv == v {
			nv = v + 1
		}
		repl := strconv.FormatInt(nv, 10)
		if nv < 0 {
			repl = "(" + repl + ")"
		}
		lines[m.line] = l[:m.from] + repl + l[m.to:]
	case MutateDisabler:
		return addDisabler(src, lines, r)
	case MutateDelete:
		return Delete(src, seed, 1+r.IntN(3))
	}
	return strings.Join(lines, "\n")
}

// addDisabler adds a process that writes a global (or a cell) an await
// guard reads, with a value of the program, and spawns it from init.
func addDisabler(src string, lines []string, r *rand.Rand) string {
	globals := map[string]bool{}
	for _, l := range lines {
		m := globalDecl.FindStringSubmatch(l)
		if m == nil || m[1] != "int" {
			continue
		}
		for _, d := range splitDecls(m[2]) {
			if n := globalName.FindStringSubmatch(d); n != nil {
				globals[n[1]] = true
			}
		}
	}
	var targets []string
	for _, l := range lines {
		m := awaitGuard.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		for _, c := range cellRead.FindAllStringSubmatch(m[1], -1) {
			if globals[c[1]] {
				targets = append(targets, c[1]+"["+c[2]+"]")
			}
		}
		for _, id := range identifier.FindAllString(m[1], -1) {
			if globals[id] && !strings.Contains(m[1], id+"[") {
				targets = append(targets, id)
			}
		}
	}
	initAt := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "init") })
	if len(targets) == 0 || initAt < 0 {
		return src
	}
	end := blockEnd(lines, initAt)
	if end < 0 {
		return src
	}
	t := targets[r.IntN(len(targets))]
	v := []int{0, -1, 1, 2}[r.IntN(4)]
	name := "mutant_disabler"
	proc := []string{fmt.Sprintf("proc %s(int v) {", name), fmt.Sprintf("  %s = v;", t), "}"}
	// The spawn goes before the brace that closes init, on its line.
	last := lines[end-1]
	b := strings.LastIndexByte(last, '}')
	if b < 0 {
		return src
	}
	lines[end-1] = last[:b] + fmt.Sprintf("spawn %s(%d); ", name, v) + last[b:]
	lines = slices.Insert(lines, initAt, proc...)
	return strings.Join(lines, "\n")
}

// splitDecls splits the declarators of a global declaration at the commas
// outside braces.
func splitDecls(s string) []string {
	var out []string
	depth, from := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// span is a match of a pattern in a program's text: its line, and where on
// the line it starts and ends.
type span struct{ line, from, to int }

// matches returns the matches of re in the code of lines (comments left
// out), in order, skipping the lines whose code skip holds of.
func matches(lines []string, re *regexp.Regexp, skip func(code string) bool) []span {
	var at []span
	for i, l := range lines {
		code, _, _ := strings.Cut(l, "//")
		if skip != nil && skip(code) {
			continue
		}
		for _, m := range re.FindAllStringIndex(code, -1) {
			at = append(at, span{i, m[0], m[1]})
		}
	}
	return at
}

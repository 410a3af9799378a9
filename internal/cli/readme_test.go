package cli

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/pflag"
)

// TestREADMEConsole runs every command of the README's console blocks
// ("$ icgen ...") and compares its standard output with the lines the
// README shows after it, so the front page stays true.
func TestREADMEConsole(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	blocks := strings.Split(string(data), "```console\n")
	for _, b := range blocks[1:] {
		b, _, _ = strings.Cut(b, "```")
		var cmd string
		var want []string
		check := func() {
			if cmd == "" {
				return
			}
			runs++
			args := strings.Fields(cmd)
			for i, a := range args {
				args[i] = strings.Replace(a, "testdata/", "../../testdata/", 1)
			}
			out, stderr, _ := icgen(args...)
			out = strings.ReplaceAll(out, "../../testdata/", "testdata/")
			if got := strings.TrimRight(out, "\n"); got != strings.TrimRight(strings.Join(want, "\n"), "\n") {
				t.Errorf("README: $ icgen %s\nshows:\n%s\nbut prints:\n%s%s", cmd, strings.Join(want, "\n"), out, stderr)
			}
		}
		for _, line := range strings.Split(b, "\n") {
			if c, ok := strings.CutPrefix(line, "$ icgen "); ok {
				check()
				cmd, want = c, nil
				continue
			}
			want = append(want, line)
		}
		check()
	}
	if runs == 0 {
		t.Error("no console commands found in README.md")
	}
}

// TestREADMETestCommand: CI (.ci/run) runs the README's test command, and
// the README's setup block shows it, so what a reader runs is what CI runs.
func TestREADMETestCommand(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, b := range strings.Split(string(readme), "```sh\n")[1:] {
		b, _, _ = strings.Cut(b, "```")
		for _, line := range strings.Split(b, "\n") {
			if cmd, _, _ := strings.Cut(line, "#"); strings.TrimSpace(cmd) != "" {
				shown = append(shown, strings.TrimSpace(cmd))
			}
		}
	}
	var run string
	for _, line := range strings.Split(string(ci), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			run = line // the last command is the test command
		}
	}
	if run != "make test" {
		t.Errorf(".ci/run runs %q, not the README's test command make test", run)
	}
	if !slices.Contains(shown, "make test") || !slices.Contains(shown, "make demo") {
		t.Errorf("README's setup block shows %q, not make demo and make test", shown)
	}
}

// markdownFiles lists the repository's Markdown files, relative to its root.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel("../..", path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// headings returns the headings of a Markdown file, as written (without
// the #s and backquotes) and as GitHub's anchors; titles holds the bold
// openings of paragraphs and items too.
func headings(t *testing.T, file string) (titles, anchors map[string]bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../..", file))
	if err != nil {
		t.Fatal(err)
	}
	titles, anchors = map[string]bool{}, map[string]bool{}
	inCode := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode {
			continue
		}
		// A paragraph or item that opens in bold is named by it too.
		if lead, ok := strings.CutPrefix(strings.TrimPrefix(line, "- "), "**"); ok {
			if lead, _, ok = strings.Cut(lead, "**"); ok {
				titles[strings.TrimRight(strings.ReplaceAll(lead, "`", ""), ".:")] = true
			}
		}
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		titles[strings.ReplaceAll(title, "`", "")] = true
		var a strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				a.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				a.WriteRune(r)
			}
		}
		anchors[a.String()] = true
	}
	return titles, anchors
}

var (
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// A section named in prose: a page, a comma and a quoted title.
	sectionRef = regexp.MustCompile(`((?:docs/[\w/.-]+|bench/RESULTS|CONTRIBUTING|README)\.md), "([^"]+)"`)
	// A program named in a reference page: a path, or a bare name of
	// dporrt/testdata/regress.
	blkRef = regexp.MustCompile("`([\\w/.-]+\\.blk)`")
)

// TestDocLinks: every relative link of every Markdown file names a file
// that exists (and a heading of it, after #); every section that a
// Markdown, Go or program file names by a page's path, a comma and a quoted
// title is a heading of that page (or the start of one, or a paragraph
// that opens with it in bold); and every program the reference pages name
// exists.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	mds := markdownFiles(t)
	for _, md := range mds {
		data, err := os.ReadFile(filepath.Join("../..", md))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := md
			if file != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(md), file))
				if _, err := os.Stat(filepath.Join("../..", path)); err != nil {
					t.Errorf("%s: link to %s: no such file", md, target)
					continue
				}
			}
			if anchor != "" {
				if _, anchors := headings(t, path); !anchors[anchor] {
					t.Errorf("%s: link to %s: no such heading", md, target)
				}
			}
		}
	}
	// Section references, in Markdown, Go and program files (comment
	// markers and line breaks taken out).
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		ext := filepath.Ext(path)
		if d.IsDir() || (ext != ".md" && ext != ".go" && ext != ".blk") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var text strings.Builder
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			line = strings.TrimSpace(strings.TrimLeft(line, "/"))
			text.WriteString(line + " ")
		}
		rel, _ := filepath.Rel("../..", path)
		for _, m := range sectionRef.FindAllStringSubmatch(text.String(), -1) {
			if _, err := os.Stat(filepath.Join("../..", m[1])); err != nil {
				t.Errorf("%s: names %s: no such file", rel, m[1])
				continue
			}
			if titles, _ := headings(t, m[1]); !namesSection(titles, strings.ReplaceAll(m[2], "`", "")) {
				t.Errorf("%s: names section %q of %s, which has no such heading", rel, m[2], m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range []string{"README.md", "docs/algorithms.md", "docs/cli.md"} {
		data, err := os.ReadFile(filepath.Join("../..", md))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range blkRef.FindAllStringSubmatch(string(data), -1) {
			path := m[1]
			if !strings.Contains(path, "/") {
				path = "dporrt/testdata/regress/" + path
			}
			if _, err := os.Stat(filepath.Join("../..", path)); err != nil {
				t.Errorf("%s: names %s: no such program", md, m[1])
			}
		}
	}
}

// TestCLIDoc: docs/cli.md has a section for every command, which names
// every flag of that command, so the reference lists what --help does.
func TestCLIDoc(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, s := range strings.Split(string(data), "\n## icgen ")[1:] {
		name, body, _ := strings.Cut(s, "\n")
		sections[name] = body
	}
	root := newRoot(&env{stdout: io.Discard, stderr: io.Discard})
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			continue
		}
		body, ok := sections[c.Name()]
		if !ok {
			t.Errorf("docs/cli.md has no section ## icgen %s", c.Name())
			continue
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			if !strings.Contains(body, "`--"+f.Name) && !strings.Contains(body, ", --"+f.Name) {
				t.Errorf("docs/cli.md, icgen %s: flag --%s is not listed", c.Name(), f.Name)
			}
		})
	}
}

// namesSection reports whether title is one of titles, or the start of one
// ("Above the paper's counts" for "Above the paper's counts, and why").
func namesSection(titles map[string]bool, title string) bool {
	for t := range titles {
		if t == title || strings.HasPrefix(t, title+",") || strings.HasPrefix(t, title+":") {
			return true
		}
	}
	return false
}

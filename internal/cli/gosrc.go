package cli

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/icgen/icgen/audit"
	"github.com/icgen/icgen/gofront"
	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/lang"
)

// loadGo loads Go code (package gofront): its atomic blocks lowered to
// the IR. Files that do not parse or type-check are bad input, shown as
// compile errors are.
func (e *env) loadGo(path string, asJSON bool) (*loaded, error) {
	p, errs, err := gofront.Load(path)
	if err != nil {
		return nil, badInput("%v", err)
	}
	if errs != nil {
		if asJSON {
			writeJSON(e.stdout, diagnosticsJSON(path, errs))
		} else {
			shown := errs
			if len(shown) > lang.MaxShown {
				shown = shown[:lang.MaxShown]
			}
			for _, x := range shown {
				var src []byte
				if p != nil {
					src = p.Files[x.Pos.File]
				}
				fmt.Fprint(e.stderr, lang.ErrorList{x}.Format(src))
			}
			fmt.Fprintf(e.stderr, "%d error%s\n", len(errs), plural(len(errs)))
		}
		return nil, reported
	}
	return &loaded{path: path, src: p.Source, prog: p.Prog, go_: p}, nil
}

// goPairs makes unknown, in an IC file, every pair with a Go block that
// is not modelled, with the block's located reason, gives every
// constraint its Go text and every block the position of its Go function.
func goPairs(l *loaded, f *ic.File) {
	if l.go_ == nil {
		return
	}
	pos := map[string]string{}
	for _, b := range l.go_.Blocks {
		pos[b.ID] = b.Pos.String()
	}
	for i := range f.Blocks {
		id, _, _ := strings.Cut(f.Blocks[i].ID, "@") // a result block: its function's
		f.Blocks[i].Pos = pos[id]
	}
	for i := range f.Pairs {
		pr := &f.Pairs[i]
		for k := range pr.Constraints {
			pr.Constraints[k].Go = l.go_.GoText(pr.Constraints[k].Expr)
		}
		reason, ok := l.go_.Unknown(pr.A)
		if !ok {
			reason, ok = l.go_.Unknown(pr.B)
		}
		if !ok {
			continue
		}
		*pr = ic.Pair{A: pr.A, B: pr.B, Status: ic.Unknown, Reason: reason, Constraints: []ic.Constraint{}}
	}
}

// goDeclared adds to the check of a Go package's declarations those
// that name a block that is not modelled: unknown, with the block's
// located reason. The results stay in the declarations' order.
func goDeclared(l *loaded, rep *audit.FileReport) {
	if l.go_ == nil {
		return
	}
	for _, c := range l.go_.Commutes {
		if c.Decl == nil {
			rep.Constraints = append(rep.Constraints, audit.Result{
				Claim:   audit.Claim{A: c.A, B: c.B, Source: "declared: " + c.Text, Pos: c.Pos, Text: c.Cond},
				Verdict: audit.Undecided, Reason: c.Unknown})
		}
	}
	sort.SliceStable(rep.Constraints, func(i, j int) bool {
		p, q := rep.Constraints[i].Claim.Pos, rep.Constraints[j].Claim.Pos
		if p.File != q.File {
			return p.File < q.File
		}
		return p.Offset < q.Offset
	})
}

// goReport does for an audit what goPairs does for an IC file, and
// leaves out the result blocks (they read a call's results and commute
// with everything).
func goReport(l *loaded, r *audit.Report) {
	if l.go_ == nil {
		return
	}
	var blocks []string
	for _, b := range r.Blocks {
		if !l.go_.Hidden(b) {
			blocks = append(blocks, b)
		}
	}
	r.Blocks = blocks
	var pairs []audit.Pair
	for _, p := range r.Pairs {
		if l.go_.Hidden(p.A) || l.go_.Hidden(p.B) {
			continue
		}
		reason, ok := l.go_.Unknown(p.A)
		if !ok {
			reason, ok = l.go_.Unknown(p.B)
		}
		if ok {
			p = audit.Pair{A: p.A, B: p.B, Class: audit.Unknown, Reason: reason, NoWitness: "no witness: a block of the pair is not modelled"}
		}
		pairs = append(pairs, p)
	}
	r.Pairs = pairs
}

// goOutput is the default IC file of Go code: icgen.ic.json (.ic.txt,
// .ic.smt2) in the directory named.
func goOutput(path, ext string) string {
	dir := strings.TrimSuffix(strings.TrimSuffix(path, "..."), "/")
	if strings.HasSuffix(path, ".go") {
		return strings.TrimSuffix(path, ".go") + ext
	}
	if dir == "" {
		dir = "."
	}
	return filepath.Join(dir, "icgen"+ext)
}

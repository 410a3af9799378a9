package gofront

import (
	"go/token"
	"strings"
)

// mark ties a byte offset of the generated program text to the Go
// position it comes from.
type mark struct {
	off int
	pos token.Pos
}

// frag is a piece of generated text with the Go positions of its parts,
// offsets relative to its start.
type frag struct {
	s string
	m []mark
}

func fr(s string) frag { return frag{s: s} }

// at returns f marked at its start with p.
func (f frag) at(p token.Pos) frag {
	if !p.IsValid() {
		return f
	}
	return frag{s: f.s, m: append([]mark{{0, p}}, f.m...)}
}

// cat joins strings and frags.
func cat(parts ...any) frag {
	var b strings.Builder
	var m []mark
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			b.WriteString(p)
		case frag:
			for _, x := range p.m {
				m = append(m, mark{b.Len() + x.off, x.pos})
			}
			b.WriteString(p.s)
		}
	}
	return frag{s: b.String(), m: m}
}

// lines joins frags, one a line.
func lines(fs []frag) frag {
	parts := make([]any, 0, 2*len(fs))
	for _, f := range fs {
		parts = append(parts, f, "\n")
	}
	return cat(parts...)
}

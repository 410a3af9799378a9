package lang

import (
	"crypto/sha256"
	"encoding/hex"
)

// This file holds the front end's driver: parse, check, lower, and the
// program's hash.

// Compile parses, checks and lowers a program. It returns the program, or,
// when the source has problems, all of them sorted by position (and a nil
// program). Compile never panics on any input.
func Compile(file string, src []byte) (*Program, ErrorList) {
	pf, errs := parse(file, src)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	c := newChecker(file, src)
	c.file(pf)
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, c.errs
	}
	lower(c.prog)
	// Commute declarations name blocks, which exist once the program is
	// lowered: they are checked last.
	c.commutes()
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, c.errs
	}
	// Constraints name globals, and a runtime evaluates them by name at
	// every race (interp.ICEnv): a map, not a search.
	c.prog.globalNames = make(map[string]*Var, len(c.prog.Globals))
	for _, g := range c.prog.Globals {
		c.prog.globalNames[g.Name] = g
	}
	return c.prog, nil
}

// hashWithout is the sha256 of src without the byte ranges cuts (in
// source order): param values, so one IC file serves every size, and
// commute declarations, which are claims about the program, not part of it.
func hashWithout(src []byte, cuts [][2]int) string {
	h := sha256.New()
	at := 0
	for _, c := range cuts {
		if c[0] < at || c[1] > len(src) || c[0] > c[1] {
			continue
		}
		h.Write(src[at:c[0]])
		at = c[1]
	}
	h.Write(src[at:])
	return hex.EncodeToString(h.Sum(nil))
}

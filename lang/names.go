package lang

import (
	"strconv"
	"strings"
)

// MaxSteps is the language's step budget: a block may run at most MaxSteps
// nodes outside its in-block loops, and each run of an in-block loop (a
// while loop with no interleaving point, entered from outside any such loop)
// at most MaxSteps nodes, its nested loops and the funcs it calls included.
// Running out is a runtime error. The budget of a loop run depends only on
// the values the loop starts from, so synthesis can treat "the loop finishes
// within the budget" as part of the loop's abstracted behaviour.
const MaxSteps = 1 << 20

// LocalName is the name that identifies local v among the locals of its
// proc, func or init (locals, by slot): v's name, or name#slot when an
// earlier slot has the same name (sibling scopes may reuse a name). IC
// files, constraints and loop functions name locals this way; no program
// identifier contains '#'.
func LocalName(locals []*Var, v *Var) string {
	if v.Index < len(locals) && locals[v.Index] == v {
		for _, o := range locals[:v.Index] {
			if o.Name == v.Name {
				return v.Name + "#" + strconv.Itoa(v.Index)
			}
		}
	}
	return v.Name
}

// LookupLocal returns the local that LocalName calls name, or nil.
func LookupLocal(locals []*Var, name string) *Var {
	if base, slot, ok := strings.Cut(name, "#"); ok {
		i, err := strconv.Atoi(slot)
		if err != nil || i < 0 || i >= len(locals) || locals[i].Name != base {
			return nil
		}
		return locals[i]
	}
	for _, v := range locals {
		if v.Name == name {
			return v
		}
	}
	return nil
}

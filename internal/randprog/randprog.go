// Package randprog writes small random programs for differential testing of
// the explorers: 2-4 procs with 1-3 blocks each (separated by yield or,
// optionally, await), shared int globals and a small array, ifs, bounded
// loops, spawns, asserts, and locals live across points. Every execution is
// short, so dfs can explore all interleavings. Programs are a pure function
// of the seed and options.
package randprog

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Options choose what programs may contain.
type Options struct {
	Awaits bool // separate blocks with await(cond) as well as yield
	_      struct{}
}

// Generate writes the program of a seed.
func Generate(seed uint64, opts Options) string {
	r := rand.New(rand.NewPCG(seed, 0x9e37))
	globals := []string{"g0", "g1", "g2"}
	var b strings.Builder
	fmt.Fprintf(&b, "// generated, seed %d\n", seed)
	fmt.Fprintf(&b, "global int g0 = %d, g1 = %d, g2 = %d;\n", r.IntN(5)-2, r.IntN(5)-2, r.IntN(5)-2)
	fmt.Fprintf(&b, "global int a[2] = {%d, %d};\n", r.IntN(3), r.IntN(3))
	g := func() string { return globals[r.IntN(len(globals))] }
	atom := func(locals []string) string {
		switch r.IntN(5) {
		case 0:
			return fmt.Sprint(r.IntN(5) - 2)
		case 1:
			if len(locals) > 0 {
				return locals[r.IntN(len(locals))]
			}
		case 2:
			return fmt.Sprintf("a[%d]", r.IntN(2))
		}
		return g()
	}
	expr := func(locals []string) string {
		switch r.IntN(4) {
		case 0:
			return atom(locals)
		case 1:
			return atom(locals) + " - " + atom(locals)
		case 2:
			return fmt.Sprintf("(%s) %% 3", atom(locals))
		}
		return atom(locals) + " + " + atom(locals)
	}
	cond := func(locals []string) string {
		ops := []string{"<", "<=", "==", "!=", ">", ">="}
		return atom(locals) + " " + ops[r.IntN(len(ops))] + " " + atom(locals)
	}
	nprocs := 2 + r.IntN(3)
	var spawnable string
	for p := 0; p < nprocs; p++ {
		name := fmt.Sprintf("p%d", p)
		fmt.Fprintf(&b, "proc %s(int v) {\n", name)
		locals := []string{"v"}
		fresh := 0
		blocks := 1 + r.IntN(3)
		for blk := 0; blk < blocks; blk++ {
			if blk > 0 {
				if opts.Awaits && r.IntN(3) == 0 {
					fmt.Fprintf(&b, "  await(%s);\n", cond(locals))
				} else {
					b.WriteString("  yield;\n")
				}
			}
			for st := 0; st < 1+r.IntN(3); st++ {
				switch r.IntN(9) {
				case 0:
					fmt.Fprintf(&b, "  if (%s) { %s = %s; } else { %s = %s; }\n", cond(locals), g(), expr(locals), g(), expr(locals))
				case 1:
					fmt.Fprintf(&b, "  assert(%s);\n", cond(locals))
				case 2:
					fresh++
					l := fmt.Sprintf("t%d", fresh)
					fmt.Fprintf(&b, "  int %s = %s;\n", l, expr(locals))
					locals = append(locals, l)
				case 3:
					fmt.Fprintf(&b, "  a[%d] = %s;\n", r.IntN(2), expr(locals))
				case 4:
					fresh++
					l := fmt.Sprintf("i%d", fresh)
					fmt.Fprintf(&b, "  int %s = 0;\n  while (%s < 2) { %s = %s; %s = %s + 1; }\n", l, l, g(), expr(locals), l, l)
				case 5:
					if spawnable != "" && r.IntN(2) == 0 {
						fmt.Fprintf(&b, "  spawn %s(%s);\n", spawnable, atom(locals))
						continue
					}
					fallthrough
				default:
					fmt.Fprintf(&b, "  %s = %s;\n", g(), expr(locals))
				}
			}
		}
		b.WriteString("}\n")
		if p == 0 {
			spawnable = name // later procs may spawn p0; p0 spawns nothing, so spawning ends
		}
	}
	b.WriteString("init {")
	for p := 0; p < nprocs; p++ {
		fmt.Fprintf(&b, " spawn p%d(%d);", p, r.IntN(5)-2)
	}
	b.WriteString(" }\n")
	return b.String()
}

package progen

import (
	"fmt"
	"strings"
)

// This file holds the shapes of Options.Waits, Twins and Effects: waiting
// built from await as programs use it (locks, handshakes, a process that
// waits for several conditions other processes make or break), copies of
// one proc, and writes made inside expressions.

// shapeKind names a waiting shape.
type shapeKind int

const (
	noShape   shapeKind = iota
	waiter              // a waiter on several globals or cells, and their writers
	lock                // a lock built from await, taken by two processes
	handshake           // one process signals and waits for the other's answer
)

// shape is the waiting shape of a program: its kind and what it waits on.
type shape struct {
	kind    shapeKind
	targets []string // the globals or cells the waiter's guard reads
	cells   bool     // targets are cells of arr, written by one proc wr(k, v)
	twins   bool     // the writers run twice each (the same write)
}

// blocks returns the blocks of each process the shape starts.
func (s shape) blocks() []int {
	switch s.kind {
	case waiter:
		out := []int{2} // the waiter: its entry, then the block at its await
		for range s.targets {
			out = append(out, 1)
			if s.twins {
				out = append(out, 1)
			}
		}
		return out
	case lock:
		return []int{3, 3}
	case handshake:
		return []int{2, 2}
	}
	return nil
}

// pickShape chooses the waiting shape. Globals and the array are declared
// later; the targets are named now (g0.. exist in every program, the array
// only when it is declared: see shapeProcs).
func (g *gen) pickShape() {
	s := &g.shape
	s.kind = shapeKind(1 + g.n(3))
	if s.kind != waiter {
		return
	}
	n := 2 + g.n(2)
	s.cells = g.o.Arrays && g.chance(2)
	s.twins = g.chance(4)
	for i := range n {
		if s.cells {
			s.targets = append(s.targets, fmt.Sprintf("arr[%d]", i))
		} else {
			s.targets = append(s.targets, fmt.Sprintf("g%d", i))
		}
	}
}

// shapeProcs declares the procs of the waiting shape, once the globals and
// the array are known. A waiter on cells needs an array of as many cells:
// without one, it waits on globals.
func (g *gen) shapeProcs() {
	s := &g.shape
	if s.kind == waiter && s.cells && g.arrSize < len(s.targets) {
		s.cells = false
		for i := range s.targets {
			s.targets[i] = g.globals[i%len(g.globals)]
		}
	}
	if s.kind == waiter && !s.cells {
		// Distinct globals: g0, g1 exist, g2 only in some programs.
		s.targets = s.targets[:min(len(s.targets), len(g.globals))]
	}
	switch s.kind {
	case waiter:
		g.waiterProcs()
	case lock:
		g.lockProc()
	case handshake:
		g.handshakeProcs()
	}
}

// waiterProcs writes the waiter q and the writers of its targets: one
// proc wr(k, v) writing cell k for cells, a proc wr<i>(v) per global else.
// The guard holds in the initial state or not, as the writes make it.
func (g *gen) waiterProcs() {
	s := &g.shape
	ops := []string{"> 0", "== 0", "!= 1", ">= 0"}
	conj := make([]string, len(s.targets))
	for i, t := range s.targets {
		conj[i] = t + " " + ops[g.n(len(ops))]
	}
	g.scope, g.fresh = []local{{name: "v"}}, 0
	g.line("proc q(int v) {")
	g.indent++
	g.stmt(true)
	g.line("await(%s);", strings.Join(conj, " && "))
	switch k := g.n(3); {
	case k == 0 && g.o.Asserts:
		g.line("assert(false, \"q ran\");")
	case k == 2 && g.o.Asserts:
		g.line("assert(%s);", g.cond(1))
	default:
		g.line("%s = %s;", g.global(), g.sum(2))
	}
	g.indent--
	g.line("}")
	g.scope = nil
	if s.cells {
		g.line("proc wr(int k, int v) {")
		g.line("  arr[k] = v;")
		g.line("}")
		return
	}
	for i, t := range s.targets {
		g.line("proc wr%d(int v) {", i)
		if g.hasH && g.chance(3) {
			g.line("  %s = v;", t)
			g.line("  h(v);")
		} else {
			g.line("  %s = v;", t)
		}
		g.line("}")
	}
}

// lockProc writes a lock built from await on the global l (declared
// here): take it when free, hold it across a point, free it.
func (g *gen) lockProc() {
	g.line("global int l = 0;")
	g.scope, g.fresh = []local{{name: "v"}}, 0
	g.line("proc lk(int v) {")
	g.indent++
	g.line("await(l == 0);")
	g.line("l = 1;")
	x := g.global()
	g.line("%s = %s + v;", x, x)
	g.line("yield;")
	if g.o.Asserts {
		g.line("assert(l == 1, \"lock held\");")
	}
	g.stmt(false)
	g.line("l = 0;")
	g.indent--
	g.line("}")
	g.scope = nil
}

// handshakeProcs writes a handshake over the globals sig and ack
// (declared here): hs posts a value and waits for the answer; ha waits for
// the post and answers.
func (g *gen) handshakeProcs() {
	g.line("global int sig = 0, ack = 0;")
	x := g.global()
	g.scope, g.fresh = []local{{name: "v"}}, 0
	g.line("proc hs(int v) {")
	g.indent++
	g.line("%s = v;", x)
	g.line("sig = 1;")
	g.line("await(ack == 1);")
	if g.o.Asserts {
		g.line("assert(%s == v, \"answered\");", x)
	} else {
		g.line("%s = v;", x)
	}
	g.indent--
	g.line("}")
	g.line("proc ha(int v) {")
	g.indent++
	g.line("await(sig == 1);")
	g.stmt(false)
	g.line("ack = 1;")
	g.indent--
	g.line("}")
	g.scope = nil
}

// shapeSpawns writes init's spawns of the shape's processes.
func (g *gen) shapeSpawns() {
	s := g.shape
	switch s.kind {
	case waiter:
		g.line("spawn q(%d);", g.n(3))
		times := 1
		if s.twins {
			times = 2
		}
		for i := range s.targets {
			v := []int{0, 1, -1}[g.n(3)]
			for range times {
				if s.cells {
					g.line("spawn wr(%d, %d);", i, v)
				} else {
					g.line("spawn wr%d(%d);", i, v)
				}
			}
		}
	case lock:
		a, b := g.n(3), g.n(3)
		if g.chance(2) {
			b = a // the same acquire twice
		}
		g.line("spawn lk(%d);", a)
		g.line("spawn lk(%d);", b)
	case handshake:
		g.line("spawn hs(%d);", 1+g.n(3))
		g.line("spawn ha(0);")
	}
}

// cas writes a compare-and-swap as a statement: it writes only when the
// global holds the value compared, and only reads it otherwise.
func (g *gen) cas() {
	x := g.global()
	a, b := g.n(5)-2, g.n(5)-2
	g.line("if (%s == %d) {", x, a)
	g.line("  %s = %d;", x, b)
	g.line("}")
}

// funcK writes eff, a func that writes a global and returns a value: its
// calls in expressions are writes.
func (g *gen) funcK() {
	x, y := g.global(), g.global()
	g.line("func int eff(int a) {")
	switch g.n(3) {
	case 0:
		g.line("  %s = %s + a;", x, x)
		g.line("  return %s;", y)
	case 1:
		g.line("  %s = a;", x)
		g.line("  return a;")
	default:
		g.line("  if (%s > a) {", y)
		g.line("    %s = %s - 1;", x, x)
		g.line("  }")
		g.line("  return %s;", x)
	}
	g.line("}")
}

// callK returns a call of eff with a small argument.
func (g *gen) callK() string {
	return fmt.Sprintf("eff(%d)", g.n(3)-1)
}

// loopCall returns what a loop's condition adds with Effects: a call of eff
// that does not decide the loop (its counter does), or nothing.
func (g *gen) loopCall() string {
	if !g.hasK || g.inFunc || !g.chance(3) {
		return ""
	}
	return fmt.Sprintf(" && %s > -1000", g.callK())
}

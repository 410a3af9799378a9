package ts

import (
	"fmt"
	"sort"
	"strings"

	"github.com/icgen/icgen/lang"
)

// abstractLoop replaces an in-block loop by uninterpreted functions (CDPOR
// Def. 7): each variable the loop writes gets the value f_y(X), where X are
// the values of the variables the loop reads or writes; spawns inside the
// loop become one opaque spawn term. The loop is deterministic, so equal
// inputs give equal outputs in both orders: sound, and exact only when
// inputs differ whenever the real outputs do, which we cannot know (the
// system is marked abstracted). Whether the loop finishes normally (within
// its step budget, lang.MaxSteps, with no runtime error, overflow included,
// and no failed assert) is a function ok(X) added to the path condition:
// every loop may run out of steps. The runtime evaluates these functions by
// running the loop (dporrt.ICEnv.Apply).
func (x *executor) abstractLoop(nodes []*lang.Node, n *lang.Node, p *path, fr *frame) *path {
	l := n.Loop
	body := []*lang.Node{n}
	for _, id := range l.Body {
		body = append(body, nodes[id])
	}
	reads, writes, eff := x.syms.prog.Access(body)
	declared := map[*lang.Var]bool{}
	for _, b := range body[1:] {
		if b.Kind == lang.NodeAssign && b.Target.Index == nil && b.Target.Var.Kind == lang.Local && b.Decl {
			declared[b.Target.Var] = true
		}
	}
	// The inputs are everything the loop reads or writes: a variable written
	// on some iterations only (or an array written element by element) keeps
	// part of its old value.
	accessed := map[*lang.Var]bool{}
	for _, v := range append(append([]*lang.Var(nil), reads...), writes...) {
		accessed[v] = true
	}
	var ins []*lang.Var
	var args []*Term
	for _, v := range x.syms.prog.Globals {
		if accessed[v] {
			ins = append(ins, v)
			args = append(args, x.value(p, v))
		}
	}
	var locals []*lang.Var
	for v := range accessed {
		if v.Kind == lang.Local && !declared[v] {
			locals = append(locals, v)
		}
	}
	sort.Slice(locals, func(i, j int) bool { return locals[i].Index < locals[j].Index })
	for _, v := range locals {
		ins = append(ins, v)
		args = append(args, x.local(p, fr, v))
	}
	owner, ownerLocals := x.proc.Name, x.proc.Locals
	if fr != nil {
		owner, ownerLocals = fr.fn.Name, fr.fn.Locals
	}
	base := fmt.Sprintf("loop:%s:%d:%d", owner, n.Pos.Line, n.Pos.Col)
	mk := func(name string, kind FnKind, out *lang.Var, sort Sort) *Term {
		f := &Fn{Name: name, Kind: kind, Proc: x.proc, Owner: owner, Locals: ownerLocals, Line: n.Pos.Line, Col: n.Pos.Col,
			Loop: l, Out: out, Ins: ins, Sort: sort}
		p.fns[name] = f
		return Apply(f, args...)
	}
	names := make([]string, len(ins))
	for i, v := range ins {
		names[i] = varName(ownerLocals, v)
	}
	x.abs[fmt.Sprintf("loop at %s (line %d, column %d) as uninterpreted functions of {%s}", owner, n.Pos.Line, n.Pos.Col, strings.Join(names, ", "))] = true
	p.cond = append(p.cond, mk(base+"?ok", FnOK, nil, SortBool))
	results := map[*lang.Var]*Term{}
	for _, v := range writes {
		if declared[v] {
			continue
		}
		results[v] = mk(base+"."+varName(ownerLocals, v), FnValue, v, SortOf(v.Type))
	}
	for v, t := range results {
		if v.Kind == lang.Local && fr != nil {
			fr.locals[v] = t
		} else {
			p.env[v] = t
		}
	}
	if eff.Spawns {
		s := mk(base+"?spawns", FnSpawns, nil, SortInt)
		p.spawns = append(p.spawns, Spawn{Args: []*Term{s}, Event: x.event})
	}
	return p
}

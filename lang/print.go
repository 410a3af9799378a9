package lang

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FormatIR renders the lowered program canonically: params, globals, then
// each func, init and proc with its locals, its nodes one per line, and its
// blocks. Golden tests compare against this text.
func FormatIR(p *Program) string {
	var b strings.Builder
	for _, pa := range p.Params {
		fmt.Fprintf(&b, "param %s = %d\n", pa.Name, pa.Default)
	}
	for _, g := range p.Globals {
		fmt.Fprintf(&b, "global %s", declText(g))
		if len(g.Init) > 0 {
			inits := make([]string, len(g.Init))
			for i, e := range g.Init {
				inits[i] = ExprString(e)
			}
			if g.InitList {
				fmt.Fprintf(&b, " = {%s}", strings.Join(inits, ", "))
			} else {
				fmt.Fprintf(&b, " = %s", inits[0])
			}
		}
		b.WriteByte('\n')
	}
	for _, inv := range p.Invariants {
		fmt.Fprintf(&b, "invariant %s reads %s\n", ExprString(inv.Cond), VarSetText(inv.Reads))
	}
	for _, cm := range p.Commutes {
		fmt.Fprintf(&b, "%s\n", CommuteString(cm))
	}
	for _, f := range p.Funcs {
		fmt.Fprintf(&b, "\nfunc %s(%s) %s\n", f.Name, varsText(f.Params), f.Result)
		writeLocals(&b, f.Locals)
		writeNodes(&b, f.Nodes)
	}
	if len(p.Init.Nodes) > 0 {
		b.WriteString("\ninit\n")
		writeLocals(&b, p.Init.Locals)
		writeNodes(&b, p.Init.Nodes)
	}
	for _, pr := range p.Procs {
		fmt.Fprintf(&b, "\nproc %s(%s)\n", pr.Name, varsText(pr.Params))
		writeLocals(&b, pr.Locals)
		writeNodes(&b, pr.Nodes)
		for _, bl := range pr.Blocks {
			b.WriteString("  " + BlockSummary(bl) + "\n")
		}
	}
	return b.String()
}

// CommuteString renders a commute declaration: "commute p, q when (z <= -1)",
// or its Src when set.
func CommuteString(cm *Commute) string {
	if cm.Src != "" {
		return cm.Src
	}
	s := "commute " + cm.A.ID + ", " + cm.B.ID
	if cm.Cond != nil {
		c := ExprString(cm.Cond)
		if !strings.HasPrefix(c, "(") {
			c = "(" + c + ")"
		}
		s += " when " + c
	}
	return s
}

// FormatBlocks renders every block of the program on one line, in
// Program.Blocks order (see [BlockSummary]): the summary "icgen parse" is
// about.
func FormatBlocks(p *Program) string {
	var b strings.Builder
	for _, bl := range p.Blocks {
		b.WriteString(BlockSummary(bl))
		b.WriteByte('\n')
	}
	return b.String()
}

// BlockSummary renders one block on one line: id, reads, writes, the blocks
// that may follow (and "end"), spawns, calls, in-block loops, the cells of
// its fixed indices and live locals.
func BlockSummary(bl *Block) string {
	var b strings.Builder
	fmt.Fprintf(&b, "block %s: reads %s writes %s next {", bl.ID, VarSetText(bl.Reads), VarSetText(bl.Writes))
	var next []string
	for _, n := range bl.Next {
		next = append(next, n.ID)
	}
	if bl.MayEnd {
		next = append(next, "end")
	}
	b.WriteString(strings.Join(next, ", ") + "}")
	if len(bl.Spawns) > 0 {
		names := make([]string, len(bl.Spawns))
		for i, s := range bl.Spawns {
			names[i] = s.Name
		}
		fmt.Fprintf(&b, " spawns {%s}", strings.Join(names, ", "))
	}
	if len(bl.Calls) > 0 {
		names := make([]string, len(bl.Calls))
		for i, f := range bl.Calls {
			names[i] = f.Name
		}
		fmt.Fprintf(&b, " calls {%s}", strings.Join(names, ", "))
	}
	if len(bl.Loops) > 0 {
		hs := make([]string, len(bl.Loops))
		for i, l := range bl.Loops {
			hs[i] = strconv.Itoa(l.Header)
		}
		fmt.Fprintf(&b, " loops {%s}", strings.Join(hs, ", "))
	}
	if cells := CellsText(bl); len(cells) > 0 {
		fmt.Fprintf(&b, " cells {%s}", strings.Join(cells, ", "))
	}
	fmt.Fprintf(&b, " live %s", VarSetText(bl.Point.Live))
	return b.String()
}

// CellsText renders the cells of a block's fixed indices (Block.Cells) as
// a[e], once per array and index text, in declaration order.
func CellsText(bl *Block) []string {
	var out []string
	for _, c := range bl.Cells {
		for _, e := range slices.Concat(c.Reads, c.Writes) {
			if s := c.Array.Name + "[" + ExprString(e) + "]"; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// VarSetText renders variables as {a, b} in the given order.
func VarSetText(vs []*Var) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return "{" + strings.Join(names, ", ") + "}"
}

func declText(v *Var) string {
	if v.Unbounded() {
		return "int " + v.Name + "[*]"
	}
	if v.Type == IntArray {
		return "int " + v.Name + "[" + ExprString(v.Size) + "]"
	}
	return v.Type.String() + " " + v.Name
}

func varsText(vs []*Var) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = declText(v)
	}
	return strings.Join(parts, ", ")
}

func writeLocals(b *strings.Builder, locals []*Var) {
	if len(locals) == 0 {
		return
	}
	parts := make([]string, len(locals))
	for i, v := range locals {
		parts[i] = fmt.Sprintf("%d:%s", v.Index, declText(v))
	}
	fmt.Fprintf(b, "  locals %s\n", strings.Join(parts, ", "))
}

func succText(id int) string {
	if id == End {
		return "end"
	}
	return strconv.Itoa(id)
}

func writeNodes(b *strings.Builder, nodes []*Node) {
	for _, n := range nodes {
		fmt.Fprintf(b, "  %3d  %-7s ", n.ID, fmt.Sprintf("%d:%d", n.Pos.Line, n.Pos.Col))
		switch n.Kind {
		case NodePoint:
			pt := n.Point
			fmt.Fprintf(b, "point %s", pt.Kind)
			if pt.Guard != nil {
				fmt.Fprintf(b, " %s", condText(pt.Guard))
			}
			if pt.Block != nil {
				fmt.Fprintf(b, " [block %s]", pt.Block.ID)
			}
			fmt.Fprintf(b, " -> %s", succText(n.Next))
		case NodeAssign:
			fmt.Fprintf(b, "%s = %s -> %s", lvalueText(n.Target), ExprString(n.Value), succText(n.Next))
		case NodeBranch:
			fmt.Fprintf(b, "if %s -> %s else %s", condText(n.Cond), succText(n.Next), succText(n.Else))
			if l := n.Loop; l != nil {
				fmt.Fprintf(b, "  [loop")
				if len(l.Body) > 0 {
					fmt.Fprintf(b, " body %d..%d", l.Body[0], l.Body[len(l.Body)-1])
				}
				fmt.Fprintf(b, " exit %s", succText(l.Exit))
				if l.Points {
					b.WriteString(", spans points")
				}
				b.WriteString("]")
			}
		case NodeAssert:
			fmt.Fprintf(b, "assert %s", condText(n.Cond))
			if n.Msg != "" {
				fmt.Fprintf(b, " %q", n.Msg)
			}
			fmt.Fprintf(b, " -> %s", succText(n.Next))
		case NodeSpawn:
			fmt.Fprintf(b, "spawn %s(%s) -> %s", n.Proc.Name, exprsText(n.Args), succText(n.Next))
		case NodeCall:
			fmt.Fprintf(b, "call %s -> %s", ExprString(n.Call), succText(n.Next))
		case NodeReturn:
			b.WriteString("return")
			if n.Value != nil {
				b.WriteString(" " + ExprString(n.Value))
			}
		}
		b.WriteByte('\n')
	}
}

func lvalueText(l LValue) string {
	if l.Index != nil {
		return l.Var.Name + "[" + ExprString(l.Index) + "]"
	}
	return l.Var.Name
}

func exprsText(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = ExprString(e)
	}
	return strings.Join(parts, ", ")
}

// condText renders a condition in parentheses, as written in the source:
// (x > 0), (done), (!done).
func condText(e Expr) string {
	if _, ok := e.(*BinaryExpr); ok {
		return ExprString(e)
	}
	return "(" + ExprString(e) + ")"
}

// ExprString renders an expression with binary operations parenthesized,
// so the tree is visible: (1 + (2 * 3)). The operand of a unary operator is
// parenthesized when it is itself unary or a negative literal: -(-x),
// !(!b), -(-5). The text parses back to the same tree, but for negative
// literals, which the parser never builds (it reads -5 as the negation of
// 5): they print as -5, and the one with no positive counterpart as
// (-9223372036854775807 - 1).
func ExprString(e Expr) string {
	switch e := e.(type) {
	case *IntLit:
		if e.Val == math.MinInt64 {
			return "(-9223372036854775807 - 1)"
		}
		return strconv.FormatInt(e.Val, 10)
	case *BoolLit:
		return strconv.FormatBool(e.Val)
	case *ParamRef:
		return e.Param.Name
	case *VarRef:
		if e.Second {
			return e.Var.Name + "'"
		}
		return e.Var.Name
	case *IndexExpr:
		return e.Array.Name + "[" + ExprString(e.Index) + "]"
	case *UnaryExpr:
		x := ExprString(e.X)
		if _, ok := e.X.(*UnaryExpr); ok || strings.HasPrefix(x, "-") {
			return e.Op.String() + "(" + x + ")"
		}
		return e.Op.String() + x
	case *BinaryExpr:
		return "(" + ExprString(e.X) + " " + e.Op.String() + " " + ExprString(e.Y) + ")"
	case *CallExpr:
		return e.Func.Name + "(" + exprsText(e.Args) + ")"
	}
	return "?"
}

package ic

import (
	"fmt"

	"github.com/icgen/icgen/lang"
)

// W computes W(b) for every block (DESIGN decision 8, CDPOR Sec. 3.2): the
// globals b may write, or any block b can lead to may write: the entry
// blocks of the procs b spawns, the blocks of the same process that may
// follow b, and the await blocks whose guard reads a global b writes (b may
// unblock them). A least fixpoint over that graph. The result maps each
// block to its globals in declaration order.
func W(p *lang.Program) map[*lang.Block][]*lang.Var {
	direct := map[*lang.Block]map[*lang.Var]bool{}
	guardReads := map[*lang.Block]map[*lang.Var]bool{}
	for _, b := range p.Blocks {
		direct[b] = globalSet(b.Writes)
		if b.Point.Guard != nil {
			reads, _, _ := p.Access([]*lang.Node{b.Proc.Nodes[b.Point.Node]})
			guardReads[b] = globalSet(reads)
		}
	}
	succ := map[*lang.Block][]*lang.Block{}
	for _, b := range p.Blocks {
		succ[b] = append(succ[b], b.Next...)
		for _, pr := range b.Spawns {
			succ[b] = append(succ[b], pr.Blocks[0])
		}
		for _, d := range p.Blocks {
			if reads, ok := guardReads[d]; ok && intersects(direct[b], reads) {
				succ[b] = append(succ[b], d)
			}
		}
	}
	w := map[*lang.Block]map[*lang.Var]bool{}
	for _, b := range p.Blocks {
		w[b] = map[*lang.Var]bool{}
		for v := range direct[b] {
			w[b][v] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range p.Blocks {
			for _, c := range succ[b] {
				for v := range w[c] {
					if !w[b][v] {
						w[b][v] = true
						changed = true
					}
				}
			}
		}
	}
	out := map[*lang.Block][]*lang.Var{}
	for _, b := range p.Blocks {
		for _, g := range p.Globals {
			if w[b][g] {
				out[b] = append(out[b], g)
			}
		}
	}
	return out
}

func globalSet(vs []*lang.Var) map[*lang.Var]bool {
	s := map[*lang.Var]bool{}
	for _, v := range vs {
		if v.Kind == lang.Global {
			s[v] = true
		}
	}
	return s
}

func intersects(a, b map[*lang.Var]bool) bool {
	for v := range a {
		if b[v] {
			return true
		}
	}
	return false
}

func names(vs []*lang.Var, globalsOnly bool) []string {
	out := []string{}
	for _, v := range vs {
		if !globalsOnly || v.Kind == lang.Global {
			out = append(out, v.Name)
		}
	}
	return out
}

// localNames names locals as constraints do (lang.LocalName).
func localNames(locals, vs []*lang.Var) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, lang.LocalName(locals, v))
	}
	return out
}

// Skeleton returns the IC file of a program without pairs: program, hash,
// params, globals, and the blocks with their read/write sets and W(b).
func Skeleton(p *lang.Program) *File {
	f := &File{Version: FormatVersion, Program: p.File, Hash: p.Hash, Params: []Param{}, Globals: []Global{}, Blocks: []Block{}, Pairs: []Pair{}}
	for _, pa := range p.Params {
		f.Params = append(f.Params, Param{Name: pa.Name, Default: pa.Default})
	}
	for _, g := range p.Globals {
		gl := Global{Name: g.Name, Type: g.Type.String()}
		switch s := g.Size.(type) {
		case *lang.IntLit:
			gl.Size = fmt.Sprint(s.Val)
		case *lang.ParamRef:
			gl.Size = s.Param.Name
		}
		if g.Unbounded() {
			gl.Size = "*"
		}
		f.Globals = append(f.Globals, gl)
	}
	w := W(p)
	for _, b := range p.Blocks {
		f.Blocks = append(f.Blocks, Block{
			ID: b.ID, Proc: b.Proc.Name,
			Params: names(b.Proc.Params, false),
			Locals: localNames(b.Proc.Locals, b.Point.Live),
			Reads:  names(b.Reads, true),
			Writes: names(b.Writes, true),
			W:      names(w[b], false),
		})
	}
	return f
}

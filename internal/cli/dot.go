package cli

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/icgen/icgen/dporrt"
)

// writeDot writes an exploration tree in Graphviz's DOT language, drawn as
// the papers draw theirs: a node per state (numbered in exploration order,
// 0 the initial state), the scheduled process on each edge; complete traces
// end in double circles, sleep-set-blocked traces in grey boxes, runtime
// errors in red octagons; processes enabled at a state but not explored
// from it hang from it on dashed edges (pruned: not in the source set) or
// dotted ones (asleep: in the sleep set).
func writeDot(w io.Writer, t *dporrt.Tree, title string) {
	fmt.Fprintln(w, "digraph explore {")
	fmt.Fprintf(w, "  label=%s; labelloc=t; fontname=\"Helvetica\";\n", strconv.Quote(title))
	fmt.Fprintln(w, `  node [shape=circle, fontname="Helvetica", fontsize=10, width=0.3];`)
	fmt.Fprintln(w, `  edge [fontname="Helvetica", fontsize=9];`)
	for i, n := range t.Nodes {
		attrs := ""
		switch n.Kind {
		case dporrt.NodeComplete:
			attrs = ", shape=doublecircle"
		case dporrt.NodeBlocked:
			attrs = `, shape=box, style=filled, fillcolor="#dddddd", xlabel="sleep-set blocked"`
		case dporrt.NodeError:
			attrs = `, shape=octagon, color=red, fontcolor=red, xlabel="runtime error"`
		case dporrt.NodeCut:
			attrs = `, shape=diamond, xlabel="stopped"`
		case dporrt.NodeCovered:
			attrs = `, shape=box, xlabel="covered"`
		}
		fmt.Fprintf(w, "  n%d [label=\"%d\"%s];\n", i, i, attrs)
		if n.Parent >= 0 {
			fmt.Fprintf(w, "  n%d -> n%d [label=%s];\n", n.Parent, i, strconv.Quote(n.Step.Name))
		}
		for j, name := range n.Pruned {
			fmt.Fprintf(w, "  n%dp%d [shape=point, width=0.08, color=gray];\n", i, j)
			fmt.Fprintf(w, "  n%d -> n%dp%d [style=dashed, color=gray, fontcolor=gray, label=%s];\n", i, i, j, strconv.Quote(name+" pruned"))
		}
		for j, name := range n.Asleep {
			fmt.Fprintf(w, "  n%ds%d [shape=point, width=0.08, color=gray];\n", i, j)
			fmt.Fprintf(w, "  n%d -> n%ds%d [style=dotted, color=gray, fontcolor=gray, label=%s];\n", i, i, j, strconv.Quote(name+" asleep"))
		}
		for j, name := range n.Covered {
			fmt.Fprintf(w, "  n%dc%d [shape=point, width=0.08, color=gray];\n", i, j)
			fmt.Fprintf(w, "  n%d -> n%dc%d [style=dotted, color=gray, fontcolor=gray, label=%s];\n", i, i, j, strconv.Quote(name+" covered"))
		}
	}
	if t.Truncated {
		fmt.Fprintf(w, "  truncated [shape=plaintext, label=\"(only the first %d states are drawn)\"];\n", len(t.Nodes))
	}
	fmt.Fprintln(w, "}")
}

// writeTreeFiles writes the tree as DOT to dot and, through Graphviz, as
// SVG to svg (either may be nil).
func writeTreeFiles(e *env, t *dporrt.Tree, title string, dot, svg *output) error {
	var b bytes.Buffer
	writeDot(&b, t, title)
	if err := dot.write(b.Bytes(), e.stdout); err != nil {
		return err
	}
	if svg == nil {
		return nil
	}
	prog, err := exec.LookPath("dot")
	if err != nil {
		return badInput("--svg needs Graphviz's dot program (apt-get install graphviz); --dot writes the DOT text without it")
	}
	var out, errOut bytes.Buffer
	c := exec.Command(prog, "-Tsvg")
	c.Stdin, c.Stdout, c.Stderr = &b, &out, &errOut
	if err := c.Run(); err != nil {
		return &exitError{code: ExitInternal, err: fmt.Errorf("dot -Tsvg: %v: %s", err, strings.TrimSpace(errOut.String()))}
	}
	return svg.write(out.Bytes(), e.stdout)
}

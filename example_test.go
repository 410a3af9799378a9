package icgen_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/icgen/icgen/dporrt"
	"github.com/icgen/icgen/interp"
	"github.com/icgen/icgen/lang"
	"github.com/icgen/icgen/synth"
)

// Example runs the pipeline through the public API on the CDPOR paper's
// Fig. 1: compile the program (lang), synthesize the independence
// constraints of every pair of its blocks (synth), and explore its
// interleavings (dporrt): every one (dfs), by source sets (sdpor), and by
// source sets with the constraints (cdpor), which reach the same final
// state in one complete trace instead of six (the paper's Example 5).
func Example() {
	src, err := os.ReadFile("testdata/fig1.blk")
	if err != nil {
		log.Fatal(err)
	}
	p, errs := lang.Compile("fig1.blk", src)
	if errs != nil {
		log.Fatal(errs.Format(src))
	}
	ics, _, err := synth.Run(context.Background(), p, synth.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, pr := range ics.Pairs {
		var cs []string
		for _, c := range pr.Constraints {
			cs = append(cs, c.Text)
		}
		fmt.Printf("I(%s, %s') = {%s}: %s\n", pr.A, pr.B, strings.Join(cs, ", "), pr.Status)
	}
	m, err := interp.New(p, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, algo := range []dporrt.Algorithm{dporrt.DFS, dporrt.SDPOR, dporrt.CDPOR} {
		opts := dporrt.Options{Algo: algo}
		if algo == dporrt.CDPOR {
			opts.ICs = ics
		}
		r, err := dporrt.Explore(context.Background(), m, opts)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: complete traces %d, final states %d\n", algo, r.Traces, r.FinalCount)
	}
	// Output:
	// I(p, p') = {true}: independent
	// I(p, q') = {z <= -1}: conditional
	// I(p, r') = {true}: independent
	// I(q, q') = {true}: independent
	// I(q, r') = {x == z, z <= -2, z >= 0}: conditional
	// I(r, r') = {true}: independent
	// dfs: complete traces 6, final states 1
	// sdpor: complete traces 6, final states 1
	// cdpor: complete traces 1, final states 1
}

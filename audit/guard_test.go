package audit

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icgen/icgen/ic"
	"github.com/icgen/icgen/synth"
)

// TestCheckFileGuards: icgen check --ics proves the guards synthesis
// writes, of both kinds, on programs whose exact guards are large (a block
// adding a different constant to one accumulator under each of its
// branches), on fig1 and under an invariant; it finds unsound each
// interval guard of fig1 with its bounds moved to the ends of int64, one
// that rules overflow out only with its pair's constraint, and an exact
// guard with a let whose definition was changed.
func TestCheckFileGuards(t *testing.T) {
	t.Parallel()
	var acc strings.Builder
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&acc, "global int g%d;\n", i)
	}
	acc.WriteString("global int acc, h;\nproc p() {\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&acc, "  if (g%d > %d) { acc = acc + %d; } else { g%d = g%d + 1; }\n", i, i, i+1, i, i)
	}
	acc.WriteString("}\nproc q() { if (h > 0) { acc = acc + 1; } else { h = h - 1; } }\ninit { spawn p(); spawn p(); spawn q(); }\n")
	path := filepath.Join(t.TempDir(), "acc.blk")
	if err := os.WriteFile(path, []byte(acc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{path, "../testdata/fig1.blk", "../testdata/counter.blk"} {
		for _, kind := range []synth.GuardKind{synth.GuardInterval, synth.GuardExact} {
			t.Run(filepath.Base(file)+"/"+kind.String(), func(t *testing.T) {
				t.Parallel()
				m := machine(t, file, nil)
				f, _, err := synth.Run(context.Background(), m.Prog, synth.Options{Workers: 1, Guard: kind})
				if err != nil {
					t.Fatal(err)
				}
				c, err := NewChecker(m, f.Functions, Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				rep, err := c.CheckFile(context.Background(), f)
				if err != nil {
					t.Fatal(err)
				}
				guards := 0
				for _, p := range f.Pairs {
					if p.NoOverflow != nil {
						guards++
					}
				}
				if guards == 0 {
					t.Fatal("no pair has a guard")
				}
				for _, g := range rep.Guards {
					t.Errorf("%s: %s (%s)", g.Claim.Source, g.Verdict, g.Reason)
				}
				for _, r := range rep.Constraints {
					if r.Verdict != Proven {
						t.Errorf("(%s, %s) %s: %s (%s)", r.Claim.A, r.Claim.B, r.Claim.Expr, r.Verdict, r.Reason)
					}
				}
				if file == path && kind == synth.GuardExact {
					// The exact guard of (p, p) names its shared subterms
					// (a let); with one addition of a definition made
					// smaller, it lets an order overflow.
					p, _ := f.Pair("p", "p")
					if p.NoOverflow.Op != "let" {
						t.Fatalf("(p, p): the exact guard %s has no let", p.NoOverflow)
					}
					for _, d := range p.NoOverflow.Defs {
						if x := d.Expr; x.Op == "+" && x.Args[0].Op == "global" && x.Args[0].Name == "acc" && x.Args[1].Op == "int" {
							*x.Args[1].Value--
							break
						}
					}
					rep, err := c.CheckFile(context.Background(), f)
					if err != nil {
						t.Fatal(err)
					}
					if len(rep.Guards) != 1 || rep.Guards[0].Verdict != Unsound {
						t.Errorf("(p, p): the guard %s is not found unsound: %v", p.NoOverflow, rep.Guards)
					}
				}
				if file != "../testdata/fig1.blk" || kind != synth.GuardInterval {
					return
				}
				// Each guard of fig1, its bounds moved to the ends of int64,
				// lets an order overflow where a constraint holds.
				for i := range f.Pairs {
					p := &f.Pairs[i]
					if p.NoOverflow == nil {
						continue
					}
					if p.NoOverflowKind != ic.Interval {
						t.Fatalf("(%s, %s): a guard of kind %q", p.A, p.B, p.NoOverflowKind)
					}
					saved := p.NoOverflow
					p.NoOverflow = widened(saved)
					rep, err := c.CheckFile(context.Background(), f)
					if err != nil {
						t.Fatal(err)
					}
					if len(rep.Guards) != 1 || rep.Guards[0].Verdict != Unsound {
						t.Errorf("(%s, %s): the guard %s is not found unsound: %v", p.A, p.B, p.NoOverflow, rep.Guards)
					}
					p.NoOverflow = saved
				}
				// (p, q)'s guard, widened where its constraint z <= -1 does
				// not hold, still rules overflow out with it, but not by
				// itself, as its kind says it does.
				p, _ := f.Pair("p", "q")
				saved := p.NoOverflow
				z := &ic.Expr{Op: "global", Name: "z"}
				p.NoOverflow = &ic.Expr{Op: "||", Args: []*ic.Expr{saved, {Op: ">=", Args: []*ic.Expr{z, ic.Int(0)}}}}
				rep, err = c.CheckFile(context.Background(), f)
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.Guards) != 1 || rep.Guards[0].Verdict != Unsound || !strings.Contains(rep.Guards[0].Reason, "by itself") {
					t.Errorf("(p, q): the guard %s is not found unsound by itself: %v", p.NoOverflow, rep.Guards)
				}
				p.NoOverflow = saved
			})
		}
	}
}

// widened is an interval guard with every bound at the end of int64.
func widened(e *ic.Expr) *ic.Expr {
	if e.Op == "<=" {
		if e.Args[0].Op == "int" {
			return &ic.Expr{Op: "<=", Args: []*ic.Expr{ic.Int(math.MinInt64), e.Args[1]}}
		}
		return &ic.Expr{Op: "<=", Args: []*ic.Expr{e.Args[0], ic.Int(math.MaxInt64)}}
	}
	out := &ic.Expr{Op: e.Op}
	for _, a := range e.Args {
		out.Args = append(out.Args, widened(a))
	}
	return out
}

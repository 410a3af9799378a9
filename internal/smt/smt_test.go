package smt

import (
	"testing"
	"time"

	"github.com/icgen/icgen/internal/z3"
)

func parse(t *testing.T, s *Session, text string) []z3.Term {
	t.Helper()
	hs, err := s.X.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return hs
}

func TestAnswers(t *testing.T) {
	s, err := NewSession(Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := s.NewSolver()
	v.Add(parse(t, s, "(declare-const x Int)\n(assert (> x 0))\n")...)
	if r := v.Check(time.Time{}); r.Status != z3.Sat {
		t.Fatalf("x > 0: %v, want sat", r)
	}
	neg := parse(t, s, "(declare-const x Int)\n(assert (< x 0))\n")
	if r := v.Check(time.Now().Add(time.Minute), neg...); r.Status != z3.Unsat {
		t.Fatalf("x > 0 assuming x < 0: %v, want unsat", r)
	}
	if r := v.Check(time.Now().Add(-time.Second)); r.Status != z3.Unknown || r.Reason != z3.ReasonTimeout {
		t.Fatalf("past deadline: %v, want unknown (%s)", r, z3.ReasonTimeout)
	}
}

// TestBudget: the budget bounds all checks of a session together; once
// it is spent, every check answers unknown, never sat or unsat.
func TestBudget(t *testing.T) {
	const problem = "(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)\n" +
		"(assert (= (* x x x) (+ (* y y y) (* z z z) 42)))\n(assert (> x 1000))\n"
	free, err := NewSession(Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer free.Close()
	fv := free.NewSolver()
	fv.Add(parse(t, free, "(declare-const x Int)\n(assert (> x 0))\n")...)
	fv.Check(time.Time{})
	if _, ok := fv.Spent(); !ok {
		t.Skip("Z3 reports no resource count")
	}
	s, err := NewSession(Limits{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := s.NewSolver()
	v.Add(parse(t, s, problem)...)
	if r := v.Check(time.Now().Add(time.Minute)); r.Status != z3.Unknown {
		t.Fatalf("hard problem under a small budget: %v, want unknown", r)
	}
	if !v.BudgetSpent() {
		t.Fatalf("budget not spent after an unknown answer: used %d of 2000", v.Used())
	}
	w := s.NewSolver()
	w.Add(parse(t, s, "(declare-const x Int)\n(assert (> x 0))\n")...)
	if r := w.Check(time.Time{}); r.Status != z3.Unknown || r.Reason != "resource budget spent" {
		t.Fatalf("easy problem once the session's budget is spent: %v, want unknown (resource budget spent)", r)
	}
}

package z3

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func mustParse(t *testing.T, x *Context, s string) []Term {
	t.Helper()
	ts, err := x.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestChecks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		smt  string
		want Status
	}{
		{"sat", "(declare-const x Int)(assert (> x 2))", Sat},
		{"unsat", "(declare-const x Int)(assert (> x 2))(assert (< x 1))", Unsat},
		// Euclidean div/mod, as shared/Z3.md measured: div/mod(-7,2) = -4/1, (7,-2) = -3/1, (-7,-2) = 4/1.
		{"euclidean", "(assert (and (= (div (- 7) 2) (- 4)) (= (mod (- 7) 2) 1) (= (div 7 (- 2)) (- 3)) (= (mod 7 (- 2)) 1) (= (div (- 7) (- 2)) 4) (= (mod (- 7) (- 2)) 1)))", Sat},
		{"arrays", "(declare-const a (Array Int Int))(assert (not (= (select (store a 1 5) 1) 5)))", Unsat},
		{"uf", "(declare-fun f (Int) Int)(declare-const x Int)(declare-const y Int)(assert (= x y))(assert (not (= (f x) (f y))))", Unsat},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			x, err := NewContext()
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			s := x.NewSolver()
			for _, a := range mustParse(t, x, tc.smt) {
				if err := s.Assert(a); err != nil {
					t.Fatal(err)
				}
			}
			if r := s.Check(time.Time{}); r.Status != tc.want {
				t.Errorf("check = %v (%s), want %v", r.Status, r.Reason, tc.want)
			}
		})
	}
}

func TestAssumptionsCoreModel(t *testing.T) {
	t.Parallel()
	x, _ := NewContext()
	defer x.Close()
	ts := mustParse(t, x, `(declare-const z Int)(declare-const a Bool)(declare-const b Bool)(declare-const c Bool)
(assert (= a (>= z 0)))(assert (= b (< z (- 2))))(assert (= c (> z 10)))(assert a)(assert b)(assert c)`)
	s := x.NewSolver()
	for _, d := range ts[:3] {
		s.Assert(d)
	}
	a, b, c := ts[3], ts[4], ts[5]
	if r := s.CheckAssumptions([]Term{a, b, c}, time.Time{}); r.Status != Unsat {
		t.Fatalf("a, b, c: %v", r.Status)
	}
	core := s.UnsatCore()
	ids := map[uint]bool{}
	for _, k := range core {
		ids[x.ID(k)] = true
	}
	if len(core) != 2 || !ids[x.ID(a)] || !ids[x.ID(b)] {
		t.Errorf("core %d terms, want {a, b}", len(core))
	}
	if r := s.CheckAssumptions([]Term{a, x.Not(b), c}, time.Time{}); r.Status != Sat {
		t.Fatalf("a, !b, c: %v", r.Status)
	}
	vals, err := s.ModelValues([]Term{a, b, c})
	if err != nil || !vals[0] || vals[1] || !vals[2] {
		t.Errorf("model values %v, %v", vals, err)
	}
}

func TestErrorsAreValues(t *testing.T) {
	t.Parallel()
	x, _ := NewContext()
	defer x.Close()
	for _, bad := range []string{"(assert (+ 1 true))", "(assert undeclared)", "(((", "(declare-const x Int)(declare-const x Int)"} {
		if _, err := x.Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
	// The context stays usable after an error.
	if ts, err := x.Parse("(assert true)"); err != nil || len(ts) != 1 {
		t.Errorf("after errors: %v, %v", ts, err)
	}
	x.Close()
	if _, err := x.Parse("(assert true)"); err == nil {
		t.Error("Parse on a closed context: no error")
	}
}

// hard is a non-linear problem Z3 cannot settle quickly.
const hard = `(declare-const a Int)(declare-const b Int)(declare-const c Int)
(assert (> a 1))(assert (> b 1))(assert (> c 1))
(assert (= (+ (* a a a) (* b b b)) (* c c c)))`

func TestUnknownIsNotAnAnswer(t *testing.T) {
	t.Parallel()
	x, _ := NewContext()
	defer x.Close()
	s := x.NewSolver()
	for _, a := range mustParse(t, x, hard) {
		s.Assert(a)
	}
	start := time.Now()
	r := s.Check(time.Now().Add(100 * time.Millisecond))
	if r.Status == Sat || r.Status == Unsat {
		t.Skipf("z3 settled the hard problem: %v", r.Status)
	}
	if r.Reason == "" || time.Since(start) > 5*time.Second {
		t.Errorf("unknown after %v with reason %q", time.Since(start), r.Reason)
	}
	// Still usable, and a stale interrupt does not hit the next check.
	x.Interrupt()
	s2 := x.NewSolver()
	for _, a := range mustParse(t, x, "(declare-const q Int)(assert (> q 0))") {
		s2.Assert(a)
	}
	if r := s2.Check(time.Time{}); r.Status != Sat {
		t.Errorf("after interrupt: %v %s", r.Status, r.Reason)
	}
	// rlimit makes it unknown deterministically.
	s3 := x.NewSolver()
	if err := s3.SetRlimit(1000); err != nil {
		t.Fatal(err)
	}
	for _, a := range mustParse(t, x, hard) {
		s3.Assert(a)
	}
	if r := s3.Check(time.Time{}); r.Status != Unknown {
		t.Errorf("rlimit: %v", r.Status)
	}
}

func TestParallelContexts(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				x, _ := NewContext()
				ts, err := x.Parse("(declare-const x Int)(assert (= (* 2 x) " + strconv.Itoa(2*i+g%2) + "))")
				if err != nil {
					t.Error(err)
				}
				s := x.NewSolver()
				s.Assert(ts[0])
				want := Sat
				if g%2 == 1 {
					want = Unsat
				}
				if r := s.Check(time.Time{}); r.Status != want {
					t.Errorf("goroutine %d, query %d: %v", g, i, r.Status)
				}
				x.Close()
			}
		}(g)
	}
	wg.Wait()
}

func rss(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return -1
}

// TestNoLeak creates and closes many contexts, each with a few solver
// queries, and checks that resident memory does not grow with the count.
func TestNoLeak(t *testing.T) {
	run := func(n int) {
		for i := 0; i < n; i++ {
			x, _ := NewContext()
			ts, _ := x.Parse("(declare-const x Int)(declare-const y Int)(assert (and (> x y) (< x (+ y 5))))")
			s := x.NewSolver()
			s.Assert(x.And(ts[0], x.Not(x.Not(ts[0]))))
			s.Check(time.Time{})
			s.ModelValues(ts)
			x.Close()
		}
	}
	run(200) // warm up allocators
	before := rss(t)
	run(1000)
	after := rss(t)
	if before > 0 && after-before > 50_000 { // KiB
		t.Errorf("resident memory grew by %d KiB over 1000 contexts", after-before)
	}
}

func BenchmarkQuery(b *testing.B) {
	x, _ := NewContext()
	defer x.Close()
	ts, _ := x.Parse("(declare-const z Int)(declare-const a Bool)(assert (= a (>= z 0)))(assert a)")
	s := x.NewSolver()
	s.Assert(ts[0])
	for i := 0; i < b.N; i++ {
		s.CheckAssumptions([]Term{ts[1]}, time.Time{})
	}
}

func BenchmarkContext(b *testing.B) {
	for i := 0; i < b.N; i++ {
		x, _ := NewContext()
		x.Close()
	}
}

package interp

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomPIDs builds a random spawn tree of n ids (deep chains and wide
// fans both), returned in creation order.
func randomPIDs(m *Machine, r *rand.Rand, n int) []PID {
	ids := []PID{m.PID(1)}
	kids := map[PID]int32{{}: 1}
	for len(ids) < n {
		var parent PID
		switch r.IntN(3) {
		case 0:
			parent = ids[len(ids)-1] // deepen the last one
		case 1:
			parent = ids[r.IntN(len(ids))]
		default: // init's spawns: the root
		}
		kids[parent]++
		ids = append(ids, m.pids.child(parent, kids[parent]))
	}
	return ids
}

// TestPIDInterning checks interning (same path, same PID), the path accessors, the
// text round trip, and Compare against comparing the paths.
func TestPIDInterning(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `proc p() { }`, nil)
	r := rand.New(rand.NewPCG(1, 2))
	ids := randomPIDs(m, r, 400)
	for _, p := range ids {
		path := p.Path()
		if q := m.PID(path...); q != p {
			t.Fatalf("PID(%v) = %s, not the interned %s", path, q, p)
		}
		q, err := m.ParsePID(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePID(%q) = %s, %v", p.String(), q, err)
		}
		if p.Depth() != len(path) || p.Last() != path[len(path)-1] || !slices.Equal(p.Parent().Path(), path[:len(path)-1]) {
			t.Fatalf("%s: depth %d, last %d, parent %s", p, p.Depth(), p.Last(), p.Parent())
		}
	}
	for i := 0; i < 20000; i++ {
		a, b := ids[r.IntN(len(ids))], ids[r.IntN(len(ids))]
		if got, want := a.Compare(b), slices.Compare(a.Path(), b.Path()); got != want {
			t.Fatalf("Compare(%s, %s) = %d, want %d", a, b, got, want)
		}
	}
	// Ids of another machine compare by path too, and are not ==.
	other := newMachine(t, `proc p() { }`, nil)
	for _, p := range ids[:50] {
		q := other.PID(p.Path()...)
		if q == p || q.Compare(p) != 0 {
			t.Fatalf("%s of another machine: == %v, Compare %d", p, q == p, q.Compare(p))
		}
		for _, s := range ids[:50] {
			if got, want := q.Compare(s), slices.Compare(q.Path(), s.Path()); got != want {
				t.Fatalf("Compare(%s, %s) across machines = %d, want %d", q, s, got, want)
			}
		}
	}
	// An index far past the spawned ones (written by hand) is interned
	// too, and the spawns that reach it later get the same id.
	far := m.PID(3, 1<<30)
	if m.PID(3, 1<<30) != far || far.String() != "3.1073741824" {
		t.Errorf("far id %s is not interned", far)
	}
	mid := m.PID(4, 100)
	for k := int32(1); k <= 120; k++ {
		if p := m.pids.child(m.PID(4), k); k == 100 && p != mid || p.Last() != k {
			t.Fatalf("spawn %d of 4 is %s", k, p)
		}
	}
	for _, bad := range []string{"", "1.", "0", "1.-2", "x", "1..2"} {
		if _, err := m.ParsePID(bad); err == nil {
			t.Errorf("ParsePID(%q) succeeded", bad)
		}
	}
}

// TestPIDDeep checks that a chain 100000 deep costs no more than its
// nodes: making it, comparing its ends and siblings deep down.
func TestPIDDeep(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `proc p() { }`, nil)
	p := PID{}
	var chain []PID
	for i := 0; i < 100000; i++ {
		p = m.pids.child(p, 1)
		chain = append(chain, p)
	}
	sib := m.pids.child(chain[len(chain)-2], 2) // 1.1....1.2
	cases := []struct {
		a, b PID
		want int
	}{
		{chain[0], chain[len(chain)-1], -1},
		{chain[len(chain)-1], chain[0], +1},
		{chain[len(chain)-1], sib, -1},
		{sib, chain[50000], +1},
		{m.PID(2), chain[len(chain)-1], +1},
	}
	for _, c := range cases {
		if got := c.a.Compare(c.b); got != c.want {
			t.Errorf("Compare(depth %d, depth %d) = %d, want %d", c.a.Depth(), c.b.Depth(), got, c.want)
		}
	}
}

// TestProcSet checks the set against a sorted slice under random adds and
// removes, with room to grow.
func TestProcSet(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	var s ProcSet
	in := map[int]bool{}
	for step := 0; step < 20000; step++ {
		i := r.IntN(1 + step/4)
		if r.IntN(3) == 0 {
			s.Remove(i)
			delete(in, i)
		} else {
			s.Add(i)
			in[i] = true
		}
		if step%97 != 0 {
			continue
		}
		var want []int
		for j := range in {
			want = append(want, j)
		}
		slices.Sort(want)
		if got := s.All(); !slices.Equal(got, want) || s.Len() != len(want) {
			t.Fatalf("step %d: set %v (len %d), want %v", step, got, s.Len(), want)
		}
		for k, j := range want {
			if got := s.At(k); got != j {
				t.Fatalf("step %d: At(%d) = %d, want %d", step, k, got, j)
			}
			if !s.Has(j) || s.Has(-1) {
				t.Fatalf("step %d: Has is wrong", step)
			}
		}
	}
}

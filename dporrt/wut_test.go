package dporrt

import (
	"strings"
	"testing"
)

// wuTestEvent is an event for wakeup tree tests: a process (a letter) and
// the variables it reads and writes.
type wuTestEvent struct {
	p      byte
	reads  string
	writes string
	ghost  bool // stands for no step (see wakeupTree.ghost)
}

func (e wuTestEvent) String() string { return string(e.p) }

func wuDep(a, b wuTestEvent) bool {
	if a.p == b.p {
		return true
	}
	meets := func(x, y string) bool { return strings.ContainsAny(x, y) && x != "" && y != "" }
	return meets(a.writes, b.writes) || meets(a.writes, b.reads) || meets(a.reads, b.writes)
}

// wuSeq returns the events of ev named by the letters of ps, in order.
func wuSeq(ev map[byte]wuTestEvent, ps string) []wuTestEvent {
	var out []wuTestEvent
	for i := 0; i < len(ps); i++ {
		out = append(out, ev[ps[i]])
	}
	return out
}

// wuWords writes each sequence as its processes' letters, space-separated.
func wuWords(seqs [][]wuTestEvent) string {
	var bs []string
	for _, s := range seqs {
		var b strings.Builder
		for _, e := range s {
			b.WriteByte(e.p)
		}
		bs = append(bs, b.String())
	}
	return strings.Join(bs, " ")
}

func wuString(t *wakeupTree[wuTestEvent, byte]) string {
	return "{" + wuWords(t.sequences()) + "}"
}

// TestWakeupTree inserts sequences into wakeup trees and checks the
// branches: the weak-initial rule that finds where a sequence goes or that
// it is covered, the ordering (new branches go right), subtree and remove.
func TestWakeupTree(t *testing.T) {
	t.Parallel()
	// The ISSTA'19 running example (Fig. 2) with q reading x: p: x = 1; q: x = x + 1;
	// r: assert(x < 3), all dependent through x; s and u touch y and z
	// alone, independent of p, q, r and of each other.
	ev := map[byte]wuTestEvent{
		'p': {p: 'p', writes: "x"},
		'q': {p: 'q', reads: "x", writes: "x"},
		'r': {p: 'r', reads: "x"},
		's': {p: 's', writes: "y"},
		'u': {p: 'u', writes: "z"},
		't': {p: 't', reads: "y"}, // dependent on s only
		'a': {p: 'a', writes: "A"},
		'b': {p: 'b', writes: "B"},
		'c': {p: 'c', reads: "C"},
		'd': {p: 'd', writes: "A"},
		'e': {p: 'e', writes: "C"},
		'G': {p: 'g', reads: "x", ghost: true}, // the look of g at its guard
	}
	seq := func(ps string) []wuTestEvent { return wuSeq(ev, ps) }
	cases := []struct {
		name    string
		inserts []string // sequences inserted in order
		changed []bool   // whether each insert changed the tree
		want    string
	}{
		{"empty tree takes the sequence", []string{"q"}, []bool{true}, "{q}"},
		{"the same sequence again is covered", []string{"qr", "qr"}, []bool{true, false}, "{qr}"},
		{"a prefix of a branch is covered", []string{"qr", "q"}, []bool{true, false}, "{qr}"},
		{"a leaf covers its extensions", []string{"q", "qr"}, []bool{true, false}, "{q}"},
		{"dependent first events: new branch on the right", []string{"q", "r"}, []bool{true, true}, "{q r}"},
		// Fig. 2, state 0 after p.q.r: q goes into wut(ε); then r.p (race of
		// p with r after q.p.r) branches off on the right.
		{"Fig. 2 wut(ε)", []string{"q", "rp"}, []bool{true, true}, "{q rp}"},
		// q's first event in s.q.p has no predecessor (s and q are
		// independent): v descends into q with s.p left, and s.p goes
		// under q, as q.s.p is s.q.p reordered.
		{"reordering up to independence descends", []string{"qr", "sqp"}, []bool{true, true}, "{qr qsp}"},
		// ... and below q the leaf u, independent of s and r, covers s.r.
		{"a leaf independent of the rest covers it", []string{"qu", "sqr"}, []bool{true, false}, "{qu}"},
		{"independent leaf covers", []string{"s", "qr"}, []bool{true, false}, "{s}"},
		{"dependent on the leaf: no cover", []string{"s", "tq"}, []bool{true, true}, "{s tq}"},
		// a and b are both weak initials of e (independent of it); the
		// leftmost, a, takes it, below which c (dependent on e) does not
		// cover it.
		{"leftmost qualifying child is taken", []string{"ac", "bd", "e"}, []bool{true, true, true}, "{ac ae bd}"},
		{"the rest of v extends the inner node", []string{"qr", "qp"}, []bool{true, true}, "{qr qp}"},
		{"a process first in v but with a predecessor is no weak initial", []string{"rq", "pr"}, []bool{true, true}, "{rq pr}"},
		// A ghost (here G, process g's look at its guard, reading x) takes
		// part in the weak initials of the sequence it ends and is not
		// stored: s alone is covered by the leaf p (independent of it), s
		// then G is not (p writes what G reads). The node before a ghost
		// stays open: as a leaf it covers nothing inserted through it.
		{"a trailing ghost is not stored", []string{"sG"}, []bool{true}, "{s}"},
		{"a ghost alone changes nothing", []string{"G"}, []bool{false}, "{}"},
		{"without its ghost the leaf covers", []string{"p", "s"}, []bool{true, false}, "{p}"},
		{"the ghost keeps the leaf from covering", []string{"p", "sG"}, []bool{true, true}, "{p s}"},
		{"a leaf independent of the ghost covers", []string{"u", "sG"}, []bool{true, false}, "{u}"},
		{"the node before a ghost stays open", []string{"sG", "sq"}, []bool{true, true}, "{sq}"},
		{"a plain leaf covers", []string{"s", "sq"}, []bool{true, false}, "{s}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := newWakeupTree(func(e wuTestEvent) byte { return e.p }, wuDep)
			tr.ghost = func(e wuTestEvent) bool { return e.ghost }
			for i, s := range tc.inserts {
				if got := tr.insert(seq(s)); got != tc.changed[i] {
					t.Errorf("insert %s: changed %v, want %v (tree %s)", s, got, tc.changed[i], wuString(tr))
				}
			}
			if got := wuString(tr); got != tc.want {
				t.Errorf("tree %s, want %s", got, tc.want)
			}
		})
	}

	// leftOf names the branches explored before where a sequence would go:
	// the children left of the one it follows at each node of its path,
	// and every child of the node it would branch off from; nothing where
	// the tree covers it. It leaves the tree as it was.
	t.Run("leftOf", func(t *testing.T) {
		for _, tc := range []struct{ tree, v, want string }{
			{"ac bd", "e", "c"},  // below a (e commutes with it), beside c
			{"ac bd", "d", ""},   // b then d: covered
			{"q", "r", "q"},      // r depends on q: a root of its own
			{"qr", "sqp", "r"},   // as "reordering up to independence descends"
			{"ac bd", "bdc", ""}, // b's branch: covered by its leaf d
			{"q rp", "rq", "qp"}, // below r, right of q, beside p
			{"qr", "q", ""},      // a prefix: covered
			{"s tq", "tp", "sq"}, // below t, right of s, beside q
		} {
			tr := newWakeupTree(func(e wuTestEvent) byte { return e.p }, wuDep)
			for _, b := range strings.Fields(tc.tree) {
				tr.insert(seq(b))
			}
			before := wuString(tr)
			var got strings.Builder
			for _, p := range tr.leftOf(seq(tc.v)) {
				got.WriteByte(p)
			}
			if got.String() != tc.want {
				t.Errorf("tree {%s}: leftOf(%s) = %q, want %q", tc.tree, tc.v, got.String(), tc.want)
			}
			if after := wuString(tr); after != before {
				t.Errorf("tree {%s}: leftOf(%s) changed it to %s", tc.tree, tc.v, after)
			}
		}
	})

	t.Run("subtree and remove", func(t *testing.T) {
		tr := newWakeupTree(func(e wuTestEvent) byte { return e.p }, wuDep)
		tr.insert(seq("qr"))
		tr.insert(seq("qp"))
		tr.insert(seq("rp"))
		if got := wuString(tr.subtree('q')); got != "{r p}" {
			t.Errorf("subtree(q) = %s, want {r p}", got)
		}
		if got := wuString(tr.subtree('p')); got != "{}" {
			t.Errorf("subtree(p) = %s, want {}", got)
		}
		if first, ok := tr.leftmost(); !ok || first.p != 'q' {
			t.Errorf("leftmost = %v, %v", first, ok)
		}
		tr.remove('q')
		if got := wuString(tr); got != "{rp}" {
			t.Errorf("after remove(q): %s", got)
		}
		tr.remove('r')
		if !tr.empty() {
			t.Errorf("not empty: %s", wuString(tr))
		}
		if _, ok := tr.leftmost(); ok {
			t.Error("leftmost of an empty tree")
		}
	})
}

// TestWakeupTreeSkippable checks what a tree that keeps (the algorithms
// with don't-do sets) records: every branch is skippable, with the
// sequences its first node took in as they stood at the root (not the one
// that made it), so that inserting them again loses none.
func TestWakeupTreeSkippable(t *testing.T) {
	t.Parallel()
	ev := map[byte]wuTestEvent{
		'q': {p: 'q', reads: "x", writes: "x"},
		'r': {p: 'r', reads: "x"},
		's': {p: 's', writes: "y"},
		'u': {p: 'u', writes: "z"},
	}
	seq := func(ps string) []wuTestEvent { return wuSeq(ev, ps) }
	tr := newWakeupTree(func(e wuTestEvent) byte { return e.p }, wuDep)
	tr.keep = true
	tr.insert(seq("q"))  // made as a single event
	tr.insert(seq("sq")) // q is a weak initial: taken in, the leaf covers it
	tr.insert(seq("ur")) // no branch is a weak initial: a new chain
	if got := wuString(tr); got != "{q ur}" {
		t.Fatalf("tree %s, want {q ur}", got)
	}
	took, ok := tr.skippable('q')
	if !ok || wuWords(took) != "sq" {
		t.Errorf("skippable(q) = [%s], %v; want [sq], true", wuWords(took), ok)
	}
	// u was made with its child r: skipped, u.r is what its cover stands
	// for, and nothing else is in it yet.
	if took, ok := tr.skippable('u'); !ok || len(took) != 0 {
		t.Errorf("skippable(u) = [%s], %v; want [], true", wuWords(took), ok)
	}
	// Skipping q and inserting what it took in again keeps it: u, a weak
	// initial of s.q, takes it in now.
	tr.remove('q')
	for _, v := range took {
		tr.insert(v)
	}
	if got := wuString(tr); got != "{ur usq}" {
		t.Errorf("after skipping q: %s, want {ur usq}", got)
	}
	// u took s.q in: skipping u too would insert it again.
	if took, _ := tr.skippable('u'); wuWords(took) != "sq" {
		t.Errorf("u took [%s], want [sq]", wuWords(took))
	}
	// An insertion that is the branch's own event alone is not recorded:
	// the branch is that sequence.
	own := newWakeupTree(func(e wuTestEvent) byte { return e.p }, wuDep)
	own.keep = true
	own.insert(seq("s"))
	own.insert(seq("s"))
	if took, ok := own.skippable('s'); !ok || len(took) != 0 {
		t.Errorf("skippable(s) = [%s], %v; want [], true", wuWords(took), ok)
	}
	// A tree that does not keep records nothing and skips nothing.
	plain := newWakeupTree(func(e wuTestEvent) byte { return e.p }, wuDep)
	plain.insert(seq("q"))
	if _, ok := plain.skippable('q'); ok {
		t.Error("a tree without keep: skippable(q)")
	}
}

// TestWakeupTreeExtend checks extend: a leaf reached with events of the
// inserted sequence left takes them as its branch, where a plain tree
// lets the leaf cover the sequence (see explorer.newWUT).
func TestWakeupTreeExtend(t *testing.T) {
	t.Parallel()
	ev := map[byte]wuTestEvent{
		'p': {p: 'p', writes: "x"},
		'q': {p: 'q', reads: "x"},
		's': {p: 's', writes: "y"},
	}
	for _, extend := range []bool{false, true} {
		w := newWakeupTree(func(e wuTestEvent) byte { return e.p }, wuDep)
		w.extend = extend
		w.insert(wuSeq(ev, "s"))
		changed := w.insert(wuSeq(ev, "pqs")) // s is a weak initial: the leaf s takes it
		want, wantChanged := "{s}", false
		if extend {
			want, wantChanged = "{spq}", true
		}
		if got := wuString(w); got != want || changed != wantChanged {
			t.Errorf("extend %v: tree %s (changed %v), want %s (changed %v)", extend, got, changed, want, wantChanged)
		}
	}
}

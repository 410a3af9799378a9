package interp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStoreRandom checks the copy-on-write store against flat arrays of
// values: random writes, clones (new, and into dropped stores), fills and
// comparisons over a pool of stores sharing pages, for stores of one page,
// of several pages and of several directories. After every operation each
// store holds its model's values, equal says what comparing the models
// says, and a paged store's hash is the one computed from its values.
func TestStoreRandom(t *testing.T) {
	t.Parallel()
	sizes := []int{1, 7, pageSize, pageSize + 1, 3*pageSize + 5, 1<<dirShift + 2*pageSize + 3}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(n), 1))
			// A few hot locations (so stores meet equal) and pages of
			// either end of each directory.
			var hot []int
			for first := 0; first < n; first += 1 << dirShift {
				for _, l := range []int{first, first + 1, first + pageSize - 1, first + pageSize, first + 1<<dirShift - 1} {
					if l < n {
						hot = append(hot, l)
					}
				}
			}
			hot = append(hot, n-1)
			pick := func() int {
				if r.IntN(4) == 0 {
					return r.IntN(n)
				}
				return hot[r.IntN(len(hot))]
			}
			stores := []*store{ptr(newStore(n))}
			models := [][]int64{make([]int64, n)}
			var dropped []*store
			check := func(step int, what string) {
				t.Helper()
				for i, s := range stores {
					for _, l := range hot {
						if got := s.get(l); got != models[i][l] {
							t.Fatalf("step %d (%s): store %d holds %d at %d, want %d", step, what, i, got, l, models[i][l])
						}
					}
					if step%50 == 0 && !slices.Equal(s.values(0, n), models[i]) {
						t.Fatalf("step %d (%s): store %d's values differ from its model", step, what, i)
					}
					if s.paged() {
						h := s.hash
						c := *s
						c.rehash()
						if c.hash != h {
							t.Fatalf("step %d (%s): store %d's hash %x, computed %x", step, what, i, h, c.hash)
						}
					}
				}
			}
			for step := range 2000 {
				i := r.IntN(len(stores))
				s := stores[i]
				var what string
				switch k := r.IntN(10); {
				case k < 6:
					l, v := pick(), r.Int64N(3)
					if old := s.set(l, v); old != models[i][l] {
						t.Fatalf("step %d: set at %d returned %d, want %d", step, l, old, models[i][l])
					}
					models[i][l] = v
					what = fmt.Sprintf("set %d at %d in %d", v, l, i)
				case k < 8 && len(stores) < 6:
					var c *store
					if len(dropped) > 0 {
						c, dropped = dropped[len(dropped)-1], dropped[:len(dropped)-1]
					} else {
						c = &store{}
					}
					s.cloneInto(c)
					stores, models = append(stores, c), append(models, slices.Clone(models[i]))
					what = fmt.Sprintf("clone %d", i)
				case k < 8:
					dropped = append(dropped, s)
					stores, models = slices.Delete(stores, i, i+1), slices.Delete(models, i, i+1)
					what = fmt.Sprintf("drop %d", i)
				case k < 9:
					first := pick()
					m := r.IntN(n-first) + 1
					v := r.Int64N(2)
					s.fill(first, m, v)
					s.rehash()
					for l := first; l < first+m; l++ {
						models[i][l] = v
					}
					what = fmt.Sprintf("fill %d from %d, %d locations, in %d", v, first, m, i)
				default:
					j := r.IntN(len(stores))
					if got, want := s.equal(stores[j]), slices.Equal(models[i], models[j]); got != want {
						t.Fatalf("step %d: stores %d and %d equal = %v, want %v", step, i, j, got, want)
					}
					if slices.Equal(models[i], models[j]) && s.sum() != stores[j].sum() {
						t.Fatalf("step %d: equal stores %d and %d hash to %x and %x", step, i, j, s.sum(), stores[j].sum())
					}
					what = "compare"
				}
				if len(stores) == 0 {
					stores, models = []*store{ptr(newStore(n))}, [][]int64{make([]int64, n)}
				}
				check(step, what)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

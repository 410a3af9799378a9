package interp

import (
	"slices"
)

// This file holds a state's store: the values of the global locations, in
// pages that a state and its clones share until one of them writes.

// The layout of a paged store: location l is element l&pageMask of page
// (l>>pageBits)&dirMask of directory l>>dirShift. A page holds pageSize
// locations, a directory dirSize pages.
const (
	pageBits = 9
	pageSize = 1 << pageBits
	pageMask = pageSize - 1
	dirBits  = 9
	dirSize  = 1 << dirBits
	dirMask  = dirSize - 1
	dirShift = pageBits + dirBits
	maxDirs  = (MaxStore + 1<<dirShift - 1) >> dirShift
)

// page is a page of a paged store. The last page of a store may hold
// fewer locations: the rest stays 0.
type page = [pageSize]int64

// zeroPage backs the pages of zeros of every store until they are written;
// no store writes it.
var zeroPage page

// dir is a directory of pages. mine marks the pages its store may write in
// place (it copied them since it last shared them); fresh marks the pages
// copied since the state they come from was made by Machine.Initial (see
// store.fresh).
type dir struct {
	pages [dirSize]*page
	mine  [dirSize / 64]uint64
	fresh [dirSize / 64]uint64
}

// dirBytes and pageBytes are the memory of a directory and of a page.
const (
	dirBytes  = 8*dirSize + 2*dirSize/8
	pageBytes = 8 * pageSize
)

// store is the values of a state's global locations.
//
// A store of at most pageSize locations is flat: one array, which a clone
// copies. A larger one is paged, and copy-on-write: a clone shares every
// directory and page with the store it was cloned from, and either of them
// copies a directory or a page the first time it writes it afterwards.
// Cloning then costs a pointer per directory (2^18 locations), and an
// event's writes a copy of each page (4 KiB) and directory (4 KiB) it is
// the first to write since the last clone: time and memory in proportion
// to what the event touches, not to the store. A paged store's hash, a
// hash of its values, is kept up to date by every write (see pageHash), so
// hashing it does not read it; a flat one is hashed when asked (see sum).
type store struct {
	flat []int64 // a flat store's values
	dirs []*dir  // a paged store's directories
	// ownDirs marks the directories the store may write in place;
	// freshDirs those copied since Initial.
	ownDirs, freshDirs [(maxDirs + 63) / 64]uint64
	hash               uint64
	// fresh is, in a paged store, the bytes of the pages and directories
	// copied since the state the store comes from was made by Initial,
	// which the store refers to: the states of an exploration take at
	// most the initial store plus the sum of their fresh bytes.
	fresh int
	// page is the current page: the last one looked up, holding the
	// locations from base on; mine says whether the store may write it in
	// place. Locations of the current page are read and written without
	// going through the directories. A flat store's is its values.
	page []int64
	base uint
	mine bool
	n    int // locations
}

// newStore returns a store of n locations, all 0.
func newStore(n int) store {
	s := store{n: n}
	if n <= pageSize {
		s.flat = make([]int64, n)
		s.page, s.mine = s.flat, true
		return s
	}
	for first := 0; first < n; first += 1 << dirShift {
		d := &dir{}
		for p := range min(dirSize, (n-first+pageSize-1)/pageSize) {
			d.pages[p] = &zeroPage
		}
		s.ownDirs[len(s.dirs)/64] |= 1 << (len(s.dirs) % 64)
		s.dirs = append(s.dirs, d)
	}
	s.rehash()
	return s
}

// paged reports whether the store is paged (not flat).
func (s *store) paged() bool { return s.dirs != nil }

// get returns the value at location l.
func (s *store) get(l int) int64 {
	if v, ok := s.cached(l); ok {
		return v
	}
	return s.find(uint(l))[l&pageMask]
}

// cached returns the value at location l if l is on the current page (ok),
// as get does. Small enough to be inlined, it spares the interpreter's
// reads a call.
func (s *store) cached(l int) (v int64, ok bool) {
	if k := uint(l) - s.base; k < uint(len(s.page)) {
		return s.page[k], true
	}
	return 0, false
}

// setFlat is set in a flat store (ok); in a paged one it does nothing.
// Small enough to be inlined, it spares the interpreter's writes a call.
func (s *store) setFlat(l int, v int64) (old int64, ok bool) {
	if s.dirs != nil {
		return 0, false
	}
	old, s.flat[l] = s.flat[l], v
	return old, true
}

// set writes v at location l, copying its directory and page first where
// the store shares them, and returns the value it had.
func (s *store) set(l int, v int64) (old int64) {
	if old, ok := s.setFlat(l, v); ok {
		return old
	}
	u := uint(l)
	pg, j := s.page, u-s.base
	if j >= uint(len(pg)) {
		pg, j = s.find(u), u&pageMask
	}
	old = pg[j]
	if old == v {
		return old
	}
	if !s.mine {
		pg = s.own(u)
	}
	pg[j] = v
	s.hash += (cellHash(j, v) - cellHash(j, old)) * pageWeight(u>>pageBits)
	return old
}

// find returns the page of location u of a paged store and makes it the
// current page.
func (s *store) find(u uint) []int64 {
	di, pi := u>>dirShift, u>>pageBits&dirMask
	d := s.dirs[di]
	s.page, s.base = d.pages[pi][:], u&^pageMask
	s.mine = s.ownDirs[di/64]&(1<<(di%64)) != 0 && d.mine[pi/64]&(1<<(pi%64)) != 0
	return s.page
}

// own copies the directory and page of location u where the store shares
// them, and returns the page, which is the current page.
func (s *store) own(u uint) []int64 {
	di, pi := u>>dirShift, u>>pageBits&dirMask
	d := s.dirs[di]
	if s.ownDirs[di/64]&(1<<(di%64)) == 0 {
		d = s.copyDir(di)
	}
	if d.mine[pi/64]&(1<<(pi%64)) == 0 {
		s.copyPage(d, pi)
	}
	s.page, s.base, s.mine = d.pages[pi][:], u&^pageMask, true
	return s.page
}

// copyDir gives the store its own copy of directory di, which it shares.
func (s *store) copyDir(di uint) *dir {
	old := s.dirs[di]
	d := &dir{pages: old.pages, fresh: old.fresh}
	s.dirs[di] = d
	s.ownDirs[di/64] |= 1 << (di % 64)
	if s.freshDirs[di/64]&(1<<(di%64)) == 0 {
		s.freshDirs[di/64] |= 1 << (di % 64)
		s.fresh += dirBytes
	}
	return d
}

// copyPage gives directory d, the store's own, its own copy of page pi.
func (s *store) copyPage(d *dir, pi uint) {
	pg := *d.pages[pi]
	d.pages[pi] = &pg
	d.mine[pi/64] |= 1 << (pi % 64)
	if d.fresh[pi/64]&(1<<(pi%64)) == 0 {
		d.fresh[pi/64] |= 1 << (pi % 64)
		s.fresh += pageBytes
	}
}

// cloneInto makes c a copy of s, reusing c's memory where it can. A flat
// store is copied. A paged one shares every directory and page with c, and
// neither writes them in place afterwards.
func (s *store) cloneInto(c *store) {
	if s.dirs == nil {
		flat := append(c.flat[:0], s.flat...)
		*c = store{flat: flat, page: flat, mine: true, n: s.n}
		return
	}
	s.ownDirs, s.mine = [len(s.ownDirs)]uint64{}, false
	*c = store{dirs: append(c.dirs[:0], s.dirs...), freshDirs: s.freshDirs, hash: s.hash, fresh: s.fresh,
		page: s.page, base: s.base, n: s.n}
}

// settle makes the store's current pages and directories the base that
// fresh counts from (see Machine.Initial).
func (s *store) settle() {
	s.fresh, s.freshDirs = 0, [len(s.freshDirs)]uint64{}
	for _, d := range s.dirs {
		d.fresh = [len(d.fresh)]uint64{}
	}
}

// fill sets the n locations from first to v: in a paged store, the whole
// pages in between to one page of v, shared (the store copies it before
// writing it). It leaves hash stale: rehash after.
func (s *store) fill(first, n int, v int64) {
	end := first + n
	l := first
	if s.dirs != nil {
		for ; l < end && l&pageMask != 0; l++ {
			s.set(l, v)
		}
		shared := &zeroPage
		if v != 0 && end-l >= pageSize {
			shared = new(page)
			for i := range shared {
				shared[i] = v
			}
		}
		s.page = nil // a whole page may be replaced
		for ; end-l >= pageSize; l += pageSize {
			di, pi := uint(l)>>dirShift, uint(l)>>pageBits&dirMask
			if s.ownDirs[di/64]&(1<<(di%64)) == 0 {
				s.copyDir(di)
			}
			d := s.dirs[di]
			d.pages[pi] = shared
			d.mine[pi/64] &^= 1 << (pi % 64)
		}
	}
	for ; l < end; l++ {
		s.set(l, v)
	}
}

// rehash computes a paged store's hash from the values (see pageHash),
// hashing a page shared within the store once.
func (s *store) rehash() {
	s.hash = 0
	if s.dirs == nil {
		return
	}
	seen := map[*page]uint64{}
	for di, d := range s.dirs {
		for pi, pg := range d.pages {
			if pg == nil {
				break
			}
			h, ok := seen[pg]
			if !ok {
				h = pageHash(pg[:])
				seen[pg] = h
			}
			s.hash += h * pageWeight(uint(di<<dirBits|pi))
		}
	}
}

// pageHash is the hash of a page's values; the hash of a paged store is
// the sum of its pages' hashes, page k's weighted by pageWeight(k). A
// write changes one term of one page's hash, so the store's changes by
// that term's difference, weighted.
func pageHash(pg []int64) uint64 {
	var h uint64
	for j, v := range pg {
		h += cellHash(uint(j), v)
	}
	return h
}

// cellHash is the term of a page's hash for value v at position j.
func cellHash(j uint, v int64) uint64 {
	x := (uint64(v) + uint64(j)*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	return x ^ x>>31
}

// pageWeight is the odd factor of page k's hash in a store's hash.
func pageWeight(k uint) uint64 { return uint64(2*k+1) * 0xd6e8feb86659fd93 }

// sum returns a hash of the values: hash for a paged store, computed for a
// flat one.
func (s *store) sum() uint64 {
	if s.dirs != nil {
		return s.hash
	}
	return pageHash(s.flat)
}

// equal reports whether two stores of one machine hold the same values. Of
// paged stores, it compares the pages they do not share.
func (s *store) equal(t *store) bool {
	if s.dirs == nil || t.dirs == nil {
		return s.dirs == nil && t.dirs == nil && slices.Equal(s.flat, t.flat)
	}
	if s.hash != t.hash || len(s.dirs) != len(t.dirs) {
		return false
	}
	for di, d := range s.dirs {
		e := t.dirs[di]
		if d == e {
			continue
		}
		for pi, pg := range d.pages {
			if q := e.pages[pi]; pg != q && *pg != *q {
				return false
			}
		}
	}
	return true
}

// values returns a copy of the n values from location first.
func (s *store) values(first, n int) []int64 {
	if s.dirs == nil {
		return slices.Clone(s.flat[first : first+n])
	}
	out := make([]int64, 0, n)
	for l := first; l < first+n; {
		pg := s.dirs[l>>dirShift].pages[l>>pageBits&dirMask]
		j := l & pageMask
		k := min(pageSize-j, first+n-l)
		out = append(out, pg[j:j+k]...)
		l += k
	}
	return out
}

// bytes estimates the memory a copy of the store adds to what the initial
// store takes: the values of a flat store, the directories' pointers and
// the fresh bytes of a paged one.
func (s *store) bytes() int {
	if s.dirs == nil {
		return 8 * len(s.flat)
	}
	return 8*len(s.dirs) + s.fresh
}

package dporrt

// raceFinder is how the optimal loop finds and reverses the races of its
// sequences: by the plain dependency (plainFinder), or with observers
// (observedFinder, TACAS'18: observers.go), where two writes of a location
// race only when a later event observes the second. The other loops use
// the plain one.
type raceFinder interface {
	// observes reports whether the finder uses observers: the events then
	// keep the locations they wrote (event.wrote).
	observes() bool
	// observesFinal reports whether a last virtual event observes every
	// global (Options.ObserveFinal, with observers).
	observesFinal(x *explorer) bool
	// wut sets up a level's wakeup tree.
	wut(x *explorer, t *wut)
	// explored notes that ev was explored from level f.
	explored(f *level, ev *event)
	// scan computes the clock of the event at position k and notes its
	// races (scanOptimal); detect reverses the races of the maximal
	// sequence (detectRaces).
	scan(x *explorer, k int)
	detect(x *explorer)
	// redundant reports whether v is redundant from f beyond its sleep
	// set (see redundant).
	redundant(x *explorer, f *level, v []*event) bool
	// toDisabler reports whether a race of seq[k] that cannot be reversed
	// goes to the write that disabled it (see unreversible).
	toDisabler(x *explorer, k int) bool
}

// plainFinder finds races by the dependency alone.
type plainFinder struct{}

func (plainFinder) observes() bool                             { return false }
func (plainFinder) observesFinal(*explorer) bool               { return false }
func (plainFinder) wut(*explorer, *wut)                        {}
func (plainFinder) explored(*level, *event)                    {}
func (plainFinder) scan(x *explorer, k int)                    { x.check.scan(x, k) }
func (plainFinder) detect(x *explorer)                         { x.plainRaces() }
func (plainFinder) redundant(*explorer, *level, []*event) bool { return false }
func (plainFinder) toDisabler(*explorer, int) bool             { return false }

// observedFinder finds races with observers (observers.go).
type observedFinder struct{}

func (observedFinder) observes() bool                     { return true }
func (observedFinder) observesFinal(x *explorer) bool     { return x.opts.ObserveFinal }
func (observedFinder) explored(f *level, ev *event)       { f.doneEv = append(f.doneEv, ev) }
func (observedFinder) scan(x *explorer, k int)            { x.check.scanObserved(x, k) }
func (observedFinder) detect(x *explorer)                 { x.observedRaces() }
func (observedFinder) toDisabler(x *explorer, k int) bool { return !x.seq[k].blocked }

func (observedFinder) wut(x *explorer, t *wut) { t.wi, t.extend = x.observedWI, true }

func (observedFinder) redundant(x *explorer, f *level, v []*event) bool {
	return x.redundantObserved(f.depth, v)
}

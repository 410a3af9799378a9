package dporrt

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/icgen/icgen/ic"
)

// TestValidate checks that Options.Validate refuses each option that does
// not fit, by its field, and that Explore refuses them too.
func TestValidate(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int x; proc p() { x = 1; } init { spawn p(); spawn p(); }`, nil)
	for _, tc := range []struct {
		opts   Options
		option string // "" when valid
	}{
		{Options{}, ""},
		{Options{Algo: ODPOB, ObserveFinal: true}, ""},
		{Options{Algo: CDPOR, ICs: &ic.File{}, AssumeNoOverflow: true}, ""},
		{Options{Algo: "bfs"}, "Algo"},
		{Options{Dep: 7}, "Dep"},
		{Options{MaxStates: -1}, "MaxStates"},
		{Options{Timeout: -time.Second}, "Timeout"},
		{Options{Algo: ODPOR, ObserveFinal: true}, "ObserveFinal"},
		{Options{Algo: ODPCS, ICs: &ic.File{}}, "ICs"},
		{Options{Algo: SDPOR, AssumeNoOverflow: true}, "AssumeNoOverflow"},
	} {
		err := tc.opts.Validate()
		var oe *OptionError
		switch {
		case tc.option == "" && err != nil:
			t.Errorf("%+v: %v", tc.opts, err)
		case tc.option != "" && (!errors.As(err, &oe) || oe.Option != tc.option):
			t.Errorf("%+v: got %v, want an error of %s", tc.opts, err, tc.option)
		}
		if tc.option != "" {
			if _, err := Explore(context.Background(), m, tc.opts); err == nil {
				t.Errorf("%+v: Explore took it", tc.opts)
			}
		}
	}
}

// TestExploreContext checks that an exploration stops, cut, when its
// context is canceled or past its deadline, with every algorithm.
func TestExploreContext(t *testing.T) {
	t.Parallel()
	m := newMachine(t, `global int x; proc p() { x = x + 1; x = x + 1; } init { spawn p(); spawn p(); spawn p(); }`, nil)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, info := range Algorithms {
		for _, c := range []struct {
			ctx context.Context
			why string
		}{{canceled, "canceled"}, {late, "timeout"}} {
			r, err := Explore(c.ctx, m, Options{Algo: info.Name})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Cut || r.CutBy != c.why || r.Traces > 1 {
				t.Errorf("%s with a context done (%s): cut %v by %q after %d traces", info.Name, c.why, r.Cut, r.CutBy, r.Traces)
			}
		}
	}
}

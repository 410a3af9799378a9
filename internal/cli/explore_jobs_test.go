package cli

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestExploreJobs: explore -j 2 reports what -j 1 reports, counts, final
// states and findings with their schedules, and adds how the workers
// shared the tasks.
func TestExploreJobs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-D", "N=3", "../../testdata/bench/lastzero.blk"}, 0},
		{[]string{"-D", "c=-1", "../../testdata/counter.blk"}, 1},
		{[]string{"-D", "N=3", "../../testdata/bench/fib.blk"}, 0},
	} {
		one, two := exploreReport(t, "dfs", "1", c.args, c.code), exploreReport(t, "dfs", "2", c.args, c.code)
		for _, v := range []map[string]any{one, two} {
			delete(v, "seconds")
			delete(v, "memory_mib")
		}
		split, ok := two["split"].(map[string]any)
		if !ok {
			t.Fatalf("%v -j 2: no split in %v", c.args, two)
		}
		if ws, _ := split["workers"].([]any); len(ws) != 2 {
			t.Errorf("%v -j 2: split %v, want 2 workers", c.args, split)
		}
		if _, ok := one["split"]; ok {
			t.Errorf("%v -j 1: a split reported", c.args)
		}
		delete(two, "split")
		if !reflect.DeepEqual(one, two) {
			t.Errorf("%v: -j 2 reports\n%v\nwhere -j 1 reports\n%v", c.args, two, one)
		}
	}
}

// TestExploreJobsShared: sdpor -j 2 reports the final states and findings
// -j 1 reports, and a shared split.
func TestExploreJobsShared(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-D", "N=4", "../../testdata/bench/lastzero.blk"}, 0},
		{[]string{"-D", "c=-1", "../../testdata/counter.blk"}, 1},
		{[]string{"-D", "N=6", "../../testdata/bench/qs.blk"}, 0},
		{[]string{"../../dporrt/testdata/regress/cs-suc.blk"}, 1},
	} {
		one, two := exploreReport(t, "sdpor", "1", c.args, c.code), exploreReport(t, "sdpor", "2", c.args, c.code)
		split, _ := two["split"].(map[string]any)
		if split["shared"] != true {
			t.Errorf("%v -j 2: split %v, want a shared one", c.args, split)
		}
		for _, k := range []string{"final_states", "final_states_all"} {
			if one[k] != two[k] {
				t.Errorf("%v: -j 2 reports %s %v, -j 1 %v", c.args, k, two[k], one[k])
			}
		}
		sites := func(v map[string]any) []string {
			var out []string
			fs, _ := v["findings"].([]any)
			for _, f := range fs {
				f := f.(map[string]any)
				out = append(out, fmt.Sprint(f["kind"], f["line"], f["col"], f["message"]))
			}
			slices.Sort(out)
			return out
		}
		if a, b := sites(one), sites(two); !slices.Equal(a, b) {
			t.Errorf("%v: -j 2 finds %v, -j 1 %v", c.args, b, a)
		}
	}
}

// exploreReport runs explore --json with algo on jobs workers and the
// arguments args, and returns its report; the exit code must be code.
func exploreReport(t *testing.T, algo, jobs string, args []string, code int) map[string]any {
	t.Helper()
	out, errOut, got := icgen(append([]string{"explore", "--algo", algo, "--json", "-j", jobs}, args...)...)
	if got != code {
		t.Fatalf("%v -j %s: exit %d, want %d\n%s", args, jobs, got, code, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v -j %s: %v\n%s", args, jobs, err, out)
	}
	return v
}

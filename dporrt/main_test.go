package dporrt

import (
	"os"
	"testing"

	"github.com/icgen/icgen/internal/gctune"
	"github.com/icgen/icgen/internal/testprog"
	"github.com/icgen/icgen/interp"
)

// TestMain lets the heap grow before collecting, as the icgen command does:
// these tests explore programs, which allocates fast over a small live heap.
func TestMain(m *testing.M) { os.Exit(gctune.Main(m)) }

// newMachine compiles src and instantiates it with the params set.
func newMachine(t testing.TB, src string, set map[string]int64) *interp.Machine {
	t.Helper()
	m, err := interp.New(testprog.Source(t, src), set)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

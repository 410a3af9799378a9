package dporrt

import (
	"os"
	"testing"

	"github.com/icgen/icgen/internal/gctune"
)

// TestMain lets the heap grow to gctune.DefaultFloor before collecting, as
// the icgen command does: the explorations of these tests allocate fast over
// a small live heap.
func TestMain(m *testing.M) {
	gctune.Start(gctune.DefaultFloor)
	os.Exit(m.Run())
}

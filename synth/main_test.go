package synth

import (
	"os"
	"testing"

	"github.com/icgen/icgen/internal/gctune"
)

// TestMain lets the heap grow before collecting, as the icgen command does:
// these tests explore programs, which allocates fast over a small live heap.
func TestMain(m *testing.M) { os.Exit(gctune.Main(m)) }

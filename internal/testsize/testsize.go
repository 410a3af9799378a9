// Package testsize picks how much of a test that grows with a count runs:
// the generated programs of a random test, the random states of a sampler.
// Each such test names two sizes: a short one, which go test -short runs
// (make test), and the full one, which go test runs without -short (make
// test-full). An environment variable, when set, overrides both (make
// soak): ICGEN_SOAK and ICGEN_SOAK_FROM for the seeds of the random
// tests, and each sampler's own (ICGEN_SOUNDNESS_SAMPLES, ...). Frozen inputs (testdata programs,
// regression programs, golden files) take no size: they always run whole.
// Only tests import it.
package testsize

import (
	"os"
	"strconv"
	"testing"
)

// Pick returns short under go test -short and full otherwise.
func Pick(short, full int) int {
	if testing.Short() {
		return short
	}
	return full
}

// Count returns the size a test runs of something: the value of the
// environment variable env when it holds a positive integer, else
// Pick(short, full).
func Count(env string, short, full int) int {
	if n, err := strconv.Atoi(os.Getenv(env)); err == nil && n > 0 {
		return n
	}
	return Pick(short, full)
}

// Seeds returns the seeds a random test runs, first to last: 1 to
// Pick(short, full); ICGEN_SOAK=N makes last N, and ICGEN_SOAK_FROM=M
// makes first M (to go on with a soak that stopped, or to run one part of
// it beside another).
func Seeds(short, full int) (first, last uint64) {
	return uint64(Count("ICGEN_SOAK_FROM", 1, 1)), uint64(Count("ICGEN_SOAK", short, full))
}

// Package cli is icgen's command tree (cobra). It holds flags, file I/O and
// output formatting only; the logic lives in the library packages.
//
// [Execute] runs the tree in-process with injected output streams and
// returns the exit code: 0 fine, 1 findings (violations, runtime errors,
// unsound constraints), 2 bad input or usage, 3 internal failure, 130
// interrupted. It never panics: a panic in a command is reported as an
// internal failure.
//
// Every file a command writes goes through one writer (output.go): atomic
// replacement for regular files and new paths, writing through for
// devices, FIFOs and sockets, symbolic links followed, input files and
// directories refused.
package cli

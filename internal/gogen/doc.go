// Package gogen generates small random Go packages within the subset the
// Go front end models (docs/go.md), for the oracle that runs both orders
// of every pair as real Go code (gofront/oracle_test.go).
//
// [Generate] is a pure function of a seed and a tag: the same seed and tag
// give the same source, whose header names both so a failing package can
// be made again. The tag is appended to every package-level name (types,
// package variables, functions), so the packages of several seeds can be
// compiled together as one Go package, each in a file of its own.
//
// # What a package looks like
//
// A struct type T<tag> guarded by a sync.Mutex, with fields of int, int64,
// narrow int types (int8 ... uint32) and bool (a few integer types per
// package, so expressions meet without a conversion at every step), an
// array of a scalar type, at times an array of structs and a map with an
// int8, uint8 or bool key, or a wide one (int, int64, int16, uint32,
// string), of scalars or of structs, at times a slice of a scalar type
// (appended to, indexed unchecked or within its length, its length
// read); 2 or 3 methods that
// lock the mutex with a deferred Unlock, with parameters of those types
// (string parameters, used as keys, where the map has string keys)
// and 0 to 1 results (2 at times; named, with a bare return, at times); a
// helper method that reads or writes the fields, at times, and one or two
// pure helper functions. A third of the packages also hold package
// variables guarded by a package mutex, with 2 functions that lock it.
//
// Bodies mix assignments (plain, op=, ++ and --, parallel), locals
// (scalars and copies of struct elements), if/else, switch (with a tag and
// without), three-clause loops and range over an int or an array (whose
// body leaves the array alone: the front end does not model a write to
// the copy Go ranges over), break, continue (labelled too), returns
// inside loops and switches, panics, division and remainder, conversions
// between integer types, and every map operation (lookup with and
// without ok, store, op=, delete, len, nil test).
//
// The shapes that a lowering gets wrong are made on purpose: parameters
// used as array indices and map keys unchecked (out of range, or equal to
// the other call's), checked ones (i >= 0 && i < n && a[i] ...) and
// wrapped ones; int64 values next to the edges and division by -1;
// narrow types that wrap on ++, -- and conversion; a local assigned and
// used as an index in the same parallel assignment; a return, break or
// continue (labelled at times) first or last in half the loops' bodies
// and anywhere in the others (a break in a switch leaving the switch
// only); a
// delete followed by len; a helper that writes the fields, called on its
// own; results read.
//
// # Contracts
//
//   - Every package type-checks, and every block of it is in the subset
//     (the oracle fails when one is not modelled).
//   - Every call ends: loops run at most 3 times (a constant bound, or a
//     range over an int constant or an array of at most 4 elements), no
//     function calls itself or a block, and helpers call no helper.
//   - Constants stay in range of their types and no constant divides by
//     zero, so the type checker accepts them; everything else (overflow,
//     wrap, index out of range, division by zero, panic) may happen at run
//     time.
package gogen

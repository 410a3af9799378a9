// Package synth drives IC synthesis for a whole program: for every
// unordered pair of blocks (self pairs included) it builds F(a,b)
// (package encode), covers it with proven constraints (package allsat) and
// assembles the IC file (package ic).
//
// Pairs are solved by a pool of workers; each cover runs in a solver
// context of its own, and results are stored by pair index, so the file is
// byte-identical whatever the number of workers.
package synth

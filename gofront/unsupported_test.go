package gofront_test

import (
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/icgen/icgen/gofront"
)

// TestUnsupported: each construct the front end does not model makes its
// block unknown, with the reason at the construct (file:line:col), while
// the other blocks of the package go on. The construct sits on line 9 of
// a method of T on line 9 (want is "line:col: message").
func TestUnsupported(t *testing.T) {
	t.Parallel()
	const head = `package p

import "sync"

type T struct { mu sync.Mutex; n int; m map[int]int; ms map[string]int; str string; mb map[uint8]int; mm map[uint8]map[uint8]int; s []int; p *int; f func() int; ch chan int; u uint64; i interface{ M() } }

func (t *T) Ok(k int) { t.mu.Lock(); defer t.mu.Unlock(); t.n += k }

func (t *T) X(k int) int { t.mu.Lock(); defer t.mu.Unlock()
`
	for _, tc := range []struct{ name, body, want string }{
		{"goroutine", "\tgo func() {}()\n\treturn 0 }", "10:2: go statement: goroutines are not modelled"},
		{"channel send", "\tt.ch <- k\n\treturn 0 }", "10:2: channel send: channels are not modelled"},
		{"channel receive", "\treturn <-t.ch }", "10:9: channel receive: channels are not modelled"},
		{"select", "\tselect {}\n }", "10:2: select statement: channels are not modelled"},
		{"pointer", "\treturn *t.p }", "10:9: pointer dereference: pointers are not modelled"},
		{"address", "\tq := &t.n\n\t_ = q\n\treturn 0 }", "10:7: address-of: pointers are not modelled"},
		{"receiver escapes", "\tu := t\n\t_ = u\n\treturn 0 }", "10:7: the receiver used as a value (it may alias the shared object)"},
		{"interface", "\tt.i.M()\n\treturn 0 }", "10:2: call of t.i.M: a method of an interface: interfaces are not modelled"},
		{"closure", "\tg := func() int { return 1 }\n\treturn g() }", "10:7: function literal: closures are not modelled"},
		{"function value", "\treturn t.f() }", "10:9: call of t.f: a call through a function value is not modelled"},
		{"string length", "\treturn len(t.str) }", "10:9: len of a string: strings are modelled as opaque values: only assignment, == and != and map keys"},
		{"string concatenation", "\tt.str = t.str + \"a\"\n\treturn 0 }", "10:16: operator + on strings: strings are modelled as opaque values: only assignment, == and != and map keys"},
		{"string order", "\tif t.str < \"b\" { return 1 }\n\treturn 0 }", "10:11: operator < on strings: strings are modelled as opaque values: only assignment, == and != and map keys"},
		{"string index", "\treturn int(t.str[k]) }", "10:13: index of string is not modelled"},
		{"string conversion", "\tt.str = string(rune(k))\n\treturn 0 }", "10:10: conversion from rune to string: strings are modelled as opaque values: only assignment, == and != and map keys"},
		{"map of maps", "\treturn t.mm[1][2] }", "10:9: map with elements of type map[uint8]int: values of type map[uint8]int are not modelled"},
		{"map assigned whole", "\tt.mb = make(map[uint8]int)\n\treturn 0 }", "10:9: values of type map[uint8]int are not modelled"},
		{"local map", "\tm := map[uint8]int{}\n\treturn m[1] }", "10:7: values of type map[uint8]int are not modelled"},
		{"map passed", "\treturn f(t.mb) }\nfunc f(m map[uint8]int) int { return len(m) }", "11:8: in f: parameter m: values of type map[uint8]int are not modelled"},
		{"clear", "\tclear(t.mb)\n\treturn 0 }", "10:2: builtin clear is not modelled"},
		{"map iteration", "\tfor x := range t.m { k += x }\n\treturn k }", "10:2: range over a map: map iteration is not modelled"},
		{"reslice", "\tt.s = t.s[1:]\n\treturn 0 }", "10:8: slice expression: slices are not modelled"},
		{"slice copied", "\tu := t.s\n\t_ = u\n\treturn 0 }", "10:7: values of type []int are not modelled"},
		{"append to another slice", "\tt.s = append(t.s[:0], k)\n\treturn 0 }", "10:8: append other than s = append(s, v, ...) to a slice of the state is not modelled"},
		{"append of a slice", "\tt.s = append(t.s, t.s...)\n\treturn 0 }", "10:8: append other than s = append(s, v, ...) to a slice of the state is not modelled"},
		{"slice range", "\tfor _, x := range t.s { k += x }\n\treturn k }", "10:2: range over a slice: slices are not modelled"},
		{"slice cap", "\treturn cap(t.s) }", "10:9: cap of a value that is not an array is not modelled"},
		{"slice nil", "\tif t.s == nil { return 1 }\n\treturn 0 }", "10:9: comparison of []int values is not modelled"},
		{"outside call", "\treturn strings.Count(\"a\", \"b\") }", "13:9: call of strings.Count: outside the package"},
		{"uint64", "\treturn int(t.u) }", "10:13: conversion from uint64: values of type uint64 (beyond int64) are not modelled"},
		{"bit operation", "\treturn k & 1 }", "10:11: operator &: bitwise operations and shifts are not modelled"},
		{"defer", "\tdefer t.Ok(1)\n\treturn 0 }", "10:2: defer statement: only the deferred unlock of the block's mutex is modelled"},
		{"goto", "\tgoto L\nL:\n\treturn 0 }", "10:2: goto is not modelled"},
		{"nested lock", "\tt.mu.Lock()\n\treturn 0 }", "10:2: call of t.mu.Lock: locking inside an atomic block is not modelled"},
		{"recursion", "\treturn fib(k) }\nfunc fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }", "11:53: in fib: recursive call of fib: recursion is not modelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			src := head + tc.body + "\n"
			if strings.Contains(src, "strings.") {
				src = strings.Replace(src, `import "sync"`, "import (\n\t\"strings\"\n\t\"sync\"\n)", 1)
			}
			if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			p, errs, err := gofront.Load(dir)
			if err != nil || errs != nil {
				t.Fatalf("%v %v", err, errs)
			}
			var ok, x *gofront.Block
			for _, b := range p.Blocks {
				switch b.ID {
				case "T.Ok":
					ok = b
				case "T.X":
					x = b
				}
			}
			if ok == nil || x == nil {
				t.Fatalf("blocks %v", p.Blocks)
			}
			if ok.Reason != nil {
				t.Errorf("T.Ok is not modelled: %v", ok.Reason)
			}
			if x.Reason == nil {
				t.Fatalf("T.X is modelled, want unknown: %s", tc.want)
			}
			got := x.Reason.Error()
			wantPrefix := filepath.Join(dir, "p.go") + ":"
			if !strings.HasPrefix(got, wantPrefix) {
				t.Fatalf("reason %q is not located in p.go", got)
			}
			if lc := strings.TrimPrefix(got, wantPrefix); lc != tc.want {
				t.Errorf("reason %q, want %q", lc, tc.want)
			}
			if _, found := p.Unknown("T.X"); !found {
				t.Errorf("Unknown(T.X) is not set")
			}
		})
	}
}

// TestCorpus lowers Go's own sync and container packages, and (full
// size) every file of the distribution's test directory that parses:
// no panic, whatever the input. It reports the blocks found and modelled.
func TestCorpus(t *testing.T) {
	goroot := build.Default.GOROOT
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	dirs := []string{"src/sync", "src/container/heap", "src/container/list", "src/container/ring"}
	t0 := time.Now()
	found, modelled, pkgs := 0, 0, 0
	stress, stressModelled := 0, 0
	run := func(pattern string) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic: %v", pattern, r)
			}
		}()
		p, errs, err := gofront.Load(pattern)
		if err != nil || errs != nil {
			return
		}
		pkgs++
		for _, b := range p.Blocks {
			found++
			if b.Reason == nil {
				modelled++
			}
		}
		// Every function as a block: the lowering meets every construct.
		if p, err = gofront.LoadAllAtomic(pattern); err != nil || p == nil {
			t.Errorf("%s: every function atomic: %v", pattern, err)
			return
		}
		for _, b := range p.Blocks {
			stress++
			if b.Reason == nil {
				stressModelled++
			}
		}
	}
	for _, d := range dirs {
		run(filepath.Join(goroot, d))
	}
	if !testing.Short() || os.Getenv("ICGEN_GO_CORPUS") != "" {
		files, _ := filepath.Glob(filepath.Join(goroot, "test", "*.go"))
		limit := len(files)
		if testing.Short() {
			limit = min(limit, 200)
		}
		for _, f := range files[:limit] {
			run(f)
		}
	}
	t.Logf("corpus: %d packages or files loaded, %d atomic blocks found, %d modelled; every function as a block: %d, %d modelled; in %v",
		pkgs, found, modelled, stress, stressModelled, time.Since(t0).Round(time.Millisecond))
}

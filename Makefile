# icgen: `make demo` runs the main job on a bundled example, `make test` runs
# every test in its short form (what CI runs), `make test-full` at full size
# and `make soak` at larger sizes still (CONTRIBUTING.md says when to run
# which). All of them first run `make deps`.

GO      ?= go
BIN     := bin/icgen
# Short, bounded fuzzing in the test run (about 10 s here), counted in
# executions: a duration races Go 1.26's fuzzing coordinator at its
# deadline (golang/go#75804), which then fails with "context deadline
# exceeded" and no failing input, most often on a loaded machine.
# FUZZTIME=5m for a real session.
FUZZTIME ?= 20000x
# TESTTIMEOUT is go test's -timeout in make test: a guard against a hang,
# far above what the short tests take, not a bound on their speed.
TESTTIMEOUT ?= 30m
# make soak runs every test at full size and the random ones at SOAK
# generated programs (ICGEN_SOAK), each with MUTANTS cut-down versions
# (ICGEN_MUTANTS), SHAPES programs of the waiting shapes (ICGEN_SHAPES),
# MUTATE mutants of each kind of each regression program (ICGEN_MUTATE),
# the soundness sampler at SAMPLES random states a constraint
# (ICGEN_SOUNDNESS_SAMPLES), and the Go oracle over GOPACKAGES generated
# packages (ICGEN_GO_ORACLE_PACKAGES); ICGEN_SOAK_FROM, set in the
# environment, starts the seeds elsewhere than 1.
SOAK ?= 1000
MUTANTS ?= 1
SHAPES ?= 5000
MUTATE ?= 10
SAMPLES ?= 10000
GOPACKAGES ?= 200
SOAKTIMEOUT ?= 4h

.PHONY: all deps build demo test test-full soak golden fuzz fuzz-smoke bench bench-quick clean

all: build

# deps checks for the C compiler and the Z3 library used through cgo (gcc,
# libz3-dev), for Graphviz (only icgen explore --svg uses it) and for GNU
# parallel (only the test of sharded synthesis uses it). With all
# of them present it needs no privileges and prints nothing. Otherwise it
# installs them with apt-get as root or through sudo, or, when it cannot,
# lists what is missing with the command an administrator runs, and fails.
deps:
	@GO='$(GO)' sh scripts/deps.sh

build: deps
	$(GO) build -o $(BIN) ./cmd/icgen

demo: build
	@echo '$$ icgen parse testdata/fig1.blk'
	@./$(BIN) parse testdata/fig1.blk
	@echo
	@echo '$$ icgen synth --format text -o - testdata/fig1.blk'
	@./$(BIN) synth --format text -o - testdata/fig1.blk
	@echo
	@echo '$$ icgen run testdata/fig1.blk'
	@./$(BIN) run testdata/fig1.blk
	@echo
	@echo '$$ icgen explore --algo cdpor testdata/fig1.blk'
	@./$(BIN) explore --algo cdpor testdata/fig1.blk
	@echo
	@echo '$$ icgen audit testdata/fig1.blk'
	@./$(BIN) audit testdata/fig1.blk

# test runs vet, every test in its short form (go test -short: the random
# tests on a few dozen generated programs, the samplers on a few hundred
# states; every program of testdata, the regression programs, the paper's
# examples and the golden files whole), the fuzz smoke run and bench-quick.
test: deps
	$(GO) vet ./...
	$(GO) test -short -count=1 -timeout $(TESTTIMEOUT) ./...
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory bench-quick

# test-full is make test with every test at full size (no -short).
test-full: deps
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 60m ./...
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory bench-quick

soak: deps
	ICGEN_SOAK=$(SOAK) ICGEN_MUTANTS=$(MUTANTS) ICGEN_SHAPES=$(SHAPES) ICGEN_MUTATE=$(MUTATE) \
		ICGEN_SOUNDNESS_SAMPLES=$(SAMPLES) ICGEN_GO_ORACLE_PACKAGES=$(GOPACKAGES) \
		$(GO) test -count=1 -timeout $(SOAKTIMEOUT) ./...

# golden rewrites the golden files of behaviour (synth/testdata: what every
# explorer does on every frozen program, short and full, and the IC files'
# digests) after a change of behaviour that is meant; commit them with it.
golden: deps
	$(GO) test -count=1 -short -run '^(TestExploreGolden|TestICFilesGolden)$$' ./synth -update
	$(GO) test -count=1 -run '^TestExploreGolden$$' ./synth -update

# fuzz-smoke fuzzes the front end for FUZZTIME (part of make test).
fuzz-smoke: deps
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./lang

fuzz: deps
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $${FUZZTIME:-5m} ./lang

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

# bench-quick runs icgen bench on the benchmark programs at small sizes, so
# the benchmarks keep working (seconds; part of make test).
bench-quick: build
	./$(BIN) bench --timeout 10s --sizes fib=4,5 --sizes bb=2,3 --sizes pi=3,5 --sizes qs=4,6 --sizes ms=4,6 --sizes ps=3,4 --sizes reg=3,5 --sizes dbp=2,3
	./$(BIN) bench --table issta19 --timeout 10s --sizes fib=3,4 --sizes bb=2,3 --sizes qs=4,6 --sizes ms=4,6 --sizes dbp=2,3 --sizes fr=3 --sizes fra=4 --sizes lw=3 --sizes abs=2 --sizes lam=2

clean:
	rm -rf bin

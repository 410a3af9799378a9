package ic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// FormatVersion is the version of the IC file format this package writes.
// Parse reads it, version 3 (which has no let: a version 4 file
// without one is a version 3 file), and version 2, whose guards are all
// exact (version 3 added no_overflow_kind).
const FormatVersion = 4

// Status classifies a pair of blocks.
type Status string

// Pair statuses.
const (
	Independent Status = "independent" // always commute: the constraints are {true}
	Conditional Status = "conditional" // commute where some constraint holds
	Dependent   Status = "dependent"   // never proven to commute: no constraints
	Unknown     Status = "unknown"     // the analysis gave up; Reason says why; any constraints are proven
)

// File is an IC file: the independence constraints of every pair of blocks
// of one program.
type File struct {
	Version int    `json:"version"`
	Program string `json:"program"`
	Hash    string `json:"hash"`
	// Shard is set in a part of a sharded synthesis only: the file then
	// holds that part's pairs alone (see [Merge]).
	Shard   *Shard   `json:"shard,omitempty"`
	Params  []Param  `json:"params"`
	Globals []Global `json:"globals"`
	// Invariants are the program's invariants: every constraint of the
	// file is proven only for states where all of them hold (and both
	// orders keep them). Empty when the program declares none.
	Invariants []Constraint `json:"invariants,omitempty"`
	Blocks     []Block      `json:"blocks"`
	Functions  []Function   `json:"functions,omitempty"`
	Pairs      []Pair       `json:"pairs"`
	_          struct{}
}

// Param is a program parameter with its default value.
type Param struct {
	Name    string `json:"name"`
	Default int64  `json:"default"`
}

// Global is a global variable: type int, bool or int[] (with its size: a
// number or a param name).
type Global struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size string `json:"size,omitempty"`
}

// Block describes one atomic block.
type Block struct {
	ID     string   `json:"id"`
	Proc   string   `json:"proc"`
	Params []string `json:"params"` // the proc's parameters
	Locals []string `json:"locals"` // locals live at the block's entry (parameters included)
	Reads  []string `json:"reads"`  // syntactic, globals only
	Writes []string `json:"writes"` // syntactic, globals only
	W      []string `json:"w"`      // W(b): globals b or anything it may lead to may write
	// Pos, for a file of Go code only, is where the block's Go function
	// is (its name, file:line:col).
	Pos string `json:"pos,omitempty"`
}

// Function is an uninterpreted function a constraint may mention: one
// aspect of what an in-block loop does, as a function of the values of Ins
// when the loop starts. Kind says which aspect: [FnValue], the value of
// the variable Out after the loop; [FnOK], whether the loop finishes within
// its step budget with no runtime error and no failed assert; [FnSpawns],
// the processes it spawns (never evaluated). The loop is the while
// statement at Line:Col of the proc or func Proc. Variables are named as
// in the program, or name#slot for a local that shares its name with an
// earlier local of its proc or func.
type Function struct {
	Name string   `json:"name"`
	Kind string   `json:"kind"`
	Proc string   `json:"proc"`
	Line int      `json:"line"`
	Col  int      `json:"col"`
	Out  string   `json:"out,omitempty"`
	Ins  []string `json:"ins"`
}

// Function kinds.
const (
	FnValue  = "value"
	FnOK     = "ok"
	FnSpawns = "spawns"
)

// Pair holds the constraints of one unordered pair of blocks (A <= B in
// block order; A == B for self pairs: two processes running the same block).
// Locals of A's process are named as in the program (v), those of B's
// process with a prime (v').
type Pair struct {
	A           string       `json:"a"`
	B           string       `json:"b"`
	Status      Status       `json:"status"`
	Exact       bool         `json:"exact"`
	Reason      string       `json:"reason,omitempty"`
	Constraints []Constraint `json:"constraints"`
	NoOverflow  *Expr        `json:"no_overflow,omitempty"`
	// NoOverflowKind says what NoOverflow is: [Interval] or [Exact]
	// (present with NoOverflow).
	NoOverflowKind string   `json:"no_overflow_kind,omitempty"`
	Notes          []string `json:"notes,omitempty"`
}

// Kinds of overflow guard. Both are proven to rule out overflow: where the
// guard holds, neither order overflows int64 on the path it takes, nor in
// the invariants' evaluations it makes. An exact guard holds exactly
// there (wherever both orders are possible and raise no other runtime
// error); an interval guard bounds the values the orders' arithmetic
// reads, and holds in part of it.
const (
	Interval = "interval"
	Exact    = "exact"
)

// Constraint is one independence constraint: where it holds, the pair
// commutes (provided NoOverflow of the pair holds too).
type Constraint struct {
	Text    string   `json:"text"`
	SMTLIB  string   `json:"smtlib"`  // the constraint as an SMT-LIB2 term over Declare
	Declare []string `json:"declare"` // SMT-LIB2 declarations of the names it uses
	Globals []string `json:"globals"` // G(C): the globals it reads
	Expr    *Expr    `json:"expr"`
	// Go is the constraint in Go syntax over the names of the Go code the
	// program was made from (package gofront), for a file of Go code;
	// absent otherwise.
	Go string `json:"go,omitempty"`
}

// NewConstraint makes a constraint of an expression: its canonical text,
// SMT-LIB2 form, declarations and globals.
func NewConstraint(e *Expr) Constraint {
	// Lists, never null: the schema has them arrays (true reads nothing).
	return Constraint{Text: e.String(), SMTLIB: SMTLIB(e), Declare: append([]string{}, e.Declarations()...),
		Globals: append([]string{}, e.Globals()...), Expr: e}
}

// Marshal renders the file as indented JSON with a final newline, each
// expression tree (the values of "expr" and "no_overflow") on one line:
// indented, a deep tree took a line per node and more bytes of indentation
// than of content (a generated program's file: 17 MB, 1.7 MB with its
// trees on one line). The output is a pure function of the value: same
// file, same bytes.
func Marshal(f *File) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return indentOutside(buf.Bytes(), "expr", "no_overflow"), nil
}

// indentOutside indents compact JSON by two spaces per level, as
// json.Indent does, but leaves the values of the given keys compact.
func indentOutside(src []byte, compact ...string) []byte {
	out := make([]byte, 0, len(src)+len(src)/4)
	depth := 0
	newline := func() {
		out = append(out, '\n')
		for range depth {
			out = append(out, ' ', ' ')
		}
	}
	var key string // the last string read: a key when ':' follows it
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			end := stringEnd(src, i)
			key = string(src[i+1 : end-1])
			out = append(out, src[i:end]...)
			i = end - 1
		case ':':
			out = append(out, ':', ' ')
			if i+1 < len(src) && (src[i+1] == '{' || src[i+1] == '[') && slices.Contains(compact, key) {
				end := valueEnd(src, i+1)
				out = append(out, src[i+1:end]...)
				i = end - 1
			}
		case '{', '[':
			out = append(out, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				out = append(out, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		default:
			out = append(out, c)
		}
	}
	return out
}

// stringEnd returns the index after the JSON string starting at src[i].
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// valueEnd returns the index after the JSON object or array starting at
// src[i].
func valueEnd(src []byte, i int) int {
	depth := 0
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '"':
			j = stringEnd(src, j) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return len(src)
}

// Parse reads an IC file and checks its structure: the version, that every
// pair names known blocks, and that every constraint has an expression over
// known names.
func Parse(data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not an IC file: %s", jsonProblem(data, err, dec.InputOffset()))
	}
	if end := dec.InputOffset(); !isEOF(dec) {
		for end < int64(len(data)) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
			end++
		}
		return nil, fmt.Errorf("not an IC file: %s", jsonProblem(data, errTrailing, end))
	}
	switch {
	case f.Version == 1:
		// Version 1 named loop functions by line and variable, so two loops
		// on one line, or a variable named ok, were confused, and its ok
		// functions ignored the step budget: its constraints over loops
		// may be unsound.
		return nil, fmt.Errorf("IC file format version 1 is not supported (its loop functions may be unsound): synthesize the file again")
	case f.Version == 2:
		// Version 2 wrote only exact guards, with no kind.
		for i := range f.Pairs {
			p := &f.Pairs[i]
			if p.NoOverflowKind != "" {
				return nil, fmt.Errorf("pair (%s, %s): no_overflow_kind in a version 2 file (version 3 added it)", p.A, p.B)
			}
			if p.NoOverflow != nil {
				p.NoOverflowKind = Exact
			}
		}
		f.Version = FormatVersion
	case f.Version == 3:
		// Version 3 is version 4 without let and ref.
		for i := range f.Pairs {
			if p := &f.Pairs[i]; p.NoOverflow != nil && usesLet(p.NoOverflow) {
				return nil, fmt.Errorf("pair (%s, %s): let in a version 3 file (version 4 added it)", p.A, p.B)
			}
		}
		f.Version = FormatVersion
	case f.Version != FormatVersion:
		return nil, fmt.Errorf("IC file format version %d is not supported (this icgen reads versions 2 to %d)", f.Version, FormatVersion)
	}
	fns := map[string]bool{}
	for _, fn := range f.Functions {
		switch {
		case fns[fn.Name]:
			return nil, fmt.Errorf("function %s: declared twice", fn.Name)
		case fn.Kind != FnValue && fn.Kind != FnOK && fn.Kind != FnSpawns:
			return nil, fmt.Errorf("function %s: unknown kind %q", fn.Name, fn.Kind)
		case fn.Kind == FnValue && fn.Out == "":
			return nil, fmt.Errorf("function %s: a value function without out", fn.Name)
		}
		fns[fn.Name] = true
	}
	known := func(e *Expr) error {
		var err error
		e.walk(func(x *Expr) {
			if x.Op == "apply" && !fns[x.Name] && err == nil {
				err = fmt.Errorf("function %s is not declared in functions", x.Name)
			}
		})
		return err
	}
	for i, c := range f.Invariants {
		if c.Expr == nil {
			return nil, fmt.Errorf("invariant %d (%s): no expression", i+1, c.Text)
		}
		if err := c.Expr.check(); err != nil {
			return nil, fmt.Errorf("invariant %d (%s): %v", i+1, c.Text, err)
		}
		if err := known(c.Expr); err != nil {
			return nil, fmt.Errorf("invariant %d (%s): %v", i+1, c.Text, err)
		}
	}
	blocks := map[string]bool{}
	for _, b := range f.Blocks {
		blocks[b.ID] = true
	}
	if f.Shard != nil {
		if err := f.checkShard(); err != nil {
			return nil, err
		}
	}
	for i, p := range f.Pairs {
		if !blocks[p.A] || !blocks[p.B] {
			return nil, fmt.Errorf("pair %d (%s, %s): unknown block", i+1, p.A, p.B)
		}
		switch p.Status {
		case Independent, Conditional, Dependent, Unknown:
		default:
			return nil, fmt.Errorf("pair (%s, %s): unknown status %q", p.A, p.B, p.Status)
		}
		switch {
		case p.NoOverflow == nil && p.NoOverflowKind != "":
			return nil, fmt.Errorf("pair (%s, %s): no_overflow_kind without no_overflow", p.A, p.B)
		case p.NoOverflow != nil && p.NoOverflowKind != Interval && p.NoOverflowKind != Exact:
			return nil, fmt.Errorf("pair (%s, %s): no_overflow_kind %q (want %q or %q)", p.A, p.B, p.NoOverflowKind, Interval, Exact)
		}
		if p.NoOverflow != nil {
			if err := p.NoOverflow.check(); err != nil {
				return nil, fmt.Errorf("pair (%s, %s), no_overflow: %v", p.A, p.B, err)
			}
			if err := known(p.NoOverflow); err != nil {
				return nil, fmt.Errorf("pair (%s, %s), no_overflow: %v", p.A, p.B, err)
			}
		}
		for j, c := range p.Constraints {
			if c.Expr == nil {
				return nil, fmt.Errorf("pair (%s, %s), constraint %d (%s): no expression", p.A, p.B, j+1, c.Text)
			}
			if err := c.Expr.check(); err != nil {
				return nil, fmt.Errorf("pair (%s, %s), constraint %d (%s): %v", p.A, p.B, j+1, c.Text, err)
			}
			if err := known(c.Expr); err != nil {
				return nil, fmt.Errorf("pair (%s, %s), constraint %d (%s): %v", p.A, p.B, j+1, c.Text, err)
			}
		}
	}
	return &f, nil
}

// usesLet reports whether e has a let or a ref.
func usesLet(e *Expr) bool {
	found := false
	e.walk(func(x *Expr) { found = found || x.Op == "let" || x.Op == "ref" })
	return found
}

// Pair returns the pair of blocks a and b in either order, and whether the
// stored pair is (b, a) (then the roles of v and v' are swapped).
func (f *File) Pair(a, b string) (p *Pair, swapped bool) {
	for i := range f.Pairs {
		q := &f.Pairs[i]
		if q.A == a && q.B == b {
			return q, false
		}
		if q.A == b && q.B == a {
			return q, true
		}
	}
	return nil, false
}

// Block returns the block with the given id.
func (f *File) Block(id string) *Block {
	for i := range f.Blocks {
		if f.Blocks[i].ID == id {
			return &f.Blocks[i]
		}
	}
	return nil
}

// Summary counts pairs by status.
func (f *File) Summary() map[Status]int {
	out := map[Status]int{}
	for _, p := range f.Pairs {
		out[p.Status]++
	}
	return out
}

func sortedUnique(xs []string) []string {
	sort.Strings(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// isEOF reports whether dec has nothing left but white space.
func isEOF(dec *json.Decoder) bool {
	_, err := dec.Token()
	return err == io.EOF
}

// errTrailing: the file goes on after its JSON object.
var errTrailing = errors.New("text after the JSON object")

// jsonProblem says what is wrong with the JSON of data where the decoder
// stopped, located by line and column, in the file's terms rather than
// the decoder's Go types. stopped is the decoder's offset, where err
// carries none (an unknown field: it has read the field's value).
func jsonProblem(data []byte, err error, stopped int64) string {
	// at locates the byte at index off (0-based).
	at := func(off int64) string {
		off = min(max(off, 0), int64(len(data)))
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
		return fmt.Sprintf("line %d, col %d", line, col)
	}
	// valueStart is where the value that ends before end starts: the
	// decoder reports a value of the wrong type by the offset after it
	// (after the bracket of a list or an object).
	valueStart := func(end int64) int64 {
		end = min(max(end, 0), int64(len(data)))
		i := end
		if i > 0 && data[i-1] == '"' {
			i--
			for i > 0 && data[i-1] != '"' {
				i--
			}
			return max(i-1, 0)
		}
		for i > 0 && strings.IndexByte("+-.0123456789abcdefghijklmnopqrstuvwxyzE", data[i-1]) >= 0 {
			i--
		}
		if i == end {
			i-- // a bracket
		}
		return max(i, 0)
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("%s: %s", at(syn.Offset-1), strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		want := map[reflect.Kind]string{reflect.Bool: "true or false", reflect.String: "a string",
			reflect.Slice: "a list", reflect.Struct: "an object", reflect.Map: "an object", reflect.Pointer: "an object"}[typ.Type.Kind()]
		if want == "" {
			want = "a number"
			if k := typ.Type.Kind(); k >= reflect.Int && k <= reflect.Uint64 {
				want = "an integer"
			}
		}
		field := ""
		if typ.Field != "" {
			field = " for " + typ.Field
		}
		return fmt.Sprintf("%s: want %s%s, got %s", at(valueStart(typ.Offset)), want, field, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the file ends before the JSON does"
	case err == errTrailing:
		return fmt.Sprintf("%s: %v", at(stopped), err)
	}
	return fmt.Sprintf("%s: %s", at(valueStart(stopped)), strings.TrimPrefix(err.Error(), "json: "))
}

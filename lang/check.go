package lang

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// Compile parses, checks and lowers a program. It returns the program, or,
// when the source has problems, all of them sorted by position (and a nil
// program). Compile never panics on any input.
func Compile(file string, src []byte) (*Program, ErrorList) {
	pf, errs := parse(file, src)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	c := newChecker(file, src)
	c.file(pf)
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, c.errs
	}
	lower(c.prog)
	// Commute declarations name blocks, which exist once the program is
	// lowered: they are checked last.
	c.commutes()
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, c.errs
	}
	return c.prog, nil
}

// parse reports lexical errors first; otherwise it parses the file and, on
// a syntax error, goes on with [recoverSyntax] to find the others.
func parse(file string, src []byte) (*pFile, ErrorList) {
	sr := scan(file, src)
	if len(sr.errs) > 0 {
		return nil, sr.errs
	}
	pf, err := parser.ParseBytes(file, src)
	if err == nil {
		return pf, nil
	}
	return nil, recoverSyntax(file, src, sr.starts, err)
}

// minWindow is the size in bytes of the first window parsed after a
// syntax error (see recoverSyntax): small, so that a file with many broken
// declarations parses each of them about once.
const minWindow = 1

// recoverSyntax reports one syntax error per broken declaration, given the
// error of the parse of the whole file. A broken declaration runs from the
// last start of a top-level declaration (as scan found them) at or before
// the error to the next one; parsing goes on after it, so each broken
// declaration gets its own error.
//
// Each parse covers a window of declarations, so recovery takes time
// linear in the size of the file rather than one parse of the rest of the
// file per error: the window starts at minWindow bytes, ends at a
// declaration start, doubles each time it parses without error, and
// widens when it cut a declaration short (an error at its end).
// Declarations end with ";" or "}", so a window that parses has ended its
// last declaration where the file does, and an error before the end of a
// window is the error a parse of the whole rest would report.
func recoverSyntax(file string, src []byte, starts []int, err error) ErrorList {
	var errs ErrorList
	base := 0                              // the window is src[base:end]
	at := Pos{File: file, Line: 1, Col: 1} // the position of base
	end := len(src)
	width := minWindow
	moveBase := func(off int) {
		at = advancePos(at, src[base:off])
		base = off
	}
	// windowEnd is the first declaration start at or after off, or the
	// end of the file.
	windowEnd := func(off int) int {
		if k := sort.SearchInts(starts, off); k < len(starts) {
			return starts[k]
		}
		return len(src)
	}
	for {
		if err == nil {
			if end == len(src) {
				return errs
			}
			moveBase(end)
			width *= 2
		} else {
			var pe interface {
				Position() lexer.Position
				Message() string
			}
			if !errors.As(err, &pe) {
				return append(errs, errSyntax(at, err.Error()))
			}
			p := fromLexer(pe.Position())
			if p.Line > 0 {
				p.Col = byteColumn(src[base:], p.Offset, p.Col)
			}
			atEnd := p.Line == 0 || strings.HasPrefix(pe.Message(), `unexpected token "<EOF>"`)
			if atEnd && end < len(src) {
				// The window cut a declaration short: widen it.
				width *= 2
				end = windowEnd(max(end+1, base+width))
				_, err = parser.ParseBytes(file, src[base:end])
				continue
			}
			if atEnd {
				// Point just past the last token, on a line the user can see,
				// rather than at the blank end of the file.
				p = endPos(file, bytes.TrimRight(src[base:], " \t\r\n"))
			}
			if p.Line == 1 {
				p.Col += at.Col - 1
			}
			p.Line += at.Line - 1
			p.Offset += base
			p.File = file
			kw, isKw := keywordAsName(pe.Message())
			if isKw {
				errs = append(errs, errKeyword(p, kw))
			} else {
				errs = append(errs, errSyntax(p, syntaxMessage(pe.Message())))
			}
			// Go on after the declaration holding the error. A declaration
			// keyword used as a name ("param init = 1;") starts a chunk of
			// its own, which is skipped with it.
			_, hi := chunkAround(starts, len(src), p.Offset)
			moveBase(max(hi, base+1))
			width = minWindow
		}
		end = windowEnd(base + width)
		_, err = parser.ParseBytes(file, src[base:end])
	}
}

// keywordAsName recognizes a keyword found where a name was expected.
func keywordAsName(m string) (string, bool) {
	var kw string
	if _, err := fmt.Sscanf(m, "unexpected token %q", &kw); err != nil {
		return "", false
	}
	i := strings.Index(m, "(expected ")
	if i < 0 {
		return "", false
	}
	exp := m[i+len("(expected "):]
	isKw := false
	for _, k := range keywords {
		isKw = isKw || k == kw
	}
	return kw, isKw && (strings.HasPrefix(exp, "<ident>") || strings.HasPrefix(exp, "PGlobalVar") || strings.HasPrefix(exp, "PLocalVar") || strings.HasPrefix(exp, "PFormal"))
}

var keywords = []string{"param", "global", "proc", "func", "init", "invariant", "commute", "when", "int", "bool", "if", "else", "while", "spawn", "assert", "yield", "await", "return", "true", "false"}

// syntaxMessage rewrites participle's wording into ours. Participle says
// what it expected as the rest of the grammar sequence that failed, e.g.
// `<ident> "(" (PFormal ("," PFormal)*)? ")" PBlock`; only the tokens that
// could come next matter to the user ("expected name").
func syntaxMessage(m string) string {
	m = strings.Replace(m, `unexpected token "<EOF>"`, "unexpected end of file", 1)
	m = strings.Replace(m, "unexpected token ", "unexpected ", 1)
	if i := strings.Index(m, " (expected "); i >= 0 && strings.HasSuffix(m, ")") {
		if first, ok := firstExpected(m[i+len(" (expected ") : len(m)-1]); ok {
			return m[:i] + " (expected " + first + ")"
		}
	}
	return grammarNames.Replace(m)
}

// firstExpected returns the tokens that may start the EBNF sequence exp,
// in words: `"}"`, `name or ")"`. It fails on what it does not understand.
func firstExpected(exp string) (string, bool) {
	var toks []string
	for i := 0; i < len(exp); {
		switch c := exp[i]; {
		case c == ' ':
			i++
		case c == '"':
			j := i + 1
			for j < len(exp) && exp[j] != '"' {
				if exp[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(exp) {
				return "", false
			}
			toks = append(toks, exp[i:j+1])
			i = j + 1
		case c == '<':
			j := strings.IndexByte(exp[i:], '>')
			if j < 0 {
				return "", false
			}
			toks = append(toks, exp[i:i+j+1])
			i += j + 1
		case strings.IndexByte("()|?*+!", c) >= 0:
			toks = append(toks, exp[i:i+1])
			i++
		case isIdentStart(c):
			j := i
			for j < len(exp) && isIdentChar(exp[j]) {
				j++
			}
			toks = append(toks, exp[i:j])
			i = j
		default:
			return "", false
		}
	}
	k := 0
	first, _, ok := firstAlt(toks, &k)
	if !ok || k != len(toks) || len(first) == 0 {
		return "", false
	}
	var words []string
	seen := map[string]bool{}
	for _, t := range first {
		switch {
		case t == "<ident>":
			t = "name"
		case t == "<int>":
			t = "integer"
		case t == "<string>":
			t = "string"
		case t[0] != '"':
			t = grammarNames.Replace(t)
		}
		if !seen[t] {
			seen[t] = true
			words = append(words, t)
		}
	}
	if len(words) == 1 {
		return words[0], true
	}
	if seen["statement"] { // any of the statement keywords, or a name
		return "statement", true
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1], true
}

// firstAlt parses alternatives "a | b" from toks[*k:] up to ")" or the end,
// returning the tokens that may come first and whether the whole may be empty.
func firstAlt(toks []string, k *int) (first []string, empty, ok bool) {
	for {
		f, e, ok := firstSeq(toks, k)
		if !ok {
			return nil, false, false
		}
		first, empty = append(first, f...), empty || e
		if *k < len(toks) && toks[*k] == "|" {
			*k++
			continue
		}
		return first, empty, true
	}
}

// firstSeq parses a sequence of (possibly repeated or optional) elements.
func firstSeq(toks []string, k *int) (first []string, empty, ok bool) {
	empty = true
	for *k < len(toks) && toks[*k] != "|" && toks[*k] != ")" {
		var f []string
		var e bool
		switch t := toks[*k]; {
		case t == "(":
			*k++
			if f, e, ok = firstAlt(toks, k); !ok || *k >= len(toks) || toks[*k] != ")" {
				return nil, false, false
			}
			*k++
		case strings.ContainsAny(t[:1], "?*+!"):
			return nil, false, false
		default:
			f = []string{t}
			*k++
		}
		if *k < len(toks) && (toks[*k] == "?" || toks[*k] == "*") {
			e = true
			*k++
		} else if *k < len(toks) && (toks[*k] == "+" || toks[*k] == "!") {
			*k++
		}
		if empty {
			first = append(first, f...)
		}
		empty = empty && e
	}
	return first, empty, true
}

// grammarNames turns the parse tree's type names, which participle puts in
// "expected ..." lists, into words a user knows.
var grammarNames = strings.NewReplacer(
	"PBlockID", "block id", "PBlockAt", "label or line", "PInvariant", `"invariant"`, "PCommute", `"commute"`,
	"PBlock", `"{"`, "PExpr", "expression", "PUnary", "expression", "PPrimary", "expression",
	"PFormal", "parameter", "PStmt", "statement", "PDecl", "declaration", "PArgs", `"("`,
	"PInit2", "initializer", "PList", `"{"`, "PLocalVar", "name", "PGlobalVar", "name",
	"PBinTail", "operator", "PSimple", "statement", "PIf", `"if"`, "PParam", `"param"`,
	"PGlobal", `"global"`, "PProc", `"proc"`, "PFunc", `"func"`, "PInit", `"init"`,
	"PLocal", "declaration", "PWhile", `"while"`, "PSpawn", `"spawn"`, "PAssert", `"assert"`,
	"PYield", `"yield"`, "PAwait", `"await"`, "PReturn", `"return"`,
)

// endPos is the position just past the end of src (columns count runes).
func endPos(file string, src []byte) Pos {
	return advancePos(Pos{File: file, Line: 1, Col: 1}, src)
}

func fromLexer(p lexer.Position) Pos {
	return Pos{File: p.Filename, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

// bodyKind says what a body belongs to; it decides which statements are allowed.
type bodyKind int

const (
	inProc bodyKind = iota
	inFunc
	inInit
)

func (k bodyKind) String() string {
	switch k {
	case inFunc:
		return "a func"
	case inInit:
		return "init"
	}
	return "a proc"
}

type scope struct {
	parent *scope
	names  map[string]*Var
}

type checker struct {
	fileName string
	src      []byte
	errs     ErrorList
	prog     *Program

	top     map[string]Pos // every top-level name, for redeclaration errors
	params  map[string]*Param
	globals map[string]*Var
	procs   map[string]*Proc
	funcs   map[string]*Func

	// The body being checked.
	kind   bodyKind
	scope  *scope
	locals *[]*Var
	fn     *Func
	labels map[string]Pos

	// The declaration being checked, outside bodies: decl names it in
	// messages ("an invariant"); in a commute condition, first and second
	// are its blocks and primed maps the names of the second block's live
	// locals.
	decl          string
	first, second *Block
	primed        map[string]*Var
	commuteDecls  []*pCommute
}

func newChecker(file string, src []byte) *checker {
	return &checker{
		fileName: file, src: src,
		prog:    &Program{File: file, Source: src, Init: &Init{}},
		top:     map[string]Pos{},
		params:  map[string]*Param{},
		globals: map[string]*Var{},
		procs:   map[string]*Proc{},
		funcs:   map[string]*Func{},
	}
}

func (c *checker) pos(p lexer.Position) Pos {
	return Pos{File: c.fileName, Offset: p.Offset, Line: p.Line, Col: byteColumn(c.src, p.Offset, p.Column)}
}

// byteColumn is the column of byte off of src as the scanner and the error
// excerpts count columns: one per byte that is not a UTF-8 continuation
// byte. The parser's lexer counts runes, and an invalid byte is a rune of
// its own there (a comment holding "\xb8\xa9" would put every later column
// of its line two off). col is returned when off is not in src.
func byteColumn(src []byte, off, col int) int {
	if off < 0 || off > len(src) {
		return col
	}
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	return advancePos(Pos{Line: 1, Col: 1}, src[start:off]).Col
}

func (c *checker) report(e *Error) { c.errs = append(c.errs, e) }

func (c *checker) declareTop(name string, p Pos) bool {
	if prev, ok := c.top[name]; ok {
		c.report(errRedeclared(p, name, prev))
		return false
	}
	c.top[name] = p
	return true
}

func parseType(s string) Type {
	if s == "bool" {
		return Bool
	}
	return Int
}

func (c *checker) file(pf *pFile) {
	// Pass 1: declarations, so bodies may refer to procs and funcs declared later.
	var cuts [][2]int // what the hash leaves out
	var procDecls []*pProc
	var funcDecls []*pFunc
	var initDecl *pInit
	var invDecls []*pInvariant
	for _, d := range pf.Decls {
		switch {
		case d.Param != nil:
			c.param(d.Param)
			cuts = append(cuts, [2]int{d.Param.Value.Pos.Offset, d.Param.Value.EndPos.Offset})
		case d.Global != nil:
			c.global(d.Global)
		case d.Proc != nil:
			p := &Proc{Name: d.Proc.Name, Pos: c.pos(d.Proc.Pos), Index: len(c.prog.Procs)}
			if c.declareTop(p.Name, c.nameAfter(p.Pos, p.Name)) {
				c.procs[p.Name] = p
				c.prog.Procs = append(c.prog.Procs, p)
				procDecls = append(procDecls, d.Proc)
			}
			p.Params = c.formals(d.Proc.Params, &p.Locals)
		case d.Func != nil:
			f := &Func{Name: d.Func.Name, Pos: c.pos(d.Func.Pos), Result: Void}
			if d.Func.Result != "" {
				f.Result = parseType(d.Func.Result)
			}
			if c.declareTop(f.Name, c.nameAfter(f.Pos, f.Name)) {
				c.funcs[f.Name] = f
				c.prog.Funcs = append(c.prog.Funcs, f)
				funcDecls = append(funcDecls, d.Func)
			}
			f.Params = c.formals(d.Func.Params, &f.Locals)
		case d.Init != nil:
			if initDecl != nil {
				c.report(errDuplicateInit(c.pos(d.Init.Pos), c.pos(initDecl.Pos)))
				continue
			}
			initDecl = d.Init
			c.prog.Init.Pos = c.pos(d.Init.Pos)
		case d.Invariant != nil:
			invDecls = append(invDecls, d.Invariant)
		case d.Commute != nil:
			// A claim about the program, not part of it: adding one does
			// not make an IC file stale.
			c.commuteDecls = append(c.commuteDecls, d.Commute)
			hi := d.Commute.EndPos.Offset
			for hi < len(c.src) && (c.src[hi] == ' ' || c.src[hi] == '\t' || c.src[hi] == '\r') {
				hi++
			}
			if hi < len(c.src) && c.src[hi] == '\n' {
				hi++
			}
			cuts = append(cuts, [2]int{d.Commute.Pos.Offset, hi})
		}
	}
	c.prog.Hash = hashWithout(c.src, cuts)

	// Pass 2: bodies.
	for _, pd := range procDecls {
		p := c.procs[pd.Name]
		p.Body = c.body(inProc, nil, &p.Locals, p.Params, pd.Body)
	}
	for _, fd := range funcDecls {
		f := c.funcs[fd.Name]
		f.Body = c.body(inFunc, f, &f.Locals, f.Params, fd.Body)
		if f.Result != Void && !terminates(f.Body) {
			c.report(errMissingReturn(c.pos(fd.Body.EndPos).shift(-1), f.Name))
		}
	}
	if initDecl != nil {
		c.prog.Init.Body = c.body(inInit, nil, &c.prog.Init.Locals, nil, initDecl.Body)
	}
	for _, d := range invDecls {
		c.invariant(d)
	}
	c.recursion()
}

// declContext sets the checker up for an expression outside any body:
// no locals in scope, no calls.
func (c *checker) declContext(what string) {
	c.kind, c.fn, c.locals, c.scope, c.labels = inInit, nil, nil, nil, nil
	c.decl, c.first, c.second, c.primed = what, nil, nil, nil
}

func (c *checker) invariant(d *pInvariant) {
	c.declContext("an invariant")
	cond := c.cond(d.Cond, "invariant")
	c.decl = ""
	inv := &Invariant{Index: len(c.prog.Invariants), Pos: c.pos(d.Pos), Cond: cond}
	rw := &rwCollector{reads: varSet{}, writes: varSet{}, sums: func(*Func) *summary { return &summary{} }}
	rw.expr(cond)
	inv.Reads = rw.reads.sorted()
	c.prog.Invariants = append(c.prog.Invariants, inv)
}

// commutes checks the commute declarations of a lowered program: their
// block ids and conditions.
func (c *checker) commutes() {
	for _, d := range c.commuteDecls {
		a, okA := c.blockID(d.A)
		b, okB := c.blockID(d.B)
		if !okA || !okB {
			continue
		}
		cm := &Commute{Index: len(c.prog.Commutes), Pos: c.pos(d.Pos), A: a, B: b}
		if d.Cond != nil {
			c.declContext("a commute condition")
			c.first, c.second = a, b
			c.scope = &scope{names: map[string]*Var{}}
			for _, v := range a.Point.Live {
				c.scope.names[v.Name] = v
			}
			c.primed = map[string]*Var{}
			for _, v := range b.Point.Live {
				c.primed[v.Name] = v
			}
			cm.Cond = c.cond(d.Cond, "commute")
			c.declContext("")
		}
		c.prog.Commutes = append(c.prog.Commutes, cm)
	}
}

// blockID resolves a block id written in a commute declaration.
func (c *checker) blockID(d *pBlockID) (*Block, bool) {
	id := d.Proc
	if at := d.At; at != nil {
		switch {
		case at.Label != nil:
			id += "@" + *at.Label
		case at.Line != nil:
			id += "@" + *at.Line
			if at.Col != nil {
				id += ":" + *at.Col
			}
		}
	}
	if b := c.prog.Block(id); b != nil {
		return b, true
	}
	p := c.pos(d.Pos)
	pr := c.procs[d.Proc]
	if pr == nil {
		c.report(errUnknownBlock(p, id, nil))
		return nil, false
	}
	ids := make([]string, len(pr.Blocks))
	for i, b := range pr.Blocks {
		ids[i] = b.ID
	}
	c.report(errUnknownBlock(p, id, ids))
	return nil, false
}

// hashWithout is the sha256 of src without the byte ranges cuts (in
// source order): param values, so one IC file serves every size, and
// commute declarations, which are claims about the program, not part of it.
func hashWithout(src []byte, cuts [][2]int) string {
	h := sha256.New()
	at := 0
	for _, c := range cuts {
		if c[0] < at || c[1] > len(src) || c[0] > c[1] {
			continue
		}
		h.Write(src[at:c[0]])
		at = c[1]
	}
	h.Write(src[at:])
	return hex.EncodeToString(h.Sum(nil))
}

// nameAfter returns the position of the first occurrence of the identifier
// name at or after p, skipping comments: the name of a declaration or spawn
// whose node position is its keyword or type. It returns p when the name is
// not found (it always is, since the parser saw it).
func (c *checker) nameAfter(p Pos, name string) Pos {
	src := c.src
	q := p
	for i := p.Offset; i < len(src) && i >= 0; {
		switch ch := src[i]; {
		case ch == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			end := len(src)
			if src[i+1] == '/' {
				if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
					end = i + k
				}
			} else if k := bytes.Index(src[i+2:], []byte("*/")); k >= 0 {
				end = i + 2 + k + 2
			}
			q = advancePos(q, src[i:end])
			i = end
		case isIdentStart(ch):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			if string(src[i:j]) == name {
				return q
			}
			q = advancePos(q, src[i:j])
			i = j
		default:
			q = advancePos(q, src[i:i+1])
			i++
		}
	}
	return p
}

// advancePos moves p past the bytes b (columns count runes).
func advancePos(p Pos, b []byte) Pos {
	for _, ch := range b {
		p.Offset++
		if ch == '\n' {
			p.Line++
			p.Col = 1
		} else if ch&0xC0 != 0x80 {
			p.Col++
		}
	}
	return p
}

// shift moves a position n columns (used to point at a closing brace).
func (p Pos) shift(n int) Pos {
	p.Col += n
	p.Offset += n
	if p.Col < 1 {
		p.Col = 1
	}
	return p
}

func (c *checker) param(d *pParam) {
	p := &Param{Name: d.Name, Pos: c.pos(d.Pos), Index: len(c.prog.Params)}
	v, ok := literalValue(d.Value)
	if !ok {
		c.report(errParamValue(c.pos(d.Value.Pos), d.Name))
	} else if n, err := strconv.ParseInt(v, 10, 64); err != nil {
		c.report(errIntRange(c.pos(d.Value.Pos), v))
	} else {
		p.Default = n
	}
	if c.declareTop(p.Name, c.nameAfter(p.Pos, p.Name)) {
		c.params[p.Name] = p
		c.prog.Params = append(c.prog.Params, p)
	}
}

// literalValue returns the text of an integer literal, optionally negated.
func literalValue(e *pExpr) (string, bool) {
	if len(e.Rest) > 0 {
		return "", false
	}
	u, sign := e.First, ""
	if u.Op == "-" {
		u, sign = u.X, "-"
	}
	if u.Prim == nil || u.Prim.Int == nil {
		return "", false
	}
	return sign + *u.Prim.Int, true
}

func (c *checker) global(d *pGlobal) {
	t := parseType(d.Type)
	for _, gv := range d.Vars {
		v := &Var{Name: gv.Name, Kind: Global, Type: t, Pos: c.pos(gv.Pos), Index: len(c.prog.Globals)}
		if gv.Size != nil {
			if t != Int {
				c.report(errArrayType(v.Pos, v.Name, t))
			}
			v.Type = IntArray
			v.Size = c.arraySize(gv.Name, gv.Size)
		}
		if gv.Init != nil {
			c.globalInit(v, gv.Init)
		}
		if c.declareTop(v.Name, v.Pos) {
			c.globals[v.Name] = v
			c.prog.Globals = append(c.prog.Globals, v)
		}
	}
}

func (c *checker) arraySize(name string, e *pExpr) Expr {
	p := c.pos(e.Pos)
	if len(e.Rest) == 0 && e.First.Prim != nil {
		pr := e.First.Prim
		if pr.Int != nil {
			n, err := strconv.ParseInt(*pr.Int, 10, 64)
			if err != nil || n <= 0 {
				c.report(errArraySize(p, name))
				return &IntLit{At: p, Val: 1}
			}
			return &IntLit{At: p, Val: n}
		}
		if pr.Name != nil && !pr.Prime && pr.Call == nil && pr.Index == nil {
			if pa, ok := c.params[*pr.Name]; ok {
				return &ParamRef{At: p, Param: pa}
			}
			if _, ok := c.top[*pr.Name]; !ok {
				c.report(errUndeclared(p, *pr.Name))
				return &IntLit{At: p, Val: 1}
			}
		}
	}
	c.report(errArraySize(p, name))
	return &IntLit{At: p, Val: 1}
}

func (c *checker) globalInit(v *Var, in *pInit2) {
	want := Int
	if v.Type == Bool {
		want = Bool
	}
	var elems []*pExpr
	if in.List != nil {
		if v.Type != IntArray {
			c.report(errInitList(c.pos(in.Pos), v.Name))
			return
		}
		v.InitList = true
		elems = in.List.Elems
		if lit, ok := v.Size.(*IntLit); ok && int64(len(elems)) != lit.Val {
			c.report(errInitLen(c.pos(in.Pos), v.Name, lit.Val, len(elems)))
		}
	} else {
		elems = []*pExpr{in.Value}
	}
	c.kind, c.scope, c.locals = inInit, nil, nil
	for _, pe := range elems {
		e := c.expr(pe)
		if !isConstant(e) {
			c.report(errNotConstant(c.pos(pe.Pos), "initializer of "+v.Name))
			continue
		}
		if e.Type() != want && e.Type() != badType {
			c.report(errAssignType(c.pos(pe.Pos), v.Name, want, e.Type()))
		}
		v.Init = append(v.Init, e)
	}
}

func isConstant(e Expr) bool {
	switch e := e.(type) {
	case *IntLit, *BoolLit, *ParamRef, *badExpr:
		return true
	case *UnaryExpr:
		return isConstant(e.X)
	case *BinaryExpr:
		return isConstant(e.X) && isConstant(e.Y)
	}
	return false
}

func (c *checker) formals(fs []*pFormal, locals *[]*Var) []*Var {
	seen := map[string]Pos{}
	var out []*Var
	for _, f := range fs {
		p := c.nameAfter(c.pos(f.Pos), f.Name)
		if prev, ok := seen[f.Name]; ok {
			c.report(errRedeclared(p, f.Name, prev))
			continue
		}
		seen[f.Name] = p
		v := &Var{Name: f.Name, Kind: Local, Type: parseType(f.Type), Pos: p, Index: len(*locals), Param: true}
		*locals = append(*locals, v)
		out = append(out, v)
	}
	return out
}

func (c *checker) body(kind bodyKind, fn *Func, locals *[]*Var, params []*Var, b *pBlock) []Stmt {
	c.kind, c.fn, c.locals, c.labels = kind, fn, locals, map[string]Pos{}
	c.scope = &scope{names: map[string]*Var{}}
	for _, p := range params {
		if prev, ok := c.top[p.Name]; ok {
			c.report(errRedeclared(p.Pos, p.Name, prev))
		}
		c.scope.names[p.Name] = p
	}
	out := c.block(b)
	c.scope = nil
	return out
}

func (c *checker) block(b *pBlock) []Stmt {
	c.scope = &scope{parent: c.scope, names: map[string]*Var{}}
	var out []Stmt
	for _, s := range b.Stmts {
		out = append(out, c.stmt(s)...)
	}
	c.scope = c.scope.parent
	return out
}

func (c *checker) lookupLocal(name string) *Var {
	for s := c.scope; s != nil; s = s.parent {
		if v, ok := s.names[name]; ok {
			return v
		}
	}
	return nil
}

func (c *checker) declareLocal(name string, t Type, p Pos) *Var {
	if prev := c.lookupLocal(name); prev != nil {
		c.report(errRedeclared(p, name, prev.Pos))
	} else if prev, ok := c.top[name]; ok {
		c.report(errRedeclared(p, name, prev))
	}
	v := &Var{Name: name, Kind: Local, Type: t, Pos: p, Index: len(*c.locals)}
	*c.locals = append(*c.locals, v)
	c.scope.names[name] = v
	return v
}

func (c *checker) stmt(s *pStmt) []Stmt {
	p := c.pos(s.Pos)
	label := s.Label
	if label != "" {
		if s.Yield == nil && s.Await == nil {
			c.report(errLabel(p, label))
			label = ""
		} else if prev, ok := c.labels[label]; ok {
			c.report(errLabelRedeclared(p, label, prev))
		} else {
			c.labels[label] = p
		}
	}
	switch {
	case s.Local != nil:
		t := parseType(s.Local.Type)
		var out []Stmt
		for _, lv := range s.Local.Vars {
			vp := c.pos(lv.Pos)
			var val Expr
			if lv.Init != nil {
				val = c.expr(lv.Init)
				if val.Type() != t && val.Type() != badType {
					c.report(errAssignType(c.pos(lv.Init.Pos), lv.Name, t, val.Type()))
				}
			} else if t == Bool {
				val = &BoolLit{At: vp}
			} else {
				val = &IntLit{At: vp}
			}
			v := c.declareLocal(lv.Name, t, vp)
			out = append(out, &AssignStmt{At: vp, Target: LValue{Var: v}, Value: val, Decl: true})
		}
		return out
	case s.If != nil:
		return []Stmt{c.ifStmt(s.If)}
	case s.While != nil:
		cond := c.cond(s.While.Cond, "while")
		return []Stmt{&WhileStmt{At: c.pos(s.While.Pos), Cond: cond, Body: c.block(s.While.Body)}}
	case s.Spawn != nil:
		return []Stmt{c.spawn(s.Spawn)}
	case s.Assert != nil:
		st := &AssertStmt{At: c.pos(s.Assert.Pos), Cond: c.cond(s.Assert.Cond, "assert")}
		if s.Assert.Msg != nil {
			st.Msg = *s.Assert.Msg
		}
		return []Stmt{st}
	case s.Yield != nil:
		yp := c.pos(s.Yield.Pos)
		if c.kind != inProc {
			c.report(errNotAllowed(yp, "yield", c.kind.String()))
		}
		return []Stmt{&YieldStmt{At: yp, Label: label}}
	case s.Await != nil:
		ap := c.pos(s.Await.Pos)
		if c.kind != inProc {
			c.report(errNotAllowed(ap, "await", c.kind.String()))
		}
		return []Stmt{&AwaitStmt{At: ap, Label: label, Cond: c.cond(s.Await.Cond, "await")}}
	case s.Return != nil:
		return []Stmt{c.returnStmt(s.Return)}
	case s.Block != nil:
		return c.block(s.Block)
	case s.Simple != nil:
		return c.simple(s.Simple)
	}
	return nil
}

func (c *checker) ifStmt(s *pIf) *IfStmt {
	st := &IfStmt{At: c.pos(s.Pos), Cond: c.cond(s.Cond, "if")}
	st.Then = c.block(s.Then)
	switch {
	case s.ElseIf != nil:
		st.Else = []Stmt{c.ifStmt(s.ElseIf)}
	case s.Else != nil:
		st.Else = c.block(s.Else)
	}
	return st
}

func (c *checker) cond(e *pExpr, what string) Expr {
	x := c.expr(e)
	if x.Type() != Bool && x.Type() != badType {
		c.report(errCondition(c.pos(e.Pos), what, x.Type()))
	}
	return x
}

func (c *checker) spawn(s *pSpawn) Stmt {
	p := c.pos(s.Pos)
	if c.kind == inFunc {
		c.report(errNotAllowed(p, "spawn", c.kind.String()))
	}
	args := c.exprs(s.Args)
	pr, ok := c.procs[s.Proc]
	if !ok {
		c.reportNotFound(c.nameAfter(p, s.Proc), s.Proc, "a proc")
		return &SpawnStmt{At: p, Args: args}
	}
	c.arguments(p, "proc", pr.Name, pr.Params, args, s.Args)
	return &SpawnStmt{At: p, Proc: pr, Args: args}
}

// reportNotFound explains why name is not what was wanted.
func (c *checker) reportNotFound(p Pos, name, want string) {
	switch {
	case c.lookupLocal(name) != nil:
		c.report(errNotKind(p, name, "a local variable", want))
	case c.params[name] != nil:
		c.report(errNotKind(p, name, "a param", want))
	case c.globals[name] != nil:
		c.report(errNotKind(p, name, "a global variable", want))
	case c.procs[name] != nil:
		c.report(errNotKind(p, name, "a proc", want))
	case c.funcs[name] != nil:
		c.report(errNotKind(p, name, "a func", want))
	default:
		c.report(errUndeclared(p, name))
	}
}

// arguments checks the number and types of args (parsed from raw) against
// formals; a type error points at the start of the argument.
func (c *checker) arguments(p Pos, what, name string, formals []*Var, args []Expr, raw []*pExpr) {
	if len(formals) != len(args) {
		c.report(errArity(p, what, name, len(formals), len(args)))
		return
	}
	for i, a := range args {
		if a.Type() != formals[i].Type && a.Type() != badType {
			c.report(errArgType(c.pos(raw[i].Pos), i+1, name, formals[i].Type, a.Type()))
		}
	}
}

func (c *checker) returnStmt(s *pReturn) Stmt {
	p := c.pos(s.Pos)
	st := &ReturnStmt{At: p}
	if s.Value != nil {
		st.Value = c.expr(s.Value)
	}
	switch c.kind {
	case inInit:
		c.report(errNotAllowed(p, "return", "init"))
	case inProc:
		if st.Value != nil {
			c.report(errReturnValue(p, "a proc"))
		}
	case inFunc:
		name := "func " + c.fn.Name
		switch {
		case c.fn.Result == Void && st.Value != nil:
			c.report(errReturnValue(p, name))
		case c.fn.Result != Void && st.Value == nil:
			c.report(errReturnMissingValue(p, name, c.fn.Result))
		case st.Value != nil && st.Value.Type() != c.fn.Result && st.Value.Type() != badType:
			c.report(errReturnType(c.pos(s.Value.Pos), name, c.fn.Result, st.Value.Type()))
		}
	}
	return st
}

func (c *checker) simple(s *pSimple) []Stmt {
	p := c.pos(s.Pos)
	if s.Rhs == nil {
		x := c.expr2(s.Lhs, true)
		call, ok := x.(*CallExpr)
		if !ok {
			if x.Type() != badType {
				c.report(errExprStmt(p))
			}
			return nil
		}
		return []Stmt{&CallStmt{At: p, Call: call}}
	}
	rhs := c.expr(s.Rhs)
	lv, name, ok := c.lvalue(s.Lhs)
	if !ok {
		return nil
	}
	want := lv.Var.Type
	if lv.Index != nil {
		want = Int
	}
	if rhs.Type() != want && rhs.Type() != badType {
		c.report(errAssignType(c.pos(s.Rhs.Pos), name, want, rhs.Type()))
	}
	return []Stmt{&AssignStmt{At: p, Target: lv, Value: rhs}}
}

func (c *checker) lvalue(e *pExpr) (LValue, string, bool) {
	p := c.pos(e.Pos)
	if len(e.Rest) > 0 || e.First.Prim == nil || e.First.Prim.Name == nil || e.First.Prim.Call != nil {
		c.report(errNotAssignable(p, "this expression"))
		return LValue{}, "", false
	}
	pr := e.First.Prim
	name := *pr.Name
	if pr.Prime {
		c.report(errPrimeOutside(p, name))
		return LValue{}, "", false
	}
	v := c.lookupLocal(name)
	if v == nil {
		v = c.globals[name]
	}
	if v == nil {
		if c.params[name] != nil {
			c.report(errNotAssignable(p, "param "+name))
		} else {
			c.reportNotFound(p, name, "a variable")
		}
		return LValue{}, "", false
	}
	if pr.Index != nil {
		idx := c.expr(pr.Index)
		if v.Type != IntArray {
			c.report(errNotKind(p, name, article(v.Type.String())+" variable", "an array"))
			return LValue{}, "", false
		}
		if idx.Type() != Int && idx.Type() != badType {
			c.report(errIndexType(c.pos(pr.Index.Pos), idx.Type()))
		}
		return LValue{Var: v, Index: idx}, name + "[...]", true
	}
	if v.Type == IntArray {
		c.report(errArrayValue(p, name))
		return LValue{}, "", false
	}
	return LValue{Var: v}, name, true
}

// badType marks an expression that already produced an error; operators on
// it report nothing more.
const badType Type = -1

type badExpr struct {
	At Pos
}

func (e *badExpr) Pos() Pos   { return e.At }
func (e *badExpr) Type() Type { return badType }
func (*badExpr) exprNode()    {}

func (c *checker) exprs(es []*pExpr) []Expr {
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = c.expr(e)
	}
	return out
}

func (c *checker) expr(e *pExpr) Expr { return c.expr2(e, false) }

// expr2 builds the expression tree by precedence climbing over the flat
// operand/operator list; stmt allows a void call (an expression statement).
func (c *checker) expr2(e *pExpr, stmt bool) Expr {
	xs := []Expr{c.unary(e.First, stmt && len(e.Rest) == 0)}
	ops := make([]*pBinTail, len(e.Rest))
	for i, t := range e.Rest {
		xs = append(xs, c.unary(t.Y, false))
		ops[i] = t
	}
	k := 0
	return c.climb(xs, ops, &k, 0)
}

var binOps = map[string]Op{
	"||": OpOr, "&&": OpAnd, "==": OpEq, "!=": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe,
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "%": OpMod,
}

func (c *checker) climb(xs []Expr, ops []*pBinTail, k *int, minPrec int) Expr {
	lhs := xs[*k]
	for *k < len(ops) && binOps[ops[*k].Op].Prec() >= minPrec {
		t := ops[*k]
		op := binOps[t.Op]
		*k++
		rhs := c.climb(xs, ops, k, op.Prec()+1)
		lhs = c.binary(c.pos(t.Pos), op, lhs, rhs)
	}
	return lhs
}

func (c *checker) binary(p Pos, op Op, x, y Expr) Expr {
	tx, ty := x.Type(), y.Type()
	if tx == badType || ty == badType {
		return &badExpr{At: p}
	}
	switch op {
	case OpAnd, OpOr:
		if tx != Bool || ty != Bool {
			c.report(errOperand(p, op.String(), Bool, pick(tx != Bool, tx, ty)))
			return &badExpr{At: p}
		}
	case OpEq, OpNe:
		if tx != ty {
			c.report(errMismatch(p, op.String(), tx, ty))
			return &badExpr{At: p}
		}
	default:
		if tx != Int || ty != Int {
			c.report(errOperand(p, op.String(), Int, pick(tx != Int, tx, ty)))
			return &badExpr{At: p}
		}
	}
	return &BinaryExpr{At: p, Op: op, X: x, Y: y}
}

func pick(cond bool, a, b Type) Type {
	if cond {
		return a
	}
	return b
}

func (c *checker) unary(u *pUnary, stmt bool) Expr {
	p := c.pos(u.Pos)
	if u.Prim != nil {
		return c.primary(u.Prim, stmt)
	}
	x := c.unary(u.X, false)
	if x.Type() == badType {
		return x
	}
	op, want := OpNeg, Int
	if u.Op == "!" {
		op, want = OpNot, Bool
	}
	if x.Type() != want {
		c.report(errUnaryOperand(p, u.Op, want, x.Type()))
		return &badExpr{At: p}
	}
	return &UnaryExpr{At: p, Op: op, X: x}
}

func (c *checker) primary(pr *pPrimary, stmt bool) Expr {
	p := c.pos(pr.Pos)
	switch {
	case pr.Int != nil:
		n, err := strconv.ParseInt(*pr.Int, 10, 64)
		if err != nil {
			c.report(errIntRange(p, *pr.Int))
			return &badExpr{At: p}
		}
		return &IntLit{At: p, Val: n}
	case pr.True:
		return &BoolLit{At: p, Val: true}
	case pr.False:
		return &BoolLit{At: p, Val: false}
	case pr.Paren != nil:
		return c.expr(pr.Paren)
	case pr.Name == nil:
		return &badExpr{At: p}
	}
	name := *pr.Name
	if pr.Prime {
		return c.primedName(p, pr)
	}
	switch {
	case pr.Call != nil:
		args := c.exprs(pr.Call.Args)
		f, ok := c.funcs[name]
		if !ok {
			c.reportNotFound(p, name, "a func")
			return &badExpr{At: p}
		}
		if c.decl != "" {
			c.report(errNotAllowed(p, "a call", c.decl))
			return &badExpr{At: p}
		}
		if c.kind == inInit && c.locals == nil {
			c.report(errNotConstant(p, "a global initializer"))
			return &badExpr{At: p}
		}
		c.arguments(p, "func", name, f.Params, args, pr.Call.Args)
		if c.fn != nil && c.kind == inFunc {
			c.fn.Calls = appendFunc(c.fn.Calls, f)
		}
		if f.Result == Void && !stmt {
			c.report(errVoidValue(p, name))
			return &badExpr{At: p}
		}
		return &CallExpr{At: p, Func: f, Args: args}
	case pr.Index != nil:
		idx := c.expr(pr.Index)
		v := c.lookupLocal(name)
		if v == nil {
			v = c.globals[name]
		}
		if v == nil {
			c.reportNotFound(p, name, "an array")
			return &badExpr{At: p}
		}
		if v.Type != IntArray {
			c.report(errNotKind(p, name, article(v.Type.String())+" variable", "an array"))
			return &badExpr{At: p}
		}
		if idx.Type() != Int && idx.Type() != badType {
			c.report(errIndexType(c.pos(pr.Index.Pos), idx.Type()))
		}
		return &IndexExpr{At: p, Array: v, Index: idx}
	}
	if v := c.lookupLocal(name); v != nil {
		return &VarRef{At: p, Var: v}
	}
	if v, ok := c.globals[name]; ok {
		if v.Type == IntArray {
			c.report(errArrayValue(p, name))
			return &badExpr{At: p}
		}
		return &VarRef{At: p, Var: v}
	}
	if pa, ok := c.params[name]; ok {
		return &ParamRef{At: p, Param: pa}
	}
	if c.first != nil && localNamed(c.first.Proc, name) != nil {
		c.report(errNotLive(p, name, c.first.ID))
		return &badExpr{At: p}
	}
	c.reportNotFound(p, name, "a value")
	return &badExpr{At: p}
}

// primedName resolves v', a local of the second block of a commute
// declaration.
func (c *checker) primedName(p Pos, pr *pPrimary) Expr {
	name := *pr.Name
	switch {
	case c.primed == nil:
		c.report(errPrimeOutside(p, name))
	case pr.Call != nil || pr.Index != nil:
		c.report(errPrimeShared(p, name))
	case c.primed[name] != nil:
		return &VarRef{At: p, Var: c.primed[name], Second: true}
	case c.globals[name] != nil || c.params[name] != nil:
		c.report(errPrimeShared(p, name))
	case localNamed(c.second.Proc, name) != nil:
		c.report(errNotLive(p, name+"'", c.second.ID))
	default:
		c.report(errUndeclared(p, name+"'"))
	}
	return &badExpr{At: p}
}

// localNamed returns a local (or parameter) of a proc with the given name.
func localNamed(pr *Proc, name string) *Var {
	for _, v := range pr.Locals {
		if v.Name == name {
			return v
		}
	}
	return nil
}

func appendFunc(fs []*Func, f *Func) []*Func {
	for _, g := range fs {
		if g == f {
			return fs
		}
	}
	return append(fs, f)
}

// terminates reports whether every path through ss ends in a return.
func terminates(ss []Stmt) bool {
	if len(ss) == 0 {
		return false
	}
	switch s := ss[len(ss)-1].(type) {
	case *ReturnStmt:
		return true
	case *IfStmt:
		return terminates(s.Then) && terminates(s.Else)
	}
	return false
}

// recursion reports each cycle in the call graph of funcs once.
func (c *checker) recursion() {
	const (
		white = iota
		grey
		black
	)
	color := map[*Func]int{}
	var stack []*Func
	var visit func(f *Func)
	visit = func(f *Func) {
		color[f] = grey
		stack = append(stack, f)
		for _, g := range f.Calls {
			switch color[g] {
			case white:
				visit(g)
			case grey:
				var names []string
				start := 0
				for i, s := range stack {
					if s == g {
						start = i
					}
				}
				for _, s := range stack[start:] {
					names = append(names, s.Name)
				}
				names = append(names, g.Name)
				c.report(errRecursion(c.nameAfter(g.Pos, g.Name), strings.Join(names, " -> ")))
			}
		}
		stack = stack[:len(stack)-1]
		color[f] = black
	}
	for _, f := range c.prog.Funcs {
		if color[f] == white {
			visit(f)
		}
	}
}

package lang

// Type is the type of a variable or expression.
type Type int

// The types of the language. Arrays hold ints and have a fixed size.
const (
	Void Type = iota
	Int
	Bool
	IntArray
)

func (t Type) String() string {
	switch t {
	case Int:
		return "int"
	case Bool:
		return "bool"
	case IntArray:
		return "int[]"
	}
	return "void"
}

// VarKind tells where a variable lives.
type VarKind int

// Globals are shared by all processes; locals (including parameters) belong
// to one activation of a proc, func or init.
const (
	Global VarKind = iota
	Local
)

// Var is a global or a local variable. Locals are numbered by Slot within
// their proc, func or init: every declaration gets its own slot, so a name
// declared twice in sibling scopes is two variables.
type Var struct {
	Name  string
	Kind  VarKind
	Type  Type
	Pos   Pos
	Index int // declaration order among globals, or slot among locals
	// Globals only.
	Size     Expr   // array size: *IntLit or *ParamRef; nil for an unbounded array
	Init     []Expr // nil: zero; one element: scalar value or array fill; else one per element
	InitList bool   // Init was written as a {...} list
	// Locals only.
	Param bool // a parameter of its proc or func
}

func (v *Var) String() string { return v.Name }

// Unbounded reports whether v is an unbounded array (int a[*]): indexed
// by any integer, every element zero until written.
func (v *Var) Unbounded() bool { return v.Type == IntArray && v.Size == nil }

// Param is a program parameter: a named int constant whose value may be
// overridden at run time (-D N=10). Synthesis keeps it symbolic.
type Param struct {
	Name    string
	Pos     Pos
	Default int64
	Index   int
}

// Op is a unary or binary operator.
type Op int

// Operators, in no particular order; see [Op.Prec] for precedence.
const (
	OpNeg Op = iota
	OpNot
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpMod
	OpLt
	OpLe
	OpGt
	OpGe
	OpEq
	OpNe
	OpAnd
	OpOr
)

var opText = [...]string{"-", "!", "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"}

func (o Op) String() string { return opText[o] }

// Prec is the binding strength of a binary operator, C-style: higher binds tighter.
func (o Op) Prec() int {
	switch o {
	case OpOr:
		return 1
	case OpAnd:
		return 2
	case OpEq, OpNe:
		return 3
	case OpLt, OpLe, OpGt, OpGe:
		return 4
	case OpAdd, OpSub:
		return 5
	case OpMul, OpDiv, OpMod:
		return 6
	}
	return 7
}

// Expr is a resolved, typed expression.
type Expr interface {
	Pos() Pos
	Type() Type
	exprNode()
}

// IntLit is an integer literal.
type IntLit struct {
	At  Pos
	Val int64
}

// BoolLit is true or false.
type BoolLit struct {
	At  Pos
	Val bool
}

// ParamRef reads a program parameter.
type ParamRef struct {
	At    Pos
	Param *Param
}

// VarRef reads a scalar variable (never an array). Second is set only in
// the condition of a [Commute] declaration, for a local of the second
// block's process (written v').
type VarRef struct {
	At     Pos
	Var    *Var
	Second bool
}

// IndexExpr reads element Index of the global array Array.
type IndexExpr struct {
	At    Pos
	Array *Var
	Index Expr
}

// UnaryExpr is -X or !X.
type UnaryExpr struct {
	At Pos
	Op Op
	X  Expr
}

// BinaryExpr is X op Y. && and || short-circuit.
type BinaryExpr struct {
	At   Pos
	Op   Op
	X, Y Expr
}

// CallExpr calls a func; in an expression the func returns a value.
type CallExpr struct {
	At   Pos
	Func *Func
	Args []Expr
}

func (e *IntLit) Pos() Pos     { return e.At }
func (e *BoolLit) Pos() Pos    { return e.At }
func (e *ParamRef) Pos() Pos   { return e.At }
func (e *VarRef) Pos() Pos     { return e.At }
func (e *IndexExpr) Pos() Pos  { return e.At }
func (e *UnaryExpr) Pos() Pos  { return e.At }
func (e *BinaryExpr) Pos() Pos { return e.At }
func (e *CallExpr) Pos() Pos   { return e.At }

func (e *IntLit) Type() Type    { return Int }
func (e *BoolLit) Type() Type   { return Bool }
func (e *ParamRef) Type() Type  { return Int }
func (e *VarRef) Type() Type    { return e.Var.Type }
func (e *IndexExpr) Type() Type { return Int }
func (e *UnaryExpr) Type() Type {
	if e.Op == OpNot {
		return Bool
	}
	return Int
}
func (e *BinaryExpr) Type() Type {
	switch e.Op {
	case OpAdd, OpSub, OpMul, OpDiv, OpMod:
		return Int
	}
	return Bool
}
func (e *CallExpr) Type() Type { return e.Func.Result }

func (*IntLit) exprNode()     {}
func (*BoolLit) exprNode()    {}
func (*ParamRef) exprNode()   {}
func (*VarRef) exprNode()     {}
func (*IndexExpr) exprNode()  {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*CallExpr) exprNode()   {}

// LValue is the target of an assignment: a scalar variable, or an element of
// a global array when Index is not nil.
type LValue struct {
	Var   *Var
	Index Expr
}

// Stmt is a resolved statement of the checked AST. Lowering turns the
// statements of a body into a [Node] graph.
type Stmt interface {
	Pos() Pos
	stmtNode()
}

type (
	// AssignStmt assigns Value to Target. Local declarations become
	// assignments (of the zero value when no initializer is given).
	AssignStmt struct {
		At     Pos
		Target LValue
		Value  Expr
		Decl   bool // from a local declaration
	}
	// IfStmt; Else is empty when absent ("else if" nests an IfStmt).
	IfStmt struct {
		At         Pos
		Cond       Expr
		Then, Else []Stmt
	}
	// WhileStmt loops while Cond holds.
	WhileStmt struct {
		At   Pos
		Cond Expr
		Body []Stmt
	}
	// SpawnStmt creates a new process running Proc with the argument values.
	SpawnStmt struct {
		At   Pos
		Proc *Proc
		Args []Expr
	}
	// AssertStmt records a violation when Cond is false; execution goes on.
	AssertStmt struct {
		At   Pos
		Cond Expr
		Msg  string
	}
	// YieldStmt is an interleaving point.
	YieldStmt struct {
		At    Pos
		Label string
	}
	// AwaitStmt is an interleaving point; the block it starts is enabled only
	// where Cond holds.
	AwaitStmt struct {
		At    Pos
		Label string
		Cond  Expr
	}
	// ReturnStmt ends a func (with Value unless void) or a proc.
	ReturnStmt struct {
		At    Pos
		Value Expr
	}
	// CallStmt calls a func for its effects and drops any result.
	CallStmt struct {
		At   Pos
		Call *CallExpr
	}
)

func (s *AssignStmt) Pos() Pos { return s.At }
func (s *IfStmt) Pos() Pos     { return s.At }
func (s *WhileStmt) Pos() Pos  { return s.At }
func (s *SpawnStmt) Pos() Pos  { return s.At }
func (s *AssertStmt) Pos() Pos { return s.At }
func (s *YieldStmt) Pos() Pos  { return s.At }
func (s *AwaitStmt) Pos() Pos  { return s.At }
func (s *ReturnStmt) Pos() Pos { return s.At }
func (s *CallStmt) Pos() Pos   { return s.At }

func (*AssignStmt) stmtNode() {}
func (*IfStmt) stmtNode()     {}
func (*WhileStmt) stmtNode()  {}
func (*SpawnStmt) stmtNode()  {}
func (*AssertStmt) stmtNode() {}
func (*YieldStmt) stmtNode()  {}
func (*AwaitStmt) stmtNode()  {}
func (*ReturnStmt) stmtNode() {}
func (*CallStmt) stmtNode()   {}

// Proc is a process body. Nodes is its lowered control-flow graph; Blocks its
// atomic blocks, one per interleaving point, Blocks[0] starting at entry.
type Proc struct {
	Name   string
	Index  int // position in Program.Procs
	Pos    Pos
	Params []*Var
	Locals []*Var // all local slots, parameters first
	Body   []Stmt
	Nodes  []*Node
	Points []*Point
	Blocks []*Block
}

// Func is a helper called synchronously inside a block. Funcs may read and
// write globals; they cannot spawn, yield or await, and never recurse.
type Func struct {
	Name   string
	Pos    Pos
	Result Type // Void when the func returns no value
	Params []*Var
	Locals []*Var
	Body   []Stmt
	Nodes  []*Node
	Calls  []*Func // funcs called directly, in first-call order
}

// Init is the program's init section: it runs atomically before any process
// to build the initial state. It cannot yield or await.
type Init struct {
	Pos    Pos
	Locals []*Var
	Body   []Stmt
	Nodes  []*Node
}

// Invariant is a declared invariant: a condition over globals and params
// that every state of the program must satisfy. Synthesis assumes it; the
// interpreter checks it after init and after every event that writes a
// location it reads.
type Invariant struct {
	Index int // position in Program.Invariants
	Pos   Pos
	Cond  Expr   // bool, over globals, params and literals; no calls
	Reads []*Var // the globals Cond reads, in declaration order
}

// Commute is a declared independence constraint: blocks A and B (run by
// two processes) commute in every state where Cond holds (nil: in every
// state). Cond reads globals, params, the locals live at A's start (v) and
// those live at B's start (v', VarRef.Second). Declarations are claims to
// be proven; they do not change what the program does.
type Commute struct {
	Index int // position in Program.Commutes
	Pos   Pos
	A, B  *Block
	Cond  Expr
	// Src, when set, is the declaration as its source writes it, for a
	// program made from other input than a .blk file (a Go comment);
	// CommuteString renders it.
	Src string
}

// Program is a checked and lowered program.
type Program struct {
	File       string
	Source     []byte
	Hash       string // sha256 of the source with param values and commute declarations blanked out
	Params     []*Param
	Globals    []*Var
	Procs      []*Proc
	Funcs      []*Func
	Init       *Init // never nil: an absent init is empty
	Blocks     []*Block
	Invariants []*Invariant
	Commutes   []*Commute

	globalNames map[string]*Var // Globals by name, made by Compile (see Global)
}

// Proc returns the proc named name, or nil.
func (p *Program) Proc(name string) *Proc {
	for _, pr := range p.Procs {
		if pr.Name == name {
			return pr
		}
	}
	return nil
}

// Block returns the block with the given id, or nil.
func (p *Program) Block(id string) *Block {
	for _, b := range p.Blocks {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// HasAwait reports whether a block of the program starts with an await
// guard: a process may then block.
func (p *Program) HasAwait() bool {
	for _, b := range p.Blocks {
		if b.Point.Guard != nil {
			return true
		}
	}
	return false
}

// Param returns the param named name, or nil.
func (p *Program) Param(name string) *Param {
	for _, pa := range p.Params {
		if pa.Name == name {
			return pa
		}
	}
	return nil
}

// Global returns the global named name, or nil.
//
// It looks the name up in the map Compile makes, and searches Globals
// where the map has no global of that name: a program built by hand, or
// whose globals were renamed after Compile (package gofront gives them
// the Go code's names).
func (p *Program) Global(name string) *Var {
	if g := p.globalNames[name]; g != nil && g.Name == name {
		return g
	}
	for _, g := range p.Globals {
		if g.Name == name {
			return g
		}
	}
	return nil
}

func (k VarKind) String() string {
	if k == Global {
		return "global"
	}
	return "local"
}

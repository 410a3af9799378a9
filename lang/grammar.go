package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file holds the raw parse tree produced by participle. The checker
// (check.go) turns it into the resolved, typed [Program]; nothing outside the
// package sees these types.

var tokens = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*|/\*([^*]|\*+[^*/])*\*+/`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
	{Name: "Keyword", Pattern: `\b(param|global|proc|func|init|invariant|commute|when|int|bool|if|else|while|spawn|assert|yield|await|return|true|false)\b`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Int", Pattern: `[0-9]+`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Op", Pattern: `==|!=|<=|>=|&&|\|\||[-+*/%<>=!(){}\[\];,:@']`},
})

var parser = participle.MustBuild[pFile](
	participle.Lexer(tokens),
	participle.Elide("Comment", "Whitespace"),
	participle.Unquote("String"),
	// No backtracking once a branch has consumed a token: the grammar is
	// LL(1) but for statement labels, which use an explicit lookahead group.
	// A failure is then reported where it happens ("x = 1 + ;" at ";"),
	// not at the start of the statement that was abandoned.
	participle.UseLookahead(0),
)

type pFile struct {
	Decls []*pDecl `parser:"@@*"`
}

type pDecl struct {
	Param     *pParam     `parser:"  @@"`
	Global    *pGlobal    `parser:"| @@"`
	Proc      *pProc      `parser:"| @@"`
	Func      *pFunc      `parser:"| @@"`
	Init      *pInit      `parser:"| @@"`
	Invariant *pInvariant `parser:"| @@"`
	Commute   *pCommute   `parser:"| @@"`
}

type pInvariant struct {
	Pos  lexer.Position
	Cond *pExpr `parser:"\"invariant\" @@ \";\""`
}

// pCommute is a declared independence constraint:
// "commute p, q@5 when (x > 0);".
type pCommute struct {
	Pos    lexer.Position
	A      *pBlockID `parser:"\"commute\" @@ \",\""`
	B      *pBlockID `parser:"@@"`
	Cond   *pExpr    `parser:"(\"when\" @@)? \";\""`
	EndPos lexer.Position
}

// pBlockID is a block id as icgen prints it: proc, proc@label, proc@line
// or proc@line:col.
type pBlockID struct {
	Pos  lexer.Position
	Proc string    `parser:"@Ident"`
	At   *pBlockAt `parser:"(\"@\" @@)?"`
}

type pBlockAt struct {
	Label *string `parser:"  @Ident"`
	Line  *string `parser:"| @Int"`
	Col   *string `parser:"  (\":\" @Int)?"`
}

type pParam struct {
	Pos   lexer.Position
	Name  string `parser:"\"param\" @Ident \"=\""`
	Value *pExpr `parser:"@@ \";\""`
}

type pGlobal struct {
	Pos  lexer.Position
	Type string        `parser:"\"global\" @(\"int\" | \"bool\")"`
	Vars []*pGlobalVar `parser:"@@ (\",\" @@)* \";\""`
}

type pGlobalVar struct {
	Pos  lexer.Position
	Name string  `parser:"@Ident"`
	Star bool    `parser:"(\"[\" ( @\"*\""`
	Size *pExpr  `parser:"| @@ ) \"]\")?"`
	Init *pInit2 `parser:"(\"=\" @@)?"`
}

type pInit2 struct {
	Pos   lexer.Position
	List  *pList `parser:"  @@"`
	Value *pExpr `parser:"| @@"`
}

type pList struct {
	Pos   lexer.Position
	Open  string   `parser:"@\"{\""`
	Elems []*pExpr `parser:"(@@ (\",\" @@)*)? \"}\""`
}

type pProc struct {
	Pos    lexer.Position
	Name   string     `parser:"\"proc\" @Ident \"(\""`
	Params []*pFormal `parser:"(@@ (\",\" @@)*)? \")\""`
	Body   *pBlock    `parser:"@@"`
}

type pFunc struct {
	Pos    lexer.Position
	Result string     `parser:"\"func\" @(\"int\" | \"bool\")?"`
	Name   string     `parser:"@Ident \"(\""`
	Params []*pFormal `parser:"(@@ (\",\" @@)*)? \")\""`
	Body   *pBlock    `parser:"@@"`
}

type pInit struct {
	Pos  lexer.Position
	Body *pBlock `parser:"\"init\" @@"`
}

type pFormal struct {
	Pos  lexer.Position
	Type string `parser:"@(\"int\" | \"bool\")"`
	Name string `parser:"@Ident"`
}

type pBlock struct {
	Pos    lexer.Position
	Stmts  []*pStmt `parser:"\"{\" @@*"`
	EndPos lexer.Position
	Close  string `parser:"@\"}\""`
}

type pStmt struct {
	Pos    lexer.Position
	Label  string   `parser:"((?= Ident \":\") @Ident \":\")?"`
	Local  *pLocal  `parser:"(  @@"`
	If     *pIf     `parser:" | @@"`
	While  *pWhile  `parser:" | @@"`
	Spawn  *pSpawn  `parser:" | @@"`
	Assert *pAssert `parser:" | @@"`
	Yield  *pYield  `parser:" | @@"`
	Await  *pAwait  `parser:" | @@"`
	Return *pReturn `parser:" | @@"`
	Block  *pBlock  `parser:" | @@"`
	Simple *pSimple `parser:" | @@ )"`
}

type pLocal struct {
	Pos  lexer.Position
	Type string       `parser:"@(\"int\" | \"bool\")"`
	Vars []*pLocalVar `parser:"@@ (\",\" @@)* \";\""`
}

type pLocalVar struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
	Init *pExpr `parser:"(\"=\" @@)?"`
}

type pIf struct {
	Pos    lexer.Position
	Cond   *pExpr  `parser:"\"if\" \"(\" @@ \")\""`
	Then   *pBlock `parser:"@@"`
	ElseIf *pIf    `parser:"(\"else\" ( @@"`
	Else   *pBlock `parser:"        | @@ ))?"`
}

type pWhile struct {
	Pos  lexer.Position
	Cond *pExpr  `parser:"\"while\" \"(\" @@ \")\""`
	Body *pBlock `parser:"@@"`
}

type pSpawn struct {
	Pos  lexer.Position
	Proc string   `parser:"\"spawn\" @Ident \"(\""`
	Args []*pExpr `parser:"(@@ (\",\" @@)*)? \")\" \";\""`
}

type pAssert struct {
	Pos  lexer.Position
	Cond *pExpr  `parser:"\"assert\" \"(\" @@"`
	Msg  *string `parser:"(\",\" @String)? \")\" \";\""`
}

type pYield struct {
	Pos lexer.Position
	Kw  string `parser:"@\"yield\" \";\""`
}

type pAwait struct {
	Pos  lexer.Position
	Cond *pExpr `parser:"\"await\" \"(\" @@ \")\" \";\""`
}

type pReturn struct {
	Pos   lexer.Position
	Kw    string `parser:"@\"return\""`
	Value *pExpr `parser:"@@? \";\""`
}

// pSimple is an assignment "lhs = rhs;" or an expression statement "call;".
// Whether lhs is assignable, or the expression a call, is the checker's job:
// it gives a better message than a parse failure would.
type pSimple struct {
	Pos lexer.Position
	Lhs *pExpr `parser:"@@"`
	Rhs *pExpr `parser:"(\"=\" @@)? \";\""`
}

// pExpr is a flat sequence of operands and binary operators; the checker
// builds the tree by precedence climbing.
type pExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	First  *pUnary     `parser:"@@"`
	Rest   []*pBinTail `parser:"@@*"`
}

type pBinTail struct {
	Pos lexer.Position
	Op  string  `parser:"@(\"||\" | \"&&\" | \"==\" | \"!=\" | \"<=\" | \">=\" | \"<\" | \">\" | \"+\" | \"-\" | \"*\" | \"/\" | \"%\")"`
	Y   *pUnary `parser:"@@"`
}

type pUnary struct {
	Pos  lexer.Position
	Op   string    `parser:"(  @(\"!\" | \"-\")"`
	X    *pUnary   `parser:"   @@"`
	Prim *pPrimary `parser:"| @@ )"`
}

type pPrimary struct {
	Pos   lexer.Position
	Int   *string `parser:"  @Int"`
	True  bool    `parser:"| @\"true\""`
	False bool    `parser:"| @\"false\""`
	Paren *pExpr  `parser:"| \"(\" @@ \")\""`
	Name  *string `parser:"| @Ident"`
	Prime bool    `parser:"  @\"'\"?"`
	Call  *pArgs  `parser:"  ( @@"`
	Index *pExpr  `parser:"  | \"[\" @@ \"]\" )?"`
}

type pArgs struct {
	Pos  lexer.Position
	Args []*pExpr `parser:"\"(\" (@@ (\",\" @@)*)? \")\""`
}

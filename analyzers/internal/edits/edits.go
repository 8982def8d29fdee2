// Package edits builds the text edits of the analyzers' suggested fixes
// from the syntax of the file a report is in and its source text: the
// exact text of an expression, a statement inserted before another with
// the indentation of its line, a statement deleted with its line.
//
// A fix is offered only when the source can be read through
// Pass.ReadFile and is the text the file set was built from (not a cgo
// file rewritten by the go command): Open says false otherwise, and the
// analyzer reports without a fix.
package edits

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// A File is one file of the package being analyzed: its syntax and its
// source text.
type File struct {
	Syntax *ast.File // the file's syntax tree, as the pass has it
	tok    *token.File
	src    []byte
}

// Open returns the file of pass that holds pos, with its source.
func Open(pass *analysis.Pass, pos token.Pos) (*File, bool) {
	if !pos.IsValid() || pass.ReadFile == nil {
		return nil, false
	}
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			tok := pass.Fset.File(pos)
			if tok == nil {
				return nil, false
			}
			src, err := pass.ReadFile(tok.Name())
			if err != nil || len(src) != tok.Size() {
				return nil, false
			}
			return &File{Syntax: f, tok: tok, src: src}, true
		}
	}
	return nil, false
}

// Path returns the nodes that enclose [start, end), innermost first
// (see astutil.PathEnclosingInterval).
func (f *File) Path(start, end token.Pos) []ast.Node {
	path, _ := astutil.PathEnclosingInterval(f.Syntax, start, end)
	return path
}

// OutermostFunc returns the outermost function declaration or literal of
// path: the whole function whose statements may assign what a fix names
// (see Stable).
func OutermostFunc(path []ast.Node) ast.Node {
	var out ast.Node
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			out = n
		}
	}
	return out
}

// Text returns the source text of n, exactly as written.
func (f *File) Text(n ast.Node) string {
	return string(f.src[f.tok.Offset(n.Pos()):f.tok.Offset(n.End())])
}

// InsertBefore returns the edit that puts the statements text (one per
// line) before the statement at pos: on lines of their own with the
// indentation of pos's line when pos begins its line, else on the same
// line, separated by semicolons (gofmt splits them).
func (f *File) InsertBefore(pos token.Pos, text string) analysis.TextEdit {
	if indent, start, ok := f.lineIndent(pos); ok {
		text = indent + strings.ReplaceAll(text, "\n", "\n"+indent) + "\n"
		return analysis.TextEdit{Pos: start, End: start, NewText: []byte(text)}
	}
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(strings.ReplaceAll(text, "\n", "; ") + "; ")}
}

// InsertAtEnd returns the edit that puts the statement text last in
// block, before its closing brace, indented one tab deeper than the
// brace's line.
func (f *File) InsertAtEnd(block *ast.BlockStmt, text string) analysis.TextEdit {
	if indent, start, ok := f.lineIndent(block.Rbrace); ok {
		return analysis.TextEdit{Pos: start, End: start, NewText: []byte(indent + "\t" + text + "\n")}
	}
	return analysis.TextEdit{Pos: block.Rbrace, End: block.Rbrace, NewText: []byte("; " + text + " ")}
}

// Delete returns the edit that removes the statement stmt: its whole
// line when nothing else is on it, else the statement's text and the
// semicolon after it (a comment after it stays, on a line of its own).
func (f *File) Delete(stmt ast.Stmt) analysis.TextEdit {
	_, start, alone := f.lineIndent(stmt.Pos())
	end := f.tok.Offset(stmt.End())
	rest := f.src[end:]
	if nl := bytes.IndexByte(rest, '\n'); alone && nl >= 0 && len(bytes.TrimSpace(rest[:nl])) == 0 {
		return analysis.TextEdit{Pos: start, End: f.tok.Pos(end + nl + 1)}
	}
	if after := bytes.TrimLeft(rest, " \t"); len(after) > 0 && after[0] == ';' {
		end += len(rest) - len(after) + 1
		end += len(f.src[end:]) - len(bytes.TrimLeft(f.src[end:], " \t"))
	}
	return analysis.TextEdit{Pos: stmt.Pos(), End: f.tok.Pos(end)}
}

// lineIndent returns the spaces and tabs that begin the line of pos and
// where the line starts, when nothing else precedes pos on it.
func (f *File) lineIndent(pos token.Pos) (indent string, start token.Pos, ok bool) {
	off := f.tok.Offset(pos)
	lineStart := f.tok.Offset(f.tok.LineStart(f.tok.Line(pos)))
	prefix := f.src[lineStart:off]
	if len(bytes.Trim(prefix, " \t")) != 0 {
		return "", token.NoPos, false
	}
	return string(prefix), f.tok.Pos(lineStart), true
}

// Stable reports whether the expression x (a variable, or fields
// selected from one, or a package's variable) names the same memory
// everywhere in fn, the whole function around the places a fix edits: no
// part of it is assigned or has its address taken there, and nothing in
// fn declares another object of its root's name, so that the text of x
// names the same thing wherever it is inserted.
func (f *File) Stable(info *types.Info, x ast.Expr, fn ast.Node) bool {
	prefixes := make(map[string]bool)
	var root *ast.Ident
	for e := x; root == nil; {
		prefixes[f.Text(e)] = true
		switch v := ast.Unparen(e).(type) {
		case *ast.Ident:
			root = v
		case *ast.SelectorExpr:
			if _, pkg := info.Uses[identOf(v.X)].(*types.PkgName); pkg {
				root = v.Sel // pkg.Mu: a package variable of another package
				break
			}
			e = v.X
		default:
			return false // an index, a call, a dereference: not a name
		}
	}
	obj := info.Uses[root]
	if obj == nil {
		return false
	}
	ok := true
	ast.Inspect(fn, func(n ast.Node) bool {
		Written(n, func(e ast.Expr) {
			if prefixes[f.Text(e)] {
				ok = false
			}
		})
		if id, isIdent := n.(*ast.Ident); isIdent {
			if d := info.Defs[id]; d != nil && d != obj && id.Name == root.Name {
				ok = false // shadowed somewhere: the text may name another
			}
		}
		return ok
	})
	return ok
}

// Written calls f with each expression that node n itself assigns to
// (x = ..., x op= ..., for x = range), increments or decrements, or
// takes the address of (&x): those whose value may change there. Walk
// the tree with ast.Inspect to find them all.
func Written(n ast.Node, f func(ast.Expr)) {
	each := func(e ast.Expr) {
		if e != nil {
			f(e)
		}
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			each(l)
		}
	case *ast.RangeStmt:
		if n.Tok == token.ASSIGN {
			each(n.Key)
			each(n.Value)
		}
	case *ast.IncDecStmt:
		each(n.X)
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			each(n.X)
		}
	}
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

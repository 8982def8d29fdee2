package race

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/edits"
	"golang.org/x/tools/go/analysis"
)

// The fix of a captured loop variable before Go 1.22: a copy of the
// variable as the first statement of the loop body, "v := v", which
// gives each iteration its own variable, as Go 1.22 does (and as gopls's
// loopclosure fix did). Passing it to the goroutine as an argument is
// the other fix; the copy is one line whatever starts the goroutine. The
// fix copies every variable of the loop that a function literal in the
// body uses: the race on a key and the race on its value are on the
// same lines, reported once, and each report's fix is the same edit.
//
// It is offered only where the copy changes nothing but the sharing:
//
//   - the loop body does not assign a copied variable, increment it or
//     take its address (also through a pointer method's call): after
//     the copy, those would change the copy, not the loop's variable,
//     and the next iteration would no longer see them;
//   - the body does not declare a variable of the same name itself,
//     which the copy would redeclare;
//   - a function literal of the body uses the reported variable: one in
//     the loop's condition or post statement would still share it.

// loopCopyFix returns the fix that copies the loop variable declared at
// pos in its loop body, or nil when it is not certain.
func (c *checker) loopCopyFix(pos token.Pos) []analysis.SuggestedFix {
	f, ok := edits.Open(c.pass, pos)
	if !ok {
		return nil
	}
	info := c.pass.TypesInfo
	path := f.Path(pos, pos)
	if len(path) < 3 {
		return nil
	}
	var vars []ast.Expr
	var body *ast.BlockStmt
	switch loop := path[1].(type) {
	case *ast.AssignStmt:
		if fs, ok := path[2].(*ast.ForStmt); ok && fs.Init == loop && loop.Tok == token.DEFINE {
			vars, body = loop.Lhs, fs.Body
		}
	case *ast.RangeStmt:
		if loop.Tok == token.DEFINE {
			vars, body = []ast.Expr{loop.Key, loop.Value}, loop.Body
		}
	}
	if body == nil || len(body.List) == 0 {
		return nil
	}
	reported, ok := info.Defs[identOf(path[0])].(*types.Var)
	if !ok {
		return nil
	}
	captured := capturedIn(info, body)
	if !captured[reported] {
		return nil
	}
	scope := info.Scopes[body]
	var names, copies []string
	for _, e := range vars {
		id := identOf(e)
		if id == nil || id.Name == "_" {
			continue
		}
		v, ok := info.Defs[id].(*types.Var)
		if !ok || !captured[v] {
			continue
		}
		if scope == nil || scope.Lookup(id.Name) != nil || changedIn(info, v, body) {
			return nil
		}
		names = append(names, id.Name)
		copies = append(copies, id.Name+" := "+id.Name)
	}
	return []analysis.SuggestedFix{{
		Message:   "copy " + strings.Join(names, " and ") + " in the loop body: " + strings.Join(copies, "; "),
		TextEdits: []analysis.TextEdit{f.InsertBefore(body.List[0].Pos(), strings.Join(copies, "\n"))},
	}}
}

func identOf(e ast.Node) *ast.Ident {
	if e, ok := e.(ast.Expr); ok {
		id, _ := ast.Unparen(e).(*ast.Ident)
		return id
	}
	return nil
}

// capturedIn returns the variables that the function literals in n use.
func capturedIn(info *types.Info, n ast.Node) map[*types.Var]bool {
	vars := make(map[*types.Var]bool)
	ast.Inspect(n, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			ast.Inspect(lit.Body, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok {
						vars[v] = true
					}
				}
				return true
			})
			return false
		}
		return true
	})
	return vars
}

// changedIn reports whether n assigns v, increments it or takes its
// address, explicitly or by calling a pointer method on it.
func changedIn(info *types.Info, v *types.Var, n ast.Node) bool {
	is := func(e ast.Expr) bool { id := identOf(e); return id != nil && info.Uses[id] == v }
	changed := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				changed = changed || is(l)
			}
		case *ast.RangeStmt:
			changed = changed || n.Tok == token.ASSIGN && (is(n.Key) || is(n.Value))
		case *ast.IncDecStmt:
			changed = changed || is(n.X)
		case *ast.UnaryExpr:
			changed = changed || n.Op == token.AND && is(n.X)
		case *ast.SelectorExpr:
			if s, ok := info.Selections[n]; ok && s.Kind() == types.MethodVal && is(n.X) {
				if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					_, ptrRecv := sig.Recv().Type().(*types.Pointer)
					_, ptrVar := v.Type().Underlying().(*types.Pointer)
					changed = changed || ptrRecv && !ptrVar
				}
			}
		}
		return !changed
	})
	return changed
}

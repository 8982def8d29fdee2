package race

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/edits"
	"github.com/origo-dev/origo/passes/pointer"
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
		edits.Written(n, func(e ast.Expr) { changed = changed || is(e) })
		switch n := n.(type) {
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

// The fix of a WaitGroup.Add inside the goroutine: the Add moved to just
// before the go statement, where it counts the goroutine before Wait can
// see the count.
//
//	wg.Add(1) // moved here
//	go func() {
//		defer wg.Done()
//		...
//	}()
//
// It is offered only where the move is certain:
//
//   - the Add is the first statement of the function literal that the go
//     statement starts, so it ran once for each go statement, on every
//     path: not in a helper the goroutine calls, nor after a statement
//     that might return or decide otherwise;
//   - its argument is a constant, which means the same before the go
//     statement;
//   - the WaitGroup is named by variables and fields declared outside the
//     literal (not its parameters), never assigned or shadowed in the
//     function, so the moved text names the same WaitGroup;
//   - the go statement is a statement of a block or a case, not labeled.

// wgAddFix returns the fix that moves the Add at add, in the goroutine
// that origin o runs, before the go statement that starts it; nil when
// the move is not certain.
func (c *checker) wgAddFix(add token.Pos, o *pointer.Origin) []analysis.SuggestedFix {
	if o.Parent == nil || !o.Site.IsValid() {
		return nil
	}
	f, ok := edits.Open(c.pass, add)
	if !ok {
		return nil
	}
	info := c.pass.TypesInfo
	path := f.Path(add, add)
	if len(path) < 7 {
		return nil
	}
	call, ok := path[0].(*ast.CallExpr)
	stmt, ok1 := path[1].(*ast.ExprStmt)
	body, ok2 := path[2].(*ast.BlockStmt)
	lit, ok3 := path[3].(*ast.FuncLit)
	goCall, ok4 := path[4].(*ast.CallExpr)
	goStmt, ok5 := path[5].(*ast.GoStmt)
	if !ok || !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || call.Lparen != add ||
		len(body.List) == 0 || body.List[0] != stmt || lit.Body != body ||
		ast.Unparen(goCall.Fun) != lit || goStmt.Call != goCall || goStmt.Go != o.Site {
		return nil
	}
	switch path[6].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	if m, ok := info.Uses[sel.Sel].(*types.Func); !ok || m.FullName() != "(*sync.WaitGroup).Add" {
		return nil
	}
	if tv, ok := info.Types[call.Args[0]]; !ok || tv.Value == nil {
		return nil
	}
	outside := true
	ast.Inspect(sel.X, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil && lit.Pos() <= obj.Pos() && obj.Pos() < lit.End() {
				outside = false
			}
		}
		return outside
	})
	if !outside || !f.Stable(info, sel.X, edits.OutermostFunc(path)) {
		return nil
	}
	text := f.Text(stmt)
	return []analysis.SuggestedFix{{
		Message: "call " + text + " before the go statement",
		TextEdits: []analysis.TextEdit{
			f.InsertBefore(goStmt.Pos(), text),
			f.Delete(stmt),
		},
	}}
}

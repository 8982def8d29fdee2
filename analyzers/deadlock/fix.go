package deadlock

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/internal/edits"
	"github.com/origo-dev/origo/passes/lockset"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// The fix of a lock left held: the function's own Unlock, inserted just
// before the return that skips it.
//
//	b.mu.Lock()
//	if len(b.accounts) == 0 {
//		b.mu.Unlock() // inserted
//		return 0, errEmpty
//	}
//
// Moving the Unlock into a defer right after the Lock would fix it too,
// but only when nothing after the Lock must run unlocked, which no
// syntax shows; the insert changes the one path the report is about.
// It is offered only where it is certainly what the function means (a
// function entered with the lock held, which unlocks the caller's lock
// on some path, gets no report and no fix: see "What stays silent"):
//
//   - the mutex is locked by a statement X.Lock() or X.RLock() of this
//     function on a sync.Mutex or sync.RWMutex: not by a helper or a
//     closure, whose unlock may be another call (tx.End()), nor through
//     a Locker, which may be an RLocker;
//   - the function itself calls X.Unlock() (X.RUnlock()) elsewhere with
//     the same text X: it is the call its other paths make;
//   - the Lock statement is in a block that encloses the return, before
//     it: not under an if, where the lock is taken conditionally;
//   - no loop between the Lock's block and the return unlocks X: the
//     iteration that returns may be one that unlocked and locked again,
//     and whether that path holds it is the lockset's word, not the
//     text's;
//   - every variable and field that X goes through keeps its value: none
//     is assigned, or has its address taken, in the function, and no
//     other declaration in it has X's root name, so X names the same
//     mutex at the return as at the Lock;
//   - the return's results read nothing the mutex may guard, since they
//     are evaluated after the inserted Unlock: constants, nil, the
//     function's own variables that no closure captures and whose
//     address is not taken, package variables the package never
//     assigns (sentinel errors), and errors.New or fmt.Errorf of those
//     with basic or error operands;
//   - no deferred call may run at the return: it ran with the mutex held,
//     and would run after the Unlock.
//
// A bare return at the end of the function (the implicit return) gets
// the Unlock as the last statement of the body, when the Lock is a
// statement of the body itself.

// unlockFix returns the fix that unlocks h's mutex before ret, or nil
// when it is not certain.
func (c *checker) unlockFix(fn *ssa.Function, ret *ssa.Return, h lockset.Held) []analysis.SuggestedFix {
	if h.At != "" || !h.Pos.IsValid() || !h.Path.IsEmpty() {
		return nil
	}
	var body *ast.BlockStmt
	var results *ast.FieldList
	switch syntax := fn.Syntax().(type) {
	case *ast.FuncDecl:
		body, results = syntax.Body, syntax.Type.Results
	case *ast.FuncLit:
		body, results = syntax.Body, syntax.Type.Results
	}
	if body == nil {
		return nil
	}
	f, ok := edits.Open(c.pass, h.Pos)
	if !ok || !(f.Syntax.FileStart <= body.Pos() && body.End() <= f.Syntax.FileEnd) {
		return nil
	}
	info := c.pass.TypesInfo

	// The Lock: a statement X.Lock() of fn's body.
	path := f.Path(h.Pos, h.Pos)
	if len(path) < 3 {
		return nil
	}
	call, ok := path[0].(*ast.CallExpr)
	if !ok || call.Lparen != h.Pos || len(call.Args) != 0 {
		return nil
	}
	if _, ok := path[1].(*ast.ExprStmt); !ok {
		return nil
	}
	lockBlock, ok := path[2].(*ast.BlockStmt)
	if !ok || enclosingFunc(path) != fn.Syntax() {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	unlock := unlockOf(info, sel)
	if unlock == "" {
		return nil
	}
	mu := f.Text(sel.X)
	if !f.Stable(info, sel.X, edits.OutermostFunc(path)) || !unlocksByName(f, body, mu, unlock) {
		return nil
	}
	if defersReach(fn, ret) {
		return nil
	}
	fix := mu + "." + unlock + "()"

	// The return: a statement inside the Lock's block, after the Lock.
	if !ret.Pos().IsValid() {
		if lockBlock != body || results != nil && len(results.List) > 0 {
			return nil
		}
		return []analysis.SuggestedFix{{
			Message:   "unlock " + mu + " at the end of " + fn.Name(),
			TextEdits: []analysis.TextEdit{f.InsertAtEnd(body, fix)},
		}}
	}
	retPath := f.Path(ret.Pos(), ret.Pos())
	if len(retPath) < 2 {
		return nil
	}
	rs, ok := retPath[0].(*ast.ReturnStmt)
	if !ok || rs.Return != ret.Pos() || rs.Pos() < call.End() {
		return nil
	}
	switch retPath[1].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return nil // a labeled return: the label would move onto the Unlock
	}
	inside := false
	for _, n := range retPath[1:] {
		if n == lockBlock {
			inside = true
			break
		}
		switch n := n.(type) {
		case *ast.ForStmt:
			if unlocksByName(f, n.Body, mu, unlock) {
				return nil
			}
		case *ast.RangeStmt:
			if unlocksByName(f, n.Body, mu, unlock) {
				return nil
			}
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	if !inside {
		return nil
	}
	if len(rs.Results) == 0 {
		// A bare return reads the named results.
		if results != nil {
			for _, field := range results.List {
				for _, id := range field.Names {
					if v, ok := info.Defs[id].(*types.Var); !ok || !private(info, v, body) {
						return nil
					}
				}
			}
		}
	}
	for _, r := range rs.Results {
		if !c.unguarded(r, fn.Syntax(), body) {
			return nil
		}
	}
	return []analysis.SuggestedFix{{
		Message:   "unlock " + mu + " before returning",
		TextEdits: []analysis.TextEdit{f.InsertBefore(rs.Pos(), fix)},
	}}
}

// unlockOf returns the method that releases what the call sel() takes:
// "Unlock" for the Lock of a sync.Mutex or sync.RWMutex (embedded or
// not), "RUnlock" for an RWMutex's RLock, "" for any other call.
func unlockOf(info *types.Info, sel *ast.SelectorExpr) string {
	m, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok {
		return ""
	}
	switch m.FullName() {
	case "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock":
		return "Unlock"
	case "(*sync.RWMutex).RLock":
		return "RUnlock"
	}
	return ""
}

// enclosingFunc returns the innermost function declaration or literal of
// path, or nil.
func enclosingFunc(path []ast.Node) ast.Node {
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}

// unlocksByName reports whether n, outside the function literals in it,
// calls mu.unlock() with mu written as given.
func unlocksByName(f *edits.File, n ast.Node, mu, unlock string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == unlock && len(n.Args) == 0 && f.Text(sel.X) == mu {
				found = true
			}
		}
		return !found
	})
	return found
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// defersReach reports whether a deferred call of fn may run at ret: a
// defer statement on a path to it.
func defersReach(fn *ssa.Function, ret *ssa.Return) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Defer); ok && (b == ret.Block() || blocks.Reaches(b, ret.Block())) {
				return true
			}
		}
	}
	return false
}

// unguarded reports whether evaluating the result e reads nothing a
// mutex may guard (see the list above), so that it may come after the
// Unlock. fn is the function's syntax, body its body.
func (c *checker) unguarded(e ast.Expr, fn ast.Node, body *ast.BlockStmt) bool {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return true // a constant
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return c.unguardedName(info.Uses[e], fn, body)
	case *ast.SelectorExpr:
		if _, pkg := info.Uses[identOf(e.X)].(*types.PkgName); pkg {
			return c.unguardedName(info.Uses[e.Sel], fn, body)
		}
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
			return len(e.Args) == 1 && c.unguarded(e.Args[0], fn, body) // a conversion
		}
		callee := typeutil.StaticCallee(info, e)
		if callee == nil || e.Ellipsis.IsValid() {
			return false
		}
		switch callee.FullName() {
		case "errors.New", "fmt.Errorf":
		default:
			return false
		}
		for _, a := range e.Args {
			if !c.unguarded(a, fn, body) || !plainOperand(info.TypeOf(a)) {
				return false
			}
		}
		return true
	}
	return false
}

// unguardedName reports whether reading obj reads nothing a mutex may
// guard: a constant, nil, a function, a variable of the function that
// no closure captures and whose address is not taken, or a package
// variable the package never assigns.
func (c *checker) unguardedName(obj types.Object, fn ast.Node, body *ast.BlockStmt) bool {
	switch obj := obj.(type) {
	case *types.Const, *types.Nil, *types.Func:
		return true
	case *types.Var:
		if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
			return !c.assignedInPackage(obj)
		}
		if fn.Pos() <= obj.Pos() && obj.Pos() < fn.End() {
			return private(c.pass.TypesInfo, obj, body)
		}
	}
	return false
}

// private reports whether the local variable v of the function whose
// body is body is its own: no function literal in body uses it, and its
// address is not taken, explicitly or by a pointer method's call.
func private(info *types.Info, v *types.Var, body *ast.BlockStmt) bool {
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n.Body, func(m ast.Node) bool {
				if id, isID := m.(*ast.Ident); isID && info.Uses[id] == v {
					ok = false
				}
				return ok
			})
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND && info.Uses[identOf(n.X)] == v {
				ok = false
			}
		case *ast.SelectorExpr:
			if s, isSel := info.Selections[n]; isSel && s.Kind() == types.MethodVal && info.Uses[identOf(n.X)] == v {
				if sig, isSig := s.Obj().Type().(*types.Signature); isSig && sig.Recv() != nil {
					_, ptrRecv := sig.Recv().Type().(*types.Pointer)
					_, ptrVar := v.Type().Underlying().(*types.Pointer)
					if ptrRecv && !ptrVar {
						ok = false // v.M() with func (*T) M: &v
					}
				}
			}
		}
		return ok
	})
	return ok
}

// plainOperand reports whether fmt formats a value of type t without
// calling a method that may read guarded memory: a basic type, or error
// (whose Error method is the error's own).
func plainOperand(t types.Type) bool {
	if t == nil {
		return false
	}
	if types.Identical(t, errorType) {
		return true
	}
	b, ok := t.(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
}

var errorType = types.Universe.Lookup("error").Type()

// assignedInPackage reports whether the package assigns the package
// variable v, or takes its address, anywhere but in its declaration.
func (c *checker) assignedInPackage(v *types.Var) bool {
	if c.assigned == nil {
		c.assigned = make(map[*types.Var]bool)
		info := c.pass.TypesInfo
		mark := func(e ast.Expr) {
			switch e := ast.Unparen(e).(type) {
			case *ast.Ident:
				if v, ok := info.Uses[e].(*types.Var); ok {
					c.assigned[v] = true
				}
			case *ast.SelectorExpr:
				if v, ok := info.Uses[e.Sel].(*types.Var); ok {
					c.assigned[v] = true
				}
			}
		}
		for _, file := range c.pass.Files {
			ast.Inspect(file, func(n ast.Node) bool {
				edits.Written(n, mark)
				return true
			})
		}
	}
	return c.assigned[v]
}

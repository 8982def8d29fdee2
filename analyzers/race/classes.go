package race

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A class is a kind of race that Go programs have often enough to
// deserve a name: the message starts with it and ends with the fix.
type class struct {
	kind kinds.Kind // its Title begins the message: "captured loop variable"
	hint string     // what to do, or ""
	// fixes are the suggested fixes where the fix is certain (see
	// loopCopyFix).
	fixes []analysis.SuggestedFix
}

// classify names the kind of race r is, if it has a name; a race
// without one is of the kind kinds.DataRace.
func (c *checker) classify(r *report) (class, bool) {
	if isMap(r.loc) {
		return class{kind: kinds.ConcurrentMapAccess}, true
	}
	if appends(r.a) || appends(r.b) {
		return class{kind: kinds.ConcurrentAppend, hint: "append writes the slice header and may write the shared backing array: guard the slice with a lock or collect results through a channel"}, true
	}
	alloc, ok := r.loc.Obj.Site.(*ssa.Alloc)
	if !ok || r.loc.Path() != "" || !captured(alloc, r.a, r.b) {
		return class{kind: kinds.DataRace}, false
	}
	vars := c.variables()
	switch {
	case vars.loop[alloc.Pos()] && c.before122(alloc.Pos()):
		return class{kind: kinds.CapturedLoopVariable,
			hint:  fmt.Sprintf("before Go 1.22 (this file is %s) every iteration shares one %s: pass it to the goroutine as an argument, or copy it in the loop body", c.fileVersion(alloc.Pos()), alloc.Comment),
			fixes: c.loopCopyFix(alloc.Pos())}, true
	case vars.results[alloc.Pos()]:
		return class{kind: kinds.CapturedNamedResult,
			hint: fmt.Sprintf("the goroutine writes the named result %s of the function that started it, which may have returned or be reading it: give the goroutine its own variable", alloc.Comment)}, true
	case alloc.Comment == "err" && types.Identical(alloc.Type().(*types.Pointer).Elem(), errorType):
		return class{kind: kinds.CapturedErr,
			hint: "the goroutine assigns the enclosing function's err: declare its own with :="}, true
	}
	return class{kind: kinds.DataRace}, false
}

// appends reports whether an access is an append, or the store of its
// result back into the slice variable.
func appends(acc pointer.Access) bool {
	if kind(acc) == "append" {
		return true
	}
	if st, ok := acc.Instr.(*ssa.Store); ok {
		if call, ok := st.Val.(*ssa.Call); ok {
			b, ok := call.Call.Value.(*ssa.Builtin)
			return ok && b.Name() == "append"
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

// captured reports whether one of the accesses to a local variable is in
// a function other than the one that declares it: a closure shares it.
func captured(alloc *ssa.Alloc, a, b pointer.Access) bool {
	fn := alloc.Parent()
	return a.Instr.Parent() != fn || b.Instr.Parent() != fn
}

// declared indexes the identifiers that declare loop variables and named
// results in the package's files, by position.
type declared struct {
	loop, results map[token.Pos]bool
}

func (c *checker) variables() *declared {
	if c.vars != nil {
		return c.vars
	}
	d := &declared{loop: make(map[token.Pos]bool), results: make(map[token.Pos]bool)}
	mark := func(m map[token.Pos]bool, exprs ...ast.Expr) {
		for _, e := range exprs {
			if id, ok := e.(*ast.Ident); ok {
				m[id.Pos()] = true
			}
		}
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ForStmt:
				if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
					mark(d.loop, as.Lhs...)
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					mark(d.loop, n.Key, n.Value)
				}
			case *ast.FuncType:
				if n.Results != nil {
					for _, field := range n.Results.List {
						for _, id := range field.Names {
							d.results[id.Pos()] = true
						}
					}
				}
			}
			return true
		})
	}
	c.vars = d
	return d
}

// fileVersion returns the Go version of the file at pos, as "go1.21".
func (c *checker) fileVersion(pos token.Pos) string {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			if v := c.pass.TypesInfo.FileVersions[f]; v != "" {
				return v
			}
		}
	}
	return c.pass.Pkg.GoVersion()
}

// before122 reports whether the file at pos has loop variables shared
// by all iterations.
func (c *checker) before122(pos token.Pos) bool {
	v := c.fileVersion(pos)
	return v != "" && version.Compare(v, "go1.22") < 0
}

// lateAdds reports the WaitGroup.Add calls inside the goroutines the
// group waits for (see shb.Result.LateAdds).
func (c *checker) lateAdds() {
	seen := make(map[token.Pos]bool)
	for _, la := range c.hb.LateAdds {
		add := la.Trace.Events[la.Add].Instr
		wait := la.Waiter.Events[la.Wait].Instr
		if seen[add.Pos()] || !c.inPackage(add.Pos()) || c.ignored.Has(add.Pos()) {
			continue
		}
		if c.order.HappensBefore(la.Trace, la.Add, la.Waiter, la.Wait, false) {
			continue // the goroutine signals the waiter after its Add
		}
		if call, ok := add.(ssa.CallInstruction); !ok || !isWaitGroupAdd(call.Common()) {
			// An Add inside a library function (grpc's Serve) is the
			// library's protocol: its Wait waits for the calls begun.
			continue
		}
		seen[add.Pos()] = true
		wg := "the WaitGroup"
		if call, ok := add.(ssa.CallInstruction); ok && len(call.Common().Args) > 0 {
			if name := shb.ExprName(call.Common().Args[0]); name != "" {
				wg = name
			}
		}
		c.pass.Report(analysis.Diagnostic{
			Pos:      add.Pos(),
			Category: kinds.WaitGroupAddInGoroutine.ID,
			Message: fmt.Sprintf("WaitGroup.Add inside the goroutine: %s.Add at %s runs in the %s, so %s.Wait at %s (%s) may return before it and nothing orders the goroutine before the Wait's return; call Add before the go statement",
				wg, c.pos(add.Pos()), c.goroutine(la.Trace.Origin), wg, c.pos(wait.Pos()), c.goroutine(la.Waiter.Origin)),
			Related:        []analysis.RelatedInformation{{Pos: wait.Pos(), Message: "the Wait"}},
			SuggestedFixes: c.wgAddFix(add.Pos(), la.Trace.Origin),
		})
	}
}

// isWaitGroupAdd reports whether call is wg.Add(n) on a sync.WaitGroup.
func isWaitGroupAdd(call *ssa.CallCommon) bool {
	op, _ := syncapi.WaitGroup(call)
	return op == syncapi.WaitGroupAdd
}

package blocking

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/passes/rules"
	"golang.org/x/tools/go/ssa"
)

// maxCtxDepth bounds how far a context is followed through fields and
// calls to the receives on its Done channel.
const maxCtxDepth = 3

// uncanceled reports a receive from ctx.Done() that blocks forever
// because ctx comes from context.WithCancel over context.Background()
// (or TODO), whose Done only its cancel function closes, and no code
// of the program calls that cancel function: it is dropped, or kept in
// a struct field that nothing reachable calls (a Rollback never run).
// Only in a main package: a library's caller may call what this
// package does not. A cancel function that goes anywhere else (passed
// to a call, captured, returned) is taken to be called.
func (c *checker) uncanceled() {
	library := c.pkg.Pkg.Name() != "main"
	if library && c.why == nil {
		return
	}
	for _, fn := range c.funcs {
		if len(c.ptr.OriginsOf(fn)) == 0 {
			continue // never runs
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !withCancel(call.Call.StaticCallee()) || len(call.Call.Args) == 0 || !c.background(call.Call.Args[0], 0) {
					continue
				}
				ctx, cancel := extract(call, 0), extract(call, 1)
				if ctx == nil {
					continue
				}
				for _, recv := range c.doneReceives(ctx, 0) {
					q := ""
					if c.why.at(recv.Pos()) {
						q = fmt.Sprintf("receive from ctx.Done() blocks forever? the context comes from context.WithCancel at %s over a context that is never done", c.pos(call.Pos()))
					}
					if library {
						c.why.note(recv.Pos(), q, why(rules.LibraryCallers, "the package is a library: an importer may call what it leaves to them, the cancel function too"))
						continue
					}
					if cancel != nil {
						if at, ok := c.mayCall(cancel, recv); ok {
							c.why.note(recv.Pos(), q, why(rules.Partner, "its cancel function may be called: it goes to %s", c.pos(at)))
							continue
						}
					}
					c.report(kinds.ReceiveBlocks, recv, recv.Pos(), c.related(call.Pos(), "the context is made here"),
						"receive from ctx.Done() blocks forever: the context comes from context.WithCancel at %s over a context that is never done, and nothing calls its cancel function",
						c.pos(call.Pos()))
				}
			}
		}
	}
}

// withCancel reports whether fn is context.WithCancel or
// WithCancelCause.
func withCancel(fn *ssa.Function) bool {
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "context" {
		return false
	}
	return fn.Name() == "WithCancel" || fn.Name() == "WithCancelCause"
}

// background reports whether v is context.Background() or TODO(), or
// a parameter that every call in the package passes such a context.
func (c *checker) background(v ssa.Value, depth int) bool {
	switch v := v.(type) {
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "context" && (fn.Name() == "Background" || fn.Name() == "TODO")
	case *ssa.Parameter:
		fn := v.Parent()
		i := slices.Index(fn.Params, v)
		calls := c.callsOf(fn)
		if depth >= maxCtxDepth || len(calls) == 0 {
			return false
		}
		for _, call := range calls {
			args := call.Common().Args
			if i >= len(args) || !c.background(args[i], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// callsOf returns the static calls of fn in the package's code.
func (c *checker) callsOf(fn *ssa.Function) []ssa.CallInstruction {
	if c.calls == nil {
		c.calls = make(map[*ssa.Function][]ssa.CallInstruction)
		for _, f := range c.funcs {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if call, ok := instr.(ssa.CallInstruction); ok {
						if callee := call.Common().StaticCallee(); callee != nil {
							c.calls[callee] = append(c.calls[callee], call)
						}
					}
				}
			}
		}
	}
	return c.calls[fn]
}

// extract returns result i of call, or nil when nothing uses it.
func extract(call *ssa.Call, i int) ssa.Value {
	for _, ref := range *call.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == i {
			return e
		}
	}
	return nil
}

// mayCall reports whether the cancel function v may be called before
// recv is done waiting: called here, or stored in a field that
// reachable code loads, or gone where this does not follow; and where
// it goes (the call, or the load of the field).
func (c *checker) mayCall(v ssa.Value, recv *ssa.UnOp) (token.Pos, bool) {
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			f := fieldVar(ref.Addr)
			if ref.Val != v || f == nil {
				return ref.Pos(), true
			}
			if at, ok := c.fieldUsed(f, recv); ok {
				return at, true
			}
		default:
			return ref.Pos(), true // called, passed, captured, returned
		}
	}
	return token.NoPos, false
}

// fieldUsed reports whether reachable code loads field f and uses what
// it loaded, but for code that runs only after recv in its goroutine:
// a cancel called once the wait is over cancels nothing for it. It
// returns the load.
func (c *checker) fieldUsed(f *types.Var, recv *ssa.UnOp) (token.Pos, bool) {
	for _, fn := range c.funcs {
		if len(c.ptr.OriginsOf(fn)) == 0 || c.onlyAfter(fn, recv) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				load, ok := instr.(*ssa.UnOp)
				if !ok || load.Op != token.MUL || fieldVar(load.X) != f || after(recv, load) {
					continue
				}
				for _, ref := range *load.Referrers() {
					if _, ok := ref.(*ssa.DebugRef); !ok {
						return load.Pos(), true
					}
				}
			}
		}
	}
	return token.NoPos, false
}

// doneReceives returns the receives, outside a select, from the Done
// channel of the context v, followed through the fields it is stored
// in and the calls it is passed to.
func (c *checker) doneReceives(v ssa.Value, depth int) []*ssa.UnOp {
	if depth > maxCtxDepth {
		return nil
	}
	var out []*ssa.UnOp
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if f := fieldVar(ref.Addr); f != nil && ref.Val == v {
				for _, load := range c.fieldLoads(f) {
					out = append(out, c.doneReceives(load, depth+1)...)
				}
			}
		case ssa.CallInstruction:
			call := ref.Common()
			if call.IsInvoke() && call.Value == v && call.Method.Name() == "Done" {
				if res, ok := ref.(*ssa.Call); ok {
					for _, r := range *res.Referrers() {
						if recv, ok := r.(*ssa.UnOp); ok && recv.Op == token.ARROW {
							out = append(out, recv)
						}
					}
				}
				continue
			}
			callee := call.StaticCallee()
			if callee == nil || len(callee.Blocks) == 0 || callee.Pkg != c.pkg {
				continue
			}
			for i, arg := range call.Args {
				if arg == v && i < len(callee.Params) {
					out = append(out, c.doneReceives(callee.Params[i], depth+1)...)
				}
			}
		}
	}
	return out
}

// fieldLoads returns the loads of field f in reachable code.
func (c *checker) fieldLoads(f *types.Var) []ssa.Value {
	var out []ssa.Value
	for _, fn := range c.funcs {
		if len(c.ptr.OriginsOf(fn)) == 0 {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if load, ok := instr.(*ssa.UnOp); ok && load.Op == token.MUL && fieldVar(load.X) == f {
					out = append(out, load)
				}
			}
		}
	}
	return out
}

// after reports whether y runs only after x: x's block dominates y's,
// or x comes first in their block.
func after(x, y ssa.Instruction) bool {
	if x.Parent() != y.Parent() {
		return false
	}
	if x.Block() != y.Block() {
		return x.Block().Dominates(y.Block())
	}
	return slices.Index(x.Block().Instrs, x) < slices.Index(x.Block().Instrs, y)
}

// onlyAfter reports whether every call of fn in the package comes only
// after recv.
func (c *checker) onlyAfter(fn *ssa.Function, recv *ssa.UnOp) bool {
	calls := c.callsOf(fn)
	if len(calls) == 0 || fn == recv.Parent() {
		return false
	}
	for _, call := range calls {
		if !after(recv, call) {
			return false
		}
	}
	return true
}

package effects

import (
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/origins"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A callback that a function of the package keeps (stores into a field
// of a struct, directly, in a function literal that calls it, or
// through a function of the package it hands it to) and that code the
// package's goroutines run calls, loaded from that field, runs later on
// one of the package's goroutines: a message handler given to
// Subscribe, a "closed" handler given to SetClosedHandler. The caller's
// function value runs concurrently with the caller (asyncArgs,
// facts.FuncEffects.Async).

// maxKeepDepth bounds the calls keptIn follows a callback through.
const maxKeepDepth = 3

// calledFields returns the struct fields whose function value code that
// the package's goroutines run loads and calls, found once.
func (s *summarizer) calledFields(ir *buildir.IR) map[*types.Var]bool {
	if s.called != nil {
		return s.called
	}
	s.called = make(map[*types.Var]bool)
	// The functions the package's goroutines run: those its go
	// statements and library spawners start, and their static callees
	// and literals, transitively.
	run := make(map[*ssa.Function]bool)
	var work []*ssa.Function
	add := func(fn *ssa.Function) {
		if fn != nil && len(fn.Blocks) > 0 && !run[fn] {
			run[fn] = true
			work = append(work, fn)
		}
	}
	for _, fn := range ir.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch c := instr.(type) {
				case *ssa.Go:
					add(origins.FuncOf(c.Call.Value))
				case *ssa.Call:
					if callee := c.Call.StaticCallee(); callee != nil {
						if sp, ok := syncapi.Spawn(callee); ok && sp.Arg < len(c.Call.Args) {
							add(origins.FuncOf(c.Call.Args[sp.Arg]))
						}
					}
				}
			}
		}
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				call := c.Common()
				if call.IsInvoke() {
					continue
				}
				if callee := call.StaticCallee(); callee != nil {
					add(callee)
					continue
				}
				for _, f := range loadedFields(call.Value, 0) {
					s.called[f] = true
				}
			}
		}
	}
	return s.called
}

// loadedFields returns the struct fields that v, a function value, is
// loaded from: f := s.cb; if f != nil { f(x) } as well as s.cb(x).
func loadedFields(v ssa.Value, depth int) []*types.Var {
	switch v := v.(type) {
	case *ssa.UnOp:
		if f := lockset.FieldOf(v.X); f != nil && v.Op == token.MUL {
			return []*types.Var{f}
		}
	case *ssa.Field:
		if st, ok := v.X.Type().Underlying().(*types.Struct); ok {
			return []*types.Var{st.Field(v.Field)}
		}
	case *ssa.ChangeType:
		return loadedFields(v.X, depth)
	case *ssa.Phi:
		if depth > 2 {
			return nil
		}
		var out []*types.Var
		for _, e := range v.Edges {
			out = append(out, loadedFields(e, depth+1)...)
		}
		return out
	}
	return nil
}

// asyncArgs returns the parameters of fn (bit i for parameter i, the
// receiver first) that are function values fn keeps where the package's
// goroutines call them (see calledFields).
func (s *summarizer) asyncArgs(fn *ssa.Function, ir *buildir.IR) uint64 {
	var bits uint64
	for i, p := range fn.Params {
		if i >= 64 {
			break
		}
		if _, ok := p.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		called := s.calledFields(ir)
		for _, f := range keptIn(p, 0, make(map[ssa.Value]bool)) {
			if called[f] {
				bits |= 1 << i
				break
			}
		}
	}
	return bits
}

// keptIn returns the struct fields that v, a function value, is stored
// into: directly, as a function literal that captures it, or through a
// function of the package that v is passed to.
func keptIn(v ssa.Value, depth int, seen map[ssa.Value]bool) []*types.Var {
	if seen[v] || depth > maxKeepDepth {
		return nil
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var out []*types.Var
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.Store:
			if f := lockset.FieldOf(ref.Addr); f != nil && ref.Val == v {
				out = append(out, f)
			}
		case *ssa.ChangeType:
			out = append(out, keptIn(ref, depth, seen)...)
		case *ssa.MakeClosure:
			out = append(out, keptIn(ref, depth+1, seen)...)
		case ssa.CallInstruction:
			call := ref.Common()
			callee := call.StaticCallee()
			if callee == nil || len(callee.Blocks) == 0 || call.IsInvoke() {
				continue
			}
			for j, a := range call.Args {
				if a == v && j < len(callee.Params) {
					out = append(out, keptIn(callee.Params[j], depth+1, seen)...)
				}
			}
		}
	}
	return out
}

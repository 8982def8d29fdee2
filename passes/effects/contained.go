package effects

import (
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A contained parameter is a channel, *sync.WaitGroup or *sync.Cond that
// a function, and the functions it calls, use for nothing but the
// synchronization operations its effect lists: they store it nowhere,
// start no goroutine with it, capture it in no closure and hand it to no
// code without a summary. An importer that gives the function its
// channel still sees every operation on it, so the channel has not
// escaped (package blocking judges its partners).

// contained returns the contained parameters of fn, bit i for parameter
// i (the receiver first), or 0 when fn's effect is cut (facts.MaxSyncs)
// or fn is being summarized (a recursive call).
func (s *summarizer) contained(fn *ssa.Function) uint64 {
	if bits, ok := s.containedDone[fn]; ok {
		return bits
	}
	s.containedDone[fn] = 0
	syncs := 0
	for _, e := range s.effectsOf(fn) {
		if e.sync != 0 {
			syncs++
		}
	}
	if syncs >= facts.MaxSyncs {
		return 0
	}
	var bits uint64
	for i, p := range fn.Params {
		if i < 64 && syncParam(p.Type()) && s.onlySyncs(p, 0) {
			bits |= 1 << i
		}
	}
	s.containedDone[fn] = bits
	return bits
}

// skipsDone returns the contained *sync.WaitGroup parameters of fn that
// a path of fn returns on without a Done on them: one through no block
// that calls Done on the parameter or passes it to a call, when no Done
// of it is deferred.
func skipsDone(fn *ssa.Function, contained uint64) uint64 {
	var bits uint64
	for i, p := range fn.Params {
		if i >= 64 || contained&(1<<i) == 0 || !syncapi.PointerTo(p.Type(), "WaitGroup") {
			continue
		}
		done := make(map[*ssa.BasicBlock]bool)
		deferred := false
		for _, r := range *p.Referrers() {
			switch r := r.(type) {
			case *ssa.Defer:
				deferred = true
			case ssa.CallInstruction:
				done[r.Block()] = true
			}
		}
		if !deferred && len(done) > 0 && returnsAvoiding(fn, done) {
			bits |= 1 << i
		}
	}
	return bits
}

// returnsAvoiding reports whether a path from fn's entry reaches a
// return through none of the blocks of avoid.
func returnsAvoiding(fn *ssa.Function, avoid map[*ssa.BasicBlock]bool) bool {
	if len(fn.Blocks) == 0 || avoid[fn.Blocks[0]] {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{fn.Blocks[0]: true}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return true
		}
		for _, s := range b.Succs {
			if !seen[s] && !avoid[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// syncParam reports whether t is a channel, *sync.WaitGroup or
// *sync.Cond.
func syncParam(t types.Type) bool {
	_, isChan := t.Underlying().(*types.Chan)
	return isChan || syncapi.PointerTo(t, "WaitGroup", "Cond")
}

// onlySyncs reports whether every use of v is a synchronization
// operation on it that the effect lists or a call that passes it to a
// contained parameter. A select is none: the effect does not list its
// cases, which may not happen.
func (s *summarizer) onlySyncs(v ssa.Value, depth int) bool {
	if depth > 2 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Send:
			if r.X == v {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
		case *ssa.ChangeType:
			if !s.onlySyncs(r, depth+1) {
				return false
			}
		case *ssa.FieldAddr:
			if !condLocker(r) {
				return false
			}
		case *ssa.Call:
			if !s.passesContained(r.Common(), v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// passesContained reports whether call uses v as a synchronization
// operation does (close, len, a WaitGroup or Cond method) or passes it
// only to parameters its callee contains.
func (s *summarizer) passesContained(call *ssa.CallCommon, v ssa.Value) bool {
	if call.Value == v || call.IsInvoke() {
		return false
	}
	switch fn := call.Value.(type) {
	case *ssa.Builtin:
		switch fn.Name() {
		case "close", "len", "cap":
			return true
		}
		return false
	case *ssa.Function:
		if op, wg := syncapi.WaitGroup(call); op != syncapi.NotWaitGroup && wg == v {
			return true
		}
		if op, cond := syncapi.Cond(call); op != syncapi.NotCond && cond == v {
			return true
		}
		var bits uint64
		switch {
		case len(fn.Blocks) > 0 && fn.Pkg != nil && !buildir.Imported(fn):
			bits = s.contained(fn)
		default:
			eff, _, ok := s.imported(call)
			if !ok {
				return false
			}
			bits = eff.fn.Contained
		}
		for i, a := range call.Args {
			if a == v && (i >= 64 || bits&(1<<i) == 0) {
				return false
			}
		}
		return true
	}
	return false
}

// condLocker reports whether fa is c.L of a *sync.Cond, loaded only to
// lock and unlock it.
func condLocker(fa *ssa.FieldAddr) bool {
	if !syncapi.PointerTo(fa.X.Type(), "Cond") {
		return false
	}
	for _, r := range *fa.Referrers() {
		load, ok := r.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return false
		}
		for _, u := range *load.Referrers() {
			call, ok := u.(*ssa.Call)
			if !ok || !call.Call.IsInvoke() || call.Call.Value != load {
				return false
			}
		}
	}
	return true
}

package lockset_test

import (
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"
)

// held is a test-only analyzer that reports the must-held lockset of
// Result.Before at each call of a sync.Mutex or sync.RWMutex method
// ("Lock: held {g:basic.mu}", "defer Unlock: ..."), where deferred calls
// run ("defers run: ...", at the return that follows), and at each
// return but the recover block's ("return: ..."; an
// implicit return is reported at the function's closing brace).
var held = &analysis.Analyzer{
	Name:       "held",
	Doc:        "report the locks lockset says are held (test only)",
	Requires:   []*analysis.Analyzer{buildir.Analyzer, lockset.Analyzer},
	ResultType: reflect.TypeFor[struct{}](),
	Run:        runHeld,
}

var opNames = map[syncapi.LockOp]string{
	syncapi.Lock: "Lock", syncapi.RLock: "RLock", syncapi.Unlock: "Unlock",
	syncapi.RUnlock: "RUnlock", syncapi.TryLock: "TryLock", syncapi.TryRLock: "TryRLock",
}

func runHeld(pass *analysis.Pass) (any, error) {
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	ls := pass.ResultOf[lockset.Analyzer].(*lockset.Result)
	for _, fn := range ir.SrcFuncs {
		for _, b := range fn.Blocks {
			if b == fn.Recover {
				continue // reached by a panic only
			}
			for i, instr := range b.Instrs {
				var what string
				pos := instr.Pos()
				switch instr := instr.(type) {
				case ssa.CallInstruction:
					op, _ := syncapi.MutexOp(instr.Common())
					if op == syncapi.NoLockOp {
						continue
					}
					what = opNames[op]
					if _, ok := instr.(*ssa.Defer); ok {
						what = "defer " + what
					}
				case *ssa.RunDefers:
					what = "defers run"
					for _, next := range b.Instrs[i+1:] {
						if ret, ok := next.(*ssa.Return); ok {
							pos = ret.Pos() // the return that follows
						}
					}
				case *ssa.Return:
					what = "return"
				default:
					continue
				}
				if !pos.IsValid() {
					pos = endOf(fn)
				}
				pass.Reportf(pos, "%s: held %s", what, render(ls.Before(instr)))
			}
		}
	}
	return struct{}{}, nil
}

// endOf returns the closing brace of fn's body, where its implicit
// return is reported.
func endOf(fn *ssa.Function) token.Pos {
	switch syn := fn.Syntax().(type) {
	case *ast.FuncDecl:
		return syn.Body.Rbrace
	case *ast.FuncLit:
		return syn.Body.Rbrace
	}
	return fn.Pos()
}

// render renders a lockset as "{p0.0, g:basic.rw read}", in the Set's
// order (by key). "read" marks a lock held by RLock only, "unsure" one
// that a call the analysis cannot see into may have released.
func render(s lockset.Set) string {
	var elems []string
	for _, h := range s {
		e := renderKey(h.Key)
		if h.Read {
			e += " read"
		}
		if h.Unsure {
			e += " unsure"
		}
		elems = append(elems, e)
	}
	return "{" + strings.Join(elems, ", ") + "}"
}

// renderKey renders a lock key (see lockset.Held.Key) for the messages
// and the want comments. It is the one place that knows the keys' shape:
// today a root ("p0", "fv1", "g:pkg.name", "v:t3"), "|", and a path
// (".0" a field's address, "@" a load, ...). It drops the "|", which a
// want comment's regexp would read as an alternation: "p0|.0" is "p0.0".
func renderKey(k facts.Key) string {
	return strings.Replace(k.String(), "|", "", 1)
}

// TestHeld checks the locksets at lock operations and returns.
func TestHeld(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), held, "basic", "helpers", "branch", "closure", "needlock", "transfer", "txfield", "spin")
}

// TestImportedLocks checks that an importer applies the locks that a
// function of another package leaves held or releases, through the
// facts.Locks that lockset exports for it.
func TestImportedLocks(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), held, "effects/app", "needlock/app")
}

// TestLocksFact checks the facts.Locks package fact that lockset
// exports for effects/lib, rendered with short positions. (Line 1 of
// lib.go wants a package fact; analysistest matches its pattern against
// the PackageFact, "{package lib ("effects/lib") 0x...}", not against
// the fact, so the check of its contents is here.)
func TestLocksFact(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockset.Analyzer, "effects/lib")
	var got []string
	for _, r := range results {
		if r.Pass.Pkg.Path() != "effects/lib" {
			continue
		}
		for _, f := range r.Facts[nil] {
			if set, ok := f.(*facts.Locks); ok {
				got = append(got, renderLocks(set)...)
			}
		}
	}
	want := []string{
		"func (*effects/lib.Counter).Inc",
		"  takes {p0.0 at lib.go:21}",
		"func (*effects/lib.Counter).Lock",
		"  acquires {p0.0}",
		"  takes {p0.0 at lib.go:14}",
		"func (*effects/lib.Counter).ResetAsync",
		"  releases {p0.0}",
		"func (*effects/lib.Counter).Unlock",
		"  releases {p0.0}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("locks of effects/lib:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLocksFactConditions checks that the facts.Locks of needlock/lib
// says under which values of their boolean parameters its functions
// take a lock: Remove when p1 (needLock), Get when not (hasLock),
// RemoveAs when its own p1, RemoveLocked never. None releases the lock
// for its caller: each unlocks only what it locked itself.
func TestLocksFactConditions(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockset.Analyzer, "needlock/lib")
	var got []string
	for _, r := range results {
		for _, f := range r.Facts[nil] {
			if set, ok := f.(*facts.Locks); ok {
				got = append(got, renderLocks(set)...)
			}
		}
	}
	want := []string{
		"func (*needlock/lib.Store).Get",
		"  takes {p0.0 at lib.go:25 if !p1}",
		"func (*needlock/lib.Store).Lock",
		"  acquires {p0.0}",
		"  takes {p0.0 at lib.go:38}",
		"func (*needlock/lib.Store).Remove",
		"  takes {p0.0 at lib.go:16 if p1}",
		"func (*needlock/lib.Store).RemoveAs",
		"  takes {p0.0 at lib.go:16 if p1}",
		"func (*needlock/lib.Store).Unlock",
		"  releases {p0.0}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("locks of needlock/lib:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// renderWhen renders the condition of a lock taken or released, " if
// p2 && !p3", or "" for always.
func renderWhen(when []facts.ParamIs) string {
	var lits []string
	for _, p := range when {
		l := "p" + strconv.Itoa(p.Param())
		if !p.Value() {
			l = "!" + l
		}
		lits = append(lits, l)
	}
	if len(lits) == 0 {
		return ""
	}
	return " if " + strings.Join(lits, " && ")
}

// renderLocks renders a Locks fact, one line per function and one per
// set of locks it acquires, releases and takes.
func renderLocks(set *facts.Locks) []string {
	if !set.Valid() {
		return []string{"invalid version"}
	}
	locks := func(hs []facts.HeldLock) string {
		var elems []string
		for _, h := range hs {
			e := renderKey(set.Key(h.Key))
			if h.Read {
				e += " read"
			}
			if p := set.Str(h.Pos); p != "" {
				e += " at " + facts.ShortPos(p)
			}
			e += renderWhen(h.When)
			elems = append(elems, e)
		}
		return "{" + strings.Join(elems, ", ") + "}"
	}
	var out []string
	for _, fl := range set.Funcs {
		out = append(out, "func "+set.Str(fl.Name))
		if len(fl.Acquires) > 0 {
			out = append(out, "  acquires "+locks(fl.Acquires))
		}
		if len(fl.Releases) > 0 {
			out = append(out, "  releases "+locks(fl.Releases))
		}
		if len(fl.Takes) > 0 {
			out = append(out, "  takes "+locks(fl.Takes))
		}
	}
	return out
}

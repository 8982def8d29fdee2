package pointer_test

import (
	"go/constant"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"
)

func TestConstructs(t *testing.T) {
	checkAssertions(t, analysistest.TestData(), "constructs")
}

func TestSharing(t *testing.T) {
	checkAssertions(t, analysistest.TestData(), "sharing")
}

// TestCrossPackage checks that importers apply the summaries that
// package lib exports.
func TestCrossPackage(t *testing.T) {
	checkAssertions(t, analysistest.TestData(), "xpkg/app")
}

// TestCrossPackageDegraded checks that importers still apply lib's
// summaries when lib is past the summaries' bounds and each of its
// exported functions is summarized apart.
func TestCrossPackageDegraded(t *testing.T) {
	defer pointer.ForceSummaryGroups()()
	checkAssertions(t, analysistest.TestData(), "xpkg/app")
}

// TestKnownFalseNegatives pins what summaries do not carry yet.
func TestKnownFalseNegatives(t *testing.T) {
	checkAssertions(t, analysistest.TestData(), "xpkg/knownfn")
}

// TestLoopVar checks a loop variable captured by goroutines under both
// semantics: one variable for the loop (go 1.21 modules) is shared, one
// per iteration (go 1.22) is not.
func TestLoopVar(t *testing.T) {
	for _, dir := range []string{"loopvar121", "loopvar122"} {
		t.Run(dir, func(t *testing.T) {
			checkAssertions(t, filepath.Join(analysistest.TestData(), dir), "./...")
		})
	}
}

// checkAssertions runs the analysis on the packages and checks every
// call of the pta package's assertions in them.
func checkAssertions(t *testing.T, dir string, patterns ...string) {
	t.Helper()
	results := analysistest.Run(t, dir, pointer.Analyzer, patterns...)
	checked := 0
	for _, r := range results {
		res, ok := r.Result.(*pointer.Result)
		if !ok || r.Err != nil {
			continue
		}
		if res.Stats.Clamped > 0 {
			t.Errorf("%s: %d constraints ran past their blocks", r.Pass.Pkg.Path(), res.Stats.Clamped)
		}
		ir := r.Pass.ResultOf[buildir.Analyzer].(*buildir.IR)
		fset := r.Pass.Fset
		for _, fn := range ir.SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(*ssa.Call)
					if !ok {
						continue
					}
					callee := call.Call.StaticCallee()
					if callee == nil || callee.Object() == nil || callee.Object().Pkg() == nil || callee.Object().Pkg().Name() != "pta" {
						continue
					}
					checked++
					if msg := check(res, callee.Name(), call.Call.Args); msg != "" {
						t.Errorf("%s: pta.%s: %s", fset.Position(call.Pos()), callee.Name(), msg)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no assertions found")
	}
	t.Logf("%d assertions", checked)
}

// check evaluates one assertion and returns what is wrong, or "".
func check(res *pointer.Result, name string, args []ssa.Value) string {
	pts := func(v ssa.Value) []pointer.Location {
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		return res.PointsTo(v)
	}
	show := func(locs []pointer.Location) string {
		var s []string
		for _, l := range locs {
			s = append(s, l.String())
		}
		return "{" + strings.Join(s, ", ") + "}"
	}
	x := pts(args[0])
	if name == "MissedAlias" {
		for _, l := range x {
			for _, m := range pts(args[1]) {
				if l == m {
					return "the analysis now finds this alias: make it a MayAlias"
				}
			}
		}
		return ""
	}
	if name == "PointsToNothing" {
		if len(x) > 0 {
			return "x → " + show(x) + ", want nothing"
		}
		return ""
	}
	if len(x) == 0 {
		return "the first argument points to nothing"
	}
	switch name {
	case "MayAlias", "NoAlias":
		y := pts(args[1])
		if len(y) == 0 {
			return "the second argument points to nothing"
		}
		common := false
		for _, l := range x {
			for _, m := range y {
				common = common || l == m
			}
		}
		if common != (name == "MayAlias") {
			return "x → " + show(x) + ", y → " + show(y)
		}
	case "PointsTo":
		want := constant.StringVal(args[1].(*ssa.Const).Value)
		got := show(x)
		got = got[1 : len(got)-1]
		if !regexp.MustCompile("^(" + want + ")$").MatchString(got) {
			return "got " + got + ", want " + want
		}
	case "Shared", "NotShared":
		shared := false
		for _, l := range x {
			shared = shared || res.IsShared(l)
		}
		if shared != (name == "Shared") {
			return "x → " + show(x) + "; accesses: " + accesses(res, x)
		}
	case "SharedByGoroutines", "NotSharedByGoroutines":
		if sharedBySpawned(res, x) != (name == "SharedByGoroutines") {
			return "x → " + show(x) + "; accesses: " + accesses(res, x)
		}
	}
	return ""
}

// sharedBySpawned reports whether two started goroutines (not roots)
// access one of locs, one of them writing.
func sharedBySpawned(res *pointer.Result, locs []pointer.Location) bool {
	for _, l := range locs {
		var origins []*pointer.Origin
		write := false
		for _, acc := range res.Accesses() {
			if acc.Loc != l || acc.Origin.Parent == nil {
				continue
			}
			write = write || acc.Write
			if !slices.Contains(origins, acc.Origin) {
				origins = append(origins, acc.Origin)
			}
		}
		if write && len(origins) >= 2 {
			return true
		}
	}
	return false
}

// accesses describes the accesses to locs, for failure messages.
func accesses(res *pointer.Result, locs []pointer.Location) string {
	var out []string
	for _, acc := range res.Accesses() {
		for _, l := range locs {
			if acc.Loc == l {
				kind := "read"
				if acc.Write {
					kind = "write"
				}
				p := acc.Instr.Parent().Prog.Fset.Position(acc.Pos())
				out = append(out, kind+" in "+acc.Origin.String()+" at "+posString(p))
			}
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

func posString(p token.Position) string {
	return p.String()[strings.LastIndex(p.Filename, "/")+1:]
}

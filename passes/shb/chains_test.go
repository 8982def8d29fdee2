package shb_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"
)

// chainsOf is a test-only analyzer whose Result is, for each event of
// the main goroutine at a store in leaf, whether Frames tells its chain
// and the chains AllFrames gives, each as its call sites' lines.
var chainsOf = &analysis.Analyzer{
	Name:       "shbchains",
	Doc:        "list the chains of calls of leaf's store (test only)",
	Requires:   []*analysis.Analyzer{shb.Analyzer},
	ResultType: reflect.TypeFor[[]string](),
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[shb.Analyzer].(*shb.Result)
		var out []string
		for _, t := range res.Traces {
			if t.Origin.Entry == nil || t.Origin.Entry.Name() != "main" || t.Origin.Parent != nil {
				continue
			}
			for id, ev := range t.Events {
				st, ok := ev.Instr.(*ssa.Store)
				if ev.Kind != shb.Access || !ok || st.Parent().Name() != "leaf" {
					continue
				}
				_, one := t.Frames(int32(id))
				all, ok := t.AllFrames(int32(id))
				line := []string{"frames:" + map[bool]string{true: "one", false: "several"}[one]}
				if !ok {
					line = append(line, "unknown")
				}
				for _, fr := range all {
					var sites []string
					for _, f := range fr {
						if f.Site == nil {
							sites = append(sites, f.Fn.Name())
							continue
						}
						sites = append(sites, f.Fn.Name()+"@"+pass.Fset.Position(f.Site.Pos()).String()[strings.LastIndex(pass.Fset.Position(f.Site.Pos()).String(), "/")+1:])
					}
					line = append(line, strings.Join(sites, ">"))
				}
				out = append(out, strings.Join(line, " | "))
			}
		}
		slices.Sort(out)
		return out, nil
	},
}

// TestAllFrames checks that the event of a helper whose second call was
// skipped as the same walk stands for both chains of calls: Frames does
// not tell one, AllFrames gives both.
func TestAllFrames(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), chainsOf, "chains")
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	got := results[0].Result.([]string)
	want := []string{"frames:several | main>mid@chains.go:14:5>leaf@chains.go:10:24 | main>mid@chains.go:15:5>leaf@chains.go:10:24"}
	if !slices.Equal(got, want) {
		t.Errorf("chains of leaf's store:\n got %q\nwant %q", got, want)
	}
}

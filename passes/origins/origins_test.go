package origins_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/origins"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// perFunc shows the summaries that origins exports in its package's
// OriginsTable as an object fact on each function, for the fixtures'
// "// want Name:`origins(...)`" to check function by function. What
// travels between packages is the table: a summary checked in an
// importer (TestChain) came through it.
var perFunc = &analysis.Analyzer{
	Name:       "originsfacts",
	Doc:        "test: the origins summaries as object facts",
	Requires:   []*analysis.Analyzer{origins.Analyzer},
	FactTypes:  []analysis.Fact{new(facts.Origins)},
	ResultType: reflect.TypeFor[*origins.Result](),
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[origins.Analyzer].(*origins.Result)
		for _, e := range res.Exported {
			pass.ExportObjectFact(e.Func, e.Fact)
		}
		return res, nil
	},
}

// TestChain checks that origins started in c reach a through b, which a
// imports and c does not: b's facts must carry them.
func TestChain(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/chain")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, perFunc, "./...")
}

// TestSpawns checks the summaries of the fixtures' functions (their
// wants), and the roots that the Result lists for the test package of
// roots. The fixtures share one run, which analyzes their imports
// (spawns' testing, roots' test binary) again each time.
func TestSpawns(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), perFunc, "spawns", "nested", "generic", "roots")
	var got []string
	for _, r := range results {
		if r.Action.Package.ID != "roots [roots.test]" || r.Err != nil {
			continue
		}
		for _, root := range r.Result.(*origins.Result).Roots {
			s := root.Kind.String() + " " + root.Func.Name()
			if root.Parallel {
				s += " parallel"
			}
			if root.Origins != nil {
				s += " " + root.Origins.String()
			}
			got = append(got, s)
		}
	}
	want := []string{
		"init init",
		"test TestSerial",
		"test TestParallel parallel",
		"benchmark BenchmarkX origins(b.RunParallel roots.BenchmarkX$1 roots_test.go:16 multi sync)",
		"fuzz FuzzX origins(f.Fuzz roots.FuzzX$1 roots_test.go:20 sync)",
		"test Test",
		"concurrent method Inc",
		"concurrent method Load",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("roots:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

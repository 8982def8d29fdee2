package origins_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/origo-dev/origo/passes/origins"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestChain checks that origins started in c reach a through b, which a
// imports and c does not: b's facts must carry them.
func TestChain(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/chain")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, origins.Analyzer, "./...")
}

func TestSpawns(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), origins.Analyzer, "spawns", "nested", "generic")
}

// TestRoots checks the roots that the Result lists for a test package.
func TestRoots(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), origins.Analyzer, "roots")
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

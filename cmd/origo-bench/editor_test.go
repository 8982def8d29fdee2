package main

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/golangci"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// TestVetSuite checks that vetSuite is the suite of the go vet of this
// toolchain: the analyzer packages that $GOROOT/src/cmd/vet/main.go
// imports.
func TestVetSuite(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(strings.TrimSpace(string(goroot)), "src", "cmd", "vet", "main.go")
	if _, err := os.Stat(main); err != nil {
		t.Skipf("no source of cmd/vet: %v", err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), main, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	const passes = "golang.org/x/tools/go/analysis/passes/"
	var want, got []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if strings.HasPrefix(p, passes) {
			want = append(want, path.Base(p))
		}
	}
	for _, a := range vetSuite {
		// An analyzer's name may differ from its package's
		// (composites, copylocks): take the package of its Run.
		fn := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()).Name()
		pkg, _, _ := strings.Cut(path.Base(fn), ".")
		got = append(got, pkg)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("vetSuite:\n%s\ncmd/vet:\n%s", strings.Join(got, " "), strings.Join(want, " "))
	}
}

// TestOrigoSuite checks that the editor benchmark measures, and the
// golangci benchmark's .golangci.yml spells out, the analyzers that
// origo's golangci-lint plugin runs by default: the suite a user gets.
func TestOrigoSuite(t *testing.T) {
	p, err := golangci.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defaults, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, a := range defaults {
		want = append(want, a.Name)
	}
	for _, a := range origoSuite {
		got = append(got, a.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("origoSuite %v, want the plugin's defaults %v", got, want)
	}
	if line := "analyzers: [" + strings.Join(want, ", ") + "]\n"; !strings.Contains(golangciConfig("issues.json"), line) {
		t.Errorf(".golangci.yml lacks %q:\n%s", line, golangciConfig("issues.json"))
	}
}

// TestEditorMeasure measures both suites on the demo: a time for its
// package, nothing failed, and the dependencies' time apart.
func TestEditorMeasure(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule | packages.NeedForTest, Dir: dir, Tests: true}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	roots, _ := editorRoots(pkgs)
	if len(roots) != 1 || roots[0].PkgPath != "github.com/origo-dev/origo/testdata/demo" {
		t.Fatalf("roots %v, want the demo", roots)
	}
	for name, analyzers := range map[string][]*analysis.Analyzer{"go vet": vetSuite, "origo": origoSuite} {
		r, err := editorMeasure(analyzers, roots)
		if err != nil {
			t.Fatal(err)
		}
		if r.failed > 0 || r.perPkg[roots[0]] <= 0 || r.deps <= 0 || len(r.perPkg) != 1 {
			t.Errorf("%s: %d failed, %s on the demo, %s on its dependencies, %d packages timed", name, r.failed, r.perPkg[roots[0]], r.deps, len(r.perPkg))
		}
	}
}

package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/origo-dev/origo/analyzers/suite"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/appends"
	"golang.org/x/tools/go/analysis/passes/asmdecl"
	"golang.org/x/tools/go/analysis/passes/assign"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/bools"
	"golang.org/x/tools/go/analysis/passes/buildtag"
	"golang.org/x/tools/go/analysis/passes/cgocall"
	"golang.org/x/tools/go/analysis/passes/composite"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/defers"
	vetdirective "golang.org/x/tools/go/analysis/passes/directive"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/framepointer"
	"golang.org/x/tools/go/analysis/passes/hostport"
	"golang.org/x/tools/go/analysis/passes/httpresponse"
	"golang.org/x/tools/go/analysis/passes/ifaceassert"
	"golang.org/x/tools/go/analysis/passes/loopclosure"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/nilfunc"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/shift"
	"golang.org/x/tools/go/analysis/passes/sigchanyzer"
	"golang.org/x/tools/go/analysis/passes/slog"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/stdversion"
	"golang.org/x/tools/go/analysis/passes/stringintconv"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/tests"
	"golang.org/x/tools/go/analysis/passes/timeformat"
	"golang.org/x/tools/go/analysis/passes/unmarshal"
	"golang.org/x/tools/go/analysis/passes/unreachable"
	"golang.org/x/tools/go/analysis/passes/unsafeptr"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
	"golang.org/x/tools/go/analysis/passes/waitgroup"
	"golang.org/x/tools/go/packages"
)

// The editor benchmark measures what an editor would pay to run origo
// as the user types. gopls, like go vet, analyzes one package at a time
// with its dependencies' facts already computed and cached, so what
// counts is the time of the analysis actions on the edited package
// itself, not the cold run over the whole module: for each package, the
// sum of the durations that the checker records for the actions (one
// analyzer on one package, requirements included) on that package. The
// reference is the go vet suite, measured the same way in the same run.

// origoSuite is what origo reports with: the analyzers of the golangci
// plugin and of the command, without the debugging dump.
var origoSuite = suite.Analyzers

// vetSuite is the go vet suite of Go 1.26, as $GOROOT/src/cmd/vet/main.go
// lists it (TestVetSuite checks that it still does).
var vetSuite = []*analysis.Analyzer{
	appends.Analyzer,
	asmdecl.Analyzer,
	assign.Analyzer,
	atomic.Analyzer,
	bools.Analyzer,
	buildtag.Analyzer,
	cgocall.Analyzer,
	composite.Analyzer,
	copylock.Analyzer,
	defers.Analyzer,
	vetdirective.Analyzer,
	errorsas.Analyzer,
	framepointer.Analyzer,
	httpresponse.Analyzer,
	hostport.Analyzer,
	ifaceassert.Analyzer,
	loopclosure.Analyzer,
	lostcancel.Analyzer,
	nilfunc.Analyzer,
	printf.Analyzer,
	shift.Analyzer,
	sigchanyzer.Analyzer,
	slog.Analyzer,
	stdmethods.Analyzer,
	stdversion.Analyzer,
	stringintconv.Analyzer,
	structtag.Analyzer,
	tests.Analyzer,
	testinggoroutine.Analyzer,
	timeformat.Analyzer,
	unmarshal.Analyzer,
	unreachable.Analyzer,
	unsafeptr.Analyzer,
	unusedresult.Analyzer,
	waitgroup.Analyzer,
}

// editorRun is one run of one suite: each package's analysis time, the
// analyzer that took most of it, and the time spent on the packages the
// module depends on (paid once, then cached by an editor).
type editorRun struct {
	perPkg map[*packages.Package]time.Duration
	top    map[*packages.Package]string // the analyzer with the largest share, with its share
	deps   time.Duration
	failed int // root actions that failed
}

// benchEditor loads a corpus module and measures, per package, the
// analysis time of origo's suite and of go vet's.
func benchEditor(args []string) error {
	fs := flag.NewFlagSet("editor", flag.ExitOnError)
	module := fs.String("module", "grpc", "measure the corpus module whose path contains this string")
	runs := fs.Int("n", 3, "number of runs of each suite")
	keep := fs.String("keep", "", "prepare the scratch module in this directory and keep it for later runs")
	withTests := fs.Bool("test", true, "analyze the packages with their tests, as origo does by default")
	fs.Parse(args)
	if fs.NArg() > 0 || *runs < 1 {
		usage()
	}
	var m realModule
	for _, c := range corpusModules {
		if strings.Contains(c.path, *module) {
			m = c
			break
		}
	}
	if m.path == "" {
		return fmt.Errorf("no corpus module matches %q", *module)
	}
	tmp, root, err := scratch(*keep, "modules")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(root, strings.ReplaceAll(m.path, "/", "_")+"@"+m.version)
	if err := prepareModule(m, dir); err != nil {
		return err
	}

	start := time.Now()
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule | packages.NeedForTest,
		Dir:   dir,
		Tests: *withTests,
		Env:   append(os.Environ(), "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return err
	}
	roots, broken := editorRoots(pkgs)
	if len(roots) == 0 {
		return fmt.Errorf("no package of %s loads without errors", m.path)
	}
	fmt.Printf("editor: %s@%s, %d packages (test variants where there are tests; %d left out with errors), loaded in %s\n",
		m.path, m.version, len(roots), broken, round(time.Since(start)))
	fmt.Printf("per package: the checker's action durations on it (sequential), its dependencies' facts already computed; %d runs each, alternating\n\n", *runs)

	suites := []struct {
		name      string
		analyzers []*analysis.Analyzer
	}{{"go vet", vetSuite}, {"origo", origoSuite}}
	results := make([][]editorRun, len(suites))
	for range *runs {
		for i, s := range suites {
			runtime.GC()
			r, err := editorMeasure(s.analyzers, roots)
			if err != nil {
				return err
			}
			if r.failed > 0 {
				fmt.Fprintf(os.Stderr, "warning: %s: %d analyses failed\n", s.name, r.failed)
			}
			results[i] = append(results[i], r)
		}
	}
	printEditor(suites[0].name, suites[1].name, results[0], results[1], roots)
	if *keep != "" {
		fmt.Printf("\nscratch module kept in %s\n", dir)
	}
	return nil
}

// editorRoots returns the packages to measure, one per package as origo
// analyzes them (the test variant where there is one, the external test
// package apart), and how many were left out for their errors.
func editorRoots(pkgs []*packages.Package) (roots []*packages.Package, broken int) {
	hasTestVariant := make(map[string]bool)
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasTestVariant[p.PkgPath] = true
		}
	}
	for _, p := range pkgs {
		switch {
		case p.Name == "main" && strings.HasSuffix(p.ID, ".test"):
			continue // the synthesized testmain: not a package of the module
		case p.ForTest == "" && hasTestVariant[p.PkgPath]:
			continue // analyzed as its test variant
		case len(p.Errors) > 0 || p.IllTyped:
			broken++
			continue
		}
		roots = append(roots, p)
	}
	return roots, broken
}

// editorMeasure runs analyzers on roots, sequentially so that each
// action's duration is its own (the checker notes that in parallel GC
// and scheduling inflate them several times), and sums the durations by
// package.
func editorMeasure(analyzers []*analysis.Analyzer, roots []*packages.Package) (editorRun, error) {
	graph, err := checker.Analyze(analyzers, roots, &checker.Options{Sequential: true})
	if err != nil {
		return editorRun{}, err
	}
	isRoot := make(map[*packages.Package]bool)
	for _, p := range roots {
		isRoot[p] = true
	}
	r := editorRun{perPkg: make(map[*packages.Package]time.Duration), top: make(map[*packages.Package]string)}
	byAnalyzer := make(map[*packages.Package]map[string]time.Duration)
	for act := range graph.All() {
		if !isRoot[act.Package] {
			r.deps += act.Duration
			continue
		}
		r.perPkg[act.Package] += act.Duration
		if byAnalyzer[act.Package] == nil {
			byAnalyzer[act.Package] = make(map[string]time.Duration)
		}
		byAnalyzer[act.Package][act.Analyzer.Name] += act.Duration
		if act.IsRoot && act.Err != nil {
			r.failed++
		}
	}
	for p, times := range byAnalyzer {
		var name string
		for n, d := range times {
			if name == "" || d > times[name] || d == times[name] && n < name {
				name = n
			}
		}
		r.top[p] = fmt.Sprintf("%s %d%%", name, int(100*times[name]/max(r.perPkg[p], 1)))
	}
	return r, nil
}

// editorFigures are the per-package figures of one run.
type editorFigures struct{ median, p90, max, total, deps time.Duration }

func figuresOf(r editorRun) editorFigures {
	var ds []time.Duration
	var total time.Duration
	for _, d := range r.perPkg {
		ds = append(ds, d)
		total += d
	}
	slices.Sort(ds)
	return editorFigures{
		median: ds[len(ds)/2],
		p90:    ds[min(len(ds)-1, len(ds)*9/10)],
		max:    ds[len(ds)-1],
		total:  total,
		deps:   r.deps,
	}
}

// printEditor prints, for the reference suite and origo, the min and
// median over runs of the per-package median, 90th percentile and
// maximum, the module's total and the dependencies' one-time cost, with
// origo's ratio to the reference; then origo's five slowest packages.
func printEditor(refName, name string, ref, runs []editorRun, roots []*packages.Package) {
	stat := func(rs []editorRun, f func(editorFigures) time.Duration) (lo, mid time.Duration) {
		var ds []time.Duration
		for _, r := range rs {
			ds = append(ds, f(figuresOf(r)))
		}
		return slices.Min(ds), median(ds)
	}
	cols := []struct {
		name string
		f    func(editorFigures) time.Duration
	}{
		{"pkg median", func(f editorFigures) time.Duration { return f.median }},
		{"pkg p90", func(f editorFigures) time.Duration { return f.p90 }},
		{"pkg max", func(f editorFigures) time.Duration { return f.max }},
		{"module total", func(f editorFigures) time.Duration { return f.total }},
		{"deps, once", func(f editorFigures) time.Duration { return f.deps }},
	}
	fmt.Printf("%-8s", "suite")
	for _, c := range cols {
		fmt.Printf(" %21s", c.name+" (min/med)")
	}
	fmt.Println()
	for _, s := range []struct {
		name string
		rs   []editorRun
	}{{refName, ref}, {name, runs}} {
		fmt.Printf("%-8s", s.name)
		for _, c := range cols {
			lo, mid := stat(s.rs, c.f)
			fmt.Printf(" %21s", round(lo).String()+" / "+round(mid).String())
		}
		fmt.Println()
	}
	fmt.Printf("%-8s", "ratio")
	for _, c := range cols {
		_, r := stat(ref, c.f)
		_, o := stat(runs, c.f)
		fmt.Printf(" %21s", fmt.Sprintf("%.1fx", float64(o)/float64(max(r, 1))))
	}
	fmt.Println()

	// Each package's time is its median over the runs.
	medianOf := func(rs []editorRun, p *packages.Package) time.Duration {
		var ds []time.Duration
		for _, r := range rs {
			ds = append(ds, r.perPkg[p])
		}
		return median(ds)
	}
	slowest := slices.Clone(roots)
	slices.SortFunc(slowest, func(x, y *packages.Package) int {
		return cmp.Or(cmp.Compare(medianOf(runs, y), medianOf(runs, x)), cmp.Compare(x.ID, y.ID))
	})
	fmt.Printf("\n%s's slowest packages (median of runs; the analyzer with the largest share of origo's time):\n", name)
	for _, p := range slowest[:min(5, len(slowest))] {
		o, r := medianOf(runs, p), medianOf(ref, p)
		fmt.Printf("  %-60s %10s  %s %10s  %6.1fx  %s\n", p.ID, round(o), refName, round(r), float64(o)/float64(max(r, 1)), runs[0].top[p])
	}
}

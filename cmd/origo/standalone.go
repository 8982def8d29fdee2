package main

import (
	"cmp"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/race"
	"github.com/origo-dev/origo/cmd/origo/internal/confirm"
	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"github.com/origo-dev/origo/passes/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Exit codes, as go vet's and staticcheck's: 1 when a package cannot be
// analyzed, 2 for a command line origo does not understand, 3 (as
// multichecker's) when there are findings.
const (
	exitClean    = 0
	exitError    = 1
	exitUsage    = 2
	exitFindings = 3
)

// standalone runs origo as its own driver and returns the exit code.
func standalone(args []string, stdout, stderr io.Writer) int {
	why := ""
	if len(args) > 0 {
		switch args[0] {
		case "why":
			// origo why FILE:LINE [flags] [packages]: the analyzers
			// explain each candidate at the line (see package rules).
			if len(args) < 2 {
				return usageError(stderr, "usage: origo why FILE:LINE [packages]")
			}
			for _, a := range []*analysis.Analyzer{race.Analyzer, deadlock.Analyzer, blocking.Analyzer} {
				if err := a.Flags.Set("why", args[1]); err != nil {
					return usageError(stderr, "why: "+err.Error())
				}
				defer a.Flags.Set("why", "")
			}
			why, args = args[1], args[2:]
		case "help":
			return help(stdout, stderr, args[1:])
		case "version":
			if len(args) > 1 {
				return usageError(stderr, "version takes no arguments")
			}
			fmt.Fprintln(stdout, versionLine())
			return exitClean
		}
	}
	fs := flag.NewFlagSet("origo", flag.ContinueOnError)
	// The flag package prints the whole usage after a bad flag; origo
	// prints one line (see usageError), as go vet does.
	fs.SetOutput(io.Discard)
	jsonOut := fs.Bool("json", false, "print findings as JSON, in the shape of go vet -json (exit code 0 with findings, as go vet -json)")
	sarifOut := fs.Bool("sarif", false, "print findings as SARIF 2.1.0")
	fixFlag := fs.Bool("fix", false, "apply the suggested fixes to the files, and print no findings")
	diffFlag := fs.Bool("diff", false, "with -fix, print the fixes as a unified diff instead of applying them")
	tests := fs.Bool("test", true, "also analyze the packages' tests")
	tags := fs.String("tags", "", "comma-separated build tags")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile to this file (labelled by pass and package: go tool pprof -tags)")
	memprofile := fs.String("memprofile", "", "write a heap profile to this file, of the moment the live heap was largest")
	registerDumpFlag(fs)
	registerAllFlag(fs)
	choices := registerAnalyzerFlags(fs)
	confirmOpts := confirm.RegisterFlags(fs)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stderr)
			usage(stderr, fs)
			return exitClean
		}
		return usageError(stderr, err.Error())
	}
	patterns := fs.Args()
	switch {
	case *jsonOut && *sarifOut:
		return usageError(stderr, "-json and -sarif are exclusive")
	case *diffFlag && !*fixFlag:
		return usageError(stderr, "-diff prints what -fix would change: give both")
	case *fixFlag && (*jsonOut || *sarifOut):
		return usageError(stderr, "-fix prints no findings: it does not go with -json or -sarif")
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}

	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(stderr, "origo: "+err.Error())
			return exitError
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var progress io.Writer
	if isTerminal(stderr) {
		progress = stderr
	}
	tuneStandaloneGC()
	if *memprofile != "" {
		peak := startPeakProfile()
		defer peak.write(*memprofile, stderr)
	}
	res := analyze(selectAnalyzers(choices), patterns, *tests, *tags, progress)
	if why != "" {
		res.diags = whyOnly(res.diags)
		if len(res.diags) == 0 && len(res.errors) == 0 {
			fmt.Fprintf(stderr, "origo: why: no candidate at %s: no two goroutines of the packages' programs touch memory there with a write, or take two mutexes in opposite orders there, and nothing there may block\n", why)
		}
	}
	if confirmOpts.Mode != confirm.Off {
		confirmOpts.Tags = *tags
		confirmFindings(res, confirmOpts, stderr)
	}
	var err error
	switch {
	case *fixFlag:
		err = applyFixes(res, *diffFlag, stdout, stderr)
	case *jsonOut:
		err = printJSON(stdout, res)
	case *sarifOut:
		err = printSARIF(stdout, res)
	default:
		printText(stdout, res)
	}
	if err != nil {
		res.errors = append(res.errors, err.Error())
	}
	if !*jsonOut && !*sarifOut || len(res.errors) > 0 {
		for _, e := range res.errors {
			fmt.Fprintln(stderr, "origo: "+e)
		}
	}
	switch {
	case len(res.errors) > 0:
		return exitError
	case *jsonOut || *fixFlag:
		return exitClean // as go vet -json and -fix: the findings are the output
	case res.findings() > 0:
		return exitFindings
	}
	return exitClean
}

// usageError prints a command line's problem on one line, with where to
// read the usage, and returns the exit code for it.
func usageError(stderr io.Writer, problem string) int {
	fmt.Fprintf(stderr, "origo: %s (run 'origo -h' for usage)\n", problem)
	return exitUsage
}

// result is the outcome of one standalone run.
type result struct {
	diags  []diagnostic // sorted by position
	errors []string     // one line each, without the "origo: " prefix
}

// diagnostic is an analysis.Diagnostic resolved to file positions.
type diagnostic struct {
	pkgID    string
	analyzer *analysis.Analyzer
	category string
	posn     token.Position
	end      token.Position
	message  string
	related  []related
	fixes    []fix
	confirm  *confirm.Result // under -confirm

	// What identifies the finding across commits (see fingerprints):
	// its file, relative to its module's root, and the function that
	// encloses it.
	file     string
	function string
}

type related struct {
	posn, end token.Position
	message   string
}

// fix is an analysis.SuggestedFix resolved to byte offsets in files.
type fix struct {
	message string
	edits   []edit
}

// edit replaces the bytes [start, end) of a file by new.
type edit struct {
	filename   string
	start, end int
	new        string
}

// whyOnly keeps the explanations that origo why asks for.
func whyOnly(diags []diagnostic) []diagnostic {
	var out []diagnostic
	for _, d := range diags {
		if d.category == rules.WhyCategory {
			out = append(out, d)
		}
	}
	return out
}

// findings counts the diagnostics that are findings, not debugging output.
func (r *result) findings() int {
	n := 0
	for _, d := range r.diags {
		if d.category != factdump.Category && d.category != rules.WhyCategory {
			n++
		}
	}
	return n
}

// analyze loads and analyzes the packages that patterns match. When
// progress is not nil, it counts there the packages done (see
// newProgress).
func analyze(suite []*analysis.Analyzer, patterns []string, tests bool, tags string, progress io.Writer) *result {
	if lazyLoad {
		if res := analyzeLazily(suite, patterns, tests, tags, progress); res != nil {
			return res
		}
	}
	res := new(result)
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule | packages.NeedForTest,
		Tests: tests,
	}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		res.errors = append(res.errors, err.Error())
		return res
	}
	if len(pkgs) == 0 {
		res.errors = append(res.errors, fmt.Sprintf("pattern %s matched no packages", strings.Join(patterns, " ")))
		return res
	}
	roots := rootPackages(pkgs, res)
	if len(roots) == 0 {
		return res
	}
	analyzeRoots(suite, roots, nil, progress, res)
	return res
}

// lazyLoad says whether analyze loads each package only when its
// analysis is about to run (see lazyLoader); tests compare both ways.
var lazyLoad = true

// analyzeLazily is analyze with a lazyLoader. It returns nil when a
// package has errors (a pattern that matches nothing, a file that does
// not parse, a type error): analyze then loads the packages the old
// way, which says what the errors are.
func analyzeLazily(suite []*analysis.Analyzer, patterns []string, tests bool, tags string, progress io.Writer) *result {
	pkgs, err := loadMetadata(patterns, tests, tags)
	if err != nil || len(pkgs) == 0 {
		return nil
	}
	lazy := newLazyLoader(pkgs)
	if lazy == nil {
		return nil
	}
	res := new(result)
	roots := rootPackages(pkgs, res)
	if len(res.errors) > 0 || len(roots) == 0 {
		return nil
	}
	analyzeRoots(suite, roots, lazy, progress, res)
	if lazy.broken.Load() {
		return nil
	}
	return res
}

// analyzeRoots runs the suite on roots and collects the findings and
// errors into res.
func analyzeRoots(suite []*analysis.Analyzer, roots []*packages.Package, lazy *lazyLoader, progress io.Writer, res *result) {
	analyzers := suite
	var counter *analysis.Analyzer
	if progress != nil && len(roots) > 1 {
		var clear func()
		counter, clear = newProgress(progress, len(roots), suite)
		defer clear()
		analyzers = append(slices.Clip(suite), counter)
	}
	rel, wrapped := newReleaser(analyzers, roots, lazy)
	graph, err := checker.Analyze(wrapped, roots, nil)
	if err != nil {
		res.errors = append(res.errors, err.Error())
		return
	}
	// The counter's actions report nothing; one whose prerequisite
	// failed would repeat that failure.
	graph.Roots = slices.DeleteFunc(graph.Roots, func(act *checker.Action) bool { return rel.original(act.Analyzer) == counter })
	collect(graph, res, rel.original)
}

// isTerminal reports whether w is a terminal (or another character
// device, such as /dev/null, where progress does no harm). A pipe or a
// file, as under tests and CI, is not.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// newProgress returns an analyzer that runs once per package after the
// whole suite, and writes "origo: 12/340 packages analyzed" on w each
// time, over the previous count, and a function that erases the count.
// Each write leaves the cursor at the start of the line, so that a line
// another pass writes on standard error meanwhile (all longer than the
// count) overwrites it rather than follows it.
func newProgress(w io.Writer, total int, suite []*analysis.Analyzer) (counter *analysis.Analyzer, clear func()) {
	var mu sync.Mutex
	done, width := 0, 0
	show := func(text string) { // with mu held
		fmt.Fprintf(w, "\r%-*s\r", width, text)
		width = len(text)
	}
	step := func(n int) {
		mu.Lock()
		defer mu.Unlock()
		done += n
		show(fmt.Sprintf("origo: %d/%d packages analyzed", done, total))
	}
	step(0)
	counter = &analysis.Analyzer{
		Name:     "progress",
		Doc:      "count the packages analyzed",
		Requires: suite,
		Run: func(*analysis.Pass) (any, error) {
			step(1)
			return nil, nil
		},
	}
	return counter, func() {
		mu.Lock()
		defer mu.Unlock()
		show("")
	}
}

// rootPackages returns the packages to analyze, and records one error
// line for each package that cannot be.
func rootPackages(pkgs []*packages.Package, res *result) []*packages.Package {
	// go vet analyzes a package with tests once, as its test variant,
	// which holds every file of the package; do the same.
	hasTestVariant := make(map[string]bool)
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasTestVariant[p.PkgPath] = true
		}
	}
	var roots []*packages.Package
	for _, p := range pkgs {
		switch {
		case p.Name == "main" && strings.HasSuffix(p.ID, ".test"):
			continue // the synthesized testmain
		case p.ForTest == "" && hasTestVariant[p.PkgPath]:
			continue
		case len(p.Errors) > 0:
			res.errors = append(res.errors, describeErrors(p))
			continue
		case p.IllTyped:
			// p type-checks, but a package it depends on does not.
			// The checker runs no pass that needs well-typed code
			// (buildir: SSA) on p, and every analyzer would then fail
			// with "failed prerequisites" and nothing more: say once
			// why instead. go vet does not vet such a package either.
			res.errors = append(res.errors, describeBrokenDep(p))
			continue
		}
		roots = append(roots, p)
	}
	return roots
}

// describeErrors says in one line why a package cannot be analyzed.
func describeErrors(p *packages.Package) string {
	first := p.Errors[0]
	more := ""
	if n := len(p.Errors) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	msg := strings.ReplaceAll(first.Msg, "\n", " ")
	switch {
	case strings.HasPrefix(msg, "no Go files in "):
		return fmt.Sprintf("%s: no Go files", relPath(strings.TrimPrefix(msg, "no Go files in ")))
	case p.Name == "" && (strings.Contains(msg, "directory not found") || strings.Contains(msg, "matched no packages") ||
		strings.Contains(msg, "cannot find") || strings.Contains(msg, "is not in std") || strings.Contains(msg, "no required module provides")):
		return fmt.Sprintf("pattern %s matched no packages (%s)", p.ID, msg)
	case p.Name == "":
		return fmt.Sprintf("pattern %s: %s", p.ID, strings.TrimPrefix(msg, "pattern "+p.ID+": "))
	case first.Kind == packages.TypeError:
		return fmt.Sprintf("package %s has type errors: %s: %s%s", p.PkgPath, relPosition(first.Pos), msg, more)
	case first.Kind == packages.ParseError:
		return fmt.Sprintf("package %s has syntax errors: %s: %s%s", p.PkgPath, relPosition(first.Pos), msg, more)
	}
	if first.Pos != "" && first.Pos != "-" {
		msg = relPosition(first.Pos) + ": " + msg
	}
	return fmt.Sprintf("package %s: %s%s", cmp.Or(p.PkgPath, p.ID), msg, more)
}

// describeBrokenDep says in one line why p, which has no errors of its
// own, cannot be analyzed: the nearest package it depends on that has
// errors, and that package's first error.
func describeBrokenDep(p *packages.Package) string {
	seen := map[*packages.Package]bool{p: true}
	queue := []*packages.Package{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, path := range slices.Sorted(maps.Keys(q.Imports)) {
			dep := q.Imports[path]
			if seen[dep] || !dep.IllTyped && len(dep.Errors) == 0 {
				continue
			}
			seen[dep] = true
			if len(dep.Errors) > 0 {
				first := dep.Errors[0]
				msg := strings.ReplaceAll(first.Msg, "\n", " ")
				if first.Pos != "" && first.Pos != "-" {
					msg = relPosition(first.Pos) + ": " + msg
				}
				kind := "errors"
				switch first.Kind {
				case packages.TypeError:
					kind = "type errors"
				case packages.ParseError:
					kind = "syntax errors"
				}
				return fmt.Sprintf("package %s is not analyzed: it depends on %s, which has %s: %s", p.PkgPath, dep.PkgPath, kind, msg)
			}
			queue = append(queue, dep)
		}
	}
	return fmt.Sprintf("package %s is not analyzed: a package it depends on has errors", p.PkgPath)
}

// collect gathers the diagnostics and errors of the root actions,
// dropping the duplicates that arise when a file belongs to several
// packages (a package and its test variant).
func collect(graph *checker.Graph, res *result, original func(*analysis.Analyzer) *analysis.Analyzer) {
	type key struct {
		posn     token.Position
		analyzer string
		message  string
	}
	seen := make(map[key]bool)
	for _, act := range graph.Roots {
		if act.Err != nil {
			res.errors = append(res.errors, fmt.Sprintf("%s: analysis failed: %v", act.Package.PkgPath, act.Err))
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			posn := fset.Position(d.Pos)
			k := key{posn, act.Analyzer.Name, d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			diag := diagnostic{
				pkgID:    act.Package.ID,
				analyzer: original(act.Analyzer),
				category: d.Category,
				posn:     posn,
				end:      fset.Position(cmp.Or(d.End, d.Pos)),
				message:  d.Message,
				file:     moduleFile(act.Package, posn.Filename),
				function: enclosingFunc(act.Package, d.Pos),
			}
			for _, r := range d.Related {
				diag.related = append(diag.related, related{
					posn:    fset.Position(r.Pos),
					end:     fset.Position(cmp.Or(r.End, r.Pos)),
					message: r.Message,
				})
			}
			for _, f := range d.SuggestedFixes {
				fx := fix{message: f.Message}
				for _, e := range f.TextEdits {
					start, end := fset.Position(e.Pos), fset.Position(cmp.Or(e.End, e.Pos))
					fx.edits = append(fx.edits, edit{filename: start.Filename, start: start.Offset, end: end.Offset, new: string(e.NewText)})
				}
				diag.fixes = append(diag.fixes, fx)
			}
			res.diags = append(res.diags, diag)
		}
	}
	slices.SortFunc(res.diags, func(x, y diagnostic) int {
		return cmp.Or(
			cmp.Compare(x.posn.Filename, y.posn.Filename),
			cmp.Compare(x.posn.Line, y.posn.Line),
			cmp.Compare(x.posn.Column, y.posn.Column),
			cmp.Compare(x.analyzer.Name, y.analyzer.Name),
			cmp.Compare(x.message, y.message))
	})
	slices.Sort(res.errors)
}

// moduleFile names a file of p by its path relative to the root of p's
// module, in slashes, so that the name is the same in every checkout;
// outside a module (std), by p's import path and the file's base name.
func moduleFile(p *packages.Package, filename string) string {
	if p.Module != nil && p.Module.Dir != "" {
		if rel, err := filepath.Rel(p.Module.Dir, filename); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return path.Join(strings.TrimSuffix(p.PkgPath, "_test"), filepath.Base(filename))
}

// enclosingFunc names the function declaration of p's syntax that holds
// pos, as Func or Type.Method (a function literal counts as the
// declaration it is in), or returns "" outside any.
func enclosingFunc(p *packages.Package, pos token.Pos) string {
	for _, f := range p.Syntax {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || pos < fd.Pos() || pos > fd.End() {
				continue
			}
			if fd.Recv == nil || len(fd.Recv.List) == 0 {
				return fd.Name.Name
			}
			return receiverName(fd.Recv.List[0].Type) + "." + fd.Name.Name
		}
	}
	return ""
}

// receiverName returns the type name of a receiver, without its pointer
// or type parameters: T for (t *T) and (t T[K]).
func receiverName(x ast.Expr) string {
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.ParenExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// relPath shortens an absolute path below the working directory.
func relPath(path string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}

// relPosition shortens the file name of a "file:line:col" position.
func relPosition(pos string) string {
	file, rest, ok := strings.Cut(pos, ":")
	if !ok {
		return relPath(pos)
	}
	return relPath(file) + ":" + rest
}

func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `origo finds data races, deadlocks and goroutine leaks in Go programs, statically.

Usage:
	origo [flags] [packages]        analyze packages (default ./...)
	origo help [analyzer]           describe the analyzers
	origo version                   print origo's version
	go vet -vettool=/absolute/path/to/origo [packages]

As with go vet, -NAME runs only the analyzer NAME (and the others so
named), -NAME=false runs all but it.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit codes: 0 nothing found (and always with -json or -fix, as go vet),
3 findings, 1 a package that cannot be analyzed, 2 a bad command line.
`)
}

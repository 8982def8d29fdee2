package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// The standalone driver loaded every package's syntax and type
// information up front (packages.LoadAllSyntax), the whole module and
// its dependencies at once: on client_golang ./..., most of the 800 MB
// live at the peak. lazyLoader parses and type-checks a package only
// when the first action on it is about to run, as an analyzer that
// every analyzer requires (the checker runs it on a package after its
// imports, as it does any analyzer with facts), and lets only so many
// packages' worth of source be loaded and not yet released (see
// releaser) at a time. It type-checks as go/packages does (same
// files, the package's Go version, every types.Info map, a file shared
// by a package and its test variant parsed once); a package that does
// not parse or type-check makes the run start again the old way, which
// reports such packages.

// lazyLoader loads the packages of one run; see newLazyLoader.
type lazyLoader struct {
	fset     *token.FileSet
	byTypes  map[*types.Package]*packages.Package
	analyzer *analysis.Analyzer
	broken   atomic.Bool // a package did not parse or type-check

	mu       sync.Mutex
	inflight int64                    // bytes of source loaded, and not yet released
	loaded   map[*types.Package]int64 // their sizes
	users    map[string]int           // packages still to parse each file
	parsed   map[string]*parsedFile   // files parsed that another package will use
	busy     int                      // actions running, loads included
	budget   int64
	cpu      chan struct{} // a token per thread, shared with the releaser
}

// lazyBudget is how many bytes of Go source may be loaded and not yet
// released at once; a package larger than that is loaded alone.
var lazyBudget int64 = 4 << 20

// loadedFact is the loader's fact type: it has none to export, but an
// analyzer with facts is run on a package's imports first.
type loadedFact struct{}

func (*loadedFact) AFact()         {}
func (*loadedFact) String() string { return "loaded" }

// loadMetadata loads what go list says of the packages, without syntax
// or types, for newLazyLoader.
func loadMetadata(patterns []string, tests bool, tags string) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode: packages.LoadImports | packages.NeedDeps | packages.NeedTypesSizes |
			packages.NeedModule | packages.NeedForTest,
		Tests: tests,
	}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	return packages.Load(cfg, patterns...)
}

// newLazyLoader prepares pkgs, loaded by loadMetadata, to be loaded
// lazily: each gets its types.Package, empty until the loader's
// analyzer runs on it, and the shared file set. It returns nil if a
// package has errors already: go/packages loads and reports those.
func newLazyLoader(pkgs []*packages.Package) *lazyLoader {
	l := &lazyLoader{
		fset:    token.NewFileSet(),
		byTypes: make(map[*types.Package]*packages.Package),
		loaded:  make(map[*types.Package]int64),
		users:   make(map[string]int),
		parsed:  make(map[string]*parsedFile),
		budget:  lazyBudget,
	}
	ok := true
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 || len(p.CompiledGoFiles) == 0 && p.PkgPath != "unsafe" {
			ok = false
		}
		p.Fset = l.fset
		if p.PkgPath == "unsafe" {
			p.Types, p.Syntax, p.TypesInfo = types.Unsafe, []*ast.File{}, newTypesInfo()
			return
		}
		p.Types = types.NewPackage(p.PkgPath, p.Name)
		l.byTypes[p.Types] = p
		for _, f := range p.CompiledGoFiles {
			l.users[f]++
		}
	})
	if !ok {
		return nil
	}
	l.analyzer = &analysis.Analyzer{
		Name:             "load",
		Doc:              "parse and type-check the package",
		Run:              l.run,
		RunDespiteErrors: true,
		FactTypes:        []analysis.Fact{new(loadedFact)},
		ResultType:       reflect.TypeFor[bool](),
	}
	return l
}

// run loads the package of pass, once the budget lets it.
func (l *lazyLoader) run(pass *analysis.Pass) (any, error) {
	p := l.byTypes[pass.Pkg]
	if p == nil {
		return false, nil // unsafe
	}
	if l.broken.Load() {
		// The run starts again the old way; the checker runs
		// nothing more on a package so marked.
		p.IllTyped = true
		return false, nil
	}
	var size int64
	for _, f := range p.CompiledGoFiles {
		if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	l.acquire(pass.Pkg, size)
	defer l.idle()
	l.cpu <- struct{}{}
	defer func() { <-l.cpu }()
	l.load(p)
	return true, nil
}

// acquire waits until size more bytes of source fit in the budget, or
// nothing is loaded, or nothing has run for a while: every action that
// could release a package is waiting for a load (an action that failed
// leaves its package and its importers unreleased).
func (l *lazyLoader) acquire(pkg *types.Package, size int64) {
	idle := 0
	for {
		l.mu.Lock()
		if l.inflight == 0 || l.inflight+size <= l.budget || idle >= 10 {
			l.inflight += size
			l.loaded[pkg] = size
			l.busy++
			l.mu.Unlock()
			return
		}
		if l.busy == 0 {
			idle++
		} else {
			idle = 0
		}
		l.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
}

// start and idle count an action running.
func (l *lazyLoader) start() {
	l.mu.Lock()
	l.busy++
	l.mu.Unlock()
}

func (l *lazyLoader) idle() {
	l.mu.Lock()
	l.busy--
	l.mu.Unlock()
}

// release gives back the budget of a package loaded, once every action
// on it is done.
func (l *lazyLoader) release(pkg *types.Package) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if size, ok := l.loaded[pkg]; ok {
		l.inflight -= size
		delete(l.loaded, pkg)
	}
}

// load parses and type-checks p, as go/packages does, into p.Types.
func (l *lazyLoader) load(p *packages.Package) {
	files := make([]*ast.File, 0, len(p.CompiledGoFiles))
	for _, name := range p.CompiledGoFiles {
		f, err := l.parse(name)
		if err != nil {
			l.broken.Store(true)
			p.IllTyped = true
			return
		}
		files = append(files, f)
	}
	info := newTypesInfo()
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if imp := p.Imports[path]; imp != nil && imp.Types != nil && imp.Types.Complete() {
				return imp.Types, nil
			}
			return nil, errNoMetadata
		}),
		Error: func(err error) { l.broken.Store(true) },
		Sizes: p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	if err := types.NewChecker(tc, l.fset, p.Types, info).Files(files); err != nil {
		l.broken.Store(true)
	}
	if l.broken.Load() {
		p.IllTyped = true
	}
	p.Syntax, p.TypesInfo = files, info
}

// parse parses a file as go/packages does; a file that several packages
// list (a package and its test variant) is parsed once, and kept until
// the last of them has it.
func (l *lazyLoader) parse(name string) (*ast.File, error) {
	l.mu.Lock()
	e, ok := l.parsed[name]
	if !ok {
		e = &parsedFile{ready: make(chan struct{})}
		l.parsed[name] = e
	}
	if l.users[name]--; l.users[name] <= 0 {
		delete(l.parsed, name)
	}
	l.mu.Unlock()
	if ok {
		<-e.ready
		return e.f, e.err
	}
	defer close(e.ready)
	src, err := os.ReadFile(name)
	if err != nil {
		e.err = err
		return nil, err
	}
	e.f, e.err = parser.ParseFile(l.fset, name, src, parser.AllErrors|parser.ParseComments)
	return e.f, e.err
}

// parsedFile is a file parsed, or being parsed until ready is closed.
type parsedFile struct {
	ready chan struct{}
	f     *ast.File
	err   error
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

var errNoMetadata = os.ErrNotExist

// newTypesInfo returns the types.Info that go/packages fills.
func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
}

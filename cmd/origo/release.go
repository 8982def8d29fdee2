package main

import (
	"go/types"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// The standalone driver runs x/tools' checker over every package that
// the patterns need, dependencies included, in one process. The checker
// keeps every action's Result, and every package's syntax and type
// information, until the whole graph is done: on client_golang, 3.5 GB
// where go vet, one process per package, peaks at a few hundred MB.
// releaser runs the same analyzers in the same graph (imports first, as
// the checker orders them), but keeps each Result only until the
// analyzers that require it on the same package have run, and drops a
// dependency's syntax and type information once every action on it is
// done: its importers need only its types and facts, which stay. With a
// lazyLoader, a package is loaded only when its first action is about
// to run, so that its syntax and type information live from then until
// its last action is done.

// releaser wraps a suite of analyzers; see wrap.
type releaser struct {
	orig map[*analysis.Analyzer]*analysis.Analyzer // wrapper → analyzer it runs

	mu       sync.Mutex
	results  map[actionKey]any // Results still to be read
	readers  map[actionKey]int // actions yet to read each Result
	left     map[*types.Package]int
	passes   map[*types.Package][]*analysis.Pass
	packages map[*types.Package]*packages.Package
	roots    map[*types.Package]bool // their syntax is read after the run

	// running holds a token per analyzer running: as many as there are
	// threads. Without it, the checker starts every action whose
	// prerequisites are done at once, and the scheduler takes turns
	// between hundreds of half-built SSA programs.
	running chan struct{}

	lazy *lazyLoader // nil when the packages came loaded
}

// actionKey is an analyzer applied to a package.
type actionKey struct {
	a   *analysis.Analyzer // the original analyzer
	pkg *types.Package
}

// newReleaser returns a releaser for analyzers applied to roots, and
// the wrappers to give the checker in their place. With a lazy loader,
// every analyzer requires the loader's analyzer, which loads the
// package first.
func newReleaser(analyzers []*analysis.Analyzer, roots []*packages.Package, lazy *lazyLoader) (*releaser, []*analysis.Analyzer) {
	r := &releaser{
		orig:     make(map[*analysis.Analyzer]*analysis.Analyzer),
		results:  make(map[actionKey]any),
		readers:  make(map[actionKey]int),
		left:     make(map[*types.Package]int),
		passes:   make(map[*types.Package][]*analysis.Pass),
		packages: make(map[*types.Package]*packages.Package),
		roots:    make(map[*types.Package]bool),
		running:  make(chan struct{}, runtime.GOMAXPROCS(0)),
		lazy:     lazy,
	}
	if lazy != nil {
		lazy.cpu = r.running
	}
	// requires is what a requires, the loader's analyzer included.
	requires := func(a *analysis.Analyzer) []*analysis.Analyzer {
		if lazy == nil || a == lazy.analyzer {
			return a.Requires
		}
		return append(slices.Clip(a.Requires), lazy.analyzer)
	}
	wrapped := make(map[*analysis.Analyzer]*analysis.Analyzer)
	var wrap func(a *analysis.Analyzer) *analysis.Analyzer
	wrap = func(a *analysis.Analyzer) *analysis.Analyzer {
		if w, ok := wrapped[a]; ok {
			return w
		}
		w := *a
		reqs := requires(a)
		w.Requires = make([]*analysis.Analyzer, len(reqs))
		for i, req := range reqs {
			w.Requires[i] = wrap(req)
		}
		w.ResultType = nil // the Result goes to r.results, not to the checker
		w.Run = func(pass *analysis.Pass) (any, error) { return r.run(a, pass) }
		wrapped[a] = &w
		r.orig[&w] = a
		return &w
	}
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		out[i] = wrap(a)
	}

	// Count the actions the checker will run, as it builds its graph:
	// each analyzer on each root; each analyzer's requirements on the
	// same package; an analyzer with facts on each import too.
	seen := make(map[actionKey]bool)
	var visit func(a *analysis.Analyzer, p *packages.Package)
	visit = func(a *analysis.Analyzer, p *packages.Package) {
		k := actionKey{a, p.Types}
		if seen[k] {
			return
		}
		seen[k] = true
		r.left[p.Types]++
		r.packages[p.Types] = p
		for _, req := range requires(a) {
			r.readers[actionKey{req, p.Types}]++
			visit(req, p)
		}
		if len(a.FactTypes) > 0 {
			for _, imp := range p.Imports {
				visit(a, imp)
			}
		}
	}
	for _, p := range roots {
		r.roots[p.Types] = true
		for _, a := range analyzers {
			visit(a, p)
		}
	}
	return r, out
}

// run runs a on pass, with the Results it requires, and releases what
// is no longer needed once it is done.
func (r *releaser) run(a *analysis.Analyzer, pass *analysis.Pass) (any, error) {
	inner := *pass
	inner.Analyzer = a
	inner.ResultOf = make(map[*analysis.Analyzer]any, len(a.Requires))
	r.mu.Lock()
	for _, req := range a.Requires {
		inner.ResultOf[req] = r.results[actionKey{req, pass.Pkg}]
	}
	r.mu.Unlock()

	var res any
	var err error
	switch {
	case r.lazy != nil && a == r.lazy.analyzer:
		res, err = a.Run(&inner) // waits for the budget, then for a thread
	case r.lazy != nil:
		r.lazy.start()
		r.running <- struct{}{}
		res, err = a.Run(&inner)
		<-r.running
		r.lazy.idle()
	default:
		r.running <- struct{}{}
		res, err = a.Run(&inner)
		<-r.running
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	k := actionKey{a, pass.Pkg}
	if err == nil && r.readers[k] > 0 {
		r.results[k] = res
	}
	for _, req := range a.Requires {
		rk := actionKey{req, pass.Pkg}
		if r.readers[rk]--; r.readers[rk] == 0 {
			delete(r.results, rk)
		}
	}
	r.passes[pass.Pkg] = append(r.passes[pass.Pkg], pass)
	if r.left[pass.Pkg]--; r.left[pass.Pkg] == 0 {
		// Every action on this package is done: its importers read
		// only its types and facts. The checker keeps each action's
		// pass, so the pass must let go of the syntax too. A root keeps
		// its syntax, where collect finds the function around each
		// finding. (An action that failed or was skipped never comes
		// here: its package keeps all, which costs memory, not
		// correctness.)
		root := r.roots[pass.Pkg]
		if p := r.packages[pass.Pkg]; p != nil {
			p.TypesInfo = nil
			if !root {
				p.Syntax = nil
			}
		}
		for _, ps := range r.passes[pass.Pkg] {
			ps.TypesInfo, ps.ResultOf = nil, nil
			if !root {
				ps.Files = nil
			}
		}
		delete(r.passes, pass.Pkg)
		delete(r.packages, pass.Pkg)
		if r.lazy != nil {
			r.lazy.release(pass.Pkg)
		}
	}
	return nil, err
}

// original returns the analyzer that w wraps, or w if it wraps none.
func (r *releaser) original(w *analysis.Analyzer) *analysis.Analyzer {
	if a, ok := r.orig[w]; ok {
		return a
	}
	return w
}

package origins

import (
	"cmp"
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/internal/scc"
	"golang.org/x/tools/go/ssa"
)

// siteKey identifies a spawn site across packages.
type siteKey struct {
	file      string
	line, col int
	kind      facts.SpawnKind
	target    string
}

func compareKeys(x, y siteKey) int {
	return cmp.Or(
		cmp.Compare(x.file, y.file),
		cmp.Compare(x.line, y.line),
		cmp.Compare(x.col, y.col),
		cmp.Compare(x.kind, y.kind),
		cmp.Compare(x.target, y.target))
}

// siteID numbers a siteKey within one run of the pass (see sites): a
// summary holds every site its function may reach, closed over callees,
// so in a package of many sites and long call chains summaries are many
// and large, and hashing keys of two strings each was most of the pass.
type siteID int32

// noSite is the parent of a site that the summarized function's own
// goroutine starts.
const noSite siteID = -1

// sites interns siteKeys.
type sites struct {
	keys []siteKey
	ids  map[siteKey]siteID
}

func (t *sites) id(k siteKey) siteID {
	if id, ok := t.ids[k]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = make(map[siteKey]siteID)
	}
	id := siteID(len(t.keys))
	t.keys = append(t.keys, k)
	t.ids[k] = id
	return id
}

// less orders sites by their keys, which do not depend on the order in
// which the sites were found.
func (t *sites) less(x, y siteID) bool { return compareKeys(t.keys[x], t.keys[y]) < 0 }

// siteInfo is what a summary knows of one site.
type siteInfo struct {
	flags facts.SiteFlags
	// parent is the origin that starts this site; noSite when the
	// summarized function's own goroutine does (directly or via calls).
	parent siteID
}

// summary maps the sites a call may reach to what is known of them. It
// only grows (flags are OR-ed, parents move toward noSite, then toward
// the least key), so the fixpoint over recursive functions terminates.
type summary map[siteID]siteInfo

// add merges one site into s and reports whether s changed.
func (s summary) add(t *sites, k siteID, flags facts.SiteFlags, parent siteID) bool {
	old, ok := s[k]
	if !ok {
		s[k] = siteInfo{flags, parent}
		return true
	}
	merged := siteInfo{flags: old.flags | flags, parent: old.parent}
	if parent == noSite || (old.parent != noSite && t.less(parent, old.parent)) {
		merged.parent = parent
	}
	if merged == old {
		return false
	}
	s[k] = merged
	return true
}

// solve computes the closed summary of every function, callees first;
// the functions of a recursive cycle are iterated to a fixpoint.
func (a *state) solve() {
	for _, scc := range a.components() {
		if len(scc) == 1 && !a.selfRecursive(scc[0]) {
			a.close(a.info[scc[0]])
			continue
		}
		a.solveCycle(scc)
	}
}

// solveCycle iterates the functions of a recursive cycle to a fixpoint,
// closing a function again only when one it depends on changed: going
// round the whole cycle until nothing changed took as many rounds as
// the cycle is long (a server's services each calling the next, 2,300
// in a cycle: 113 s of a package's 120 s). Summaries only grow, by a
// merge that is the same in any order, so the order does not change
// the result.
func (a *state) solveCycle(scc []*ssa.Function) {
	queued := make(map[*ssa.Function]bool, len(scc))
	for _, fn := range scc {
		queued[fn] = true
	}
	dependents := make(map[*ssa.Function][]*ssa.Function)
	for _, fn := range scc {
		for _, succ := range a.successors(fn) {
			if _, in := queued[succ]; in {
				dependents[succ] = append(dependents[succ], fn)
			}
		}
	}
	work := slices.Clone(scc)
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		queued[fn] = false
		if !a.close(a.info[fn]) {
			continue
		}
		for _, d := range dependents[fn] {
			if !queued[d] {
				queued[d] = true
				work = append(work, d)
			}
		}
	}
}

// close folds the summaries of fi's callees and started goroutines into
// fi's own and reports whether it changed.
func (a *state) close(fi *funcInfo) bool {
	if fi.sum == nil {
		fi.sum = make(summary)
	}
	changed := false
	for _, sp := range fi.spawns {
		key := sp.key
		changed = fi.sum.add(&a.sites, key, sp.flags, noSite) || changed
		// What the new goroutine starts, it starts as a child; a child
		// of an origin that may run many times may itself run many times.
		nested := sp.flags & facts.Multiple
		a.eachSite(sp.target, nil, func(k siteID, info siteInfo) {
			parent := info.parent
			if parent == noSite {
				parent = key
			}
			flags := info.flags | nested
			if k == key {
				flags |= facts.Multiple // a goroutine that restarts itself
			}
			changed = fi.sum.add(&a.sites, k, flags, parent) || changed
		})
	}
	for _, c := range fi.calls {
		multi := flagIf(c.multiple, facts.Multiple)
		a.eachSite(c.callee, c.imported, func(k siteID, info siteInfo) {
			changed = fi.sum.add(&a.sites, k, info.flags|multi, info.parent) || changed
		})
	}
	return changed
}

// eachSite calls f for each site of the summary of fn (a function with
// a body here) or of the imported fact o.
func (a *state) eachSite(fn *ssa.Function, o *facts.Origins, f func(siteID, siteInfo)) {
	if fn != nil {
		if fi := a.info[fn]; fi != nil {
			for k, info := range fi.sum {
				f(k, info)
			}
			return
		}
		o = a.importedFact(fn)
	}
	if o == nil {
		return
	}
	ids, ok := a.importedSites[o]
	if !ok {
		ids = make([]siteID, len(o.Sites))
		for i, s := range o.Sites {
			ids[i] = a.sites.id(siteKey{file: o.FileName(s), line: int(s.Line), col: int(s.Col), kind: s.Kind, target: o.TargetName(s)})
		}
		a.importedSites[o] = ids
	}
	for i, s := range o.Sites {
		parent := noSite
		if s.Parent >= 0 && int(s.Parent) < len(ids) {
			parent = ids[s.Parent]
		}
		f(ids[i], siteInfo{flags: s.Flags, parent: parent})
	}
}

func (a *state) selfRecursive(fn *ssa.Function) bool {
	for _, succ := range a.successors(fn) {
		if succ == fn {
			return true
		}
	}
	return false
}

// successors lists the functions with bodies here whose summaries fn's
// summary depends on.
func (a *state) successors(fn *ssa.Function) []*ssa.Function {
	fi := a.info[fn]
	var out []*ssa.Function
	for _, sp := range fi.spawns {
		if sp.target != nil && a.info[sp.target] != nil {
			out = append(out, sp.target)
		}
	}
	for _, c := range fi.calls {
		if c.callee != nil {
			out = append(out, c.callee)
		}
	}
	return out
}

// components returns the strongly connected components of the call and
// spawn graph in reverse topological order: callees before callers.
func (a *state) components() [][]*ssa.Function {
	index := make(map[*ssa.Function]int, len(a.funcs))
	for i, fn := range a.funcs {
		index[fn] = i
	}
	succs := func(v int) []int {
		var out []int
		for _, w := range a.successors(a.funcs[v]) {
			out = append(out, index[w])
		}
		return out
	}
	var out [][]*ssa.Function
	for _, comp := range scc.Components(len(a.funcs), succs) {
		fns := make([]*ssa.Function, len(comp))
		for i, v := range comp {
			fns[i] = a.funcs[v]
		}
		out = append(out, fns)
	}
	return out
}

// toFact turns a summary into its exported, deterministic form.
func toFact(t *sites, s summary) *facts.Origins {
	ids := make([]siteID, 0, len(s))
	for id := range s {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y siteID) int { return compareKeys(t.keys[x], t.keys[y]) })
	o := &facts.Origins{V: facts.Version}
	if len(ids) > facts.MaxSites {
		o.Dropped = uint32(len(ids) - facts.MaxSites)
		ids = ids[:facts.MaxSites]
	}
	position := make(map[siteID]int32, len(ids))
	for i, id := range ids {
		position[id] = int32(i)
	}
	var strs facts.Interner
	for _, id := range ids {
		k, info := t.keys[id], s[id]
		parent := int32(-1)
		if info.parent != noSite {
			if i, ok := position[info.parent]; ok {
				parent = i
			}
		}
		o.Sites = append(o.Sites, facts.Site{
			Kind:   k.kind,
			Flags:  info.flags,
			Target: strs.Intern(k.target),
			File:   strs.Intern(k.file),
			Line:   uint32(k.line),
			Col:    uint32(k.col),
			Parent: parent,
		})
	}
	o.Strings = strs.Strings()
	return o
}

// export publishes the summary of every declared function of this
// package that may start a goroutine, in the package's OriginsTable, and
// keeps all summaries for the Result.
func (a *state) export() {
	table := &facts.OriginsTable{V: facts.Version}
	defer func() {
		table.Funcs = append(table.Funcs, a.carriedMethods(table.Funcs)...)
		if len(table.Funcs) > 0 {
			slices.SortFunc(table.Funcs, func(x, y facts.NamedOrigins) int { return strings.Compare(x.Name, y.Name) })
			a.pass.ExportPackageFact(table)
		}
	}()
	for _, fn := range a.funcs {
		fi := a.info[fn]
		if len(fi.sum) == 0 {
			continue
		}
		o := toFact(&a.sites, fi.sum)
		a.res.summaries[fn] = o
		obj := funcObject(fn)
		if obj == nil || obj.Pkg() != a.pass.Pkg || fn.Origin() != nil || fn.Synthetic != "" {
			continue // literals, wrappers and instances are reached through declared functions
		}
		if testRootKind(a.pass, fn) != 0 {
			continue // no package calls a Test, Benchmark or Fuzz function
		}
		table.Funcs = append(table.Funcs, facts.NamedOrigins{Name: obj.FullName(), Origins: *o})
		a.res.Exported = append(a.res.Exported, Exported{obj, o})
	}
}

// carriedMethods returns the method summaries of the direct imports'
// tables, theirs or carried on, that own (this package's entries) does
// not have, of the types this package's API reaches (see apiMethods): an
// importer may call a method of a type of a package it does not import,
// on a value this package hands it, and under go vet it sees the facts
// of its direct imports only. Functions are not carried: calling one
// needs its package imported.
func (a *state) carriedMethods(own []facts.NamedOrigins) []facts.NamedOrigins {
	if a.pass.Pkg.Name() == "main" || strings.HasSuffix(a.pass.Pkg.Path(), "_test") {
		return nil // a command or an external test: nothing imports it
	}
	seen := make(map[string]bool, len(own))
	for _, f := range own {
		seen[f.Name] = true
	}
	api := apiMethods(a.pass.Pkg)
	var out []facts.NamedOrigins
	for _, imp := range a.pass.Pkg.Imports() {
		for _, f := range a.table(imp).Funcs {
			if api[f.Name] && !seen[f.Name] {
				seen[f.Name] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// apiMethods returns the full names of the methods of the named types
// that pkg's exported API reaches: the types of its exported functions,
// variables, constants and types, and, from each named type, its
// exported fields (embedded ones too, whose methods are promoted) and
// its methods' signatures, across packages. An importer can hold a value
// of no other type of another package through pkg.
func apiMethods(pkg *types.Package) map[string]bool {
	out := make(map[string]bool)
	seen := make(map[types.Type]bool)
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			for i := range t.NumMethods() {
				m := t.Method(i)
				out[m.FullName()] = true
				if m.Exported() {
					walk(m.Type())
				}
			}
			walk(t.Underlying())
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Signature:
			for i := range t.Params().Len() {
				walk(t.Params().At(i).Type())
			}
			for i := range t.Results().Len() {
				walk(t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); f.Exported() || f.Embedded() {
					walk(f.Type())
				}
			}
		case *types.Interface:
			for i := range t.NumEmbeddeds() {
				walk(t.EmbeddedType(i))
			}
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if obj := scope.Lookup(name); obj.Exported() {
			walk(obj.Type())
		}
	}
	return out
}

package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"golang.org/x/tools/go/analysis"
)

// The annotations read, in gVisor checklocks' syntax: each is a line
// of a comment of its own, "// +checklocks:mu".
const (
	guardPrefix = "+checklocks:"       // on a field or variable: guarded by; on a function: called with the mutex held
	readPrefix  = "+checklocksread:"   // on a function: called with the mutex held at least for reading
	readAnyWord = "+checklocksreadany" // on a field guarded by several mutexes: a read holds any one
	atomicWord  = "+checkatomic"       // on a field: accessed atomically, the atomic operations being another check's
	ignoreWord  = "+checklocksignore"
	oldIgnore   = "+checklocks:ignore" // checklocks' first spelling of +checklocksignore
)

// A mutex is one annotated mutex, resolved: the steps that reach it
// from the base pointer of a field access (for a field's annotation),
// from a parameter (for a function's), or from a package variable.
type mutex struct {
	text   string         // as annotated: "mu", "parent.mu"; "s.mu" on a function
	global string         // the package variable the path starts at, "path.name", or ""
	pkg    *types.Package // the variable's package
	steps  facts.Path     // from the pointer to the struct, the parameter or the variable
	param  int            // a function's: the parameter the path starts at (the receiver first); -1
	read   bool           // +checklocksread: held for reading is enough
	at     string         // the annotation's position, "file:line:col"
}

// key returns the key that lockset gives the mutex, for an access to a
// field from a pointer named base, or a call that passes the function's
// parameters: the variable's own for a mutex reached from a package
// variable.
func (m mutex) key(base facts.Key) facts.Key {
	if m.global != "" {
		return facts.GlobalKey(m.global).Extend(m.steps)
	}
	return base.Extend(m.steps)
}

// guards are what guard a field or a package variable.
type guards struct {
	by      []mutex // every one is held for a write, and for a read
	readAny bool    // but a read holds any one of them
	atomic  bool    // +checkatomic too: the address given to a call (an atomic operation) is not checked
}

// annotated holds the package's annotations.
type annotated struct {
	vars    map[*types.Var]*guards  // guarded fields and package variables
	funcs   map[*types.Func][]mutex // functions called with mutexes held
	ignored map[*types.Func]bool    // functions annotated +checklocksignore
	silent  ignore.Lines            // where a bad annotation is not reported
}

// annotation returns the checklocks annotation that a comment is, kind
// and argument ("+checklocks:", "mu"), or "" for any other comment.
func annotation(text string) (kind, arg string) {
	body, ok := strings.CutPrefix(text, "//")
	if !ok {
		return "", ""
	}
	word, _, _ := strings.Cut(strings.TrimSpace(body), " ")
	switch word {
	case ignoreWord, oldIgnore, ignoreWord + ":": // "+checklocksignore: reason"
		return ignoreWord, ""
	case readAnyWord:
		return readAnyWord, ""
	case atomicWord:
		return atomicWord, ""
	}
	for _, prefix := range []string{guardPrefix, readPrefix} {
		if arg, ok := strings.CutPrefix(word, prefix); ok {
			return prefix, arg
		}
	}
	return "", ""
}

// isIgnore reports whether a comment is "// +checklocksignore".
func isIgnore(text string) bool {
	kind, _ := annotation(text)
	return kind == ignoreWord
}

// findAnnotations reads the annotations of the package's struct fields,
// package variables and function declarations, and reports those that
// name no mutex, but on the lines silenced.
func findAnnotations(pass *analysis.Pass, silent ignore.Lines) *annotated {
	a := &annotated{vars: make(map[*types.Var]*guards), funcs: make(map[*types.Func][]mutex), ignored: make(map[*types.Func]bool), silent: silent}
	named := make(map[*ast.StructType]types.Type) // the named type a struct type declares, for messages
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.VAR {
				a.readVars(pass, gen)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				if st, ok := n.Type.(*ast.StructType); ok && pass.TypesInfo.Defs[n.Name] != nil {
					named[st] = pass.TypesInfo.Defs[n.Name].Type()
				}
			case *ast.StructType:
				a.readStruct(pass, n, named[n])
			case *ast.FuncDecl:
				a.readFunc(pass, n)
			}
			return true
		})
	}
	return a
}

// readStruct reads the annotations on the fields of a struct type.
func (a *annotated) readStruct(pass *analysis.Pass, st *ast.StructType, t types.Type) {
	if t == nil {
		t = pass.TypesInfo.TypeOf(st)
	}
	if t == nil {
		return
	}
	for _, field := range st.Fields.List {
		a.readGuard(pass, field.Names, func(path string) (mutex, string) { return fieldMutex(pass.Pkg, t, path) }, field.Doc, field.Comment)
	}
}

// readVars reads the annotations on package variables: on the spec
// (above it or at the end of its line), or above the var declaration,
// which applies to each of its specs.
func (a *annotated) readVars(pass *analysis.Pass, gen *ast.GenDecl) {
	for _, spec := range gen.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok {
			continue
		}
		groups := []*ast.CommentGroup{gen.Doc, vs.Doc, vs.Comment}
		a.readGuard(pass, vs.Names, func(path string) (mutex, string) { return globalMutex(pass.Pkg, path) }, groups...)
	}
}

// readGuard reads the annotations in the comments of the declaration of
// names, resolving each mutex's path with resolve.
func (a *annotated) readGuard(pass *analysis.Pass, names []*ast.Ident, resolve func(string) (mutex, string), groups ...*ast.CommentGroup) {
	g := new(guards)
	for _, cg := range groups {
		if cg == nil {
			continue
		}
		for _, c := range cg.List {
			kind, arg := annotation(c.Text)
			switch {
			case kind == readAnyWord:
				g.readAny = true
			case kind == atomicWord:
				g.atomic = true
			case kind == guardPrefix:
				m, problem := resolve(arg)
				if problem != "" {
					a.report(pass, c.Pos(), "bad +checklocks annotation: %s, so it guards nothing", problem)
					continue
				}
				m.at = pass.Fset.Position(c.Pos()).String()
				g.by = append(g.by, m)
			}
		}
	}
	if len(g.by) == 0 {
		return
	}
	for _, name := range names {
		if v, ok := pass.TypesInfo.Defs[name].(*types.Var); ok {
			a.vars[v] = g
		}
	}
}

// readFunc reads the annotations in a function's doc comment.
func (a *annotated) readFunc(pass *analysis.Pass, decl *ast.FuncDecl) {
	obj, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok || decl.Doc == nil {
		return
	}
	for _, c := range decl.Doc.List {
		kind, arg := annotation(c.Text)
		switch kind {
		case ignoreWord:
			a.ignored[obj] = true
		case guardPrefix, readPrefix:
			m, problem := paramMutex(obj, arg)
			if problem != "" {
				a.report(pass, c.Pos(), "bad %s annotation: %s, so it says nothing", strings.TrimSuffix(kind, ":"), problem)
				continue
			}
			m.read = kind == readPrefix
			m.at = pass.Fset.Position(c.Pos()).String()
			a.funcs[obj] = append(a.funcs[obj], m)
		}
	}
}

func (a *annotated) report(pass *analysis.Pass, pos token.Pos, format string, args ...any) {
	if !a.silent.Has(pos) {
		pass.Report(analysis.Diagnostic{Pos: pos, Category: kinds.BadAnnotation.ID, Message: fmt.Sprintf(format, args...)})
	}
}

// fieldPath resolves path, a dotted list of field names from a struct of
// type t ("mu", "parent.mu", an embedded struct's "Mutex"), to the steps
// that reach the mutex from a pointer to the struct, as lockset names a
// mutex (facts.Key): the address of each field, a load through each
// pointer on the way, and a load of the mutex's pointer when the last
// field holds one. It returns the problem when a name is not a field or
// the last is not a sync.Mutex or sync.RWMutex.
func fieldPath(pkg *types.Package, t types.Type, path string) (facts.Path, string) {
	var steps facts.Path
	cur := t
	for i, name := range strings.Split(path, ".") {
		if i > 0 {
			p, ok := cur.Underlying().(*types.Pointer)
			if ok {
				steps = steps.Then(facts.Step{Op: facts.Load})
				cur = p.Elem()
			}
		}
		obj, index, _ := types.LookupFieldOrMethod(cur, false, pkg, name)
		if _, ok := obj.(*types.Var); !ok {
			return facts.Path{}, fmt.Sprintf("%s has no field %s", typeName(cur), name)
		}
		for j, k := range index {
			if p, ok := cur.Underlying().(*types.Pointer); ok && (i > 0 || j > 0) {
				steps = steps.Then(facts.Step{Op: facts.Load})
				cur = p.Elem()
			}
			st, ok := cur.Underlying().(*types.Struct)
			if !ok || k >= st.NumFields() {
				return facts.Path{}, fmt.Sprintf("%s has no field %s", typeName(cur), name)
			}
			steps = steps.Then(facts.Step{Op: facts.FieldAddr, Index: k})
			cur = st.Field(k).Type()
		}
	}
	if p, ok := cur.Underlying().(*types.Pointer); ok {
		steps = steps.Then(facts.Step{Op: facts.Load})
		cur = p.Elem()
	} else if isLocker(cur) {
		steps = steps.Then(facts.Step{Op: facts.Load})
	}
	if !isMutex(cur) {
		return facts.Path{}, fmt.Sprintf("%s is of type %s, not a sync.Mutex, sync.RWMutex or sync.Locker", path, types.TypeString(cur, types.RelativeTo(pkg)))
	}
	return steps, ""
}

// fieldMutex resolves a field's annotation: a path of fields from the
// struct of type t, or from a package variable of pkg when the first
// name is no field of the struct.
func fieldMutex(pkg *types.Package, t types.Type, path string) (mutex, string) {
	first, _, _ := strings.Cut(path, ".")
	if obj, _, _ := types.LookupFieldOrMethod(t, false, pkg, first); obj == nil && pkg.Scope().Lookup(first) != nil {
		return globalMutex(pkg, path)
	}
	steps, problem := fieldPath(pkg, t, path)
	return mutex{text: path, steps: steps, param: -1}, problem
}

// globalMutex resolves a path that starts at a package variable of pkg:
// the mutex itself ("globalMu"), or a path of fields from it
// ("state.mu").
func globalMutex(pkg *types.Package, path string) (mutex, string) {
	first, rest, _ := strings.Cut(path, ".")
	v, ok := pkg.Scope().Lookup(first).(*types.Var)
	if !ok {
		return mutex{}, fmt.Sprintf("package %s has no variable %s", pkg.Name(), first)
	}
	m := mutex{text: path, global: pkg.Path() + "." + first, pkg: pkg, param: -1}
	t := v.Type()
	if rest == "" {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			m.steps = m.steps.Then(facts.Step{Op: facts.Load})
			t = p.Elem()
		} else if isLocker(t) {
			m.steps = m.steps.Then(facts.Step{Op: facts.Load})
		}
		if !isMutex(t) {
			return mutex{}, fmt.Sprintf("%s is of type %s, not a sync.Mutex, sync.RWMutex or sync.Locker", path, types.TypeString(t, types.RelativeTo(pkg)))
		}
		return m, ""
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		m.steps = m.steps.Then(facts.Step{Op: facts.Load})
		t = p.Elem()
	}
	steps, problem := fieldPath(pkg, t, rest)
	for _, st := range steps.Steps() {
		m.steps = m.steps.Then(st)
	}
	return m, problem
}

// paramMutex resolves a function's annotation "s.mu": s names the
// receiver or a parameter, a pointer to a struct whose mutex is at the
// rest of the path (or, alone, a *sync.Mutex parameter); or a package
// variable.
func paramMutex(fn *types.Func, path string) (mutex, string) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return mutex{}, "not a function"
	}
	var params []*types.Var
	if sig.Recv() != nil {
		params = append(params, sig.Recv())
	}
	for v := range sig.Params().Variables() {
		params = append(params, v)
	}
	first, rest, _ := strings.Cut(path, ".")
	for i, p := range params {
		if p.Name() != first || first == "" || first == "_" {
			continue
		}
		ptr, ok := p.Type().Underlying().(*types.Pointer)
		if !ok {
			return mutex{}, fmt.Sprintf("%s is not a pointer, and a mutex in a copy guards nothing", first)
		}
		if rest == "" {
			if !isMutex(ptr.Elem()) {
				return mutex{}, fmt.Sprintf("%s is not a *sync.Mutex or *sync.RWMutex", first)
			}
			return mutex{text: path, param: i}, ""
		}
		steps, problem := fieldPath(fn.Pkg(), ptr.Elem(), rest)
		return mutex{text: path, steps: steps, param: i}, problem
	}
	if fn.Pkg() != nil && fn.Pkg().Scope().Lookup(first) != nil {
		return globalMutex(fn.Pkg(), path)
	}
	return mutex{}, fmt.Sprintf("%s has no receiver, parameter or package variable %s", fn.Name(), first)
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex, or the
// interface sync.Locker.
func isMutex(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "sync" {
		return false
	}
	switch named.Obj().Name() {
	case "Mutex", "RWMutex", "Locker":
		return true
	}
	return false
}

// isLocker reports whether t is the interface sync.Locker, which is
// loaded from its variable to be locked.
func isLocker(t types.Type) bool {
	_, iface := t.Underlying().(*types.Interface)
	return iface && isMutex(t)
}

// typeName names a type in a message: its name, or "the struct".
func typeName(t types.Type) string {
	if named, ok := types.Unalias(t).(*types.Named); ok {
		return named.Obj().Name()
	}
	return "the struct"
}

// exportFacts exports the package's annotations on its fields,
// variables and functions, for importers to check their accesses and
// calls.
func (a *annotated) exportFacts(pass *analysis.Pass) {
	fact := func(ms []mutex) *facts.Guarded {
		g := &facts.Guarded{V: facts.Version}
		for _, m := range ms {
			by := facts.GuardedBy{Mutex: m.text, Global: m.global, Steps: m.steps.Steps(), Read: m.read, At: m.at}
			if m.global == "" {
				by.Param = max(m.param, 0)
			}
			g.By = append(g.By, by)
		}
		return g
	}
	for v, g := range a.vars {
		f := fact(g.by)
		f.ReadAny, f.Atomic = g.readAny, g.atomic
		pass.ExportObjectFact(v, f)
	}
	for fn, ms := range a.funcs {
		pass.ExportObjectFact(fn, fact(ms))
	}
}

// imported returns the fact on obj, a field, variable or function of
// another package, and its mutexes, as exportFacts wrote them (param:
// obj is a function, whose mutexes may start at a parameter).
func imported(pass *analysis.Pass, obj types.Object, param bool) (*facts.Guarded, []mutex) {
	var f facts.Guarded
	if !pass.ImportObjectFact(obj, &f) || !f.Valid() {
		return nil, nil
	}
	var ms []mutex
	for _, by := range f.By {
		m := mutex{text: by.Mutex, global: by.Global, param: -1, read: by.Read, at: by.At}
		if by.Global != "" {
			m.pkg = obj.Pkg()
		} else if param {
			m.param = by.Param
		}
		for _, s := range by.Steps {
			m.steps = m.steps.Then(s)
		}
		ms = append(ms, m)
	}
	return &f, ms
}

// importedVar returns what guards v, a field or package variable of
// another package, by its fact, or nil.
func importedVar(pass *analysis.Pass, v *types.Var) *guards {
	f, ms := imported(pass, v, false)
	if f == nil {
		return nil
	}
	return &guards{by: ms, readAny: f.ReadAny, atomic: f.Atomic}
}

// importedFunc returns the mutexes that the callers of fn, a function
// of another package, must hold, by its fact.
func importedFunc(pass *analysis.Pass, fn *types.Func) []mutex {
	_, ms := imported(pass, fn, true)
	return ms
}

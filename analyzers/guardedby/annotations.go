package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/facts"
	"golang.org/x/tools/go/analysis"
)

// The annotations read, in gVisor checklocks' syntax: each is a line
// of a comment of its own, "// +checklocks:mu".
const (
	guardPrefix = "+checklocks:"     // on a field: guarded by; on a function: called with the mutex held
	readPrefix  = "+checklocksread:" // on a function: called with the mutex held at least for reading
	ignoreWord  = "+checklocksignore"
	oldIgnore   = "+checklocks:ignore" // checklocks' first spelling of +checklocksignore
)

// A mutex is one annotated mutex, resolved: the steps that reach it
// from the base pointer of a field access (for a field's annotation) or
// from a parameter (for a function's).
type mutex struct {
	text  string     // as annotated: "mu", "parent.mu"; "s.mu" on a function
	steps facts.Path // from the pointer to the struct, or from the parameter
	param int        // a function's: the parameter the path starts at (the receiver first)
	read  bool       // +checklocksread: held for reading is enough
	at    string     // the annotation's position, "file:line:col"
}

// annotated holds the package's annotations.
type annotated struct {
	fields  map[*types.Var][]mutex  // guarded fields
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
	body = strings.TrimSpace(body)
	if body == ignoreWord || strings.HasPrefix(body, ignoreWord+" ") || body == oldIgnore || strings.HasPrefix(body, oldIgnore+" ") {
		return ignoreWord, ""
	}
	for _, prefix := range []string{guardPrefix, readPrefix} {
		if rest, ok := strings.CutPrefix(body, prefix); ok {
			arg, _, _ = strings.Cut(rest, " ")
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

// findAnnotations reads the annotations of the package's struct fields
// and function declarations, and reports those that name no mutex,
// but on the lines silenced.
func findAnnotations(pass *analysis.Pass, silent ignore.Lines) *annotated {
	a := &annotated{fields: make(map[*types.Var][]mutex), funcs: make(map[*types.Func][]mutex), ignored: make(map[*types.Func]bool), silent: silent}
	named := make(map[*ast.StructType]types.Type) // the named type a struct type declares, for messages
	for _, f := range pass.Files {
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
		for _, cg := range []*ast.CommentGroup{field.Doc, field.Comment} {
			if cg == nil {
				continue
			}
			for _, c := range cg.List {
				kind, arg := annotation(c.Text)
				if kind != guardPrefix || arg == "ignore" {
					continue
				}
				steps, problem := fieldPath(pass.Pkg, t, arg)
				if problem != "" {
					a.report(pass, c.Pos(), "bad +checklocks annotation: %s, so it guards nothing", problem)
					continue
				}
				m := mutex{text: arg, steps: steps, param: -1, at: pass.Fset.Position(c.Pos()).String()}
				for _, name := range field.Names {
					if v, ok := pass.TypesInfo.Defs[name].(*types.Var); ok {
						a.fields[v] = append(a.fields[v], m)
					}
				}
			}
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
			m, problem := paramPath(obj, arg)
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
		pass.Reportf(pos, format, args...)
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
	}
	if !isMutex(cur) {
		return facts.Path{}, fmt.Sprintf("%s is of type %s, not a sync.Mutex or sync.RWMutex", path, types.TypeString(cur, types.RelativeTo(pkg)))
	}
	return steps, ""
}

// paramPath resolves a function's annotation "s.mu": s names the
// receiver or a parameter, a pointer to a struct whose mutex is at the
// rest of the path (or, alone, a *sync.Mutex parameter).
func paramPath(fn *types.Func, path string) (mutex, string) {
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
		if problem != "" {
			return mutex{}, problem
		}
		return mutex{text: path, steps: steps, param: i}, ""
	}
	return mutex{}, fmt.Sprintf("%s has no receiver or parameter %s", fn.Name(), first)
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex.
func isMutex(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "sync" {
		return false
	}
	return named.Obj().Name() == "Mutex" || named.Obj().Name() == "RWMutex"
}

// typeName names a type in a message: its name, or "the struct".
func typeName(t types.Type) string {
	if named, ok := types.Unalias(t).(*types.Named); ok {
		return named.Obj().Name()
	}
	return "the struct"
}

// exportFacts exports the package's annotations on its fields and
// functions, for importers to check their accesses and calls.
func (a *annotated) exportFacts(pass *analysis.Pass) {
	export := func(obj types.Object, ms []mutex) {
		g := &facts.Guarded{V: facts.Version}
		for _, m := range ms {
			g.By = append(g.By, facts.GuardedBy{Mutex: m.text, Read: m.read, At: m.at})
		}
		pass.ExportObjectFact(obj, g)
	}
	for v, ms := range a.fields {
		export(v, ms)
	}
	for fn, ms := range a.funcs {
		export(fn, ms)
	}
}

// importedField resolves the fact on a field of another package, a
// field of structType.
func importedField(pass *analysis.Pass, v *types.Var, structType types.Type) []mutex {
	var g facts.Guarded
	if !pass.ImportObjectFact(v, &g) || !g.Valid() {
		return nil
	}
	var ms []mutex
	for _, by := range g.By {
		steps, problem := fieldPath(v.Pkg(), structType, by.Mutex)
		if problem == "" {
			ms = append(ms, mutex{text: by.Mutex, steps: steps, param: -1, at: by.At})
		}
	}
	return ms
}

// importedFunc resolves the fact on a function of another package.
func importedFunc(pass *analysis.Pass, fn *types.Func) []mutex {
	var g facts.Guarded
	if !pass.ImportObjectFact(fn, &g) || !g.Valid() {
		return nil
	}
	var ms []mutex
	for _, by := range g.By {
		if m, problem := paramPath(fn, by.Mutex); problem == "" {
			m.read, m.at = by.Read, by.At
			ms = append(ms, m)
		}
	}
	return ms
}

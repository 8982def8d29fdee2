package guardedby

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/origo-dev/origo/analyzers/internal/docs"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/lockset"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// doc is the source of doc.go, whose package comment is the manual.
//
//go:embed doc.go
var doc string

// Analyzer reports accesses to fields annotated "+checklocks:mu" made
// without the mutex held; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:      "guardedby",
	Doc:       docs.MustExtract(doc, "guardedby"),
	URL:       "https://pkg.go.dev/github.com/origo-dev/origo/analyzers/guardedby",
	Run:       run,
	Requires:  []*analysis.Analyzer{buildir.Analyzer, lockset.Analyzer},
	FactTypes: []analysis.Fact{new(facts.Guarded)},
	// The directives that silenced a report, for the directive analyzer.
	ResultType: reflect.TypeFor[*ignore.Silenced](),
}

func init() { ignore.Flag(&Analyzer.Flags) }

func run(pass *analysis.Pass) (any, error) {
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	ignored := ignore.Find(pass)
	ann := findAnnotations(pass, ignored)
	ann.exportFacts(pass)
	if ir.Pkg == nil {
		return (*ignore.Silenced)(nil), nil // nothing checked
	}
	if len(ann.vars) == 0 && len(ann.funcs) == 0 && len(pass.AllObjectFacts()) == 0 {
		return ignored.Silenced(), nil // nothing annotated here or in the imports: nothing to report
	}
	c := &checker{
		pass:          pass,
		ann:           ann,
		locks:         pass.ResultOf[lockset.Analyzer].(*lockset.Result),
		ignored:       ignored,
		lines:         ignore.Matching(pass, isIgnore),
		importedVars:  make(map[*types.Var]*guards),
		importedFuncs: make(map[*types.Func][]mutex),
		inherited:     make(map[*ssa.Function]*lockset.Set),
		released:      make(map[releaseKey]map[ssa.Instruction]bool),
	}
	if guard.Do(pass, "guardedby", func() {
		for _, fn := range ir.SrcFuncs {
			guard.At(pass, fn.String())
			c.checkFunc(fn)
		}
	}) != "" {
		return (*ignore.Silenced)(nil), nil // not all checked
	}
	return ignored.Silenced(), nil
}

type checker struct {
	pass          *analysis.Pass
	ann           *annotated
	locks         *lockset.Result
	ignored       ignore.Lines           // "//origo:ignore guardedby" lines
	lines         ignore.Lines           // "// +checklocksignore" lines
	importedVars  map[*types.Var]*guards // other packages' annotations, resolved
	importedFuncs map[*types.Func][]mutex
	inherited     map[*ssa.Function]*lockset.Set          // see inheritedBy
	released      map[releaseKey]map[ssa.Instruction]bool // see mayBeReleased
	sels          map[token.Pos]ast.Expr                  // see sourceName
}

// checkFunc checks the accesses to guarded fields and the calls of
// annotated functions that fn makes.
func (c *checker) checkFunc(fn *ssa.Function) {
	top := fn
	for top.Parent() != nil {
		top = top.Parent()
	}
	if obj, ok := top.Object().(*types.Func); ok && c.ann.ignored[obj] {
		return
	}
	var made []types.Type // the structs a constructor makes (see constructs)
	if fn == top && constructor(fn) {
		made = allocated(fn)
	}
	// One report per field access in the source: s.n++ loads and stores
	// through two addresses of s.n, and the store is the one reported.
	byPos := make(map[token.Pos]*finding)
	var order []token.Pos
	add := func(f *finding) {
		if f == nil || !f.pos.IsValid() || c.ignored.Has(f.pos) || c.lines.Has(f.pos) {
			return
		}
		if old, ok := byPos[f.pos]; !ok {
			byPos[f.pos] = f
			order = append(order, f.pos)
		} else if f.worse(old) {
			byPos[f.pos] = f
		}
	}
	var ops []*ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var f *finding
			switch instr := instr.(type) {
			case *ssa.FieldAddr:
				f = c.checkField(fn, instr, instr.X, pointee(instr.X.Type()), instr.Field, made)
			case *ssa.Field:
				f = c.checkField(fn, instr, instr.X, instr.X.Type(), instr.Field, made)
			case *ssa.Call:
				c.checkCall(fn, instr, made)
			}
			add(f)
			for _, op := range instr.Operands(ops[:0]) {
				if g, ok := (*op).(*ssa.Global); ok {
					add(c.checkGlobal(fn, instr, g))
				}
			}
		}
	}
	for _, pos := range order {
		f := byPos[pos]
		verb := "read of"
		switch {
		case f.acc.write:
			verb = "write to"
		case f.acc.addr:
			verb = "access to"
		}
		if f.readHeld {
			c.report(kinds.UnguardedAccess, pos, "%s %s with %s held only for reading (annotated +checklocks:%s at %s)", verb, f.what, f.mu, f.m.text, facts.ShortPos(f.m.at))
		} else {
			c.report(kinds.UnguardedAccess, pos, "%s %s without %s held (annotated +checklocks:%s at %s)", verb, f.what, f.mu, f.m.text, facts.ShortPos(f.m.at))
		}
	}
}

// A finding is an access to a guarded field that does not hold its
// mutex, or holds it only for reading to write.
type finding struct {
	pos      token.Pos
	acc      access
	what, mu string  // the field and the mutexes, as the code names them
	m        mutex   // the mutex whose annotation the message shows
	ms       []mutex // the mutexes the access lacks (several when any one would do)
	readHeld bool
}

// worse reports whether f is the one to report rather than g, at the
// same place: a write rather than a read, no lock rather than a read
// lock.
func (f *finding) worse(g *finding) bool {
	if f.acc.write != g.acc.write {
		return f.acc.write
	}
	return !f.readHeld && g.readHeld
}

// checkField checks the accesses that v, the field index of a struct
// of type st reached from x, is used for, and returns the worst.
func (c *checker) checkField(fn *ssa.Function, v ssa.Value, x ssa.Value, st types.Type, index int, made []types.Type) *finding {
	s, ok := st.Underlying().(*types.Struct)
	if !ok || index >= s.NumFields() {
		return nil
	}
	field := s.Field(index).Origin()
	g := c.guardsOf(field)
	if g == nil || constructs(made, st) {
		return nil
	}
	var accs []access
	if fa, isAddr := v.(*ssa.FieldAddr); isAddr {
		accs = accessesOf(fa, nil)
	} else if ld := loadOf(v.(*ssa.Field)); ld != nil {
		accs = []access{{at: ld}}
	}
	accs = slices.DeleteFunc(accs, func(acc access) bool { return fresh(x, acc.at) })
	base, named := baseKey(x)
	f := c.worst(fn, accs, g, func(m mutex) (facts.Key, bool) { return m.key(base), named || m.global != "" })
	if f == nil {
		return nil
	}
	f.pos = v.Pos()
	name := c.sourceName(f.pos)
	if name == "" {
		name = exprName(x, st)
	}
	f.what = name + "." + field.Name()
	f.mu = c.mutexNames(name, f.ms)
	return f
}

// checkGlobal checks the accesses that instr makes to the package
// variable g, and returns the worst.
func (c *checker) checkGlobal(fn *ssa.Function, instr ssa.Instruction, g *ssa.Global) *finding {
	v, ok := g.Object().(*types.Var)
	if !ok {
		return nil
	}
	gs := c.guardsOf(v)
	if gs == nil {
		return nil
	}
	var accs []access
	switch instr := instr.(type) {
	case *ssa.UnOp:
		accs = []access{{at: instr, write: instr.Op == token.MUL && mutatesContents(instr), addr: instr.Op != token.MUL}}
	case *ssa.Store:
		accs = []access{{at: instr, write: instr.Addr == g, addr: instr.Addr != g}}
	case *ssa.FieldAddr:
		accs = accessesOf(instr, nil)
	case *ssa.IndexAddr:
		accs = accessesOf(instr, nil)
	case *ssa.DebugRef:
	default:
		accs = []access{{at: instr, addr: true}}
	}
	f := c.worst(fn, accs, gs, func(m mutex) (facts.Key, bool) { return m.key(facts.Key{}), m.global != "" })
	if f == nil {
		return nil
	}
	f.pos = instr.Pos()
	if v, ok := instr.(ssa.Value); ok && f.pos == token.NoPos {
		f.pos = v.Pos()
	}
	f.what = c.qualified(v.Pkg(), v.Name())
	f.mu = c.mutexNames("", f.ms)
	return f
}

// worst returns the worst of accs that does not hold the mutexes of g,
// named by key.
func (c *checker) worst(fn *ssa.Function, accs []access, g *guards, key func(mutex) (facts.Key, bool)) *finding {
	var worst *finding
	if slices.ContainsFunc(g.by, c.unnamed) {
		return nil
	}
	for _, acc := range accs {
		if acc.addr && g.atomic {
			continue // an atomic operation, most likely: checkatomic's to judge
		}
		held := c.held(fn, acc.at)
		var f *finding
		if g.readAny && !acc.write {
			found := false
			for _, m := range g.by {
				k, ok := key(m)
				if _, h := held.Find(k); ok && h {
					found = true
					break
				}
			}
			if !found {
				f = &finding{acc: acc, m: g.by[0], ms: g.by}
			}
		} else {
			for _, m := range g.by {
				k, ok := key(m)
				var h lockset.Held
				isHeld := false
				if ok {
					h, isHeld = held.Find(k)
				}
				if isHeld && (!h.Read || !acc.write) {
					continue
				}
				f = &finding{acc: acc, m: m, ms: []mutex{m}, readHeld: isHeld}
				break
			}
		}
		if f != nil && (worst == nil || f.worse(worst)) {
			worst = f
		}
	}
	return worst
}

// unnamed reports whether m is a mutex that this package cannot name:
// an unexported variable of another package, which the export data that
// go vet gives this package leaves out, so that lockset does not see
// that package's functions take it (gVisor's LockPrivate). It is taken
// for held, under every driver alike.
func (c *checker) unnamed(m mutex) bool {
	if m.global == "" || m.pkg == c.pass.Pkg {
		return false
	}
	name := m.global[strings.LastIndex(m.global, ".")+1:]
	return !token.IsExported(name)
}

// mutexNames names the mutexes of a finding as the code does: from the
// value name the field was reached from, or by their package variable.
func (c *checker) mutexNames(name string, ms []mutex) string {
	var names []string
	for _, m := range ms {
		if m.global != "" {
			names = append(names, c.qualified(m.pkg, m.text))
		} else {
			names = append(names, name+"."+m.text)
		}
	}
	return strings.Join(names, " or ")
}

// qualified returns name, of a package variable of pkg, as this package
// writes it.
func (c *checker) qualified(pkg *types.Package, name string) string {
	if pkg == nil || pkg == c.pass.Pkg {
		return name
	}
	return pkg.Name() + "." + name
}

// checkCall checks that a call of a function annotated "+checklocks:s.mu"
// holds the mutex its argument reaches.
func (c *checker) checkCall(fn *ssa.Function, call *ssa.Call, made []types.Type) {
	callee := call.Common().StaticCallee()
	if callee == nil || call.Common().IsInvoke() {
		return
	}
	obj, ok := callee.Object().(*types.Func)
	if orig := callee.Origin(); orig != nil {
		obj, ok = orig.Object().(*types.Func)
	}
	if !ok {
		return
	}
	ms := c.funcMutexes(obj)
	if len(ms) == 0 || c.ignored.Has(call.Pos()) || c.lines.Has(call.Pos()) {
		return
	}
	bind := lockset.Binder(call.Common())
	args := call.Common().Args
	for _, m := range ms {
		if c.unnamed(m) {
			continue
		}
		var mu string // the mutex, as the caller names it
		var key facts.Key
		if m.global != "" {
			key, mu = m.key(facts.Key{}), c.qualified(m.pkg, m.text)
		} else {
			if m.param < 0 || m.param >= len(args) {
				continue
			}
			arg := args[m.param]
			if constructs(made, pointee(arg.Type())) || fresh(arg, call) {
				continue
			}
			key = bind(m.key(facts.ParamKey(m.param)))
			if m.param == 0 && callee.Signature.Recv() != nil {
				mu = c.sourceName(call.Common().Pos()) // the receiver, as the call names it
			}
			if mu == "" {
				mu = exprName(arg, pointee(arg.Type()))
			}
			if _, rest, _ := strings.Cut(m.text, "."); rest != "" {
				mu += "." + rest
			}
		}
		if !key.Bound() {
			continue
		}
		h, held := c.held(fn, call).Find(key)
		if held && (!h.Read || m.read) {
			continue
		}
		kind := "+checklocks"
		if m.read {
			kind = "+checklocksread"
		}
		if held {
			c.report(kinds.UnguardedCall, call.Pos(), "call of %s with %s held only for reading (annotated %s:%s at %s)", obj.Name(), mu, kind, m.text, facts.ShortPos(m.at))
		} else {
			c.report(kinds.UnguardedCall, call.Pos(), "call of %s without %s held (annotated %s:%s at %s)", obj.Name(), mu, kind, m.text, facts.ShortPos(m.at))
		}
		return
	}
}

// sourceName returns the source text of the operand of the selector
// whose field or method name is at pos ("o.inner" for o.inner.n), or "".
func (c *checker) sourceName(pos token.Pos) string {
	if c.sels == nil {
		c.sels = make(map[token.Pos]ast.Expr)
		for _, f := range c.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					c.sels[n.Sel.Pos()] = n.X
				case *ast.CallExpr:
					if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
						c.sels[n.Lparen] = sel.X
					}
				}
				return true
			})
		}
	}
	x, ok := c.sels[pos]
	if !ok {
		return ""
	}
	return types.ExprString(x)
}

// guardsOf returns what guards v, a field or a package variable, by
// this package's annotations or an import's fact, or nil.
func (c *checker) guardsOf(v *types.Var) *guards {
	if g, ok := c.ann.vars[v]; ok || v.Pkg() == c.pass.Pkg {
		return g
	}
	g, ok := c.importedVars[v]
	if !ok {
		g = importedVar(c.pass, v)
		c.importedVars[v] = g
	}
	return g
}

// funcMutexes returns the mutexes that a function's callers must hold.
func (c *checker) funcMutexes(fn *types.Func) []mutex {
	if ms, ok := c.ann.funcs[fn]; ok || fn.Pkg() == c.pass.Pkg {
		return ms
	}
	ms, ok := c.importedFuncs[fn]
	if !ok {
		ms = importedFunc(c.pass, fn)
		c.importedFuncs[fn] = ms
	}
	return ms
}

// constructor reports whether fn is named like a constructor: new, New,
// or either followed by a capital letter, a digit or an underscore
// (newServer, NewClient; not newline).
func constructor(fn *ssa.Function) bool {
	name := fn.Name()
	rest, ok := strings.CutPrefix(name, "new")
	if !ok {
		rest, ok = strings.CutPrefix(name, "New")
	}
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || unicode.IsUpper(r) || unicode.IsDigit(r) || r == '_'
}

// allocated returns the struct types that fn allocates (new(T), &T{},
// a local T), and those they hold by value.
func allocated(fn *ssa.Function) []types.Type {
	var out []types.Type
	var add func(t types.Type, depth int)
	add = func(t types.Type, depth int) {
		s, ok := t.Underlying().(*types.Struct)
		if !ok || depth > 4 {
			return
		}
		out = append(out, t)
		for f := range s.Fields() {
			add(f.Type(), depth+1)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if a, ok := instr.(*ssa.Alloc); ok {
				add(pointee(a.Type()), 0)
			}
		}
	}
	return out
}

// constructs reports whether st is among the types a constructor makes.
func constructs(made []types.Type, st types.Type) bool {
	for _, t := range made {
		if types.Identical(t, st) {
			return true
		}
	}
	return false
}

// fresh reports whether the access at is to an object that its
// function allocated and that no other goroutine can reach there: a
// local variable whose address never escapes (a copy, c := *s), or an
// object allocated in the same block and not published yet (a composite
// literal's fields, &S{n: 1}, or stores right after new(S)). Handing
// the object, or the address of one of its fields, to any instruction
// but a field address, a load or a store into it publishes it.
func fresh(x ssa.Value, at ssa.Instruction) bool {
	root := x
	for {
		fa, ok := root.(*ssa.FieldAddr)
		if !ok {
			break
		}
		root = fa.X
	}
	alloc, ok := root.(*ssa.Alloc)
	if !ok {
		return false
	}
	if !alloc.Heap {
		return true
	}
	if alloc.Block() != at.Block() {
		return false
	}
	started := false
	var ops []*ssa.Value
	for _, instr := range alloc.Block().Instrs {
		switch {
		case instr == ssa.Instruction(alloc):
			started = true
			continue
		case instr == at:
			return started
		case !started:
			continue
		}
		switch instr := instr.(type) {
		case *ssa.FieldAddr, *ssa.UnOp, *ssa.DebugRef:
			continue
		case *ssa.Store:
			if !derived(instr.Val, alloc) {
				continue
			}
			return false
		}
		for _, op := range instr.Operands(ops[:0]) {
			if *op != nil && derived(*op, alloc) {
				return false
			}
		}
	}
	return false
}

// derived reports whether v is root or the address of a field of it.
func derived(v, root ssa.Value) bool {
	for {
		if v == root {
			return true
		}
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		v = fa.X
	}
}

// baseKey returns the key of the pointer that a field is reached from:
// x itself for a field address, the address a struct value was loaded
// from for a field of the value. It fails for a struct value that was
// not loaded (a copy: no mutex held guards it).
func baseKey(x ssa.Value) (facts.Key, bool) {
	if _, ok := x.Type().Underlying().(*types.Pointer); ok {
		return lockset.Key(x), true
	}
	switch x := x.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return lockset.Key(x.X), true
		}
	case *ssa.Field:
		if k, ok := baseKey(x.X); ok {
			return k.Then(facts.Step{Op: facts.FieldAddr, Index: x.Field}), true
		}
	}
	return facts.Key{}, false
}

// loadOf returns the instruction that read the field f of a struct
// value from memory: the load of the struct f's chain of fields starts
// at ((*p).inner.n). It returns nil for a struct value that was not
// loaded here (a parameter, a call's result): a copy, read by whoever
// made it.
func loadOf(f *ssa.Field) *ssa.UnOp {
	var x ssa.Value = f
	for {
		switch v := x.(type) {
		case *ssa.Field:
			x = v.X
			continue
		case *ssa.UnOp:
			if v.Op == token.MUL {
				return v
			}
		}
		return nil
	}
}

// pointee returns what a pointer type points to, or t.
func pointee(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// exprName renders how the code names the value x, of struct type (or
// pointer to) st, in a message: "s", "s.parent", "srv.conns[i]"; embedded
// fields are left out, as the code leaves them out. A value with no
// name is named by its type ("Server").
func exprName(x ssa.Value, st types.Type) string {
	if name := valueName(x); name != "" {
		return name
	}
	return typeName(st)
}

func valueName(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return fieldName(v.X, pointee(v.X.Type()), v.Field)
	case *ssa.Field:
		return fieldName(v.X, v.X.Type(), v.Field)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return valueName(v.X)
		}
	case *ssa.ChangeType:
		return valueName(v.X)
	case *ssa.IndexAddr:
		if x := valueName(v.X); x != "" {
			return x + "[i]"
		}
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return v.Name()
	case *ssa.Alloc:
		if v.Comment != "" && !strings.ContainsAny(v.Comment, " ") && v.Comment != "complit" {
			return v.Comment
		}
	}
	return ""
}

func fieldName(x ssa.Value, st types.Type, i int) string {
	name := valueName(x)
	s, ok := st.Underlying().(*types.Struct)
	if name == "" || !ok || i >= s.NumFields() {
		return ""
	}
	if s.Field(i).Embedded() {
		return name
	}
	return name + "." + s.Field(i).Name()
}

// report reports a finding of kind k at pos.
func (c *checker) report(k kinds.Kind, pos token.Pos, format string, args ...any) {
	c.pass.Report(analysis.Diagnostic{Pos: pos, Category: k.ID, Message: fmt.Sprintf(format, args...)})
}

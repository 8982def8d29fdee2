package blocking

import (
	"cmp"
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"

	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/internal/docs"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/internal/posn"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/effects"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// doc is the source of doc.go, whose package comment is the manual.
//
//go:embed doc.go
var doc string

// Analyzer reports goroutines that block forever on channels; see the
// package documentation.
var Analyzer = &analysis.Analyzer{
	Name:     "blocking",
	Doc:      docs.MustExtract(doc, "blocking"),
	URL:      "https://pkg.go.dev/github.com/origo-dev/origo/analyzers/blocking",
	Run:      run,
	Requires: []*analysis.Analyzer{buildir.Analyzer, effects.Analyzer, lockset.Analyzer, pointer.Analyzer, shb.Analyzer, deadlock.Analyzer},
	// The directives that silenced a report, for the directive analyzer.
	ResultType: reflect.TypeFor[*ignore.Silenced](),
}

func init() {
	ignore.Flag(&Analyzer.Flags)
	Analyzer.Flags.Var(rules.TargetFlag{Value: &whyTarget}, "why", "explain every candidate blocking operation at `FILE:LINE` (or all): each question asked of it (does anything complete it, does its receiver stay for the result, does every goroutine call Done) and the rule that answered it, or reported; as diagnostics of category \"why\"")
}

func run(pass *analysis.Pass) (any, error) {
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil {
		return (*ignore.Silenced)(nil), nil // nothing checked
	}
	c := &checker{
		pass:      pass,
		pkg:       ir.Pkg,
		funcs:     ir.SrcFuncs,
		eff:       pass.ResultOf[effects.Analyzer].(*effects.Result),
		ls:        pass.ResultOf[lockset.Analyzer].(*lockset.Result),
		reported:  make(map[ssa.Instruction]bool),
		blockedAt: make(map[token.Pos]bool),
		ignored:   ignore.Find(pass),
		why:       newWhyLog(pass.Fset, whyTarget),
	}
	failed := guard.Do(pass, "blocking", func() {
		c.leaks()
		c.waitsInStartLoop()
	})
	ptr := pass.ResultOf[pointer.Analyzer].(*pointer.Result)
	hb := pass.ResultOf[shb.Analyzer].(*shb.Result)
	complete := failed == "" && ptr.Incomplete == ""
	stopped := failed // why the partners were not all judged, for -why
	if ptr.Incomplete != "" {
		stopped = "the pointer analysis stopped: " + ptr.Incomplete
	}
	if ptr.Incomplete == "" && len(hb.Traces) > 0 {
		c.ptr, c.hb = ptr, hb
		f := guard.Do(pass, "blocking", func() {
			c.partnerless()
			c.waits()
			c.wgCounts()
			c.uncanceled()
			c.sequels(pass.ResultOf[deadlock.Analyzer].(*deadlock.Result))
		})
		complete = f == "" && complete
		stopped = cmp.Or(stopped, f)
	}
	c.explainUntraced(stopped)
	c.flush()
	c.why.report(pass)
	if !complete {
		return (*ignore.Silenced)(nil), nil // not all checked
	}
	return c.ignored.Silenced(), nil
}

type checker struct {
	pass       *analysis.Pass
	pkg        *ssa.Package
	funcs      []*ssa.Function
	goEntries  map[*ssa.Function]bool // see spawnedFuncs
	ptr        *pointer.Result
	eff        *effects.Result
	ls         *lockset.Result // see stoppedFlag
	hb         *shb.Result
	reported   map[ssa.Instruction]bool                 // one report per operation
	ignored    ignore.Lines                             // lines with "//origo:ignore blocking"
	why        *whyLog                                  // the verdicts -why asks for; nil when off
	assigned   map[token.Pos]string                     // see chanName
	unknown    map[opKey]bool                           // see unknownOp
	fieldChans map[*types.Var]map[*ssa.MakeChan]bool    // see storedInFields
	globals    map[*pointer.Object]bool                 // see globalObjects
	calls      map[*ssa.Function][]ssa.CallInstruction  // see callsOf
	byObj      map[*pointer.Object][]evRef              // see chanEvents
	spawnsIn   map[*shb.Trace]map[*pointer.Origin]int32 // see spawnedBy
	offTrace   map[*pointer.Object]bool                 // see receivedOffTrace
	order      *shb.Order                               // happens-before queries (see sequels)
	zeroSized  map[*ssa.Function][]bool                 // see unbuffered
	// judged tells whether a channel's partners are all in view, and
	// returns its make (see partnerless).
	judged func(*pointer.Object) (*ssa.MakeChan, bool)
	// blockedAt holds the positions of the reported operations: where
	// a goroutine may block forever (see sequels).
	blockedAt map[token.Pos]bool
	// blockedIn holds, for a report about some goroutines only (a
	// sequel's, a send whose receiver left), those: the goroutines that
	// run the same code elsewhere need not block.
	blockedIn deadlock.Goroutines
	diags     []analysis.Diagnostic // the reports, until flush
	sequelOf  []sequel              // the reports that are sequels (see reportSequel)
}

// report reports a blocking operation of kind k once, with the related
// positions rel (see related); one that is the report's own says
// nothing more and is left out.
func (c *checker) report(k kinds.Kind, instr ssa.Instruction, pos token.Pos, rel []analysis.RelatedInformation, format string, args ...any) {
	if c.reported[instr] {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if c.ignored.Has(pos) {
		c.why.note(pos, msg, why(rules.Ignored, "an //origo:ignore blocking directive silences the line"))
		return
	}
	c.reported[instr] = true
	c.blockedAt[instr.Pos()] = true
	c.why.note(pos, msg, rules.None)
	rel = slices.DeleteFunc(rel, func(r analysis.RelatedInformation) bool { return r.Pos == pos })
	c.diags = append(c.diags, analysis.Diagnostic{Pos: pos, Category: k.ID, Message: msg, Related: rel})
}

// reportSequel reports, as report does, an operation that blocks
// forever because another goroutine may block forever first, at root:
// one cause, one finding. The operation becomes a related position of
// the report at root (its message begins with kinds.Sequel), or of the
// report root's own cause; a report of its own only when no report of
// this analyzer is at root (a deadlock's, say).
func (c *checker) reportSequel(root token.Pos, k kinds.Kind, instr ssa.Instruction, pos token.Pos, rel []analysis.RelatedInformation, format string, args ...any) {
	n := len(c.diags)
	c.report(k, instr, pos, rel, format, args...)
	if len(c.diags) > n {
		c.sequelOf = append(c.sequelOf, sequel{diag: n, root: root})
	}
}

// A sequel is a report made by reportSequel: c.diags[diag], caused by
// the operation at root.
type sequel struct {
	diag int
	root token.Pos
}

// flush reports the diagnostics, each sequel as a related position of
// the report of its first cause.
func (c *checker) flush() {
	at := make(map[token.Pos]int, len(c.diags))
	for i, d := range c.diags {
		at[d.Pos] = i
	}
	rootOf := make(map[int]token.Pos, len(c.sequelOf))
	for _, s := range c.sequelOf {
		rootOf[s.diag] = s.root
	}
	folded := make(map[int]bool)
	for _, s := range c.sequelOf {
		// The first cause: follow the causes that are sequels too.
		r, ok := at[s.root]
		for steps := 0; ok && steps < len(c.sequelOf); steps++ {
			next, isSequel := rootOf[r]
			if !isSequel {
				break
			}
			r, ok = at[next]
		}
		if _, isSequel := rootOf[r]; !ok || isSequel || r == s.diag || !posn.InFiles(c.pass, c.diags[s.diag].Pos) {
			continue
		}
		d := c.diags[s.diag]
		c.diags[r].Related = append(c.diags[r].Related, analysis.RelatedInformation{Pos: d.Pos, Message: kinds.Sequel + ": " + d.Message})
		folded[s.diag] = true
	}
	for i, d := range c.diags {
		if !folded[i] {
			c.pass.Report(d)
		}
	}
	c.diags = nil
}

// related returns a related position of a report, for an editor to go
// to the other places the message names: one entry, or none when pos is
// not in the package's files (see posn.InFiles).
func (c *checker) related(pos token.Pos, format string, args ...any) []analysis.RelatedInformation {
	if !posn.InFiles(c.pass, pos) {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, Message: fmt.Sprintf(format, args...)}}
}

// startedAt returns the related position of the go statement that
// starts the goroutine of trace t, which the message names by it; none
// for a root (the main or a test goroutine).
func (c *checker) startedAt(t *shb.Trace) []analysis.RelatedInformation {
	if t.Origin.Parent == nil {
		return nil
	}
	return c.related(t.Origin.Site, "the goroutine is started here")
}

// madeAt returns the related position of the make of channel mc.
func (c *checker) madeAt(mc *ssa.MakeChan) []analysis.RelatedInformation {
	return c.related(mc.Pos(), "%s made here", c.chanName(mc))
}

// pos renders p as "file.go:12" (see package posn).
func (c *checker) pos(p token.Pos) string { return posn.For(c.pass).Pos(p) }

// chanName renders how the code names channel v: "w.done", or the
// variable that the make(chan T) it is was assigned to ("c").
func (c *checker) chanName(v ssa.Value) string { return c.valueName(v, "the channel") }

// valueName renders how the code names v: an expression ("w.done"), or
// the variable that the call or make it is was assigned to; else
// unnamed.
func (c *checker) valueName(v ssa.Value, unnamed string) string {
	if name := shb.ExprName(v); name != "" {
		return name
	}
	switch v.(type) {
	case *ssa.MakeChan, *ssa.Call:
		if c.assigned == nil {
			c.assigned = assignedNames(c.pass.Files)
		}
		if name := c.assigned[v.Pos()]; name != "" {
			return name
		}
	}
	return unnamed
}

// assignedNames maps the position of each call assigned to a variable
// (x := f(), var x = f()) to the variable's name.
func assignedNames(files []*ast.File) map[token.Pos]string {
	names := make(map[token.Pos]string)
	add := func(lhs []ast.Expr, rhs []ast.Expr) {
		if len(lhs) != len(rhs) {
			return
		}
		for i, r := range rhs {
			call, ok := r.(*ast.CallExpr)
			id, isIdent := lhs[i].(*ast.Ident)
			if ok && isIdent {
				names[call.Lparen] = id.Name
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				add(n.Lhs, n.Rhs)
			case *ast.ValueSpec:
				lhs := make([]ast.Expr, len(n.Names))
				for i, id := range n.Names {
					lhs[i] = id
				}
				add(lhs, n.Values)
			}
			return true
		})
	}
	return names
}

// pointsToAnywhere returns what v may point to in any goroutine.
func (c *checker) pointsToAnywhere(v ssa.Value) []pointer.Location {
	var locs []pointer.Location
	for _, o := range c.ptr.Origins {
		locs = append(locs, c.ptr.PointsToIn(o, v)...)
	}
	return locs
}

// passedOut returns what the arguments of call whose type want accepts
// may point to, when call calls code the analysis cannot see: a
// function of another package, or one it cannot resolve.
func (c *checker) passedOut(call ssa.CallInstruction, want func(types.Type) bool) []pointer.Location {
	if c.inPackage(call) {
		return nil
	}
	var contained uint64 // the parameters the callee's effect shows all of
	if fn := call.Common().StaticCallee(); fn != nil && c.eff != nil {
		contained = c.eff.Contained(fn)
	}
	var locs []pointer.Location
	for i, a := range call.Common().Args {
		// A value boxed in an interface may be used through reflection
		// (reflect.ValueOf(ch).Recv()), which no effect summary shows.
		if mi, ok := a.(*ssa.MakeInterface); ok && want(mi.X.Type()) {
			locs = append(locs, c.pointsToAnywhere(mi.X)...)
			continue
		}
		if i < 64 && contained&(1<<i) != 0 {
			continue
		}
		if want(a.Type()) {
			locs = append(locs, c.pointsToAnywhere(a)...)
		}
	}
	return locs
}

// globalObjects returns the objects that the package variables reach,
// a few pointers deep: any code holding the variable may use them.
func (c *checker) globalObjects() map[*pointer.Object]bool {
	if c.globals != nil {
		return c.globals
	}
	c.globals = make(map[*pointer.Object]bool)
	if len(c.ptr.Origins) == 0 {
		return c.globals
	}
	for _, m := range c.pkg.Members {
		if g, ok := m.(*ssa.Global); ok {
			for obj := range c.ptr.Reachable(c.ptr.Origins[0], g, 4, 4096) {
				c.globals[obj] = true
			}
		}
	}
	return c.globals
}

// isNil reports whether v is the nil channel.
func isNil(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// sizeZero reports whether mc makes a channel of the constant size 0.
func sizeZero(mc *ssa.MakeChan) bool {
	k, ok := mc.Size.(*ssa.Const)
	return ok && k.Value != nil && k.Int64() == 0
}

// unbuffered reports whether mc makes a channel without a buffer: of
// the constant size 0, or of a size its function takes as a parameter
// that every call passes 0 for (newWatcher(0, ...)), when every call is
// in view: the function is unexported or in a package nothing imports,
// and only called by name.
func (c *checker) unbuffered(mc *ssa.MakeChan) bool {
	if sizeZero(mc) {
		return true
	}
	p, ok := mc.Size.(*ssa.Parameter)
	if !ok {
		return false
	}
	fn := p.Parent()
	i := slices.Index(fn.Params, p)
	if i < 0 || fn.Parent() != nil || fn.Object() == nil || fn.Object().Exported() && !buildir.NoImporters(c.pkg.Pkg) {
		return false
	}
	if zero, ok := c.zeroSized[fn]; ok {
		return zero[i]
	}
	zero := make([]bool, len(fn.Params))
	for j := range zero {
		zero[j] = true
	}
	called := false
	for _, caller := range c.funcs {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				var ops [8]*ssa.Value
				for j, op := range instr.Operands(ops[:0]) {
					if *op == fn && !(isCall && j == 0 && call.Common().StaticCallee() == fn) {
						clear(zero) // used as a value: calls out of view
					}
				}
				if !isCall || call.Common().StaticCallee() != fn || call.Common().IsInvoke() {
					continue
				}
				called = true
				for j, a := range call.Common().Args {
					if k, ok := a.(*ssa.Const); j < len(zero) && !(ok && k.Value != nil && k.Value.Kind() == constant.Int && k.Int64() == 0) {
						zero[j] = false
					}
				}
			}
		}
	}
	if !called {
		clear(zero)
	}
	if c.zeroSized == nil {
		c.zeroSized = make(map[*ssa.Function][]bool)
	}
	c.zeroSized[fn] = zero
	return zero[i]
}

// isChan reports whether t is a channel type.
func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// Package factdump defines a debugging Analyzer that reports, as
// diagnostics, what origo's passes computed for a package: its roots and
// the facts it exports. It reports nothing unless Mode names a pass.
//
// It exists so that a person (origo -dump=origins ./...) and the
// integration tests (go vet -vettool=origo -dump=origins -json ./...)
// can see facts under every driver, including go vet, where facts
// otherwise never leave the build cache.
package factdump

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/origins"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
)

// Mode selects what to dump: "" (nothing) or "origins". The command sets
// it from its -dump flag.
var Mode string

// Modes lists the values Mode accepts besides "".
var Modes = []string{"origins", "pointer", "shb"}

// Analyzer reports the facts selected by Mode.
var Analyzer = &analysis.Analyzer{
	Name:       "factdump",
	Doc:        "print what origo's passes compute (debugging; see -dump)",
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/cmd/origo/internal/factdump",
	Run:        run,
	Requires:   []*analysis.Analyzer{origins.Analyzer, pointer.Analyzer, pointer.SummaryAnalyzer, shb.Analyzer},
	ResultType: reflect.TypeFor[struct{}](),
}

// Category is the category of every diagnostic of this analyzer, so that
// drivers can tell debugging output from findings.
const Category = "dump"

func run(pass *analysis.Pass) (any, error) {
	if len(pass.Files) == 0 {
		return struct{}{}, nil
	}
	switch Mode {
	case "origins":
		dumpOrigins(pass)
	case "pointer":
		dumpPointer(pass)
	case "shb":
		dumpSHB(pass)
	}
	return struct{}{}, nil
}

func dumpOrigins(pass *analysis.Pass) {
	res := pass.ResultOf[origins.Analyzer].(*origins.Result)
	for _, r := range res.Roots {
		if r.Kind == origins.RootInit && r.Origins == nil {
			continue // every package has one; say so only when it starts something
		}
		msg := fmt.Sprintf("root %s %s", r.Kind, facts.ShortName(r.Func.String()))
		if r.Parallel {
			msg += " (parallel)"
		}
		if r.Origins != nil {
			msg += ": " + r.Origins.String()
		}
		pos := r.Func.Pos()
		if r.Kind == origins.RootInit {
			pos = packagePos(pass) // the initializer is synthesized
		}
		pass.Report(analysis.Diagnostic{Pos: pos, Category: Category, Message: msg})
	}
	for _, e := range res.Exported {
		pass.Report(analysis.Diagnostic{
			Pos:      e.Func.Pos(),
			Category: Category,
			Message:  fmt.Sprintf("fact %s: %s", objName(e.Func), e.Fact),
		})
	}
}

// packagePos returns the package clause of the file that documents the
// package, or else of the first file the user wrote. cgo generates files
// (named "_cgo_*", marked as generated, or both) that must not be chosen.
func packagePos(pass *analysis.Pass) token.Pos {
	var userFiles []*ast.File
	for _, f := range pass.Files {
		name := filepath.Base(pass.Fset.Position(f.Package).Filename)
		if !strings.HasPrefix(name, "_") && !ast.IsGenerated(f) {
			userFiles = append(userFiles, f)
		}
	}
	for _, f := range userFiles {
		if f.Doc != nil {
			return f.Package
		}
	}
	if len(userFiles) > 0 {
		return userFiles[0].Package
	}
	if len(pass.Files) > 0 {
		return pass.Files[0].Package
	}
	return token.NoPos // a package with no files here (its files are all excluded)
}

// objName names a function or method as "F" or "T.M".
func objName(obj types.Object) string {
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Signature().Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if named, ok := t.(*types.Named); ok {
				return named.Obj().Name() + "." + fn.Name()
			}
		}
	}
	return obj.Name()
}

// dumpPointer reports the origins of the package, and at each access to
// an origin-shared location the location and who else touches it, so a
// person can see why two accesses alias.
func dumpPointer(pass *analysis.Pass) {
	res := pass.ResultOf[pointer.Analyzer].(*pointer.Result)
	for _, o := range res.Origins {
		pos := o.Site
		if !pos.IsValid() {
			pos = packagePos(pass)
		}
		msg := "origin " + o.String()
		if o.Parent != nil {
			msg += " started by #" + fmt.Sprint(o.Parent.ID)
		}
		pass.Report(analysis.Diagnostic{Pos: pos, Category: Category, Message: msg})
	}
	shared := res.Shared() // grouped anew at each call
	for _, sh := range shared {
		// One line per place and location: who reads and who writes.
		type place struct {
			pos   token.Pos
			write bool
		}
		var places []place
		who := make(map[place][]string)
		for _, acc := range sh.Accesses {
			p := place{acc.Pos(), acc.Write}
			if !p.pos.IsValid() {
				continue
			}
			if _, ok := who[p]; !ok {
				places = append(places, p)
			}
			id := fmt.Sprintf("#%d", acc.Origin.ID)
			if acc.Atomic {
				id += " (atomic)"
			}
			who[p] = append(who[p], id)
		}
		for _, p := range places {
			kind := "read"
			if p.write {
				kind = "write"
			}
			pass.Report(analysis.Diagnostic{
				Pos:      p.pos,
				Category: Category,
				Message:  fmt.Sprintf("shared %s: %s in origins %s", sh.Loc, kind, strings.Join(who[p], ", ")),
			})
		}
	}
	if set := pass.ResultOf[pointer.SummaryAnalyzer].(*pointer.Summaries).Exported; set != nil {
		for i := range set.Funcs {
			pass.Report(analysis.Diagnostic{Pos: packagePos(pass), Category: Category,
				Message: pointer.DescribeSummary(set, &set.Funcs[i])})
		}
	}
	st := res.Stats
	pass.Report(analysis.Diagnostic{Pos: packagePos(pass), Category: Category, Message: fmt.Sprintf(
		"pointer stats: %d nodes, %d objects, %d functions in context, %d origins, %d external calls (%d summarized), %d shared locations, %d clamped",
		st.Nodes, st.Objects, st.Functions, st.Origins, st.External, st.Summarized, len(shared), st.Clamped)})
}

// dumpSHB reports each goroutine's trace: its synchronization events,
// where they are, and the happens-before edges that leave it.
func dumpSHB(pass *analysis.Pass) {
	hb := pass.ResultOf[shb.Analyzer].(*shb.Result)
	report := func(pos token.Pos, format string, args ...any) {
		if !pos.IsValid() {
			pos = packagePos(pass)
		}
		pass.Report(analysis.Diagnostic{Pos: pos, Category: Category, Message: fmt.Sprintf(format, args...)})
	}
	for _, t := range hb.Traces {
		o := t.Origin
		trunc := ""
		if t.Truncated {
			trunc = " (truncated)"
		}
		report(o.Site, "trace of %v: %d events, %d loops%s", o, len(t.Events), len(t.Loops), trunc)
		for _, ev := range t.Events {
			if ev.Kind == shb.Access || ev.Instr == nil {
				continue
			}
			obj := "?"
			if ev.Obj >= 0 {
				obj = hb.Location(ev.Obj).String()
			}
			if ev.Kind == shb.Spawn {
				spawned := t.Spawned(ev.ID)
				var ids []string
				for _, sp := range spawned {
					ids = append(ids, fmt.Sprintf("#%d", sp.ID))
				}
				obj = fmt.Sprint(len(spawned), " goroutines ", strings.Join(ids, ","))
			}
			loop := ""
			if ev.Loop >= 0 {
				loop = " in a loop"
			}
			report(ev.Instr.Pos(), "#%d event %d: %s %s%s", o.ID, ev.ID, shb.Kinds[ev.Kind], obj, loop)
		}
		for _, e := range t.Out {
			from := ""
			if e.From > 0 {
				from = fmt.Sprintf(" from %d", e.From) // a Once callback's events only
			}
			report(o.Site, "#%d edge: events%s before %d happen before #%d from %d", o.ID, from, e.Before, e.To.Origin.ID, e.At)
		}
	}
}

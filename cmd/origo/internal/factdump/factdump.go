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
	"golang.org/x/tools/go/analysis"
)

// Mode selects what to dump: "" (nothing) or "origins". The command sets
// it from its -dump flag.
var Mode string

// Modes lists the values Mode accepts besides "".
var Modes = []string{"origins"}

// Analyzer reports the facts selected by Mode.
var Analyzer = &analysis.Analyzer{
	Name:       "factdump",
	Doc:        "print the facts origo's passes compute (debugging; see -dump)",
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/cmd/origo/internal/factdump",
	Run:        run,
	Requires:   []*analysis.Analyzer{origins.Analyzer},
	ResultType: reflect.TypeFor[struct{}](),
}

// Category is the category of every diagnostic of this analyzer, so that
// drivers can tell debugging output from findings.
const Category = "dump"

func run(pass *analysis.Pass) (any, error) {
	if Mode == "origins" {
		dumpOrigins(pass)
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
	return pass.Files[0].Package
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

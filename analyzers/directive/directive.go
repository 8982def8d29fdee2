package directive

import (
	_ "embed"
	"go/ast"

	"github.com/origo-dev/origo/analyzers/internal/docs"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/kinds"
	"golang.org/x/tools/go/analysis"
)

// doc is the source of doc.go, whose package comment is the manual.
//
//go:embed doc.go
var doc string

// Analyzer reports malformed //origo:ignore directives; see the package
// documentation.
//
// It is an analyzer of its own, not a part of race, deadlock or
// blocking, so that a comment is reported once however many of them
// run, and even where they stop early (a package too large for the
// pointer analysis): it needs only the syntax.
var Analyzer = &analysis.Analyzer{
	Name:             "directive",
	Doc:              docs.MustExtract(doc, "directive"),
	URL:              "https://pkg.go.dev/github.com/origo-dev/origo/analyzers/directive",
	Run:              run,
	RunDespiteErrors: true,
}

func init() { ignore.Flag(&Analyzer.Flags) }

func run(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if !ignore.Generated && ast.IsGenerated(f) {
			continue
		}
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if _, problem := ignore.Parse(cm.Text); problem != "" {
					pass.Report(analysis.Diagnostic{Pos: cm.Pos(), End: cm.End(), Category: kinds.MalformedIgnore.ID, Message: problem})
				}
			}
		}
	}
	return nil, nil
}

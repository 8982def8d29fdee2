package directive

import (
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/guardedby"
	"github.com/origo-dev/origo/analyzers/internal/docs"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/analyzers/race"
	"golang.org/x/tools/go/analysis"
)

// doc is the source of doc.go, whose package comment is the manual.
//
//go:embed doc.go
var doc string

// Analyzer reports malformed //origo:ignore directives, and those that
// silence nothing; see the package documentation.
//
// It is an analyzer of its own, not a part of race, deadlock or
// blocking, so that a comment is reported once however many of them
// run. It requires the analyzers a directive may name: what a
// directive silenced is known only to the analyzer it names, in that
// analyzer's run on the package, and a Result is how go vet, which runs
// each package's analyzers in a process of its own, hands it on (a
// fact would go to the importers, not to another analyzer of the same
// package). So directive runs where they do: not on a package that
// does not type-check.
var Analyzer = &analysis.Analyzer{
	Name:     "directive",
	Doc:      docs.MustExtract(doc, "directive"),
	URL:      "https://pkg.go.dev/github.com/origo-dev/origo/analyzers/directive",
	Run:      run,
	Requires: []*analysis.Analyzer{race.Analyzer, deadlock.Analyzer, blocking.Analyzer, guardedby.Analyzer},
}

func init() { ignore.Flag(&Analyzer.Flags) }

func run(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if !ignore.Generated && ignore.IsGenerated(pass.Fset, f) {
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
	reportStale(pass)
	return nil, nil
}

// reportStale reports each well-formed directive that names an analyzer
// that checked the whole package and used it to silence nothing: the
// report it was written for is gone (the code was fixed, or moved), and
// the directive would silence the next, unrelated report on its line.
// An analyzer that stopped early or failed on the package says nothing
// of its directives (a nil Result), and none is reported for it.
func reportStale(pass *analysis.Pass) {
	silenced := make(map[string]*ignore.Silenced) // by analyzer name
	for _, a := range pass.Analyzer.Requires {
		switch r := pass.ResultOf[a].(type) {
		case *ignore.Silenced:
			silenced[a.Name] = r
		case *deadlock.Result:
			silenced[a.Name] = r.Silenced
		}
	}
	for _, d := range ignore.Directives(pass) {
		var stale, kept []string
		for _, name := range d.Names {
			if s := silenced[name]; s != nil && !s.Used(d.Comment.Pos()) {
				stale = append(stale, name)
			} else {
				kept = append(kept, name)
			}
		}
		if len(stale) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", filepath.Base(d.Target.Filename), d.Target.Line)
		var msg string
		if len(kept) == 0 {
			msg = fmt.Sprintf("stale //origo:ignore directive: %s %s nothing at %s, so it silences nothing; should it be removed?", and(stale), reports(stale), where)
		} else {
			_, reason, _ := strings.Cut(strings.TrimLeft(strings.TrimPrefix(d.Comment.Text, "//origo:ignore"), " \t"), " ")
			msg = fmt.Sprintf("stale //origo:ignore directive: %s %s nothing at %s; write //origo:ignore %s %s", and(stale), reports(stale), where, strings.Join(kept, ","), strings.TrimSpace(reason))
		}
		pass.Report(analysis.Diagnostic{Pos: d.Comment.Pos(), End: d.Comment.End(), Category: kinds.StaleIgnore.ID, Message: msg})
	}
}

// and joins names as a sentence does: "race", "race and deadlock",
// "race, deadlock and blocking".
func and(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// reports agrees the verb with names.
func reports(names []string) string {
	if len(names) == 1 {
		return "reports"
	}
	return "report"
}

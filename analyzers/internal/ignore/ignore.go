// Package ignore finds the "//origo:ignore NAME reason" comments that
// silence an analyzer's report on their line, and the generated files,
// where nothing is reported unless Generated is set.
package ignore

import (
	"flag"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Generated, when set, lets the analyzers report in generated files
// too; by default nothing is reported in a file marked "// Code
// generated ... DO NOT EDIT.", which its author cannot fix by hand.
var Generated bool

// Flag registers Generated as an analyzer's flag "generated".
func Flag(fs *flag.FlagSet) {
	fs.BoolVar(&Generated, "generated", false, "report in generated files (marked \"// Code generated ... DO NOT EDIT.\") too")
}

// Lines are the lines of a package's files that silence one analyzer.
type Lines struct {
	fset      *token.FileSet
	lines     map[line]bool
	generated map[string]bool // files marked generated
}

type line struct {
	file string
	n    int
}

// Find returns the lines of pass's files that carry a line comment
// "//origo:ignore NAME reason", for the analyzer called name.
func Find(pass *analysis.Pass, name string) Lines {
	l := Lines{fset: pass.Fset, lines: make(map[line]bool), generated: make(map[string]bool)}
	for _, f := range pass.Files {
		if !Generated && ast.IsGenerated(f) {
			l.generated[pass.Fset.Position(f.Pos()).Filename] = true
		}
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if names(cm) == name {
					posn := pass.Fset.Position(cm.Pos())
					l.lines[line{posn.Filename, posn.Line}] = true
				}
			}
		}
	}
	return l
}

// names returns the analyzer an ignore comment names, or "".
func names(cm *ast.Comment) string {
	rest, ok := strings.CutPrefix(cm.Text, "//origo:ignore ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	return name
}

// Has reports whether the line of pos is silenced, or in a generated
// file.
func (l Lines) Has(pos token.Pos) bool {
	if len(l.lines) == 0 && len(l.generated) == 0 || !pos.IsValid() {
		return false
	}
	posn := l.fset.Position(pos)
	return l.lines[line{posn.Filename, posn.Line}] || l.generated[posn.Filename]
}

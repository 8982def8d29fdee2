// Package posn formats the positions that the analyzers' messages
// name: file:line, with the file's base name when it is in the directory
// of the package being analyzed, and with its directory's name before it
// when it is not ("xlib/lib.go:12"), so that a position in another
// package is not taken for one of this package's files of the same name.
package posn

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Formatter formats positions for the messages of one pass.
type Formatter struct {
	fset *token.FileSet
	dir  string // the directory of the package's files
}

// For returns the Formatter of pass.
func For(pass *analysis.Pass) Formatter {
	f := Formatter{fset: pass.Fset}
	if len(pass.Files) > 0 {
		f.dir = filepath.Dir(pass.Fset.Position(pass.Files[0].Pos()).Filename)
	}
	return f
}

// Pos formats p as file:line, or "?".
func (f Formatter) Pos(p token.Pos) string {
	if !p.IsValid() {
		return "?"
	}
	posn := f.fset.Position(p)
	return f.file(posn.Filename) + ":" + strconv.Itoa(posn.Line)
}

// At formats a position that facts carry as "file:line:col" (see
// facts.Posn) as file:line.
func (f Formatter) At(at string) string {
	name, line := at, ""
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		name = name[:i] // the column
	}
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		name, line = name[:i], name[i+1:]
	}
	if line == "" {
		return f.file(name)
	}
	return fmt.Sprintf("%s:%s", f.file(name), line)
}

// file returns how a message names the file called name.
func (f Formatter) file(name string) string {
	dir := filepath.Dir(name)
	if dir == f.dir || dir == "." {
		return filepath.Base(name)
	}
	return filepath.Base(dir) + "/" + filepath.Base(name)
}

// InFiles reports whether p is a position in one of the files of the
// package being analyzed. Only such positions go into a report as
// related positions: a position in another package's file is a
// token.Pos under one driver (the standalone one, which loads every
// package from source) and a string in a fact under another (go vet),
// and a report must be the same under both.
func InFiles(pass *analysis.Pass, p token.Pos) bool {
	if !p.IsValid() {
		return false
	}
	for _, f := range pass.Files {
		if f.FileStart <= p && p <= f.FileEnd {
			return true
		}
	}
	return false
}

// Package docs takes an analyzer's manual from the package comment of
// its doc.go, the way x/tools' passes do: the one text is the package's
// pkg.go.dev page, the Analyzer.Doc that "origo help NAME" prints, and
// the SARIF rule's help.
//
// An analyzer package embeds its doc.go and declares
//
//	//go:embed doc.go
//	var doc string
//
//	var Analyzer = &analysis.Analyzer{Name: "race", Doc: docs.MustExtract(doc, "race"), ...}
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the manual of the analyzer called name from src, the
// source of a Go file whose package comment holds the section
//
//	# Analyzer NAME
//
//	NAME: one-line title
//
//	The manual, which may have headings of its own.
//
// The section runs to the next "# Analyzer " heading, or to the end of
// the comment. The manual returned is the title, a blank line and the
// rest: its first line is the title that a list of analyzers shows.
func Extract(src, name string) (string, error) {
	text, err := packageComment(src)
	if err != nil {
		return "", err
	}
	_, section, ok := strings.Cut(text, "\n# Analyzer "+name+"\n")
	if !ok {
		return "", fmt.Errorf("no %q heading in the package comment", "# Analyzer "+name)
	}
	section, _, _ = strings.Cut(section, "\n# Analyzer ")
	section = strings.TrimSpace(section)
	title, body, _ := strings.Cut(section, "\n")
	title, ok = strings.CutPrefix(title, name+": ")
	if !ok || strings.TrimSpace(title) == "" {
		return "", fmt.Errorf("the %q section does not start with the line %q", "# Analyzer "+name, name+": title")
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return title, nil
	}
	return title + "\n\n" + body + "\n", nil
}

// packageComment returns the text of src's package comment, as
// ast.CommentGroup.Text gives it.
func packageComment(src string) (string, error) {
	if doc, ok := lineComment(src); ok {
		return doc.Text(), nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	if f.Doc == nil {
		return "", fmt.Errorf("no package comment")
	}
	return f.Doc.Text(), nil
}

// lineComment finds the package comment of a file that starts with
// nothing but whole-line // comments and blank lines before its package
// clause, as every analyzer's doc.go does, without parsing it: every
// run of origo, one per package under go vet, declares the analyzers,
// and parsing their manuals cost 2% of its time on client_golang. The
// comment is the run of lines right above the package clause, as the
// parser groups them. ok is false for any other shape (a /* comment, a
// carriage return, an indented line), which the parser handles.
func lineComment(src string) (doc *ast.CommentGroup, ok bool) {
	// Two searches for one byte or string each: ContainsAny with a
	// rune beyond ASCII goes rune by rune, as slow as the parser.
	if strings.IndexByte(src, '\r') >= 0 || strings.Contains(src, "\ufeff") {
		return nil, false
	}
	var group []*ast.Comment
	for rest := src; rest != ""; {
		line, after, found := strings.Cut(rest, "\n")
		rest = after
		switch {
		case strings.HasPrefix(line, "//"):
			group = append(group, &ast.Comment{Text: line})
		case line == "":
			group = nil // a blank line ends a group
		case strings.HasPrefix(line, "package ") && found:
			if len(group) == 0 {
				return nil, false
			}
			return &ast.CommentGroup{List: group}, true
		default:
			return nil, false
		}
	}
	return nil, false
}

// MustExtract is Extract for an Analyzer's declaration: a doc.go without
// the section is a mistake in origo, which panics at start-up.
func MustExtract(src, name string) string {
	doc, err := Extract(src, name)
	if err != nil {
		panic(fmt.Sprintf("docs: the manual of analyzer %s: %v", name, err))
	}
	return doc
}

package blocking_test

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/kinds"
	"golang.org/x/tools/go/analysis/analysistest"
)

// checkSequels checks the fixtures' `// sequel` comments: an operation
// that blocks forever only because another goroutine may block forever
// first is no report of its own but a related position of the report
// of that first cause, whose message begins with kinds.Sequel and then
// matches the comment's pattern. It returns how many it checked.
func checkSequels(t *testing.T, results []*analysistest.Result) int {
	t.Helper()
	n := 0
	for _, res := range results {
		fset := res.Pass.Fset
		// The sequels of the package's reports, by file:line.
		got := make(map[string][]string)
		for _, d := range res.Diagnostics {
			for _, r := range d.Related {
				if msg, ok := strings.CutPrefix(r.Message, kinds.Sequel+": "); ok {
					p := fset.Position(r.Pos)
					k := fmt.Sprintf("%s:%d", p.Filename, p.Line)
					got[k] = append(got[k], msg)
				}
			}
		}
		for _, f := range res.Pass.Files {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					pattern, ok := sequelPattern(c)
					if !ok {
						continue
					}
					n++
					p := fset.Position(c.Pos())
					k := fmt.Sprintf("%s:%d", p.Filename, p.Line)
					re := regexp.MustCompile(pattern)
					found := false
					for _, msg := range got[k] {
						found = found || re.MatchString(msg)
					}
					if !found {
						t.Errorf("%s:%d: no report has a sequel here matching %q; sequels here: %q", filepath.Base(p.Filename), p.Line, pattern, got[k])
					}
				}
			}
		}
	}
	return n
}

// sequelPattern returns the pattern of a `// sequel` comment.
func sequelPattern(c *ast.Comment) (string, bool) {
	text, ok := strings.CutPrefix(c.Text, "// sequel `")
	if !ok {
		return "", false
	}
	pattern, ok := strings.CutSuffix(text, "`")
	return pattern, ok
}

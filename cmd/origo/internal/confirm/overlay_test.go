package confirm

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestHelperSourceOldGo type-checks the helper file at the oldest
// language version a module may ask for: robfig/cron's go.mod says
// go 1.12, and a 0o literal in the helper made its test builds fail.
func TestHelperSourceOldGo(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "origo_confirm_helper.go", helperSource("p"), parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	conf := types.Config{
		GoVersion: "go1.12",
		Importer:  importer.ForCompiler(fset, "source", nil),
		Error:     func(err error) { errs = append(errs, err.Error()) },
	}
	conf.Check("p", fset, []*ast.File{f}, nil)
	if len(errs) > 0 {
		t.Errorf("the helper does not compile at go1.12:\n%s", strings.Join(errs, "\n"))
	}
}

package main

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestWriteBigPkg generates a small package and checks that it is the
// package the benchmark claims: it type-checks, has about the lines
// asked for, one type per service and one go statement per site.
func TestWriteBigPkg(t *testing.T) {
	for _, registry := range []int{0, 3} {
		t.Run(fmt.Sprintf("registry=%d", registry), func(t *testing.T) { checkBigPkg(t, registry) })
	}
}

func checkBigPkg(t *testing.T, registry int) {
	dir := t.TempDir()
	services, sites, written, err := writeBigPkg(dir, 2000, 4, registry)
	if err != nil {
		t.Fatal(err)
	}
	if written < 1800 || written > 2200 {
		t.Errorf("%d lines written, want about 2000", written)
	}
	if want := (services + 3) / 4; sites != want {
		t.Errorf("%d sites for %d services, want %d", sites, services, want)
	}
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	gos, lines := 0, 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.GoStmt); ok {
				gos++
			}
			return true
		})
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range data {
			if c == '\n' {
				lines++
			}
		}
	}
	if gos != sites {
		t.Errorf("%d go statements, want %d", gos, sites)
	}
	if lines != written {
		t.Errorf("the files have %d lines, writeBigPkg says %d", lines, written)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("example.com/big", fset, parsed, nil)
	if err != nil {
		t.Fatalf("the generated package does not type-check: %v", err)
	}
	for i := range services {
		if pkg.Scope().Lookup("S"+strconv.Itoa(i)) == nil {
			t.Errorf("no type S%d", i)
		}
	}
}

func TestReportCount(t *testing.T) {
	out := "# example.com/big\n" +
		"s000.go:41:5: data race on S0.hits: write at s000.go:41 ...\n" +
		"s000.go:41:5: \tthe other write of S0.hits\n" +
		"s000.go:24:3: \tgoroutine started here: big.main\n" +
		"s001.go:9:2: data race on S5.hits: write at s001.go:9 ...\n"
	if got := reportCount(out); got != 2 {
		t.Errorf("reportCount = %d, want 2", got)
	}
}

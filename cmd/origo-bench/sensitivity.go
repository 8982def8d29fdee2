package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// benchSensitivity counts origin-shared locations with and without
// origin sensitivity on the same packages.
func benchSensitivity(args []string) error {
	fs := flag.NewFlagSet("sensitivity", flag.ExitOnError)
	dir := fs.String("C", ".", "load packages from this directory")
	fs.Parse(args)
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: *dir, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return err
	}
	var roots []*packages.Package
	for _, p := range pkgs {
		if len(p.Errors) == 0 {
			roots = append(roots, p)
		}
	}
	fmt.Printf("%d packages (%d with errors left out)\n\n", len(roots), len(pkgs)-len(roots))
	fmt.Printf("%-22s %10s %10s %10s %12s %10s\n", "variant", "origins", "functions", "objects", "shared locs", "time")
	for _, variant := range []struct {
		name, contextInsensitive string
	}{
		{"origin-sensitive", "false"},
		{"context-insensitive", "true"},
	} {
		if err := pointer.Analyzer.Flags.Set("contextinsensitive", variant.contextInsensitive); err != nil {
			return err
		}
		start := time.Now()
		graph, err := checker.Analyze([]*analysis.Analyzer{pointer.Analyzer}, roots, nil)
		if err != nil {
			return err
		}
		var origins, functions, objects, shared int
		for act := range graph.All() {
			if !act.IsRoot || act.Analyzer != pointer.Analyzer || act.Err != nil {
				continue
			}
			res := act.Result.(*pointer.Result)
			origins += res.Stats.Origins
			functions += res.Stats.Functions
			objects += res.Stats.Objects
			shared += len(res.Shared())
		}
		fmt.Printf("%-22s %10d %10d %10d %12d %10s\n", variant.name, origins, functions, objects, shared, time.Since(start).Round(time.Millisecond))
	}
	return pointer.Analyzer.Flags.Set("contextinsensitive", "false")
}

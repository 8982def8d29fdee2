package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"github.com/origo-dev/origo/passes/guard"
	"golang.org/x/tools/go/analysis"
)

// debugging reports whether a is one of origo's debugging analyzers,
// which report only what -dump asks for: "origo help" does not list it
// and the SARIF rules leave it out unless -dump is set, though "origo
// help NAME" still prints its documentation.
func debugging(a *analysis.Analyzer) bool { return a == factdump.Analyzer }

// help prints the list of analyzers, or the manual of each named one.
func help(stdout, stderr io.Writer, names []string) int {
	if len(names) == 0 {
		fmt.Fprintln(stdout, "origo finds data races, deadlocks and goroutine leaks in Go programs, statically.")
		fmt.Fprintln(stdout, "\nAnalyzers:")
		for _, a := range suite {
			if !debugging(a) {
				fmt.Fprintf(stdout, "  %-10s %s\n", a.Name, title(a.Doc))
			}
		}
		fmt.Fprintln(stdout, "\nRun 'origo help NAME' for an analyzer's manual, 'origo -h' for flags.")
		return exitClean
	}
	code := exitClean
	for i, name := range names {
		found := false
		for _, a := range suite {
			if a.Name == name {
				found = true
				if i > 0 {
					fmt.Fprintln(stdout)
				}
				fmt.Fprintf(stdout, "%s: %s\n\nMore: %s\n", a.Name, strings.TrimSpace(a.Doc), a.URL)
			}
		}
		if !found {
			fmt.Fprintf(stderr, "origo: no analyzer named %q (run 'origo help' for the list)\n", name)
			code = exitUsage
		}
	}
	return code
}

// versionLine is what "origo version" prints, in the form of "go
// version": the version the build recorded (a module version, or the
// revision of a build from a checkout, "+dirty" when it had changes),
// the Go release that built it, and the platform.
func versionLine() string {
	return fmt.Sprintf("origo version %s %s %s/%s", guard.Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// title returns the first line of an analyzer's Doc.
func title(doc string) string {
	first, _, _ := strings.Cut(doc, "\n")
	return first
}

package main

import (
	"fmt"
	"io"
)

// help prints the list of analyzers, or the documentation of the named
// ones.
func help(stdout, stderr io.Writer, names []string) int {
	if len(names) == 0 {
		fmt.Fprintln(stdout, "origo finds data races and deadlocks in Go programs, statically.")
		fmt.Fprintln(stdout, "\nAnalyzers:")
		for _, a := range suite {
			fmt.Fprintf(stdout, "  %-10s %s\n", a.Name, title(a.Doc))
		}
		fmt.Fprintln(stdout, "\nRun 'origo help NAME' for an analyzer's documentation, 'origo -h' for flags.")
		return exitClean
	}
	code := exitClean
	for _, name := range names {
		found := false
		for _, a := range suite {
			if a.Name == name {
				found = true
				fmt.Fprintf(stdout, "%s: %s\n\nMore: %s\n", a.Name, a.Doc, a.URL)
			}
		}
		if !found {
			fmt.Fprintf(stderr, "origo: no analyzer named %q (run 'origo help' for the list)\n", name)
			code = exitError
		}
	}
	return code
}

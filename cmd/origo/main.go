// Command origo finds data races and deadlocks in Go programs, statically.
//
// It runs in two ways. As a vet tool, which keeps results in the build
// cache and is the way to run it on every build:
//
//	go build -o origo github.com/origo-dev/origo/cmd/origo
//	go vet -vettool=$(pwd)/origo ./...
//
// Or on its own, loading packages itself:
//
//	origo [-json | -sarif] [-test=false] [-tags=...] [packages]
//
// The packages default to ./... . The exit code is 0 when nothing was
// found, 3 when there are findings, and 1 when something went wrong
// (a pattern that matches nothing, a package that does not type-check);
// the packages that can be analyzed are analyzed all the same.
//
// "origo help" lists the analyzers; "origo help NAME" describes one.
// -dump=origins prints, as diagnostics, the goroutine origins that origo
// computed for each package, under both ways of running it.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/analyzers/guardedby"
	"github.com/origo-dev/origo/analyzers/race"
	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"github.com/origo-dev/origo/passes/guard"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// suite is every analyzer that the command runs.
var suite = []*analysis.Analyzer{
	factdump.Analyzer,
	race.Analyzer,
	deadlock.Analyzer,
	blocking.Analyzer,
	guardedby.Analyzer,
	directive.Analyzer,
}

func main() {
	if invokedByVet(os.Args[1:]) {
		if hook := os.Getenv(guard.FailEnv); hook != "" && len(os.Args) == 2 && strings.TrimLeft(os.Args[1], "-") == "V=full" {
			os.Exit(printHookedVersion(hook))
		}
		registerDumpFlag(flag.CommandLine)
		unitchecker.Main(suite...) // does not return
	}
	os.Exit(standalone(os.Args[1:], os.Stdout, os.Stderr))
}

// printHookedVersion prints the tool's version line for go vet, as
// unitchecker does, with the test-only failure hook hashed into its
// build ID: go vet keys cached results by that ID, and a tool made to
// fail is another tool, whose results must not be taken from the cache.
func printHookedVersion(hook string) int {
	exe, err := os.Executable()
	if err != nil {
		return 1
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		return 1
	}
	h := sha256.New()
	h.Write(data)
	h.Write([]byte(guard.FailEnv + "=" + hook))
	fmt.Printf("%s version devel comments-go-here buildID=%x\n", exe, h.Sum(nil))
	return 0
}

// invokedByVet reports whether the arguments follow go vet's protocol
// for a vet tool: -V=full and -flags to describe the tool, and a single
// *.cfg file per package to analyze.
func invokedByVet(args []string) bool {
	for _, arg := range args {
		switch arg {
		case "-V=full", "--V=full", "-V", "-flags", "--flags":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

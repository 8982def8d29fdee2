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
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"

	origosuite "github.com/origo-dev/origo/analyzers/suite"
	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/guard"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// suite is every analyzer that the command runs: origo's (package
// suite) after the debugging dump of facts.
var suite = append([]*analysis.Analyzer{factdump.Analyzer}, origosuite.Analyzers...)

func main() {
	if invokedByVet(os.Args[1:]) {
		tuneGC()
		if hook := os.Getenv(guard.FailEnv); hook != "" && len(os.Args) == 2 && strings.TrimLeft(os.Args[1], "-") == "V=full" {
			os.Exit(printHookedVersion(hook))
		}
		registerDumpFlag(flag.CommandLine)
		if factsOnly(os.Args[1:]) {
			buildir.FactsOnly = true
			unitchecker.Main(factProducers(suite)...) // does not return
		}
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

// factsOnly reports whether go vet runs the tool on a package only for
// the facts its importers need (a dependency of the packages named on
// the command line), whose findings it does not print.
func factsOnly(args []string) bool {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return false // unitchecker reports it
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}

// factProducers returns analyzers for a facts-only run: each of
// analyzers that exports no facts becomes one that does no work of its
// own and requires only the passes in its requirements that export
// facts. unitchecker would otherwise run the whole of every analyzer
// that needs facts on every dependency (the "backwards" filter of its
// issue 443099: it keeps what requires facts, not what facts require),
// the race analyzer's pointer analysis of net/http among them, only to
// drop its findings. The analyzers keep their names and flags, since go
// vet passes the user's flags to every run.
func factProducers(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, 0, len(analyzers))
	for _, a := range analyzers {
		if len(a.FactTypes) > 0 {
			out = append(out, a)
			continue
		}
		idle := *a
		idle.Requires = producersUnder(a, make(map[*analysis.Analyzer]bool), nil)
		idle.ResultType = nil
		idle.Run = func(*analysis.Pass) (any, error) { return nil, nil }
		out = append(out, &idle)
	}
	return out
}

// producersUnder appends to list the analyzers that a requires,
// directly or not, that export facts.
func producersUnder(a *analysis.Analyzer, seen map[*analysis.Analyzer]bool, list []*analysis.Analyzer) []*analysis.Analyzer {
	for _, req := range a.Requires {
		if seen[req] {
			continue
		}
		seen[req] = true
		if len(req.FactTypes) > 0 {
			list = append(list, req)
		} else {
			list = producersUnder(req, seen, list)
		}
	}
	return list
}

// tuneGC lets the heap of a vet tool process, which analyzes one
// package, grow to nine times what is live before a collection, under a
// soft limit of 768 MiB, unless the user set GOGC or GOMEMLIMIT: the
// analysis allocates many small objects that live as long as the
// package (points-to sets, SSA), and collecting at the default (twice
// live) cost a quarter of its CPU. On client_golang: 2.51x the vet
// suite's time before, 2.03x after, peak RSS 526 to 697 MB. Standalone
// runs, which hold many packages in one process, keep the defaults.
//
// The limit follows the live heap up (see followLiveHeap): a package
// whose analysis keeps more than the limit live would otherwise collect
// without pause (badger's root package, 900 MB live: 33 s instead of
// 21 s).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(800)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcLimit)
		followLiveHeap(gcLimit, liveHeadroom)
	}
}

// tuneStandaloneGC gives the standalone command, which holds a whole
// module and its dependencies in one process, a soft memory limit of
// 1 GiB that follows the live heap up by a quarter (see
// followLiveHeap), unless the user set GOGC or GOMEMLIMIT: with the
// default GOGC alone, the heap grows to twice what is live before a
// collection. On client_golang ./... (with the releaser of release.go):
// 1.9 GB peak RSS and 29-31 s of CPU before, 1.06 GB and 42 s after;
// without the releaser, 3.7 GB. Since packages are loaded lazily (see
// lazyLoader), 385 MB live at most, 0.9 GB peak RSS, 28 s of CPU.
func tuneStandaloneGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(standaloneLimit)
		followLiveHeap(standaloneLimit, 0.25)
	}
}

// standaloneLimit is the standalone command's soft memory limit while
// its live heap is small.
const standaloneLimit = 1 << 30

// gcLimit is the soft memory limit of a vet tool process while its live
// heap is small, and liveHeadroom how far past the live heap the limit
// moves once it is not: the heap may grow by that fraction between
// collections.
const (
	gcLimit      = 768 << 20
	liveHeadroom = 0.5
)

// gcSentinel is an object whose finalizer tells that a collection ran;
// it holds a pointer so that the allocator never packs it with others
// (tiny objects share a block and are finalized late, or never).
type gcSentinel struct{ _ *int }

// followLiveHeap keeps the soft memory limit at least 1+headroom times
// the heap live after the last collection, and never below floor: it
// runs after every collection, as the finalizer of an object made
// anew each time, until stop is called.
func followLiveHeap(floor int64, headroom float64) (stop func()) {
	var stopped atomic.Bool
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
			if stopped.Load() {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				live := int64(sample[0].Value.Uint64())
				debug.SetMemoryLimit(max(floor, live+int64(float64(live)*headroom)))
			}
			arm()
		})
	}
	arm()
	return func() { stopped.Store(true) }
}

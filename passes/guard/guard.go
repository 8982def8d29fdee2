// Package guard keeps a failure inside one of origo's passes from
// crashing the process that hosts it (go vet, gopls, golangci-lint).
package guard

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
)

// Stop is a panic value with which a pass gives up on a package on
// purpose (it is too large to analyze within bounds); Do reports its
// reason as a skip, not as an internal error.
type Stop struct {
	Reason string // the bound hit: "more than 2000000 nodes"
	Lost   string // what the user then does not get for the package
}

// IssuesURL is where origo's bugs are reported, and the packages it
// cannot analyze whole: the lines on standard error that say a package
// was skipped or failed point there.
const IssuesURL = "https://github.com/origo-dev/origo/issues"

// FailEnv names the test-only hook that forces a failure: set to a
// pass name, or "pass:package path", Do panics in that pass (on that
// package) as an internal failure would, so that tests can check what a
// user then sees. Text after a "#" is left out (a test makes each run's
// hook unique with it, so that go vet's cache replays nothing).
const FailEnv = "ORIGO_TEST_FAIL"

// current holds, by pass, the function the pass is working on (see At).
var current sync.Map // *analysis.Pass → string

// At records that pass is working on the function named fn, for the
// line Do writes if the pass fails there.
func At(pass *analysis.Pass, fn string) { current.Store(pass, fn) }

// recovered counts the internal errors Do recovered from in this
// process (not the Stops: a bound is no error).
var recovered atomic.Int64

// RunTests runs a test binary's tests (m.Run) and fails the binary when
// Do recovered from an internal error during them, whatever the tests
// said: a test whose pass crashed must not stay green because the crash
// degraded to fewer findings. An analyzer's tests call it from
// TestMain: os.Exit(guard.RunTests(m)).
func RunTests(m interface{ Run() int }) int {
	code := m.Run()
	if n := recovered.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: origo's passes had %d internal errors during the tests (see the lines above); set ORIGO_PANIC=1 for their stacks\n", n)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Do runs f. If f panics, Do recovers, writes one line naming the pass,
// the package, the function it was working on (see At) and origo's
// version to standard error, and returns that line; otherwise it returns
// "". The caller then degrades to an empty result: fewer findings, never
// a crash.
//
// Set ORIGO_PANIC=1 to let the panic through, with its stack, when
// debugging origo itself.
func Do(pass *analysis.Pass, name string, f func()) (failure string) {
	current.Delete(pass)
	if os.Getenv("ORIGO_PANIC") == "1" {
		defer current.Delete(pass)
		forced(pass, name)
		labelled(pass, name, f)
		return ""
	}
	defer func() {
		r := recover()
		where, _ := current.LoadAndDelete(pass)
		switch r := r.(type) {
		case nil:
			return
		case Stop:
			failure = fmt.Sprintf("origo: %s skipped package %s: %s; %s; split the package, or report it at %s",
				name, pass.Pkg.Path(), r.Reason, cmp.Or(r.Lost, "findings for this package may be missing"), IssuesURL)
		default:
			in := ""
			if fn, ok := where.(string); ok && fn != "" {
				in = " in " + fn
			}
			failure = fmt.Sprintf("origo: internal error in %s on package %s%s: %v (origo %s; results for this package are incomplete; set ORIGO_PANIC=1 for a stack trace and report it at %s)",
				name, pass.Pkg.Path(), in, oneLine(r), Version(), IssuesURL)
			recovered.Add(1)
		}
		fmt.Fprintln(os.Stderr, failure)
	}()
	forced(pass, name)
	labelled(pass, name, f)
	return ""
}

// labelled runs f with profiler labels naming the pass and the package,
// so that a CPU profile of many packages (origo -cpuprofile) tells them
// apart: go tool pprof -tagfocus pkg=path, or -tags for the shares.
func labelled(pass *analysis.Pass, name string, f func()) {
	pprof.Do(context.Background(), pprof.Labels("pass", name, "pkg", pass.Pkg.Path()), func(context.Context) { f() })
}

// forcedOn holds the passes the test-only hook made fail.
var forcedOn sync.Map // *analysis.Pass → bool

// forced panics when the test-only hook names this pass and package, in
// the pass's first guarded part: one failure, as a bug would make.
func forced(pass *analysis.Pass, name string) {
	want, ok := os.LookupEnv(FailEnv)
	if !ok || want == "" {
		return
	}
	want, _, _ = strings.Cut(want, "#")
	p, pkg, hasPkg := strings.Cut(want, ":")
	if p == name && (!hasPkg || pkg == pass.Pkg.Path()) {
		if _, done := forcedOn.LoadOrStore(pass, true); !done {
			panic(fmt.Sprintf("failure forced by %s=%s", FailEnv, want))
		}
	}
}

// oneLine renders a panic value on one line.
func oneLine(r any) string {
	return strings.Join(strings.Fields(fmt.Sprint(r)), " ")
}

// Version returns origo's version as the build recorded it: the module
// version, or for a build from a checkout, the revision.
var Version = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" && (v == "" || v == "(devel)") {
		return "rev " + rev + dirty
	}
	if v == "" {
		return "(devel)"
	}
	return v
})

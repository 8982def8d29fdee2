package race_test

import (
	"go/ast"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/internal/fixrun"
	"github.com/origo-dev/origo/analyzers/internal/kindtest"
	"github.com/origo-dev/origo/analyzers/internal/racebuild"
	"github.com/origo-dev/origo/analyzers/internal/whytest"
	"github.com/origo-dev/origo/analyzers/race"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestRace checks the fixtures' "// want" comments, and the kind of
// each report (kindtest.Check), in one run of the analyzer without
// flags: each run analyzes the fixtures' imports again, and those take
// most of its time (basic's net/http; the test binary of a fixture with
// tests, testing and its fuzzing and profiling), so the fixtures that
// need no flag share one. Besides the fixtures of the kinds of race:
//
//   - xuse: accesses and locks inside an imported package's functions
//     (xlib), which reach xuse through facts;
//   - ignored: //origo:ignore race silences a race on either access, at
//     the end of the line and from the line above;
//   - generated: nothing is reported in a generated file (TestGenerated
//     checks the flag that reports there);
//   - evidence: each evidence of sharing a report needs by default, and
//     the pairs without any, which stay silent;
//   - chains: a report names, as related positions, the go statements
//     that started its goroutines with the calls that led to them from
//     main;
//   - programs, entrypoints, manytests: the roots as Go runs them: main
//     and the tests are two programs (programs), a library's exported
//     functions and methods that start goroutines are entry points
//     (entrypoints), and each of 40 tests gets a budget of its own
//     (manytests, whose race is in the last);
//   - lazyonce: the Once of an object that initializes itself lazily
//     orders its accesses wherever the object is one of several;
//   - constlock: a lock that a boolean parameter decides is held in a
//     call that passes true, directly or through a parameter passed on;
//   - drain: a pool that waits for its workers by filling their
//     semaphore channel (for i < cap(ch), and for range cap(ch));
//   - paralleltests: the sequential tests' writes happen before what a
//     parallel test does after its t.Parallel; a poller a sequential
//     test leaves running does not;
//   - cleanups: a t.Cleanup function runs when its test ends, last
//     registered first: a reset after a Stop registered later is
//     ordered, one of a poller left running or stopped by a cleanup
//     that runs after it is reported (registered in the test, by a
//     helper as a method value, in a subtest);
//   - condlocker: the elements of a slice kept in a field are guarded
//     by a mutex of the same object that the pointer analysis cannot
//     resolve (a sync.Cond's Locker): appends and element writes
//     silent, a slice handed out and read holding nothing reported;
//   - iterjoin: a loop that joins the goroutines each iteration starts
//     (a WaitGroup declared in the body, a done channel's receive)
//     before the iteration ends, and one that may continue without it;
//   - selectbody: a select case's receive orders its body, and what
//     follows the select only where no other case goes on to it (a
//     timeout case after which the caller reads; a loop's other case);
//   - txmode, txshapes: a transaction's lock in the mode its writable
//     flag chooses, with the flag tested through a captured receiver,
//     callbacks handed on to another package, and a flag that one
//     goroutine sets itself;
//   - xruns: what another package's constructor makes (xstub's, by its
//     summary) for a test's helper is that test's, as what the helper
//     makes itself; what xstub's variable keeps is every test's;
//   - chanmutex: a channel of one filled and drained by a mutex type's
//     Lock and Unlock (and TryLock, a lock that gives up on a context,
//     an unlock that does not block), the library callers' field
//     holding the channel its constructor made; two channel mutexes
//     that one helper makes for a test's object are two locks;
//   - chantoken: a channel of one filled where it is made holds a
//     token that a receive takes to lock and a send puts back, directly,
//     in helpers and in a deferred closure; the goroutine that made and
//     filled it holds nothing after the fill;
//   - withlockuse: callbacks that another package's function calls
//     holding its lock (withlock's WithLock, WithRLock), a literal and
//     a method value, hold it; one it calls after its Unlock does not;
//   - deferclose: a goroutine's deferred close orders what it wrote
//     before its early return as well as at its end, directly, one
//     call down, and where the receiver waits in a select with a
//     context; a deferred write that runs after the close does not;
//   - joinedlock: goroutines a lock holder starts and joins before it
//     unlocks run inside its critical section (a WaitGroup, and one
//     call down a channel), ordered with other goroutines' sections;
//     two workers of one section, a worker and its starter, and a
//     worker joined after the Unlock are not;
//   - spinflag: a word set by an atomic swap and stored back free is a
//     lock (the functions of sync/atomic, atomic.Bool's methods with a
//     deferred store, a retry loop with its store one call down, and a
//     goroutine it is handed to); a write after the store, and a flag
//     that an Add also writes, are not guarded by it;
//   - relock: a function entered with its caller's lock that unlocks
//     it around a wait and locks it again before every return gives it
//     back (the wait loop in the callee, and one call further), and one
//     that returns on a path with it released;
//   - runloops: a receive loop in a function each run of a loop calls
//     observes the close of the goroutine that call started, and what
//     a callee makes in each run is that run's own.
//
// The runs have -why=all: each fixture's silent twins, marked
// `// silent "rule"`, are checked against the rule that must rule them
// out (see package whytest), and every rule of race's and ownership's manuals must
// silence a twin.
func TestRace(t *testing.T) {
	pkgs := []string{"basic", "subtests", "deepspawn", "libmode", "testruns", "transfer", "indices", "handover", "atomicobserve", "timers", "testreport", "samelock", "fresh", "groups", "clonedlocks", "callers", "callbacks", "future", "workers", "wgloop", "factories", "flags", "taken", "ownspawn", "runjoin", "chanops", "deepfields", "dynlocks", "finalizers", "buffers", "filled", "testobjects", "runflag", "txlock", "txmode", "txshapes", "drain", "selectbody", "iterjoin", "paralleltests", "cleanups", "condlocker", "closeobserve", "iocontract", "cbuse", "newcond",
		"xuse", "xfresh", "ignored", "generated", "evidence", "chains", "programs", "entrypoints", "manytests", "spawner", "cfgstart", "pastlen", "builders", "flight", "lazyonce", "constlock", "runloops", "internalapi/...", "registry", "rangearray", "replaced", "stateleft", "claimed", "factorychain", "recvchan", "neverdone", "initfirst", "relock", "xruns", "chanmutex", "chantoken", "withlockuse", "deferclose", "joinedlock", "spinflag"}
	if racebuild.Enabled {
		// Under -race, the fixtures that reach every stage without a
		// large import look for races in origo itself; the plain run
		// checks the rest. Those that import testing or net/http take
		// 15-40 s each, ten times that under -race.
		pkgs = []string{"indices", "future", "filled", "transfer", "fresh", "timers", "samelock", "buffers",
			"xuse", "ignored", "generated", "evidence", "chains", "entrypoints"}
	}
	a, verdicts := whytest.Split(race.Analyzer)
	if err := race.Analyzer.Flags.Set("why", "all"); err != nil {
		t.Fatal(err)
	}
	defer race.Analyzer.Flags.Set("why", "")
	results := analysistest.Run(t, analysistest.TestData(), a, pkgs...)
	kindtest.Check(t, results, nil)
	if verdicts.Check(t, results) == 0 {
		t.Fatal("no // silent comment found in the fixtures")
	}
	if !racebuild.Enabled {
		named := whytest.Named(results)
		// subtest-objects' twins need one context for all goroutines,
		// where the pointer analysis merges two subtests' objects:
		// TestDegradedTests checks them.
		named[rules.SubtestObjects] = true
		// The rules without a twin yet (issue 37).
		whytest.Covered(t, "analyzers/race", named, rules.NotInPackage)
	}
	var chains []string // the related positions of the reports on chains
	for _, r := range results {
		if r.Pass == nil || r.Pass.Pkg.Path() != "chains" {
			continue
		}
		for _, d := range r.Diagnostics {
			for _, rel := range d.Related {
				chains = append(chains, rel.Message)
			}
		}
	}
	want := "goroutine started here: chains.main → chains.start → go chains.worker → chains.spawn → go chains.inner"
	if !slices.Contains(chains, want) {
		t.Errorf("related positions of the reports on chains %q lack %q", chains, want)
	}
}

// TestLoopVar121 checks the message for a loop variable that a module at
// go 1.21 shares across iterations, and the copies that do not share it.
func TestLoopVar121(t *testing.T) {
	kindtest.Check(t, analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "loopvar121"), race.Analyzer, "./..."), nil)
}

// TestGenerated checks that the flag "generated" reports in a generated
// file too (without it nothing is, which TestRace checks on generated).
func TestGenerated(t *testing.T) {
	if err := race.Analyzer.Flags.Set("generated", "true"); err != nil {
		t.Fatal(err)
	}
	defer race.Analyzer.Flags.Set("generated", "false")
	analysistest.Run(t, analysistest.TestData(), race.Analyzer, "generatedon")
}

// TestFixes checks the fix of a WaitGroup.Add inside the goroutine (the
// Add moved before the go statement) against main.go.golden, and the
// reports left without one.
func TestFixes(t *testing.T) {
	kindtest.Check(t, analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), race.Analyzer, "wgfix"), nil)
}

// TestAll checks, on package evidence, that -all reports each pair
// without evidence of sharing (its lines marked `// silent
// "no-sharing-evidence"`) as a possible data race, saying why, and
// every other report as without -all; and package evidenceall's
// possible data race against its want.
func TestAll(t *testing.T) {
	var without []string
	for _, r := range analysistest.Run(ignoreErrors{}, analysistest.TestData(), race.Analyzer, "evidence") {
		for _, d := range r.Diagnostics {
			without = append(without, r.Pass.Fset.Position(d.Pos).String()+": "+d.Message)
		}
	}
	if err := race.Analyzer.Flags.Set("all", "true"); err != nil {
		t.Fatal(err)
	}
	defer race.Analyzer.Flags.Set("all", "false")
	results := analysistest.Run(ignoreErrors{}, analysistest.TestData(), race.Analyzer, "evidence")
	kindtest.Check(t, results, nil)
	var rest []string
	possible := make(map[int]bool) // by line
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if d.Category != "race/possible-race" {
				rest = append(rest, p.String()+": "+d.Message)
				continue
			}
			if !strings.HasPrefix(d.Message, race.PossiblePrefix+"data race on ") || !strings.HasSuffix(d.Message, race.NoEvidenceNote) {
				t.Errorf("%s: possible race's message: %s", p, d.Message)
			}
			possible[p.Line] = true
		}
		for _, f := range r.Pass.Files {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					line := r.Pass.Fset.Position(c.Pos()).Line
					if !strings.Contains(c.Text, `// silent "no-sharing-evidence"`) {
						continue
					}
					if !possible[line] {
						t.Errorf("line %d: no possible data race reported with -all", line)
					}
					delete(possible, line)
				}
			}
		}
	}
	for line := range possible {
		t.Errorf("line %d: a possible data race where no twin is marked", line)
	}
	if strings.Join(rest, "\n") != strings.Join(without, "\n") {
		t.Errorf("with -all, the other reports are\n%s\nwant, as without -all,\n%s", strings.Join(rest, "\n"), strings.Join(without, "\n"))
	}
	kindtest.Check(t, analysistest.Run(t, analysistest.TestData(), race.Analyzer, "evidenceall"), nil)
}

// TestFixesRun builds, vets and runs the fixtures of fixes with their
// fixes applied (see package fixrun).
func TestFixesRun(t *testing.T) {
	fixrun.Check(t, filepath.Join(analysistest.TestData(), "src", "wgfix"))
	fixrun.Check(t, filepath.Join(analysistest.TestData(), "loopvar121"))
}

// TestDegraded checks that a package too large for an origin per
// goroutine is analyzed context insensitive, not skipped: the race is
// reported, its synchronized look-alikes are not, and the pointer
// analysis says what it gave up.
func TestDegraded(t *testing.T) {
	wantDegraded(t, runDegraded(t, "nodelimit", "150"), "pointer degraded package degraded")
}

// TestDegradedPts checks the same where the bound hit is the size of
// the points-to sets: the context-insensitive analysis gets twice the
// room, and a package that fits there is analyzed, not skipped.
func TestDegradedPts(t *testing.T) {
	ptsSize := func(results []*analysistest.Result) int {
		n := 0
		for _, r := range results {
			n = max(n, r.Pass.ResultOf[pointer.Analyzer].(*pointer.Result).Stats.PtsSize)
		}
		return n
	}
	sensitive, insensitive := ptsSize(runDegraded(t, "", "")), ptsSize(runDegraded(t, "contextinsensitive", "true"))
	// Too small for an origin per goroutine (and for few origins), large
	// enough for one context with twice the room.
	limit := (insensitive + 1) / 2
	if limit >= sensitive || limit == 0 {
		t.Fatalf("fixture degraded: points-to sets of %d with origins, %d without: no bound stops the first and not the second", sensitive, insensitive)
	}
	wantDegraded(t, runDegraded(t, "ptslimit", strconv.Itoa(limit)), "points-to sets larger than")
}

// TestDegradedRoots checks that a degraded package's root origins run
// each of their roots: a race between two exported methods that are not
// the first of their group is reported.
func TestDegradedRoots(t *testing.T) {
	wantDegraded(t, runDegraded(t, "nodelimit", "60", "degradedlib"), "pointer degraded package degradedlib")
}

// TestDegradedTests checks, in test packages analyzed with one context,
// that each test's objects are its own (test-objects), whichever root of
// the tests the other access runs in, that each subtest's are its run's
// (subtest-objects), and that an object a test makes once is no
// evidence where a function every test shares reaches it (see
// ownership's testsOwn).
func TestDegradedTests(t *testing.T) {
	a, verdicts := whytest.Split(race.Analyzer)
	if err := race.Analyzer.Flags.Set("why", "all"); err != nil {
		t.Fatal(err)
	}
	defer race.Analyzer.Flags.Set("why", "")
	f := pointer.Analyzer.Flags.Lookup("nodelimit")
	old := f.Value.String()
	if err := f.Value.Set("800"); err != nil {
		t.Fatal(err)
	}
	defer f.Value.Set(old)
	results := analysistest.Run(t, analysistest.TestData(), a, "degradedtests", "degradedsubtests")
	if verdicts.Check(t, results) == 0 {
		t.Fatal("no // silent comment found in degradedtests and degradedsubtests")
	}
	if !whytest.Named(results)[rules.SubtestObjects] {
		t.Errorf("no twin silenced by %s in degradedsubtests", rules.SubtestObjects)
	}
	// The packages themselves have no goroutine to degrade for: their
	// test variants are the ones that pass the bound.
	for _, pkg := range []string{"degradedtests", "degradedsubtests"} {
		var tested []*analysistest.Result
		for _, r := range results {
			if r.Pass.Pkg.Name() == pkg && slices.ContainsFunc(r.Pass.Files, func(f *ast.File) bool {
				return strings.HasSuffix(r.Pass.Fset.Position(f.Package).Filename, "_test.go")
			}) {
				tested = append(tested, r)
			}
		}
		if len(tested) == 0 {
			t.Errorf("no test variant of %s analyzed", pkg)
		}
		wantDegraded(t, tested, "pointer degraded package "+pkg)
	}
}

// runDegraded runs race on the fixtures pkgs (degraded if none) with
// the pointer analysis's flag set to value (none if flag is ""), and
// sets it back after.
func runDegraded(t *testing.T, flag, value string, pkgs ...string) []*analysistest.Result {
	if len(pkgs) == 0 {
		pkgs = []string{"degraded"}
	}
	if flag != "" {
		f := pointer.Analyzer.Flags.Lookup(flag)
		old := f.Value.String()
		if err := f.Value.Set(value); err != nil {
			t.Fatal(err)
		}
		defer f.Value.Set(old)
	}
	return analysistest.Run(t, analysistest.TestData(), race.Analyzer, pkgs...)
}

// wantDegraded checks that the pointer analysis of each result was
// degraded to context insensitive, saying why in words that contain
// reason.
func wantDegraded(t *testing.T, results []*analysistest.Result, reason string) {
	t.Helper()
	for _, r := range results {
		res := r.Pass.ResultOf[pointer.Analyzer].(*pointer.Result)
		if !res.ContextInsensitive || !strings.Contains(res.Degraded, reason) {
			t.Errorf("pointer analysis of %s: context insensitive %v, degraded %q; want it degraded (%q)", r.Pass.Pkg.Path(), res.ContextInsensitive, res.Degraded, reason)
		}
	}
}

// ignoreErrors is an analysistest.Testing that drops what analysistest
// reports: TestAll reads the diagnostics itself, and under -all the
// possible data races match no `// want`.
type ignoreErrors struct{}

func (ignoreErrors) Errorf(string, ...any) {}

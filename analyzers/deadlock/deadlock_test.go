package deadlock_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/internal/fixrun"
	"github.com/origo-dev/origo/analyzers/internal/kindtest"
	"github.com/origo-dev/origo/analyzers/internal/racebuild"
	"github.com/origo-dev/origo/analyzers/internal/reltest"
	"github.com/origo-dev/origo/analyzers/internal/whytest"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestDeadlock checks the fixtures' "// want" comments, the kind of each
// report (kindtest.Check) and its related positions (reltest.Check: the
// places its message names, in the package's files, for an editor to go
// to). Each run of the analyzer analyzes the fixtures' imports again, so
// the fixtures share one, and the fixture of fixes a second, which also
// checks its fixes against main.go.golden (an Unlock before the return
// of a lock left held), and the reports left without one:
//
//   - dl: a fixture of each kind of report;
//   - dlx, dlxmain: a second acquisition hidden inside an imported
//     package's function (dlxlib);
//   - dlblock: channel operations and WaitGroup.Wait under a lock that
//     the unblocking goroutine needs;
//   - dltransfer: locks that a goroutine takes over from its starter: no
//     double lock or lock left held for the starter and its callers, and
//     the goroutine holds the lock until its Unlock;
//   - dlignore: //origo:ignore deadlock silences each kind of report, at
//     the end of its line and from the line above;
//   - dlfix: the fixes.
//
// The runs have -why=all: each fixture's silent twins, marked
// `// silent "rule"`, are checked against the rule that must rule them
// out (see package whytest), and every rule of deadlock's manual must
// silence a twin.
func TestDeadlock(t *testing.T) {
	a, verdicts := whytest.Split(deadlock.Analyzer)
	if err := deadlock.Analyzer.Flags.Set("why", "all"); err != nil {
		t.Fatal(err)
	}
	defer deadlock.Analyzer.Flags.Set("why", "")
	results := analysistest.Run(t, analysistest.TestData(), a, "dl", "dlx", "dlxmain", "dlblock", "dltransfer", "dlignore")
	fixes := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), a, "dlfix")
	results = append(results, fixes...)
	if verdicts.Check(t, results) == 0 {
		t.Fatal("no // silent comment found in the fixtures")
	}
	if racebuild.Enabled {
		return // the plain run checks the kinds and related positions
	}
	whytest.Covered(t, "analyzers/deadlock", whytest.Named(results))
	kindtest.Covered(t, "deadlock", kindtest.Check(t, results, nil))
	// Not dlxmain's, whose reports name the places in dlxlib where its
	// locks are taken: outside the package's files, which reltest's
	// rules are about.
	related := slices.DeleteFunc(slices.Clone(results), func(r *analysistest.Result) bool {
		return r.Pass != nil && r.Pass.Pkg.Path() == "dlxmain"
	})
	reltest.Check(t, related, map[string][]string{
		`^double lock: `: {` locked here$`},
		// The callee's Lock, when it is in the package (main.go, not
		// dlxlib/dlxlib.go).
		`^double lock: .*, which locks it again \(at \w+\.go:`:              {`^\S+ locks \S+ again here$`},
		`^double lock through a function value: `:                           {`^the function value called here, with \S+ held$`},
		`^RWMutex upgrade: `:                                                {`^\S+ read-locked here$`},
		`^recursive read lock: `:                                            {`^\S+ read-locked here$`, `^the other side of the deadlock: a Lock of \S+ here, between the two read locks, waits for the first, and the second waits for it$`},
		`^recursive read lock: .*, which read-locks it again \(at \w+\.go:`: {`^\S+ read-locks \S+ again here$`},
		`^lock left held: `:                                                 {` locked here$`},
		`^unlock of unlocked mutex: .*every path here already unlocked it`:  {`^\S+ unlocked here first$`},
		`^unlock of unlocked mutex: .*the Unlock deferred at`:               {`^the Unlock deferred here unlocks \S+ again when \w+ returns$`},
		`^lock order inversion: `:                                           {`^the other goroutine locks \S+ here$`},
		// Two lines apart: the other goroutine's second Lock is not this one.
		`^lock order inversion: p\.b is locked`:                            {`^the other side of the deadlock: goroutine started at \w+\.go:\d+ locks p\.a here while holding p\.b, which this goroutine takes in the opposite order$`},
		`^lock order cycle: `:                                              {`^\S+ locked here while holding \S+ \(goroutine started at \w+\.go:\d+\)$`},
		`^blocking while holding a lock: `:                                 {` locked here$`, `^the \w+ that would unblock it \(.+\)$`},
		`^blocking while holding a lock: .* must first lock .* both block`: {`^the other side of the deadlock: the other goroutine locks \S+ here, before the \w+$`},
		`^blocking while holding a lock: .* comes after a receive`:         {`^it first waits here$`, `^the other side of the deadlock: the \w+ that would end that wait locks \S+ here first`},
		`^blocking while holding a lock: .* runs in a loop that locks`:     {`^the other side of the deadlock: its loop locks \S+ here, after the \w+$`},
		`^blocking while holding a lock: .* is a case of a select`:         {`^the other side of the deadlock: the select's other way out locks \S+ here$`},
	},
		// The other goroutine's first Lock: the message names the one
		// that waits.
		`^the other goroutine locks \S+ here$`)
}

// TestFixesRun builds, vets and runs the fixture of fixes with its
// fixes applied: each fixed function leaves its mutex unlocked, and
// those entered with the lock held, which get no fix, leave it held.
func TestFixesRun(t *testing.T) {
	fixrun.Check(t, filepath.Join(analysistest.TestData(), "src", "dlfix"))
}

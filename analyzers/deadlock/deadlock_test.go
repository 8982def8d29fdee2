package deadlock_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/internal/fixrun"
	"github.com/origo-dev/origo/analyzers/internal/kindtest"
	"github.com/origo-dev/origo/analyzers/internal/racebuild"
	"github.com/origo-dev/origo/analyzers/internal/reltest"
	"github.com/origo-dev/origo/analyzers/internal/whytest"
	"github.com/origo-dev/origo/passes/rules"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestDeadlock(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dl")
}

// TestAcrossPackages checks a second acquisition hidden inside an
// imported package's function.
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dlx", "dlxmain")
}

// TestBlockingWhileLocked checks channel operations and WaitGroup.Wait
// under a lock that the unblocking goroutine needs.
func TestBlockingWhileLocked(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dlblock")
}

// TestTransfer checks locks that a goroutine takes over from its
// starter: no double lock or lock left held for the starter and its
// callers, and the goroutine holds the lock until its Unlock.
func TestTransfer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dltransfer")
}

// TestIgnore checks that //origo:ignore deadlock silences each kind of
// report, at the end of its line and from the line above.
func TestIgnore(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dlignore")
}

// TestFixes checks the fix of a lock left held (an Unlock before the
// return) against main.go.golden, and the reports left without one.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), deadlock.Analyzer, "dlfix")
}

// TestFixesRun builds, vets and runs the fixture of fixes with its
// fixes applied: each fixed function leaves its mutex unlocked, and
// those entered with the lock held, which get no fix, leave it held.
func TestFixesRun(t *testing.T) {
	fixrun.Check(t, filepath.Join(analysistest.TestData(), "src", "dlfix"))
}

// TestSilentRules runs deadlock with -why=all on the fixtures and checks
// their silent twins against the rule each names (see package whytest):
// a twin whose line has no candidate, or one reported, or one that
// another rule ruled out, fails. Every rule of deadlock's own must have
// a twin.
func TestSilentRules(t *testing.T) {
	if err := deadlock.Analyzer.Flags.Set("why", "all"); err != nil {
		t.Fatal(err)
	}
	defer deadlock.Analyzer.Flags.Set("why", "")
	pkgs := []string{"dl", "dlblock", "dltransfer", "dlx", "dlxmain", "dlignore", "dlfix"}
	if racebuild.Enabled {
		pkgs = []string{"dlignore", "dlfix"}
	}
	checked := 0
	named := make(map[rules.ID]bool)
	for _, r := range analysistest.Run(ignoreErrors{}, analysistest.TestData(), deadlock.Analyzer, pkgs...) {
		checked += whytest.Check(t, r.Pass.Fset, r.Pass.Files, r.Diagnostics)
		for _, f := range r.Pass.Files {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if m := silentRule.FindStringSubmatch(c.Text); m != nil {
						for _, q := range strings.Fields(m[1]) {
							named[rules.ID(strings.Trim(q, `"`))] = true
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no // silent comment found in the fixtures")
	}
	if racebuild.Enabled {
		return // a few fixtures only
	}
	for _, r := range rules.All {
		if r.Doc == "analyzers/deadlock" && !named[r.ID] {
			t.Errorf("rule %s silences no twin in the fixtures", r.ID)
		}
	}
}

// silentRule finds the rules a // silent comment names.
var silentRule = regexp.MustCompile(`// silent((?: "[a-z-]+")+)`)

// ignoreErrors is an analysistest.Testing that drops what analysistest
// reports: TestSilentRules reads the diagnostics itself, and the why
// diagnostics match no `// want`.
type ignoreErrors struct{}

func (ignoreErrors) Errorf(string, ...any) {}

// TestRelated checks the related positions of each kind of report: the
// places its message names, in the package's files, for an editor to go
// to.
func TestRelated(t *testing.T) {
	if racebuild.Enabled {
		t.Skip("the fixtures run under -race in the other tests; the plain run checks related positions")
	}
	results := analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dl", "dlx", "dlblock", "dltransfer", "dlfix")
	kindtest.Covered(t, "deadlock", kindtest.Check(t, results, nil))
	reltest.Check(t, results, map[string][]string{
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

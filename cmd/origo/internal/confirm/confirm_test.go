package confirm

import (
	"cmp"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/race"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// fixtureReports analyzes the fixture module with race, deadlock and
// blocking and returns their reports, as the standalone driver hands
// them to Run.
func fixtureReports(t *testing.T, dir string) []Report {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedForTest, Tests: true, Dir: dir}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var roots []*packages.Package
	hasTests := make(map[string]bool)
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasTests[p.PkgPath] = true
		}
	}
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") || p.ForTest == "" && hasTests[p.PkgPath] {
			continue
		}
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.ID, p.Errors)
		}
		roots = append(roots, p)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{race.Analyzer, deadlock.Analyzer, blocking.Analyzer}, roots, nil)
	if err != nil {
		t.Fatal(err)
	}
	var reports []Report
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s on %s: %v", act.Analyzer.Name, act.Package.ID, act.Err)
		}
		for _, d := range act.Diagnostics {
			r := Report{Analyzer: act.Analyzer.Name, Message: d.Message, Posn: act.Package.Fset.Position(d.Pos), Package: cmp.Or(act.Package.ForTest, act.Package.PkgPath)}
			for _, rel := range d.Related {
				r.Related = append(r.Related, Related{Posn: act.Package.Fset.Position(rel.Pos), Message: rel.Message})
			}
			reports = append(reports, r)
		}
	}
	return reports
}

// find returns the index of the report at file:line whose message
// starts with prefix.
func find(t *testing.T, reports []Report, file string, line int, prefix string) int {
	t.Helper()
	for i, r := range reports {
		if filepath.Base(r.Posn.Filename) == file && r.Posn.Line == line && strings.HasPrefix(r.Message, prefix) {
			return i
		}
	}
	for _, r := range reports {
		t.Logf("%s: %s", r.Posn, r.Message)
	}
	t.Fatalf("no report %q at %s:%d", prefix, file, line)
	return -1
}

func TestFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture's tests, with the race detector and the goroutine leak profile")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "fixture"))
	if err != nil {
		t.Fatal(err)
	}
	reports := fixtureReports(t, dir)
	racy := find(t, reports, "stats.go", 15, "data race on s.hits")
	twin := find(t, reports, "stats.go", 35, "data race on g.level")
	inversion := find(t, reports, "stats.go", 61, "lock order inversion")
	leak := find(t, reports, "stats.go", 92, "send blocks forever when Fetch returns early")
	unreached := find(t, reports, "main.go", 9, "data race on n")
	parallel := find(t, reports, "stats.go", 105, "data race on c.pos")

	results, sum := Run(context.Background(), reports, Options{Mode: On, Budget: 15 * time.Second, Parallel: 2})
	for i, r := range results {
		t.Logf("%s:%d: %s: %+v", filepath.Base(reports[i].Posn.Filename), reports[i].Posn.Line, reports[i].Message, r)
	}
	t.Log(sum)

	check := func(i int, want Status, test, witness string) {
		t.Helper()
		got := results[i]
		if got.Status != want || got.Confirmed != (want == Confirmed) {
			t.Errorf("%s: status %q (%s), want %q", reports[i].Message, got.Status, got.Reason, want)
			return
		}
		if want == Confirmed && (got.Test != test || got.Witness != witness) {
			t.Errorf("%s: confirmed by %s with the %s, want %s with the %s", reports[i].Message, got.Test, got.Witness, test, witness)
		}
	}
	check(racy, Confirmed, "TestServe", byRace)
	check(twin, NotConfirmed, "", "")
	check(inversion, Confirmed, "TestNightly", byHang)
	check(leak, Confirmed, "TestFetch", byLeak)
	check(unreached, NoTest, "", "")
	check(parallel, Confirmed, "BenchmarkCursor", byRace)
	if want := "go test -race -run '^$' -bench '^BenchmarkCursor$' -benchtime=100x"; !strings.HasPrefix(results[parallel].Command, want) {
		t.Errorf("the benchmark's command %q, want %s ...", results[parallel].Command, want)
	}

	// The witnessed race names both accesses' lines among its stacks,
	// and its command runs the test under the race detector.
	r := results[racy]
	lines := make(map[int]bool)
	for _, s := range r.Stacks {
		if filepath.Base(s.Posn.Filename) == "stats.go" {
			lines[s.Posn.Line] = true
		}
	}
	if !lines[15] || !lines[17] {
		t.Errorf("stacks of the confirmed race hold lines %v, want 15 and 17", lines)
	}
	if want := "go test -race -run '^TestServe$'"; !strings.HasPrefix(r.Command, want) || !strings.HasSuffix(r.Command, " example.com/confirmfixture") {
		t.Errorf("command %q, want %s ... example.com/confirmfixture", r.Command, want)
	}
	if got := r.Suffix(); got != "confirmed by TestServe under -race" {
		t.Errorf("suffix %q", got)
	}
	// The deadlock's witness shows both goroutines at their second Lock.
	lines = make(map[int]bool)
	for _, s := range results[inversion].Stacks {
		lines[s.Posn.Line] = true
	}
	if !lines[61] || !lines[68] {
		t.Errorf("stacks of the confirmed deadlock hold lines %v, want 61 and 68", lines)
	}
	if results[twin].Runs < 2 {
		t.Errorf("the false twin was run %d times, want several", results[twin].Runs)
	}
	if sum.Confirmed < 3 || sum.NoTest != 1 || sum.NotConfirmed < 1 || sum.Reports != len(reports) {
		t.Errorf("summary %v", sum)
	}
}

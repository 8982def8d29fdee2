package confirm

import (
	"flag"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// raceOutput is what a test binary built with -race prints for a race
// between the main goroutine of a test and one it started, in the shape
// of Go 1.26's race detector: a map assignment (runtime frames above
// the user's line), then the previous access, then where the goroutine
// was created.
const raceOutput = `=== RUN   TestX
==================
WARNING: DATA RACE
Write at 0x00c000012345 by goroutine 8:
  runtime.mapassign_faststr()
      /usr/local/go/src/internal/runtime/maps/runtime_faststr.go:263 +0x0
  example.com/p.store()
      /src/p/p.go:12 +0x44
  example.com/p.TestX.func1()
      /src/p/p_test.go:9 +0x2c

Previous read at 0x00c000012345 by main goroutine:
  example.com/p.load()
      /src/p/p.go:17 +0x3a

Goroutine 8 (running) created at:
  example.com/p.TestX()
      /src/p/p_test.go:8 +0x64
==================
--- FAIL: TestX (0.00s)
    testing.go:1712: race detected during execution of test
`

func TestParseRaces(t *testing.T) {
	ws := parseRaces(raceOutput)
	if len(ws) != 1 {
		t.Fatalf("%d warnings, want 1", len(ws))
	}
	w := ws[0]
	if len(w.accesses) != 2 || w.accesses[0].what != "Write" || w.accesses[0].goroutine != "goroutine 8" ||
		w.accesses[1].what != "Previous read" || w.accesses[1].goroutine != "main goroutine" {
		t.Fatalf("accesses %+v", w.accesses)
	}
	if f := w.accesses[0].frames[1]; f.fn != "example.com/p.store" || f.file != "/src/p/p.go" || f.line != 12 {
		t.Errorf("second frame of the write %+v", f)
	}
	if len(w.created) != 1 || w.created[0].what != "goroutine 8" || w.created[0].frames[0].line != 8 {
		t.Errorf("created %+v", w.created)
	}

	// The report's two lines match in either order; the write's runtime
	// frame is skipped, and a line below the first frame in the
	// package's directory does not count (p_test.go:9 called the write,
	// it did not make it).
	p := &pkgRun{dir: "/src/p", c: &confirmation{}}
	at := func(line int) Position { return Position{Filename: "/src/p/p.go", Line: line} }
	if !p.atAccess(w.accesses[0], at(12)) || !p.atAccess(w.accesses[1], at(17)) {
		t.Error("the accesses do not match their lines")
	}
	if p.atAccess(w.accesses[0], Position{Filename: "/src/p/p_test.go", Line: 9}) {
		t.Error("a caller's line matched as the access")
	}
	rep := &Report{Analyzer: "race", Message: "data race on m: write at p.go:17 vs ...", Posn: at(17),
		Related: []Related{{Posn: at(12), Message: "the other write of m (goroutine started at p_test.go:8)"}}}
	rn := &run{attempt: attempt{test: "TestX", cpu: 2}, witness: byRace, races: ws}
	if _, ok := p.matchRace(rep, rn); !ok {
		t.Error("the report, its accesses in the other order, is not matched")
	}
	rep.Related[0].Posn = at(13)
	if _, ok := p.matchRace(rep, rn); ok {
		t.Error("a report of another line is matched")
	}
}

// dumpOutput is a test binary's output at its timeout, cut to three
// goroutines, and a goroutine of the leak profile at debug level 2.
const dumpOutput = `panic: test timed out after 5s
	running tests:
		TestNightly (5s)

goroutine 21 [running]:
testing.(*M).startAlarm.func1()
	/usr/local/go/src/testing/testing.go:2682 +0x345

goroutine 7 [sync.Mutex.Lock, 2 minutes]:
internal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/sema.go:95 +0x25
sync.(*Mutex).Lock(...)
	/usr/local/go/src/sync/mutex.go:46
example.com/p.Transfer()
	/src/p/p.go:61 +0x6d
example.com/p.Nightly.func1()
	/src/p/p.go:78 +0x4f
created by example.com/p.Nightly in goroutine 6
	/src/p/p.go:76 +0x7b

goroutine 9 [chan send (leaked)]:
example.com/p.Fetch.func1()
	/src/p/p.go:92 +0x1e
created by example.com/p.Fetch in goroutine 8
	/src/p/p.go:92 +0x5f
`

func TestParseDump(t *testing.T) {
	gs := parseDump(dumpOutput)
	if len(gs) != 3 {
		t.Fatalf("%d goroutines, want 3: %+v", len(gs), gs)
	}
	if g := gs[0]; g.id != "21" || g.blocked() {
		t.Errorf("running goroutine %+v", g)
	}
	g := gs[1]
	if g.id != "7" || g.state != "sync.Mutex.Lock" || g.leaked || !g.blocked() || len(g.frames) != 4 || g.created == nil || g.created.line != 76 {
		t.Errorf("blocked goroutine %+v", g)
	}
	if g := gs[2]; !g.leaked || g.state != "chan send" || len(g.frames) != 1 {
		t.Errorf("leaked goroutine %+v", g)
	}
	at := func(line int) Position { return Position{Filename: "/src/p/p.go", Line: line} }
	if _, ok := blockedAt(gs, at(61), []string{"sync.Mutex.Lock"}); !ok {
		t.Error("the goroutine blocked at p.go:61 is not found")
	}
	if _, ok := blockedAt(gs, at(61), []string{"chan send"}); ok {
		t.Error("a goroutine blocked in a Lock is taken for one blocked in a send")
	}
	if _, ok := blockedAt(gs, at(76), nil); ok {
		t.Error("the go statement that created a goroutine is taken for where it blocks")
	}
	if g, ok := blockedAt(gs, at(92), []string{"chan send"}); !ok || g.id != "9" {
		t.Error("the leaked sender is not found")
	}
}

func TestSource(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "sync"

var mu sync.Mutex

func f(c1, c2 chan int, x int) {
	select {
	case c1 <- x:
	case v := <-c2:
		_ = v
	}
	for i := 0; i < x; i++ { mu.Lock() }
	if x > 0 { c1 <- x }
}
`
	test := `package p_test

import "testing"

func TestMain(m *testing.M) {}
func TestF(t *testing.T)      { helper() }
func helper()                  { p.F() }
func Testlower(t *testing.T)  {}
func BenchmarkF(b *testing.B) {}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(strings.Replace(src, "func f(", "func F(", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := loadSource(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range s.tests {
		names = append(names, name)
	}
	if len(names) != 2 || s.tests["TestF"] == nil || s.tests["BenchmarkF"] == nil {
		t.Errorf("tests %v, want TestF and BenchmarkF", names)
	}
	file := filepath.Join(dir, "p.go")
	pos := func(line, col int) Position { return token.Position{Filename: file, Line: line, Column: col} }
	lineOf := func(p Position) int {
		f, off, ok := s.stmtStart(p)
		if !ok {
			return 0
		}
		return 1 + strings.Count(string(f.src[:off]), "\n")
	}
	// A send in a select's case goes before the select; one in an if's
	// body before the send itself, on the same line.
	if got := lineOf(pos(9, 10)); got != 8 {
		t.Errorf("a send in a select case yields before line %d, want 8", got)
	}
	f, off, _ := s.stmtStart(pos(14, 17))
	if got := string(f.src[off : off+7]); got != "c1 <- x" {
		t.Errorf("the send in the if's body yields before %q", got)
	}
	if got := s.waitReasons(pos(13, 30)); len(got) == 0 || got[0] != "sync.Mutex.Lock" {
		t.Errorf("wait reasons of mu.Lock(): %v", got)
	}
	if got := s.waitReasons(pos(14, 17)); len(got) == 0 || got[0] != "chan send" {
		t.Errorf("wait reasons of a send: %v", got)
	}
	// TestF reaches F through helper, by name.
	rep := &Report{Posn: pos(13, 30)}
	if got := s.candidates(rep, 3); len(got) != 1 || got[0] != "TestF" {
		t.Errorf("candidates %v, want [TestF]", got)
	}
	rep.Related = []Related{{Posn: pos(8, 2), Message: "goroutine started here: p_test.BenchmarkF → p.F → go p.F$1"}}
	if got := s.candidates(rep, 3); len(got) != 2 || got[0] != "BenchmarkF" {
		t.Errorf("candidates %v, want the chain's BenchmarkF first", got)
	}
	// What a package-level variable's initializer runs, any test runs.
	initFile := filepath.Join(dir, "init.go")
	if err := os.WriteFile(initFile, []byte("package p\n\nvar v = g()\n\nfunc g() int {\n\treturn 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err = loadSource(dir, ""); err != nil {
		t.Fatal(err)
	}
	rep = &Report{Posn: token.Position{Filename: initFile, Line: 6, Column: 2}}
	if got := s.candidates(rep, 3); len(got) != 1 || got[0] != "TestF" {
		t.Errorf("candidates of code that initialization runs: %v, want [TestF]", got)
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		mode Mode
		ok   bool
	}{
		{nil, Off, true},
		{[]string{"-confirm"}, On, true},
		{[]string{"-confirm=only"}, Only, true},
		{[]string{"-confirm=false"}, Off, true},
		{[]string{"-confirm=sometimes"}, Off, false},
	} {
		fs := flag.NewFlagSet("origo", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o := RegisterFlags(fs)
		err := fs.Parse(append(tc.args, "-confirm.budget=5s", "./..."))
		if (err == nil) != tc.ok || tc.ok && (o.Mode != tc.mode || o.Budget != 5*time.Second || o.Parallel < 1) {
			t.Errorf("%v: mode %v, budget %v, parallel %d, err %v", tc.args, o.Mode, o.Budget, o.Parallel, err)
		}
	}
}

// TestStalled checks which timeout dumps witness a hang: the dump of
// TestNightly's deadlock (every goroutine blocked but the alarm's), and
// not one where a goroutine still sleeps, as ants' TestMaxBlockingSubmit
// did in its time.Sleep before it closed the channel its pool worker
// waited on.
func TestStalled(t *testing.T) {
	if !stalled(parseDump(dumpOutput)) {
		t.Error("a deadlock's dump is not taken for a stalled program")
	}
	slow := dumpOutput + `
goroutine 6 [sleep]:
time.Sleep(0x3b9aca00)
	/usr/local/go/src/runtime/time.go:363 +0x165
example.com/p.TestSlow(0xc000102a80)
	/src/p/p_test.go:574 +0x2b1
`
	if stalled(parseDump(slow)) {
		t.Error("a dump with a goroutine asleep is taken for a stalled program")
	}
	runnable := strings.Replace(dumpOutput, "goroutine 7 [sync.Mutex.Lock, 2 minutes]", "goroutine 7 [runnable]", 1)
	if stalled(parseDump(runnable)) {
		t.Error("a dump with a runnable goroutine is taken for a stalled program")
	}
}

// TestSkipped reads, in a verbose run's output, whether the test ran,
// skipped (with its message) or did not start (a TestMain that returns
// without running the tests, as redis's e2e tests do without their
// servers), and the reason of a report whose tests skipped says so.
func TestSkipped(t *testing.T) {
	for _, c := range []struct{ out, test, want string }{
		{"=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n", "TestA", ""},
		{"=== RUN   TestA\n    a_test.go:19: hello\n    a_test.go:20: Scenario tests require E2E=true\n--- SKIP: TestA (0.00s)\nPASS\n", "TestA", "skipped: a_test.go:20: Scenario tests require E2E=true"},
		{"=== RUN   TestA\n    a_test.go:20: setup\n=== RUN   TestA/sub\n        a_test.go:30: inner\n    --- PASS: TestA/sub (0.00s)\n--- SKIP: TestA (0.00s)\n", "TestA", "skipped: a_test.go:20: setup"},
		{"=== RUN   TestA\n--- SKIP: TestA (0.00s)\nPASS\n", "TestA", "skipped"},
		{"=== RUN   TestA\n=== RUN   TestA/sub\n    --- SKIP: TestA/sub (0.00s)\n--- PASS: TestA (0.00s)\n", "TestA", ""},
		{"=== RUN   TestAB\n--- SKIP: TestAB (0.00s)\n", "TestA", "did not start (a TestMain that does not run the tests?)"},
		{"2026/11/29 01:04:05 Skipping scenario tests, E2E_SCENARIO_TESTS is not set\n", "TestA", "did not start (a TestMain that does not run the tests?)"},
		{"=== RUN   TestA\npanic: test timed out after 3s\n", "TestA", ""},
		{"", "BenchmarkA", ""},
	} {
		if got := skipped(c.out, c.test); got != c.want {
			t.Errorf("skipped(%q, %s) = %q, want %q", c.out, c.test, got, c.want)
		}
	}
	if got, want := testArgs("TestA"), []string{"-test.run=^TestA$", "-test.v"}; !slices.Equal(got, want) {
		t.Errorf("testArgs(TestA) = %q, want %q", got, want)
	}

	p := &pkgRun{skips: map[string]string{"TestB": "skipped: b_test.go:3: short", "TestC": "did not start (a TestMain that does not run the tests?)"}}
	if got, want := p.notConfirmedReason(raceKind, []string{"TestA", "TestB"}, 9), "no race between the two accesses in 9 runs of TestA; TestB skipped: b_test.go:3: short"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
	if got, want := p.notConfirmedReason(blockKind, []string{"TestB", "TestC"}, 2), "no test that reaches it ran its code: TestB skipped: b_test.go:3: short; TestC did not start (a TestMain that does not run the tests?)"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
}

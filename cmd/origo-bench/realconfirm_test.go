package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// confirmFixture is origo -json -confirm's output on keySrc in dir: a
// race confirmed in the test variant (the package's copy was not tried),
// one tried and not confirmed, one no test reaches, and a report of a
// kind no run witnesses.
func confirmFixture(dir string) string {
	return strings.NewReplacer("DIR", dir).Replace(`{
	"example.com/p": {"race": [
		{"posn": "DIR/p.go:16:3", "category": "race/data-race", "message": "data race on T.n: write at p.go:16:3 vs write at p.go:20:4",
		 "confirm": {"status": "not tried", "confirmed": false}},
		{"posn": "DIR/p.go:8:2", "category": "race/data-race", "message": "data race on x at p.go:9:2",
		 "confirm": {"status": "not confirmed", "confirmed": false, "test": "TestTop", "reason": "no race between the two accesses in 12 runs of TestTop"}}
	]},
	"example.com/p [example.com/p.test]": {
		"race": [
			{"posn": "DIR/p.go:16:3", "category": "race/data-race", "message": "data race on T.n: write at p.go:16:3 vs write at p.go:20:4; confirmed by TestM under -race",
			 "related": [{"posn": "DIR/p.go:16:3", "message": "race detector: write by goroutine 7, in p.(*T).M.func1"}],
			 "confirm": {"status": "confirmed", "confirmed": true, "test": "TestM", "witness": "race detector", "command": "go test -race -run '^TestM$' -count=1 -cpu=2 example.com/p"}}
		],
		"deadlock": [
			{"posn": "DIR/p.go:20:4", "category": "deadlock/double-lock", "message": "double lock of t.mu; confirmed by TestV: blocked there when the test timed out",
			 "confirm": {"status": "confirmed", "confirmed": true, "test": "TestV", "witness": "goroutine dump at timeout", "command": "go test -run '^TestV$' -count=1 -cpu=2 -timeout=3.333s example.com/p"}},
			{"posn": "DIR/p.go:26:22", "category": "deadlock/double-lock", "message": "double lock of v.mu",
			 "confirm": {"status": "no test", "confirmed": false, "reason": "no test, benchmark or fuzz target of the package reaches it"}}
		],
		"other": [
			{"posn": "DIR/p.go:4:2", "message": "something else", "confirm": {"status": "not tried", "confirmed": false}}
		]
	}
}`)
}

// TestJudgeConfirmed checks realcode -confirm's reading of origo's
// output: the confirmation cut from the messages so that the reports
// get their verdict-file keys, a report and its test variant's copy one
// report with the better outcome, the outcomes counted, and each
// confirmed report looked up in the verdicts.
func TestJudgeConfirmed(t *testing.T) {
	dir := t.TempDir()
	if err := copyFile(filepath.Join(dir, "p.go"), keySrc); err != nil {
		t.Fatal(err)
	}
	res, outcomes, err := parseConfirmJSON([]byte(confirmFixture(dir)))
	if err != nil {
		t.Fatal(err)
	}
	res, outcomes = withoutConfirmation(res, outcomes)
	reps, err := keyReports(dir, res)
	if err != nil {
		t.Fatal(err)
	}
	const (
		raceKey   = "p.go (*T).M$1 race: data race on T.n: write at p.go vs write at p.go"
		lockKey   = "p.go (*T).M$2$1 deadlock: double lock of t.mu"
		topKey    = "p.go Top race: data race on x at p.go"
		notTakenK = "p.go T.V deadlock: double lock of v.mu"
	)
	vs := map[string]verdict{
		raceKey: {key: raceKey, word: "TRUE", reason: "two goroutines write t.n", line: 3},
		topKey:  {key: topKey, word: "FALSE", reason: "x is local", line: 4},
	}
	vs[notTakenK] = verdict{key: notTakenK, word: "TRUE", reason: "v.mu is locked twice", line: 6}
	row := judgeConfirmed("example.com/p", reps, outcomes, vs)
	if row.reports != 5 || row.confirmed != 2 || row.notConfirmed != 1 || row.noTest != 1 || row.notTried != 1 {
		t.Errorf("row %+v, want 5 reports: 2 confirmed, 1 not confirmed, 1 no test, 1 not tried", row)
	}
	if row.judgedTrue != 2 || row.trueConfirmed != 1 || len(row.trueMissed) != 1 || row.trueMissed[0].key != notTakenK || row.trueMissed[0].outcome.Status != "no test" {
		t.Errorf("TRUE reports: %d, confirmed %d, missed %+v; want 2, 1, the double lock of v.mu", row.judgedTrue, row.trueConfirmed, row.trueMissed)
	}
	if len(row.found) != 2 {
		t.Fatalf("found %+v, want the race and the double lock", row.found)
	}
	race, lock := row.found[0], row.found[1]
	if race.key != raceKey || race.verdict.word != "TRUE" || race.outcome.Test != "TestM" || race.posn != "p.go:16:3" || race.bad() != "" {
		t.Errorf("the confirmed race: %+v", race)
	}
	if lock.key != lockKey || lock.verdict.word != "" || lock.bad() != "not judged" || lock.outcome.Witness != "goroutine dump at timeout" {
		t.Errorf("the confirmed double lock: %+v", lock)
	}
	// A confirmed report judged FALSE is bad.
	vs[lockKey] = verdict{key: lockKey, word: "FALSE", reason: "the lock is another", line: 5}
	if c := judgeConfirmed("example.com/p", reps, outcomes, vs).found[1]; c.bad() != "judged FALSE" {
		t.Errorf("a confirmed report judged FALSE: bad() = %q", c.bad())
	}
}

func TestParseConfirmElapsed(t *testing.T) {
	summary := []string{
		"origo: -confirm: 7 reports: 5 confirmed, 1 tried and not confirmed, 1 not reachable from any test, 0 of a kind no run witnesses (1m15.6s)",
		"origo: -confirm: go test -c failed (in x)",
	}
	if got := parseConfirmElapsed(summary); got != 75600*time.Millisecond {
		t.Errorf("parseConfirmElapsed = %v, want 1m15.6s", got)
	}
	if got := parseConfirmElapsed([]string{"origo: -confirm: no summary"}); got != 0 {
		t.Errorf("parseConfirmElapsed of no summary = %v, want 0", got)
	}
}

func TestConfirmFlags(t *testing.T) {
	if got := strings.Join(confirmFlags(10*time.Second, 1), " "); got != "-confirm.budget=10s -confirm.parallel=1" {
		t.Errorf("confirmFlags = %q", got)
	}
	if got := confirmFlags(0, 0); len(got) != 0 {
		t.Errorf("confirmFlags(0, 0) = %q, want none (origo's defaults)", got)
	}
}

// TestPrintConfirm checks the table and the list of confirmed reports:
// a module's row, a failed module's line, the total over the others,
// and a confirmed report judged FALSE or not judged printed loudly and
// failing the bench; a bench whose confirmed reports are all TRUE
// passes.
func TestPrintConfirm(t *testing.T) {
	good := confirmedReport{module: "example.com/a", key: "a.go F race: data race on x", posn: "a.go:3:1",
		verdict: verdict{word: "TRUE", reason: "both goroutines write x"},
		outcome: confirmOutcome{Status: "confirmed", Confirmed: true, Test: "TestF", Witness: "race detector", Command: "go test -race -run '^TestF$' -count=1 -cpu=1 example.com/a"}}
	wrong := confirmedReport{module: "example.com/a", key: "a.go G race: data race on y", posn: "a.go:9:2",
		verdict: verdict{word: "FALSE", reason: "y is guarded"},
		outcome: confirmOutcome{Status: "confirmed", Confirmed: true, Test: "TestG", Witness: "race detector", Command: "go test -race -run '^TestG$' -count=1 -cpu=4 example.com/a"}}
	unjudged := confirmedReport{module: "example.com/b", key: "b.go H blocking: send blocks forever", posn: "b.go:1:1",
		outcome: confirmOutcome{Status: "confirmed", Confirmed: true, Test: "TestH", Witness: "goroutine leak profile", Command: "GOEXPERIMENT=goroutineleakprofile go test -run '^TestH$' example.com/b"}}
	missed := confirmedReport{module: "example.com/a", key: "a.go K race: data race on z", posn: "a.go:20:1", verdict: verdict{word: "TRUE", reason: "z is written by two goroutines"},
		outcome: confirmOutcome{Status: "not confirmed", Test: "TestK", Reason: "no race between the two accesses in 24 runs of TestK"}}
	rows := []confirmRow{
		{module: "example.com/a", reports: 5, confirmed: 2, notConfirmed: 1, noTest: 1, notTried: 1, confirmTime: 12300 * time.Millisecond, total: 20 * time.Second,
			found: []confirmedReport{good, wrong}, notes: []string{"-confirm: go test -c failed in x"},
			judgedTrue: 2, trueConfirmed: 1, trueMissed: []confirmedReport{missed}},
		{module: "example.com/b", reports: 1, confirmed: 1, confirmTime: 4 * time.Second, total: 9 * time.Second, found: []confirmedReport{unjudged}},
		{module: "example.com/c", total: 2 * time.Second, err: "origo -confirm in c: exit status 2\nmore"},
	}
	var b bytes.Buffer
	printConfirmHeader(&b)
	for _, r := range rows {
		printConfirmRow(&b, r)
	}
	err := printConfirmFooter(&b, rows, true)
	want := `module                                 reports confirmed tried-not-cf unreachable not-tried   TRUE TRUE-cf confirm-time total-time
example.com/a                                5         2            1           1         1      2       1        12.3s        20s
example.com/b                                1         1            0           0         0      0       0           4s         9s
example.com/c                          error (after 2s): origo -confirm in c: exit status 2
total                                        6         3            1           1         1      2       1        16.3s        29s
note: example.com/a: -confirm: go test -c failed in x

error: example.com/c: origo -confirm in c: exit status 2
more

confirmed reports: 3
example.com/a	a.go:3:1	TRUE	a.go F race: data race on x
	by TestF (race detector): go test -race -run '^TestF$' -count=1 -cpu=1 example.com/a
	verdict: both goroutines write x
example.com/a	a.go:9:2	FALSE	a.go G race: data race on y
	by TestG (race detector): go test -race -run '^TestG$' -count=1 -cpu=4 example.com/a
	verdict: y is guarded
example.com/b	b.go:1:1	?	b.go H blocking: send blocks forever
	by TestH (goroutine leak profile): GOEXPERIMENT=goroutineleakprofile go test -run '^TestH$' example.com/b

reports judged TRUE and not confirmed: 1
example.com/a	a.go:20:1	not confirmed	a.go K race: data race on z
	no race between the two accesses in 24 runs of TestK

!!! 2 confirmed report(s) judged FALSE or not judged: a bug of -confirm or a wrong verdict (FALSE), or a verdict to write (not judged)
!!! judged FALSE: example.com/a	a.go:9:2	a.go G race: data race on y
!!! not judged: example.com/b	b.go:1:1	b.go H blocking: send blocks forever
`
	if b.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", b.String(), want)
	}
	if err == nil || err.Error() != "2 confirmed reports judged FALSE or not judged, and -confirm failed on 1 modules" {
		t.Errorf("error %v", err)
	}

	// All confirmed reports TRUE: no alarm, no error.
	b.Reset()
	ok := []confirmRow{{module: "example.com/a", reports: 1, confirmed: 1, found: []confirmedReport{good}}}
	if err := printConfirmFooter(&b, ok, false); err != nil || strings.Contains(b.String(), "!!!") {
		t.Errorf("a bench with only TRUE confirmed reports: error %v, output\n%s", err, b.String())
	}
}

// TestRunConfirmJSON runs a fake origo: one that printed its findings
// and failed on a package is read, with its error; one that printed
// nothing is an error.
func TestRunConfirmJSON(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake origo is a shell script")
	}
	dir := t.TempDir()
	fake := func(name, script string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	broken := fake("broken", `cat <<'EOF'
{"example.com/p": {"race": [{"posn": "/m/p.go:1:1", "message": "data race on x", "confirm": {"status": "no test", "confirmed": false}}]}}
EOF
echo "origo: example.com/q: undefined: y" >&2
echo "origo: -confirm: 1 reports: 0 confirmed, 0 tried and not confirmed, 1 not reachable from any test, 0 of a kind no run witnesses (0.1s)" >&2
exit 1
`)
	run, err := runConfirmJSON(dir, broken, "-confirm.budget=1s")
	if err != nil {
		t.Fatal(err)
	}
	if len(run.res.diags["race"]) != 1 || len(run.outcomes) != 1 || len(run.summary) != 1 ||
		len(run.errors) != 1 || run.errors[0] != "example.com/q: undefined: y" {
		t.Errorf("run %+v", run)
	}
	usage := fake("usage", `echo "origo: flag provided but not defined: -confirm.budget" >&2; exit 2`)
	if _, err := runConfirmJSON(dir, usage, "-confirm.budget=1s"); err == nil || !strings.Contains(err.Error(), "flag provided but not defined") {
		t.Errorf("a run that printed nothing: error %v", err)
	}
	if _, err := runConfirmJSON(dir, filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing origo: no error")
	}
}

// TestBetterOutcome checks the order of outcomes: by status, then, for
// two alike, by test and command, whichever comes first.
func TestBetterOutcome(t *testing.T) {
	a := confirmOutcome{Status: "confirmed", Test: "TestA", Command: "a"}
	b := confirmOutcome{Status: "confirmed", Test: "TestB", Command: "b"}
	tried := confirmOutcome{Status: "not confirmed", Test: "TestA"}
	for _, c := range []struct {
		o, p confirmOutcome
		want bool
	}{
		{a, tried, true}, {tried, a, false}, {a, b, true}, {b, a, false}, {a, a, false},
		{tried, confirmOutcome{Status: "no test"}, true}, {confirmOutcome{Status: "?"}, confirmOutcome{Status: "not tried"}, false},
	} {
		if got := better(c.o, c.p); got != c.want {
			t.Errorf("better(%+v, %+v) = %v, want %v", c.o, c.p, got, c.want)
		}
	}
}

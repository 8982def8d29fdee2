package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCasesTestSources checks the test files written for -confirm: one
// per program, a test per registered case calling its entry, valid Go;
// and that a kept module is emptied of them again.
func TestCasesTestSources(t *testing.T) {
	dir, c := fakeParsedLeakCorpus(t)
	srcs, warnings := casesTestSources(c)
	if len(warnings) > 0 {
		t.Errorf("warnings %q", warnings)
	}
	want := map[string][]string{
		".":     {"func TestCaseChanSend(t *testing.T) { ChanSend() }", "func TestCaseMixed(t *testing.T) { Mixed() }", "func TestCaseNoLeak(t *testing.T) { NoLeak() }"},
		"goker": {"func TestCaseKernel1(t *testing.T) { Kernel1() }", "func TestCaseKernel2(t *testing.T) { Kernel2() }"},
	}
	if len(srcs) != len(want) {
		t.Errorf("test files for %d programs, want %d: %v", len(srcs), len(want), srcs)
	}
	for prog, tests := range want {
		src := srcs[prog]
		if _, err := parser.ParseFile(token.NewFileSet(), casesTestFile, src, 0); err != nil {
			t.Errorf("%s: %v\n%s", prog, err, src)
		}
		var got []string
		for l := range strings.SplitSeq(src, "\n") {
			if strings.HasPrefix(l, "func ") {
				got = append(got, l)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tests, "\n") || !strings.HasPrefix(src, "// Code generated") {
			t.Errorf("%s's test file:\n%s\nwant the tests\n%s", prog, src, strings.Join(tests, "\n"))
		}
	}

	mod := filepath.Join(t.TempDir(), "mod")
	files, err := selectLeakCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeCorpusModule(mod, "leakcorpus", dir, files); err != nil {
		t.Fatal(err)
	}
	if _, err := writeCasesTests(mod, c); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(mod, "goker", casesTestFile)); err != nil {
		t.Fatal(err)
	}
	// A kept module with the tests of a previous run is reused once they
	// are removed.
	if err := writeCorpusModule(mod, "leakcorpus", dir, files); err == nil {
		t.Error("writeCorpusModule accepts a module holding the generated tests")
	}
	if err := removeCasesTests(mod); err != nil {
		t.Fatal(err)
	}
	if err := writeCorpusModule(mod, "leakcorpus", dir, files); err != nil {
		t.Errorf("the kept module, its tests removed: %v", err)
	}
}

// TestLeakConfirmations scores outcomes of -confirm on the fake corpus:
// a confirmed diagnostic matching an expected leak, one outside any, one
// in the case expecting no leak (loud, and an error), a deadlock
// confirmed at its own position confirming the leak its other side
// matches, and the other outcomes counted.
func TestLeakConfirmations(t *testing.T) {
	c, exp, at, inversion := fakeLeakScoring(t)
	d := func(posn, category, msg string) diag { return diag{Posn: posn, Category: category, Message: msg} }
	send := d(at("simple.go", 14, 3), "blocking/send", "send blocks forever: goroutine started at simple.go:13 sends on a channel that no goroutine receives from")
	wait := d(at("simple.go", 27, 3), "blocking/waitgroup-wait", "WaitGroup.Wait blocks forever: the Done is never reached")
	alarm := d(at("simple.go", 41, 2), "deadlock/double-lock", "double lock: mu is locked at simple.go:41 while already held")
	outside := d(at("goker/kernel2.go", 10, 2), "deadlock/double-lock", "double lock: in another function")
	diags := []diag{send, wait, alarm, outside, inversion}
	outcomes := confirmations{
		send.key():      {Status: "confirmed", Confirmed: true, Test: "TestCaseChanSend", Witness: "goroutine leak profile", Command: "GOEXPERIMENT=goroutineleakprofile go test -run '^TestCaseChanSend$' leakcorpus"},
		wait.key():      {Status: "not confirmed", Test: "TestCaseMixed", Reason: "not blocked there in 3 runs of TestCaseMixed"},
		alarm.key():     {Status: "confirmed", Confirmed: true, Test: "TestCaseNoLeak", Witness: "goroutine dump at timeout", Command: "go test -run '^TestCaseNoLeak$' leakcorpus"},
		outside.key():   {Status: "confirmed", Confirmed: true, Test: "TestCaseKernel2", Witness: "goroutine leak profile", Command: "cmd2"},
		inversion.key(): {Status: "confirmed", Confirmed: true, Test: "TestCaseKernel1", Witness: "goroutine dump at timeout", Command: "cmd1"},
	}
	r := scoreLeaks(c, exp.cases, diags)
	goker, gOut, gAlarms, _ := countLeakConfirmations(r.groups[0].cases, r.groups[0].diags, outcomes)
	if want := (leakConfirmCounts{diags: 2, confirmed: 2, matched: 1, outside: 1, leaks: 2, leaksConfirmed: 1, byProfile: 1, byDump: 1}); goker != want || len(gOut) != 1 || len(gAlarms) != 0 {
		t.Errorf("goker: %+v, outside %d, alarms %d; want %+v, 1, 0", goker, len(gOut), len(gAlarms), want)
	}
	patterns, _, pAlarms, pMissed := countLeakConfirmations(r.groups[1].cases, r.groups[1].diags, outcomes)
	if want := (leakConfirmCounts{diags: 3, confirmed: 2, notConfirmed: 1, matched: 1, outside: 1, inNoLeakCase: 1, leaks: 4, leaksConfirmed: 1, byProfile: 1, byDump: 1}); patterns != want || len(pAlarms) != 1 || len(pMissed) != 1 {
		t.Errorf("patterns: %+v, alarms %d, not confirmed %d; want %+v, 1, 1", patterns, len(pAlarms), len(pMissed), want)
	}

	var b bytes.Buffer
	err := printLeakConfirmations(&b, r, outcomes, []string{"origo: -confirm: 5 reports: 4 confirmed (1.0s)"}, 3*time.Second, true)
	out := b.String()
	for _, want := range []string{
		"total: 5 diagnostics: 4 confirmed (2 matching an expected leak, 2 outside any, 1 in a case expecting no leak), 1 tried and not confirmed, 0 not reachable from any test, 0 not tried\n",
		"  expected leaks with a confirmed diagnostic: 2/6 (33.3%)\n",
		"  confirmed by the goroutine leak profile 2, by the goroutine dump at a timeout 2\n",
		"tried and not confirmed:\n  simple.go:27:3: ",
		"\tnot blocked there in 3 runs of TestCaseMixed\n",
		"!!! 1 confirmed diagnostics in cases expecting no leak: each a bug of -confirm\n!!! simple.go:41:2: helper: double lock",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if err == nil {
		t.Error("a confirmed diagnostic in a case expecting no leak: no error")
	}
}

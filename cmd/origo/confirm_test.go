package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/origo-dev/origo/cmd/internal/longtest"
	"github.com/origo-dev/origo/cmd/origo/internal/confirm"
)

// TestConfirmOnly runs the fixture of package confirm through the
// command: -confirm=only prints the confirmed findings alone, each
// with its confirmation in the message and in -json, and the summary
// line counts them all. A long test: it builds and runs the fixture's
// tests under the race detector (from a cold cache, the standard
// library built again with -race), as package confirm's TestFixture
// does in go test ./....
func TestConfirmOnly(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	if testing.Short() {
		t.Skip("builds and runs the fixture's tests")
	}
	dir := filepath.Join("internal", "confirm", "testdata", "fixture")
	stdout, stderr, code := run(t, dir, "-json", "-confirm=only", "-confirm.budget=10s", "./...")
	if code != exitClean { // -json exits as go vet -json does
		t.Fatalf("exit code %d, want %d; stderr:\n%s", code, exitClean, stderr)
	}
	// The deadlock is one report, its other goroutine a related position.
	if want := "origo: -confirm: 6 reports: 4 confirmed, 1 tried and not confirmed, 1 not reachable from any test, 0 of a kind no run witnesses"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	var tree map[string]map[string][]jsonDiagnostic
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("decoding %s: %v", stdout, err)
	}
	found := make(map[string]*confirm.Result)
	n := 0
	for _, byAnalyzer := range tree {
		for _, ds := range byAnalyzer {
			for _, d := range ds {
				n++
				if d.Confirm == nil || !d.Confirm.Confirmed || !strings.Contains(d.Message, "; confirmed by "+d.Confirm.Test) {
					t.Errorf("under -confirm=only, an unconfirmed finding: %s %+v", d.Message, d.Confirm)
					continue
				}
				found[strings.SplitN(d.Message, ":", 2)[0]+"@"+filepath.Base(d.Posn)] = d.Confirm
			}
		}
	}
	if n != 4 {
		t.Errorf("%d findings, want the 4 confirmed", n)
	}
	race := found["data race on s.hits@stats.go:15:30"]
	if race == nil {
		t.Fatalf("the race on s.hits is not among the confirmed findings: %v", found)
	}
	if race.Test != "TestServe" || race.Witness != "race detector" || !strings.HasPrefix(race.Command, "go test -race -run '^TestServe$'") {
		t.Errorf("race confirmed as %+v", race)
	}
	if leak := found["send blocks forever when Fetch returns early@stats.go:92:17"]; leak == nil || leak.Witness != "goroutine leak profile" {
		t.Errorf("the leak is confirmed as %+v", leak)
	}
}

func TestPackageUnderTest(t *testing.T) {
	for id, want := range map[string]string{
		"example.com/p [example.com/p.test]":      "example.com/p",
		"example.com/p_test [example.com/p.test]": "example.com/p",
		"example.com/p": "example.com/p",
	} {
		if got := packageUnderTest(id); got != want {
			t.Errorf("packageUnderTest(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestAnalyzerMessage(t *testing.T) {
	res := &confirm.Result{Status: confirm.Confirmed, Confirmed: true, Test: "TestX", Witness: "race detector"}
	d := diagnostic{message: "data race on x: ...; confirmed by TestX under -race", confirm: res}
	if got := d.analyzerMessage(); got != "data race on x: ..." {
		t.Errorf("analyzerMessage() = %q", got)
	}
	d = diagnostic{message: "data race on x: ...", confirm: &confirm.Result{Status: confirm.NotConfirmed}}
	if got := d.analyzerMessage(); got != d.message {
		t.Errorf("analyzerMessage() of an unconfirmed finding = %q", got)
	}
}

package main

import (
	"encoding/json"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/analyzers/race"
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
	if want := "origo: -confirm: 7 reports: 5 confirmed, 1 tried and not confirmed, 1 not reachable from any test, 0 of a kind no run witnesses"; !strings.Contains(stderr, want) {
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
	if n != 5 {
		t.Errorf("%d findings, want the 5 confirmed", n)
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

// TestSARIFConfirm checks the confirmation in SARIF: a result of a run
// under -confirm carries the confirm object of -json as a property
// (confirmed, the test, the command that reproduces it...), the log
// still validates against the SARIF 2.1.0 schema, and the fingerprint
// of a confirmed result is the one it has without -confirm.
func TestSARIFConfirm(t *testing.T) {
	demo, err := filepath.Abs("../../testdata/demo/bank.go")
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) token.Position { return token.Position{Filename: demo, Line: line, Column: 5} }
	const msg = "data race on Bank.processed: write at bank.go:59 vs read at bank.go:70"
	confirmed := &confirm.Result{Status: confirm.Confirmed, Confirmed: true, Test: "TestBank", Witness: "race detector",
		Command:  "go test -race -run '^TestBank$' -count=1 -cpu=2 example.com/demo",
		Schedule: "a 10ms sleep inserted before bank.go:59", Runs: 3}
	tried := &confirm.Result{Status: confirm.NotConfirmed, Test: "TestBank", Runs: 24, Reason: "no race between the two accesses in 24 runs of TestBank"}
	diag := func(line int, message string, res *confirm.Result) diagnostic {
		return diagnostic{analyzer: race.Analyzer, category: kinds.DataRace.ID, posn: at(line), message: message,
			related: []related{{posn: at(70), end: at(70), message: "the other access, a read"}},
			file:    "testdata/demo/bank.go", function: "(*Bank).Process", confirm: res}
	}
	d := diag(59, msg, confirmed)
	d.message += "; " + confirmed.Suffix()
	d.related = append(d.related, related{posn: at(59), end: at(59), message: "race detector: write by goroutine 7, in demo.(*Bank).Process"})
	res := &result{diags: []diagnostic{d, diag(80, "data race on Bank.total", tried), diag(90, "data race on Bank.n", nil)}}
	log, data := sarifOf(t, res) // validates the log
	results := log.Runs[0].Results
	if len(results) != 3 {
		t.Fatalf("%d results, want 3", len(results))
	}

	// The confirmed result: the confirm object whole, and the message
	// and related positions as the text output has them.
	c := results[0].Properties
	if c == nil || c.Confirm == nil || !c.Confirm.Confirmed || c.Confirm.Status != confirm.Confirmed || c.Confirm.Test != "TestBank" ||
		c.Confirm.Command != confirmed.Command || c.Confirm.Witness != "race detector" || c.Confirm.Schedule != confirmed.Schedule || c.Confirm.Runs != 3 {
		t.Errorf("the confirmed result's properties: %+v", c)
	}
	if !strings.HasSuffix(results[0].Message.Text, "; confirmed by TestBank under -race") || len(results[0].RelatedLocations) != 2 {
		t.Errorf("the confirmed result: message %q, %d related locations", results[0].Message.Text, len(results[0].RelatedLocations))
	}
	// The keys are those of -json's confirm object.
	var raw struct {
		Runs []struct {
			Results []struct {
				Properties map[string]map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range raw.Runs[0].Results[0].Properties["confirm"] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"command", "confirmed", "runs", "schedule", "status", "test", "witness"}; !slices.Equal(keys, want) {
		t.Errorf("the confirm property's keys %v, want %v", keys, want)
	}

	// Tried and not confirmed: said so, with why; no run: no property.
	if p := results[1].Properties; p == nil || p.Confirm == nil || p.Confirm.Confirmed || p.Confirm.Status != confirm.NotConfirmed || p.Confirm.Reason != tried.Reason {
		t.Errorf("the unconfirmed result's properties: %+v", p)
	}
	if p := results[2].Properties; p != nil {
		t.Errorf("a result without -confirm has properties %+v", p)
	}

	// The confirmed result's fingerprint is its fingerprint without
	// -confirm.
	plain, _ := sarifOf(t, &result{diags: []diagnostic{diag(59, msg, nil)}})
	if got, want := results[0].PartialFingerprints[fingerprintKey], plain.Runs[0].Results[0].PartialFingerprints[fingerprintKey]; got != want {
		t.Errorf("fingerprint under -confirm %s, without %s", got, want)
	}
}

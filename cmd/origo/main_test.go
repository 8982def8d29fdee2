package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/cmd/internal/longtest"
	"github.com/origo-dev/origo/passes/guard"
)

// origoBin is the origo binary built once for the tests that run it as
// go vet does.
var origoBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "origo-test")
	if err != nil {
		panic(err)
	}
	origoBin = filepath.Join(dir, "origo")
	args := []string{"build", "-o", origoBin}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, ".")...)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building origo: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// functional marks a test of what origo prints rather than of how its
// analyzers run concurrently: the -race run of the tests leaves it to the
// plain run, as it would otherwise take the package past go test's
// ten minutes on two cores. TestConcurrentAnalyzers and
// TestVetMatchesStandaloneDemo keep the -race binary at work under go
// vet, with every analyzer that a user runs; the -dump modes' tests
// (each a go vet of the standard library's packages again, as a flag
// of the tool is part of go vet's cache key) are left to the plain run.
func functional(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("checked by the run without -race")
	}
}

// run runs the origo binary in dir and returns its stdout, stderr and
// exit code. The tests that only run the binary and go vet call
// t.Parallel: each run is a process of its own, and none of them sets a
// flag of the analyzers in this one (the tests that run the analyzers
// here stay sequential).
func run(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCmd(t, exec.Command(origoBin, args...), dir)
}

func runCmd(t *testing.T, cmd *exec.Cmd, dir string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", cmd, err)
	}
	if s := errb.String(); strings.Contains(s, "panic:") || strings.Contains(s, "goroutine 1 [") || strings.Contains(s, "WARNING: DATA RACE") {
		t.Errorf("%s crashed or raced:\n%s", cmd, s)
	}
	return out.String(), errb.String(), code
}

// vetTree is the JSON shape of go vet -json: package → analyzer →
// diagnostics, with the field names of x/tools'
// internal/analysis/driverutil.JSONDiagnostic, which go vet prints.
type vetTree map[string]map[string][]struct {
	Category       string `json:"category"`
	Posn           string `json:"posn"`
	End            string `json:"end"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string `json:"filename"`
			Start    int    `json:"start"`
			End      int    `json:"end"`
			New      string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
	Related []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
}

// findings decodes one or more vetTree values (go vet prints one per
// package) into sorted "file:line:col: message" lines, file names
// relative to dir.
func findings(t *testing.T, dir, data string) []string {
	t.Helper()
	return decodeVet(t, dir, data, false)
}

// details is findings with all that go vet -json says of each
// diagnostic: its category and end, and on lines of their own beneath
// it, its suggested fixes, each edit, and its related positions.
func details(t *testing.T, dir, data string) []string {
	t.Helper()
	return decodeVet(t, dir, data, true)
}

func decodeVet(t *testing.T, dir, data string, all bool) []string {
	t.Helper()
	rel := func(posn string) string { return strings.TrimPrefix(posn, dir+string(filepath.Separator)) }
	var lines []string
	dec := json.NewDecoder(strings.NewReader(data))
	for {
		var tree vetTree
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("bad JSON: %v\n%s", err, data)
		}
		for _, byAnalyzer := range tree {
			for _, diags := range byAnalyzer {
				for _, d := range diags {
					line := rel(d.Posn) + ": " + d.Message
					if all {
						line = fmt.Sprintf("%s-%s [%s]: %s", rel(d.Posn), rel(d.End), d.Category, d.Message)
						for _, f := range d.SuggestedFixes {
							line += fmt.Sprintf("\n\tfix %q", f.Message)
							for _, e := range f.Edits {
								line += fmt.Sprintf("\n\t\t%s [%d,%d) %q", rel(e.Filename), e.Start, e.End, e.New)
							}
						}
						for _, r := range d.Related {
							line += fmt.Sprintf("\n\t%s-%s: %s", rel(r.Posn), rel(r.End), r.Message)
						}
					}
					lines = append(lines, line)
				}
			}
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// TestVetMatchesStandalone runs the a→b→c chain module under go vet,
// where each package sees only its direct imports' facts, and under the
// standalone driver, which sees every package's, and requires the same
// output: c's origins must reach a through b's facts in both.
func TestVetMatchesStandalone(t *testing.T) {
	t.Parallel()
	functional(t)
	vet, standalone := vetAndStandalone(t, "origins")
	for _, want := range []string{
		// c's worker, two hops away, via b.New's fact.
		"a/a.go:6:6: root main a.main: origins(go c.worker c.go:23 multi; go c.worker c.go:34)",
		"a/a_test.go:9:6: root test a.TestServe (parallel): origins(t.Run a.TestServe$1 a_test.go:11 parallel; go c.worker c.go:23 multi <0)",
	} {
		if !slices.Contains(vet, want) {
			t.Errorf("go vet output lacks %q; got:\n%s", want, strings.Join(vet, "\n"))
		}
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet and standalone differ:\n--- vet\n%s\n--- standalone\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
}

// TestVetMatchesStandalonePointer does the same for the pointer
// analysis, whose summaries travel as package facts.
func TestVetMatchesStandalonePointer(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	vet, standalone := vetAndStandalone(t, "pointer")
	summarized := false
	for _, line := range vet {
		summarized = summarized || strings.Contains(line, "summary c.Start: result.0 → new(c.Pool)")
	}
	if !summarized {
		t.Errorf("go vet output lacks c.Start's summary; got:\n%s", strings.Join(vet, "\n"))
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet and standalone differ:\n--- vet\n%s\n--- standalone\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
}

// TestVetMatchesStandaloneDemo runs origo on the demo under both
// drivers: the same two reports, the demo's race and its deadlock.
func TestVetMatchesStandaloneDemo(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	vetStdout, vetStderr, code := runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-json", "."), dir)
	if code != 0 {
		t.Fatalf("go vet exited %d:\n%s", code, vetStdout+vetStderr)
	}
	standOut, stderr, _ := run(t, dir, "-json", ".")
	if stderr != "" {
		t.Fatalf("origo wrote to stderr:\n%s", stderr)
	}
	vet, standalone := findings(t, dir, vetStdout+vetStderr), findings(t, dir, standOut)
	want := []string{
		"bank.go:59:5: data race on Bank.processed: write at bank.go:59 (goroutine started at bank.go:50, in a loop) vs write at bank.go:59 (goroutine started at bank.go:50, in a loop); locks held: {} vs {}",
		"bank.go:92:97: double lock: b.mu is held (locked at bank.go:89) when this goroutine calls (*demo.Bank).Total, which locks it again (at bank.go:76); sync.Mutex is not reentrant, this blocks forever",
	}
	if !slices.Equal(vet, want) {
		t.Errorf("go vet reports:\n%s\nwant:\n%s", strings.Join(vet, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet and standalone differ:\n--- vet\n%s\n--- standalone\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
	// The related positions too: the race's other write, the deadlock's
	// two Locks.
	vet, standalone = details(t, dir, vetStdout+vetStderr), details(t, dir, standOut)
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet and standalone differ in details:\n--- vet\n%s\n--- standalone\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}

	// -dump=pointer shows the goroutines and the memory two of them
	// touch with a write: the workers and the racy counter.
	dump, _, _ := run(t, dir, "-dump=pointer", ".")
	for _, want := range []string{
		"bank.go:50:3: origin #2 go (*demo.Bank).worker (copy 0) started by #1\n",
		"bank.go:50:3: origin #3 go (*demo.Bank).worker (copy 1) started by #1\n",
		"bank.go:59:5: shared alloc(main.Bank)@bank.go:30[o1 <main.go:12].processed: write in origins #2, #3\n",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("origo -dump=pointer on the demo lacks %q:\n%s", want, dump)
		}
	}
}

// TestVetMatchesStandaloneFixes runs both drivers with -json on the
// fixtures of the deadlock and race analyzers' suggested fixes (an
// Unlock before a return, wg.Add moved before its go statement): the
// same diagnostics, fixes and edits (byte offsets in the file), related
// positions, categories and ends, under the same field names.
func TestVetMatchesStandaloneFixes(t *testing.T) {
	t.Parallel()
	functional(t)
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	patterns := []string{"./analyzers/deadlock/testdata/src/dlfix", "./analyzers/race/testdata/src/wgfix"}
	vetStdout, vetStderr, code := runCmd(t, exec.Command("go", append([]string{"vet", "-vettool=" + origoBin, "-json"}, patterns...)...), dir)
	if code != 0 {
		t.Fatalf("go vet exited %d:\n%s", code, vetStdout+vetStderr)
	}
	standOut, stderr, code := run(t, dir, append([]string{"-json"}, patterns...)...)
	if code != exitClean {
		t.Fatalf("origo -json exited %d, want %d:\n%s", code, exitClean, stderr)
	}
	vet, standalone := details(t, dir, vetStdout+vetStderr), details(t, dir, standOut)
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet and standalone differ:\n--- vet\n%s\n--- standalone\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
	all := strings.Join(standalone, "\n")
	for _, want := range []string{
		"\tfix \"unlock b.mu before returning\"\n\t\tanalyzers/deadlock/testdata/src/dlfix/main.go [",
		"\tfix \"call wg.Add(1) before the go statement\"\n\t\tanalyzers/race/testdata/src/wgfix/main.go [",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("standalone -json lacks %q:\n%s", want, all)
		}
	}
}

// TestVetMatchesStandaloneSHB does the same for the happens-before
// graph that -dump=shb shows: each goroutine's trace of events and the
// edges between traces.
func TestVetMatchesStandaloneSHB(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	vet, standalone := vetAndStandalone(t, "shb")
	for _, want := range []string{
		"a/a_test.go:11:7: #2 event 0: spawn 1 goroutines #4",
		"a/a_test.go:9:6: #2 edge: events before 0 happen before #4 from 0",
		"a/a_test.go:9:6: trace of #2 parallel tests a.TestServe: 1 events, 0 loops",
	} {
		if !slices.Contains(vet, want) {
			t.Errorf("go vet output lacks %q; got:\n%s", want, strings.Join(vet, "\n"))
		}
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet and standalone differ:\n--- vet\n%s\n--- standalone\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
}

// vetAndStandalone dumps a pass's results on the chain module under
// go vet and under the standalone driver.
func vetAndStandalone(t *testing.T, mode string) (vet, standalone []string) {
	t.Helper()
	dir, err := filepath.Abs("../../testdata/chain")
	if err != nil {
		t.Fatal(err)
	}
	// go vet -json prints to stdout since Go 1.26, to stderr before.
	vetStdout, vetStderr, code := runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-dump="+mode, "-json", "./..."), dir)
	vetOut := vetStdout + vetStderr
	if code != 0 {
		t.Fatalf("go vet exited %d:\n%s", code, vetOut)
	}
	standOut, stderr, code := run(t, dir, "-dump="+mode, "-json", "./...")
	if code != 0 {
		t.Fatalf("origo exited %d:\n%s", code, stderr)
	}
	return findings(t, dir, vetOut), findings(t, dir, standOut)
}

// TestBadInput checks that each kind of bad input gets one clear line,
// exit code 1, no crash, and that the good packages are still analyzed:
// a package with type errors, and one that imports it (the checker would
// otherwise give a line per analyzer that says only "failed
// prerequisites").
func TestBadInput(t *testing.T) {
	t.Parallel()
	functional(t)
	dir, err := filepath.Abs("../../testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, dir, "-dump=origins", "./nope", "./empty", "./typeerr", "./undef", "./importer", "./ok")
	if code != exitError {
		t.Errorf("exit code %d, want %d", code, exitError)
	}
	want := []string{
		"origo: empty: no Go files",
		`origo: package example.com/broken/importer is not analyzed: it depends on example.com/broken/typeerr, which has type errors: typeerr/typeerr.go:5:28: cannot use "forty-two" (untyped string constant) as int value in return statement`,
		`origo: package example.com/broken/typeerr has type errors: typeerr/typeerr.go:5:28: cannot use "forty-two" (untyped string constant) as int value in return statement`,
		`origo: package example.com/broken/undef has type errors: undef/undef.go:13:6: cannot use "many" (untyped string constant) as int value in assignment (and 1 more)`,
		"origo: pattern ./nope matched no packages (stat " + filepath.Join(dir, "nope") + ": directory not found)",
	}
	if got := strings.Split(strings.TrimSpace(stderr), "\n"); !slices.Equal(got, want) {
		t.Errorf("stderr:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(stdout, "ok/ok.go:4:6: fact Start: origins(go ok.Start$1 ok.go:5)") {
		t.Errorf("the good package was not analyzed; stdout:\n%s", stdout)
	}

	// Under -sarif, the same lines are the run's tool execution
	// notifications, and standard error repeats them.
	stdout, stderr, code = run(t, dir, "-sarif", "./typeerr", "./ok")
	var log struct {
		Runs []struct {
			Invocations []struct {
				ToolExecutionNotifications []struct {
					Level   string
					Message struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("-sarif: exit %d, not one run with one invocation (%v):\n%s", code, err, stdout)
	}
	notes := log.Runs[0].Invocations[0].ToolExecutionNotifications
	if code != exitError || len(notes) != 1 || notes[0].Level != "error" || "origo: "+notes[0].Message.Text != want[2] || !strings.Contains(stderr, want[2]) {
		t.Errorf("-sarif: exit %d, notifications %+v; want one error, %q", code, notes, want[2])
	}
}

// sarifLogT is what the tests read of a SARIF log.
type sarifLogT struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string                          `json:"id"`
					Name             string                          `json:"name"`
					ShortDescription struct{ Text string }           `json:"shortDescription"`
					FullDescription  struct{ Text string }           `json:"fullDescription"`
					Help             struct{ Text, Markdown string } `json:"help"`
					HelpURI          string                          `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations           []sarifLocationT  `json:"locations"`
			RelatedLocations    []sarifLocationT  `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifLocationT struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine int `json:"startLine"`
		} `json:"region"`
	} `json:"physicalLocation"`
	Message *struct {
		Text string `json:"text"`
	} `json:"message"`
}

// runSARIF runs origo -sarif in dir and decodes its log, checking the
// properties SARIF 2.1.0 requires of a log, and those GitHub code
// scanning needs of every rule and result.
func runSARIF(t *testing.T, dir string, args ...string) sarifLogT {
	t.Helper()
	stdout, stderr, code := run(t, dir, append([]string{"-sarif"}, args...)...)
	if code != exitClean && code != exitFindings {
		t.Fatalf("origo -sarif %s: exit code %d:\n%s", strings.Join(args, " "), code, stderr)
	}
	var log sarifLogT
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, stdout)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "origo" {
		t.Fatalf("not a SARIF 2.1.0 log with one origo run:\n%s", stdout)
	}
	run := log.Runs[0]
	for _, r := range run.Tool.Driver.Rules {
		if r.ID == "" || r.Name == "" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || r.Help.Markdown == "" || r.HelpURI == "" {
			t.Errorf("rule %q lacks one of name, shortDescription, fullDescription, help, helpUri: %+v", r.ID, r)
		}
	}
	for _, r := range run.Results {
		switch {
		case r.RuleIndex == nil || *r.RuleIndex < 0 || *r.RuleIndex >= len(run.Tool.Driver.Rules):
			t.Errorf("result %q: ruleIndex out of the %d rules", r.Message.Text, len(run.Tool.Driver.Rules))
		case run.Tool.Driver.Rules[*r.RuleIndex].ID != r.RuleID:
			t.Errorf("result %q: ruleIndex %d is rule %s, ruleId %s", r.Message.Text, *r.RuleIndex, run.Tool.Driver.Rules[*r.RuleIndex].ID, r.RuleID)
		}
		if r.Message.Text == "" || len(r.Locations) != 1 || r.PartialFingerprints[fingerprintKey] == "" {
			t.Errorf("result %+v lacks a message, its location or its fingerprint", r)
		}
		for _, loc := range append(r.Locations, r.RelatedLocations...) {
			if loc.PhysicalLocation.ArtifactLocation.URI == "" || loc.PhysicalLocation.Region.StartLine < 1 {
				t.Errorf("result %q: a location without uri or startLine: %+v", r.Message.Text, loc)
			}
		}
		for _, loc := range r.RelatedLocations {
			if loc.Message == nil || loc.Message.Text == "" {
				t.Errorf("result %q: a related location without a message", r.Message.Text)
			}
		}
	}
	return log
}

// TestSARIF checks the SARIF log of the demo: one rule per kind of
// report of the analyzers a user runs, with its text of the manual, the
// debugging analyzer's left out, the race's other write as a related
// location, and the deadlock's two Locks; paths relative to the
// repository.
func TestSARIF(t *testing.T) {
	t.Parallel()
	functional(t)
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	run := runSARIF(t, dir, ".").Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
		if r.ID == "race/data-race" && (!strings.Contains(r.Help.Text, "Two goroutines may access the same variable") || !strings.Contains(r.Help.Markdown, "origo help race")) {
			t.Errorf("rule race/data-race's help is not its text of the manual:\n%s", r.Help.Text)
		}
	}
	var want []string
	for _, k := range kinds.All {
		want = append(want, k.ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("rules %v, want %v", ids, want)
	}
	var got []string
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		line := fmt.Sprintf("%s %s:%d", r.RuleID, loc.ArtifactLocation.URI, loc.Region.StartLine)
		for _, rel := range r.RelatedLocations {
			line += fmt.Sprintf(" [%s:%d %s]", rel.PhysicalLocation.ArtifactLocation.URI, rel.PhysicalLocation.Region.StartLine, rel.Message.Text)
		}
		got = append(got, line)
	}
	want = []string{
		"race/data-race testdata/demo/bank.go:59 [testdata/demo/bank.go:59 the other write of Bank.processed (goroutine started at bank.go:50, in a loop)] [testdata/demo/bank.go:50 goroutine started here: demo.main → (*demo.Bank).Run → go (*demo.Bank).worker] [testdata/demo/bank.go:30 the Bank is made here (in demo.NewBank)] [testdata/demo/bank.go:59 shared by goroutines: handed to the goroutines by their go statements]",
		"deadlock/double-lock testdata/demo/bank.go:92 [testdata/demo/bank.go:89 b.mu locked here] [testdata/demo/bank.go:76 (*demo.Bank).Total locks b.mu again here]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Under -dump, the debugging analyzer's results come with its rule.
	dir, err = filepath.Abs("../../testdata/chain")
	if err != nil {
		t.Fatal(err)
	}
	run = runSARIF(t, dir, "-dump=origins", "./...").Runs[0]
	found := false
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		found = found || r.RuleID == "factdump" && loc.ArtifactLocation.URI == "testdata/chain/a/a.go" && loc.Region.StartLine == 6
	}
	if !found {
		t.Errorf("no factdump result at testdata/chain/a/a.go:6 among %d results", len(run.Results))
	}
}

// TestText checks the text output on the demo, as README.md's "How to
// read a report" shows it: each report on a line, its related positions
// indented beneath it (the deadlock's: where Report locked b.mu, and
// Total's Lock).
func TestText(t *testing.T) {
	t.Parallel()
	functional(t)
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, dir, ".")
	if code != exitFindings || stderr != "" {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, exitFindings, stderr)
	}
	want := `bank.go:59:5: data race on Bank.processed: write at bank.go:59 (goroutine started at bank.go:50, in a loop) vs write at bank.go:59 (goroutine started at bank.go:50, in a loop); locks held: {} vs {}
	bank.go:59:5: the other write of Bank.processed (goroutine started at bank.go:50, in a loop)
	bank.go:50:3: goroutine started here: demo.main → (*demo.Bank).Run → go (*demo.Bank).worker
	bank.go:30:10: the Bank is made here (in demo.NewBank)
	bank.go:59:5: shared by goroutines: handed to the goroutines by their go statements
bank.go:92:97: double lock: b.mu is held (locked at bank.go:89) when this goroutine calls (*demo.Bank).Total, which locks it again (at bank.go:76); sync.Mutex is not reentrant, this blocks forever
	bank.go:89:11: b.mu locked here
	bank.go:76:11: (*demo.Bank).Total locks b.mu again here
`
	if stdout != want {
		t.Errorf("output:\n%s\nwant:\n%s", stdout, want)
	}
}

// TestSARIFFingerprints checks that a finding keeps its fingerprint when
// the lines above it move, and that another finding gets another.
func TestSARIFFingerprints(t *testing.T) {
	t.Parallel()
	functional(t)
	src, err := os.ReadFile("../../testdata/demo/bank.go")
	if err != nil {
		t.Fatal(err)
	}
	main, err := os.ReadFile("../../testdata/demo/main.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(bank string) {
		t.Helper()
		for name, text := range map[string]string{
			"go.mod":  "module example.com/demo\n\ngo 1.26\n",
			"main.go": string(main),
			"bank.go": bank,
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// findings maps each result's rule to its fingerprint and line.
	type finding struct {
		print string
		line  int
	}
	findings := func() map[string]finding {
		t.Helper()
		m := make(map[string]finding)
		for _, r := range runSARIF(t, dir, ".").Runs[0].Results {
			m[r.RuleID] = finding{r.PartialFingerprints[fingerprintKey], r.Locations[0].PhysicalLocation.Region.StartLine}
		}
		if len(m) != 2 {
			t.Fatalf("want a race and a deadlock, got %v", m)
		}
		return m
	}

	write(string(src))
	before := findings()
	// Lines above both findings, in the functions' file.
	moved := strings.Replace(string(src), "// Account is one", "// A comment.\n\nfunc unrelated() {}\n\n// Account is one", 1)
	write(moved)
	after := findings()
	for rule, b := range before {
		a := after[rule]
		if a.line != b.line+4 || a.print != b.print {
			t.Errorf("%s: line %d, fingerprint %s before; line %d, fingerprint %s after 4 lines inserted above: want the same fingerprint, 4 lines down", rule, b.line, b.print, a.line, a.print)
		}
	}
	// Another field races: another finding.
	write(strings.ReplaceAll(moved, "processed", "done"))
	renamed := findings()
	race, deadlock := kinds.DataRace.ID, kinds.DoubleLock.ID
	if renamed[race].print == before[race].print || renamed[deadlock].print != before[deadlock].print {
		t.Errorf("after renaming the racy field: race %s (was %s), deadlock %s (was %s); want a new race fingerprint and the same deadlock one",
			renamed[race].print, before[race].print, renamed[deadlock].print, before[deadlock].print)
	}
}

func TestHelp(t *testing.T) {
	stdout, _, code := run(t, ".", "help")
	if code != exitClean || !strings.Contains(stdout, "race") || strings.Contains(stdout, "factdump") {
		t.Errorf("origo help: exit %d, want the analyzers without factdump; output:\n%s", code, stdout)
	}
	for _, a := range suite {
		if title := title(a.Doc); len(title) > 60 || strings.HasSuffix(title, ".") || strings.ToLower(title[:1]) != title[:1] {
			t.Errorf("%s's title %q is not a lowercase line of at most 60 characters without a period", a.Name, title)
		}
	}
	stdout, _, code = run(t, ".", "help", "race")
	for _, want := range []string{
		"race: report data races between goroutines\n\nThe race analyzer reports",
		"\n# What it reports\n",
		"\tvar mu sync.Mutex\n", // the RIGHT example
		"\n# What stays silent\n",
		"\n# Known limits\n",
		"\n# Silencing a report\n",
		"//origo:ignore race <reason>",
		"\nMore: https://pkg.go.dev/github.com/origo-dev/origo/analyzers/race\n",
	} {
		if code != exitClean || !strings.Contains(stdout, want) {
			t.Errorf("origo help race: exit %d, output lacks %q:\n%s", code, want, stdout)
		}
	}
	// Each reporting analyzer's manual has the sections the README
	// promises: what it reports, what stays silent, its known limits and
	// how to silence it.
	for _, a := range suite {
		if debugging(a) || a.Name == "directive" {
			continue
		}
		var out, errb strings.Builder
		if code := help(&out, &errb, []string{a.Name}); code != exitClean {
			t.Errorf("origo help %s: exit %d: %s", a.Name, code, errb.String())
		}
		for _, h := range []string{"# What it reports", "# What stays silent", "# Known limits", "# Silencing a report"} {
			if !strings.Contains(out.String(), "\n"+h+"\n") {
				t.Errorf("origo help %s lacks %q", a.Name, h)
			}
		}
	}
	stdout, _, code = run(t, ".", "help", "factdump")
	if code != exitClean || !strings.Contains(stdout, "https://pkg.go.dev/") {
		t.Errorf("origo help factdump: exit %d, output:\n%s", code, stdout)
	}
	_, stderr, code := run(t, ".", "help", "nosuch")
	if code != exitUsage || !strings.Contains(stderr, `no analyzer named "nosuch"`) {
		t.Errorf("origo help nosuch: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestDeterministic runs the standalone driver on the demo and the
// chain module in each output format, on one thread and on eight, and
// requires byte-identical output: the same input gives the same answer
// however the runtime schedules the analysis.
func TestDeterministic(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	for _, tc := range []struct{ dir, pattern string }{{"demo", "."}, {"chain", "./..."}} {
		dir, err := filepath.Abs(filepath.Join("../../testdata", tc.dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range [][]string{nil, {"-json"}, {"-sarif"}, {"-dump=origins", "-json"}} {
			args := append(slices.Clone(format), tc.pattern)
			var outs []string
			for _, procs := range []string{"1", "8"} {
				cmd := exec.Command(origoBin, args...)
				cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
				out, _, _ := runCmd(t, cmd, dir)
				outs = append(outs, out)
			}
			if outs[0] != outs[1] || outs[0] == "" && tc.dir == "demo" {
				t.Errorf("%s %v: runs differ or are empty:\n%s\n--- GOMAXPROCS=8\n%s", tc.dir, format, outs[0], outs[1])
			}
		}
	}
}

func TestInvokedByVet(t *testing.T) {
	for args, want := range map[string]bool{
		"-V=full":             true,
		"-flags":              true,
		"-json /tmp/vet.cfg":  true,
		"./...":               false,
		"-json ./...":         false,
		"help":                false,
		"-dump=origins ./cfg": false,
	} {
		if got := invokedByVet(strings.Fields(args)); got != want {
			t.Errorf("invokedByVet(%q) = %v, want %v", args, got, want)
		}
	}
}

// TestUnusualInput runs both drivers over cgo, assembly without Go
// bodies, unsafe and reflection: they are analyzed, without a crash.
func TestUnusualInput(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	dir, err := filepath.Abs("../../testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	patterns := []string{"./nobody", "./unsafeptr"}
	want := []string{
		"nobody/nobody.go:10:6: fact Run: origins(go nobody.Add nobody.go:11)",
		"unsafeptr/unsafeptr.go:16:6: fact Peek: origins(go (reflect.Value).Call unsafeptr.go:18)",
	}
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err == nil && strings.TrimSpace(string(out)) == "1" {
		patterns = append(patterns, "./cgo")
		want = append(want, "cgo/cgo.go:10:6: fact Twice: origins(go cgo.Twice$1 cgo.go:12)")
	}
	stdout, stderr, code := run(t, dir, append([]string{"-dump=origins", "-json"}, patterns...)...)
	if code != exitClean {
		t.Errorf("standalone: exit %d\n%s", code, stderr)
	}
	vetOut, vetErr, code := runCmd(t, exec.Command("go", append([]string{"vet", "-vettool=" + origoBin, "-dump=origins", "-json"}, patterns...)...), dir)
	if code != exitClean {
		t.Errorf("go vet: exit %d\n%s", code, vetErr)
	}
	for name, got := range map[string][]string{
		"standalone": findings(t, dir, stdout),
		"go vet":     findings(t, dir, vetOut+vetErr),
	} {
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s output lacks %q; got:\n%s", name, w, strings.Join(got, "\n"))
			}
		}
	}
}

// TestForcedFailure makes the race analyzer fail on the demo, through
// the test-only hook, under both drivers: the failure is one line that
// names the pass, the package and origo's version, the deadlock is
// still reported, and the exit code is the one the demo's findings give.
func TestForcedFailure(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "github.com/origo-dev/origo/testdata/demo"
	want := "origo: internal error in race on package " + pkg + ": failure forced by " + guard.FailEnv
	for _, driver := range []string{"standalone", "go vet"} {
		var clean, forced *exec.Cmd
		if driver == "standalone" {
			clean, forced = exec.Command(origoBin, "."), exec.Command(origoBin, ".")
		} else {
			clean = exec.Command("go", "vet", "-vettool="+origoBin, ".")
			forced = exec.Command("go", "vet", "-vettool="+origoBin, ".")
		}
		forced.Env = append(os.Environ(), guard.FailEnv+"=race:"+pkg+"#"+strconv.FormatInt(time.Now().UnixNano(), 36))
		_, _, cleanCode := runCmd(t, clean, dir)
		stdout, stderr, code := runCmd(t, forced, dir)
		out := stdout + stderr
		if n := strings.Count(out, want); n != 1 {
			t.Errorf("%s: %d lines %q, want 1:\n%s", driver, n, want, out)
		}
		if strings.Contains(out, "data race on") || !strings.Contains(out, "double lock") {
			t.Errorf("%s: want the deadlock and no race reported:\n%s", driver, out)
		}
		if code != cleanCode {
			t.Errorf("%s: exit %d with the failure, %d without", driver, code, cleanCode)
		}
	}
}

// TestFactsOnlyRuns forces failures in package c of the chain module,
// which go vet analyzes only for the facts that a and b need: the pass
// that exports pointer summaries fails there, the race analyzer and the
// pointer analysis it requires never run there.
func TestFactsOnlyRuns(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	dir, err := filepath.Abs("../../testdata/chain")
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "example.com/chain/c"
	for pass, wantRun := range map[string]bool{"ptsummary": true, "pointer": false, "race": false} {
		vet := exec.Command("go", "vet", "-vettool="+origoBin, "./a")
		vet.Env = append(os.Environ(), guard.FailEnv+"="+pass+":"+pkg+"#"+strconv.FormatInt(time.Now().UnixNano(), 36))
		stdout, stderr, _ := runCmd(t, vet, dir)
		ran := strings.Contains(stdout+stderr, "origo: internal error in "+pass+" on package "+pkg)
		if ran != wantRun {
			t.Errorf("%s ran on %s, a dependency: %v, want %v\n%s", pass, pkg, ran, wantRun, stdout+stderr)
		}
	}
}

// TestNoSummariesForCommands checks that the pointer summaries, which
// only importers read, are made for the chain's packages b and c and not
// for its command a, which no package can import.
func TestNoSummariesForCommands(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	dir, err := filepath.Abs("../../testdata/chain")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, dir, "-dump=pointer", "./...")
	if code != 0 {
		t.Fatalf("origo exited %d:\n%s", code, stderr)
	}
	bySummary := make(map[string]int)
	for _, line := range strings.Split(stdout, "\n") {
		if file, _, ok := strings.Cut(line, ":"); ok && strings.Contains(line, ": summary ") {
			bySummary[filepath.Dir(file)]++
		}
	}
	if bySummary["a"] != 0 || bySummary["b"] == 0 || bySummary["c"] == 0 {
		t.Errorf("summaries by package directory: %v; want some for b and c, none for a:\n%s", bySummary, stdout)
	}
}

// TestLanguageCorners runs both drivers on generics, a range-over-func
// loop, a go:linkname function without a body and a file behind a build
// tag: each race is found, the same by both. A syntax error is one clear
// error.
func TestLanguageCorners(t *testing.T) {
	t.Parallel()
	functional(t)
	dir, err := filepath.Abs("../../testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"generic/generic.go:6:31: data race on Box[int].v: write at generic.go:6 (main goroutine) vs write at generic.go:6 (goroutine started at generic.go:10); locks held: {} vs {}",
		"linkname/linkname.go:13:14: data race on last: write at linkname.go:13 (goroutine started at linkname.go:13) vs write at linkname.go:14 (main goroutine); locks held: {} vs {}",
		"rangefunc/rangefunc.go:20:14: data race on n: write at rangefunc.go:20 (goroutine started at rangefunc.go:20) vs write at rangefunc.go:22 (main goroutine); locks held: {} vs {}",
		"tagged/special.go:5:27: data race on hits: write at special.go:5 (goroutine started at special.go:5) vs write at tagged.go:7 (main goroutine); locks held: {} vs {}",
	}
	patterns := []string{"./generic", "./rangefunc", "./linkname", "./tagged"}
	stdout, stderr, code := run(t, dir, append([]string{"-json", "-tags=special"}, patterns...)...)
	if code != exitClean {
		t.Errorf("standalone: exit %d\n%s", code, stderr)
	}
	vetOut, vetErr, code := runCmd(t, exec.Command("go", append([]string{"vet", "-vettool=" + origoBin, "-tags=special", "-json"}, patterns...)...), dir)
	if code != 0 {
		t.Errorf("go vet: exit %d\n%s", code, vetErr)
	}
	for name, got := range map[string][]string{
		"standalone": findings(t, dir, stdout),
		"go vet":     findings(t, dir, vetOut+vetErr),
	} {
		if !slices.Equal(got, want) {
			t.Errorf("%s reports:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// Without the tag, the file that races is not built.
	if stdout, _, _ := run(t, dir, "./tagged"); stdout != "" {
		t.Errorf("without -tags=special: %s", stdout)
	}

	// A file that does not parse is made here: gofmt -l, which CI runs
	// over the repository's files, would stop on it.
	bad := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":                 "module example.com/bad\n\ngo 1.26\n",
		"syntaxerr/syntaxerr.go": "package syntaxerr\n\nfunc Broken( {\n}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(bad, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bad, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code = run(t, bad, "./syntaxerr")
	if want := "origo: package example.com/bad/syntaxerr has syntax errors: syntaxerr/syntaxerr.go:3:14: expected ')', found '{'"; code != exitError || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("standalone on a syntax error: exit %d, stderr:\n%s\nwant one line starting %q", code, stderr, want)
	}
	_, vetErr, code = runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "./syntaxerr"), bad)
	if code == 0 || !strings.Contains(vetErr, "expected ')', found '{'") {
		t.Errorf("go vet on a syntax error: exit %d, stderr:\n%s", code, vetErr)
	}
}

// TestDefaults checks the standalone driver's defaults: no pattern is
// ./..., tests included; -test=false leaves the tests out.
func TestDefaults(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	dir, err := filepath.Abs("../../testdata/chain")
	if err != nil {
		t.Fatal(err)
	}
	all, _, _ := run(t, dir, "-dump=origins", "./...")
	none, _, _ := run(t, dir, "-dump=origins")
	if none != all || !strings.Contains(all, "a/a_test.go:9:6: root test a.TestServe") || !strings.Contains(all, "c/c.go:") {
		t.Errorf("without a pattern:\n%s\nwith ./...:\n%s\nwant the same, the tests of a included", none, all)
	}
	noTests, _, _ := run(t, dir, "-dump=origins", "-test=false")
	if strings.Contains(noTests, "a_test.go") || !strings.Contains(noTests, "a/a.go:6:6: root main a.main") {
		t.Errorf("-test=false:\n%s\nwant a's main and not its test", noTests)
	}
}

// TestGeneratedFlag checks -generated under both drivers: nothing is
// reported in a file marked generated, unless -generated is given.
func TestGeneratedFlag(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/gen\n\ngo 1.26\n",
		"gen.go": "// Code generated by a tool. DO NOT EDIT.\n\npackage main\n\nvar counter int\n\nfunc bump(done chan bool) {\n\tcounter++\n\tdone <- true\n}\n",
		"main.go": "package main\n\nvar total int\n\nfunc add(done chan bool) {\n\ttotal++\n\tdone <- true\n}\n\n" +
			"func main() {\n\tdone := make(chan bool)\n\tgo bump(done)\n\tgo bump(done)\n\tgo add(done)\n\tgo add(done)\n\tfor range 4 {\n\t\t<-done\n\t}\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, generated := range []bool{false, true} {
		args := []string{"-json"}
		if generated {
			args = append(args, "-generated")
		}
		standOut, _, _ := run(t, dir, append(args, ".")...)
		vetOut, vetErr, _ := runCmd(t, exec.Command("go", append([]string{"vet", "-vettool=" + origoBin}, append(args, ".")...)...), dir)
		for driver, out := range map[string]string{"standalone": standOut, "go vet": vetOut + vetErr} {
			got := findings(t, dir, out)
			inMain := slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "main.go:6:2: data race on total") })
			inGen := slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "gen.go:8:2: data race on counter") })
			if !inMain || inGen != generated {
				t.Errorf("%s, -generated=%v: reports\n%s\nwant the race in main.go, and the one in gen.go only with -generated", driver, generated, strings.Join(got, "\n"))
			}
		}
	}
}

// TestVetTool follows the README's route for origo as a tool of a
// module (go mod edit -require -replace -tool and go mod tidy, go tool
// origo, go vet -vettool=$(go tool -n origo), go build of the command
// by its path, as the CI workflow does) in a scratch module whose
// go.mod points at this checkout; and its suggested fixes under go vet:
// -fix -diff prints one, -json lists it, -fix applies it
// (TestStandaloneFix checks the standalone driver's -fix against it).
// Last, go vet -vettool= with an empty path runs plain vet, which is
// silent on the demo.
func TestVetTool(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const src = "package main\n\nimport \"sync\"\n\nfunc work() {}\n\nfunc main() {\n\tvar wg sync.WaitGroup\n\tgo func() {\n\t\twg.Add(1)\n\t\tdefer wg.Done()\n\t\twork()\n\t}()\n\twg.Wait()\n}\n"
	for name, text := range map[string]string{
		"go.mod":  "module example.com/tool\n\ngo 1.26\n",
		"main.go": src,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	goCmd := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Env = env
		return runCmd(t, cmd, dir)
	}
	// The README's install from a checkout, word for word.
	if _, stderr, code := goCmd("mod", "edit", "-require=github.com/origo-dev/origo@v0.0.0-00010101000000-000000000000",
		"-replace=github.com/origo-dev/origo="+root, "-tool=github.com/origo-dev/origo/cmd/origo"); code != 0 {
		t.Fatalf("go mod edit: exit %d:\n%s", code, stderr)
	}
	if _, stderr, code := goCmd("mod", "tidy"); code != 0 {
		t.Skipf("go mod tidy: exit %d (no module proxy, and the module cache lacks a dependency?):\n%s", code, stderr)
	}
	tool, stderr, code := goCmd("tool", "-n", "origo")
	tool = strings.TrimSpace(tool)
	if code != 0 || !filepath.IsAbs(tool) {
		t.Fatalf("go tool -n origo: exit %d, %q:\n%s", code, tool, stderr)
	}
	const report = "main.go:10:9: WaitGroup.Add inside the goroutine"
	if stdout, stderr, code := goCmd("tool", "origo", "."); code != exitFindings || !strings.HasPrefix(stdout, report) {
		t.Errorf("go tool origo: exit %d, stdout:\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := goCmd("build", "-o", filepath.Join(t.TempDir(), "origo"), "github.com/origo-dev/origo/cmd/origo"); code != 0 {
		t.Errorf("go build of the tool by its path: exit %d:\n%s", code, stderr)
	}
	if stdout, stderr, code := goCmd("vet", "-vettool="+tool, "."); code == 0 || !strings.Contains(stdout+stderr, report) {
		t.Errorf("go vet -vettool=$(go tool -n origo): exit %d:\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := goCmd("vet", "-vettool="+tool, "-json", "."); code != 0 || !strings.Contains(stdout+stderr, `"message": "call wg.Add(1) before the go statement"`) {
		t.Errorf("go vet -json lists no suggested fix: exit %d:\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := goCmd("vet", "-vettool="+tool, "-fix", "-diff", "."); !strings.Contains(stdout+stderr, "+\twg.Add(1)\n \tgo func() {\n-\t\twg.Add(1)\n") {
		t.Errorf("go vet -fix -diff: exit %d, no diff that moves the Add:\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := goCmd("vet", "-vettool="+tool, "-fix", "."); code != 0 {
		t.Errorf("go vet -fix: exit %d:\n%s", code, stderr)
	}
	if fixed, err := os.ReadFile(filepath.Join(dir, "main.go")); err != nil || !strings.Contains(string(fixed), "\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()") {
		t.Errorf("go vet -fix did not move the Add (%v):\n%s", err, fixed)
	}

	demo := filepath.Join(root, "testdata", "demo")
	stdout, stderr, code := runCmd(t, exec.Command("go", "vet", "-vettool=", "."), demo)
	if code != 0 || stdout+stderr != "" {
		t.Errorf("go vet -vettool= on the demo: exit %d, output:\n%s%s\nwant plain vet: nothing, exit 0", code, stdout, stderr)
	}
}

// TestDemoFixes applies to a copy of the demo the fixes the README
// gives: b.mu held around the increment, or processed an atomic.Int64,
// silences the race and leaves the deadlock; an unexported totalLocked
// that Report calls with the lock held silences the deadlock; with
// both, nothing is reported.
func TestDemoFixes(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	bank, err := os.ReadFile("../../testdata/demo/bank.go")
	if err != nil {
		t.Fatal(err)
	}
	main, err := os.ReadFile("../../testdata/demo/main.go")
	if err != nil {
		t.Fatal(err)
	}
	fix := func(src string, edits ...string) string {
		t.Helper()
		for i := 0; i < len(edits); i += 2 {
			if strings.Count(src, edits[i]) != 1 {
				t.Fatalf("bank.go has not exactly one %q", edits[i])
			}
			src = strings.Replace(src, edits[i], edits[i+1], 1)
		}
		return src
	}
	holdLock := []string{"\t\tb.processed++", "\t\tb.mu.Lock()\n\t\tb.processed++\n\t\tb.mu.Unlock()"}
	atomic := []string{
		"\t\"sync\"\n", "\t\"sync\"\n\t\"sync/atomic\"\n",
		"processed int ", "processed atomic.Int64 ",
		"b.processed++", "b.processed.Add(1)",
		"b.processed, b.Total()", "b.processed.Load(), b.Total()",
	}
	totalLocked := []string{
		"\tdefer b.mu.Unlock()\n\ttotal := 0", "\tdefer b.mu.Unlock()\n\treturn b.totalLocked()\n}\n\n// totalLocked is Total, with b.mu held.\nfunc (b *Bank) totalLocked() int {\n\ttotal := 0",
		"b.processed, b.Total()", "b.processed, b.totalLocked()",
	}
	for _, tc := range []struct {
		name  string
		edits []string
		want  []string // the kinds reported
	}{
		{"hold b.mu", holdLock, []string{"double lock"}},
		{"atomic.Int64", atomic, []string{"double lock"}},
		{"totalLocked", totalLocked, []string{"data race"}},
		{"both", append(slices.Clone(holdLock), totalLocked...), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range map[string]string{
				"go.mod":  "module example.com/demo\n\ngo 1.26\n",
				"main.go": string(main),
				"bank.go": fix(string(bank), tc.edits...),
			} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stdout, stderr, code := run(t, dir, "-json", ".")
			var kinds []string
			for _, f := range findings(t, dir, stdout) {
				_, msg, _ := strings.Cut(f, ": ")
				kind, _, _ := strings.Cut(msg, ":")
				kind = strings.TrimSuffix(kind, " on Bank.processed")
				kinds = append(kinds, kind)
			}
			if !slices.Equal(kinds, tc.want) || stderr != "" || code != exitClean && tc.want == nil {
				t.Errorf("exit %d, reports %q, want %q; stdout:\n%s%s", code, kinds, tc.want, stdout, stderr)
			}
		})
	}
}

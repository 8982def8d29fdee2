package main

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/analyzers/race"
	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
)

// sarifOf prints res as SARIF, validates it against the SARIF 2.1.0
// schema and decodes it.
func sarifOf(t *testing.T, res *result) (sarifLog, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := printSARIF(&b, res); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, b.Bytes())
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	return log, b.Bytes()
}

// validateSARIF validates a SARIF log against the schema.
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	s, err := loadSchema(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if errs := s.Validate(data); len(errs) > 0 {
		t.Errorf("the SARIF log breaks the SARIF 2.1.0 schema:\n%s", strings.Join(errs, "\n"))
	}
}

// TestSARIFLog checks a log made of a few diagnostics: valid against the
// schema; a rule per kind of report, named apart from its ID, with its
// manual's text whole; the result under its kind's rule; columns in
// UTF-16 code units; paths below the repository relative to %SRCROOT%,
// others absolute; a numeric version.
func TestSARIFLog(t *testing.T) {
	root := repoRoot()
	demo, err := filepath.Abs("../../testdata/demo/bank.go")
	if err != nil {
		t.Fatal(err)
	}
	// A file outside the repository, with characters of 2, 3 and 4
	// bytes (1, 1 and 2 UTF-16 units) before the column reported.
	other := filepath.Join(t.TempDir(), "u.go")
	line2 := "\ts := \"é€😀\"; x++"
	if err := os.WriteFile(other, []byte("package p\n"+line2+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	xCol := strings.Index(line2, "x++") + 1 // bytes: 1 + 3 + 9 + 4 = column 17
	at := func(file string, line, col, offset int) token.Position {
		return token.Position{Filename: file, Line: line, Column: col, Offset: offset}
	}
	res := &result{diags: []diagnostic{
		{analyzer: race.Analyzer, category: kinds.DataRace.ID, posn: at(demo, 59, 5, -1), message: "data race on Bank.processed",
			related: []related{{posn: at(other, 2, xCol, len("package p\n")+xCol-1), message: "the other write"}}},
		{analyzer: deadlock.Analyzer, category: kinds.LockOrderInversion.ID, posn: at(other, 2, xCol, len("package p\n")+xCol-1),
			end: at(other, 2, xCol+3, len("package p\n")+xCol+2), message: "lock order inversion"},
		{analyzer: race.Analyzer, category: "", posn: at(demo, 1, 1, 0), message: "a report without a kind"},
	}}
	log, data := sarifOf(t, res)
	run := log.Runs[0]
	driver := run.Tool.Driver

	// Rules: every kind of the suite's analyzers, in order, then the
	// analyzer rule that the report without a kind needs.
	var ids []string
	for _, r := range driver.Rules {
		ids = append(ids, r.ID)
		if r.Name == r.ID || r.Name == "" {
			t.Errorf("rule %s: name %q, want one apart from the ID (SARIF1001)", r.ID, r.Name)
		}
	}
	var want []string
	for _, k := range kinds.All {
		want = append(want, k.ID)
	}
	want = append(want, "race")
	if !slices.Equal(ids, want) {
		t.Errorf("rules\n%v\nwant\n%v", ids, want)
	}
	for _, r := range driver.Rules {
		k, ok := kinds.Lookup(r.ID)
		if !ok {
			continue
		}
		var a = race.Analyzer
		for _, x := range suite {
			if x.Name == k.Analyzer() {
				a = x
			}
		}
		help, _ := kinds.Help(a.Doc, k.ID)
		help = capitalize(help)
		if r.FullDescription.Text != plain(help) || !strings.Contains(r.Help.Text, help) || r.ShortDescription.Text != capitalize(k.Title) || r.HelpURI != a.URL {
			t.Errorf("rule %s: descriptions %q, %q; help %q; want its manual's text whole", r.ID, r.ShortDescription.Text, r.FullDescription.Text, r.Help.Text)
		}
	}
	// The directive rule's full description is the whole kind, not "A
	// directive".
	if i := slices.Index(ids, kinds.MalformedIgnore.ID); i < 0 || !strings.HasPrefix(driver.Rules[i].FullDescription.Text, "A comment that tries to be an //origo:ignore directive and is not one") {
		t.Errorf("directive/malformed's full description: %q", driver.Rules[max(i, 0)].FullDescription.Text)
	}

	// Results: under their kinds' rules, the one without a kind under
	// its analyzer's.
	var got []string
	for _, r := range run.Results {
		got = append(got, r.RuleID)
		if driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %q: ruleIndex %d is %s", r.Message.Text, r.RuleIndex, driver.Rules[r.RuleIndex].ID)
		}
	}
	if want := []string{"race/data-race", "deadlock/lock-order-inversion", "race"}; !slices.Equal(got, want) {
		t.Errorf("results' rules %v, want %v", got, want)
	}

	// Locations: the demo relative to the repository, the other file
	// absolute; its columns in UTF-16 units.
	loc := run.Results[0].Locations[0].PhysicalLocation
	rel, _ := filepath.Rel(root, demo)
	if loc.ArtifactLocation.URI != filepath.ToSlash(rel) || loc.ArtifactLocation.URIBaseID != srcRoot || run.OriginalURIBaseIDs[srcRoot].URI != fileURI(root)+"/" {
		t.Errorf("the demo's location %+v, base %+v; want %s below %s", loc.ArtifactLocation, run.OriginalURIBaseIDs, rel, root)
	}
	loc = run.Results[1].Locations[0].PhysicalLocation
	wantCol := 1 + 6 + 1 + 1 + 2 + 3 + 1 // tab, `s := "`, é, €, 😀, `"; `, from 1
	if loc.ArtifactLocation.URI != fileURI(other) || loc.ArtifactLocation.URIBaseID != "" || loc.Region.StartColumn != wantCol || loc.Region.EndColumn != wantCol+3 || run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("the other file's location %+v, column kind %s; want %s, columns %d-%d in utf16CodeUnits", loc, run.ColumnKind, fileURI(other), wantCol, wantCol+3)
	}
	if rl := run.Results[0].RelatedLocations[0].PhysicalLocation.Region; rl.StartColumn != wantCol {
		t.Errorf("the related location's column %d, want %d", rl.StartColumn, wantCol)
	}
	if !strings.Contains(string(data), `"columnKind": "utf16CodeUnits"`) {
		t.Error("no columnKind in the log")
	}

	// The version: numeric, and the full one as a semantic version.
	if driver.Version != "0.0.0" && strings.Trim(driver.Version, "0123456789.") != "" {
		t.Errorf("driver version %q is not numeric", driver.Version)
	}
}

// TestSARIFDump checks that the debugging analyzer's rule, under -dump,
// has a name and a full description of its own.
func TestSARIFDump(t *testing.T) {
	defer func(m string) { factdump.Mode = m }(factdump.Mode)
	factdump.Mode = "origins"
	log, _ := sarifOf(t, &result{})
	rules := log.Runs[0].Tool.Driver.Rules
	i := slices.IndexFunc(rules, func(r sarifRule) bool { return r.ID == "factdump" })
	if i < 0 {
		t.Fatalf("no factdump rule under -dump")
	}
	r := rules[i]
	if r.Name == r.ID || r.FullDescription.Text == "" || r.FullDescription.Text == r.ShortDescription.Text {
		t.Errorf("the debugging analyzer's rule: %+v", r)
	}
}

func TestSARIFVersions(t *testing.T) {
	for _, tc := range []struct{ v, numeric, semantic string }{
		{"v1.2.3", "1.2.3", "1.2.3"},
		{"v0.4.0-rc.1", "0.4.0", "0.4.0-rc.1"},
		{"v0.0.0-20261128060000-0123456789ab", "0.0.0", "0.0.0-20261128060000-0123456789ab"},
		{"v1.0.0+incompatible", "1.0.0", "1.0.0+incompatible"},
		{"devel-0123456789ab", "0.0.0", "0.0.0-devel+0123456789ab"},
		{"devel", "0.0.0", "0.0.0-devel"},
	} {
		if n, s := sarifVersions(tc.v); n != tc.numeric || s != tc.semantic {
			t.Errorf("sarifVersions(%q) = %q, %q; want %q, %q", tc.v, n, s, tc.numeric, tc.semantic)
		}
	}
}

// TestIntroduction checks an analyzer rule's full description: the text
// before the first heading, whole, code blocks too.
func TestIntroduction(t *testing.T) {
	if got := introduction(directive.Analyzer.Doc); !strings.HasPrefix(got, "A directive\n\n\t//origo:ignore NAME") || !strings.HasSuffix(got, "is reported as stale.") || strings.Contains(got, "\n# ") {
		t.Errorf("introduction(directive) = %q", got)
	}
	if got := introduction("title only\n"); got != "title only" {
		t.Errorf("introduction(title only) = %q", got)
	}
}

// TestSARIFSchema validates origo -sarif on the demo, and on a package
// of every analyzer's reports, against the SARIF 2.1.0 schema.
func TestSARIFSchema(t *testing.T) {
	t.Parallel()
	functional(t)
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, dir, "-sarif", ".")
	if code != exitFindings {
		t.Fatalf("origo -sarif: exit %d\n%s", code, stderr)
	}
	validateSARIF(t, []byte(stdout))
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		got = append(got, r.RuleID+" "+loc.ArtifactLocation.URIBaseID+" "+loc.ArtifactLocation.URI)
	}
	if want := []string{"race/data-race %SRCROOT% testdata/demo/bank.go", "deadlock/double-lock %SRCROOT% testdata/demo/bank.go"}; !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
}

// TestJSONCategory checks that -json shows each report's kind as its
// category, as go vet -json does.
func TestJSONCategory(t *testing.T) {
	t.Parallel()
	functional(t)
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, _ := run(t, dir, "-json", ".")
	var tree map[string]map[string][]struct {
		Category string `json:"category"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("origo -json: %v\n%s%s", err, stdout, stderr)
	}
	var got []string
	for _, byAnalyzer := range tree {
		for name, ds := range byAnalyzer {
			for _, d := range ds {
				got = append(got, name+" "+d.Category)
			}
		}
	}
	slices.Sort(got)
	if want := []string{"deadlock deadlock/double-lock", "race race/data-race"}; !slices.Equal(got, want) {
		t.Errorf("-json categories %q, want %q", got, want)
	}
}

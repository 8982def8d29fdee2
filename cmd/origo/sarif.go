package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/doc/comment"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/cmd/origo/internal/confirm"
	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"golang.org/x/tools/go/analysis"
)

// SARIF 2.1.0, the subset origo writes, as GitHub code scanning reads it.
// The schema is at https://docs.oasis-open.org/sarif/sarif/v2.1.0/; the
// test validates the log against it (testdata/sarif-schema-2.1.0.json).
//
// Each kind of report (package kinds: "race/data-race",
// "deadlock/double-lock") is a rule of its own, its ID the diagnostic's
// category, its name the kind's CamelCase name (SARIF1001: a name is not
// the ID), its descriptions and help the kind's section of its
// analyzer's manual. An analyzer whose reports have no kind (the
// debugging analyzer, under -dump) is one rule.
//
// Columns: Go counts them in bytes, which SARIF has no unit for; SARIF's
// default unit, and GitHub's, is the UTF-16 code unit. The log says
// columnKind "utf16CodeUnits" and converts each column to it from the
// file's text (the same number on an ASCII line).
//
// Paths: a file below the repository (the nearest directory above the
// working directory with a .git, else the working directory) is a URI
// relative to it, with uriBaseId "%SRCROOT%", which the run's
// originalUriBaseIds resolves to the repository's file URI; a file
// elsewhere (the module cache, GOROOT) is an absolute file URI.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	Invocations        []sarifInvocation        `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                   `json:"columnKind"`
	Results            []sarifResult            `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	FullDescription      sarifMessage       `json:"fullDescription"`
	Help                 sarifMessage       `json:"help"`
	HelpURI              string             `json:"helpUri"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	// PartialFingerprints has one entry, fingerprintKey.
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          *sarifProperties  `json:"properties,omitempty"`
}

// sarifProperties is a result's property bag: under -confirm, what the
// runs came to, the confirm object of -json (status, confirmed, the
// test, the witness, the command that reproduces it, the schedule, the
// runs, or why it is not confirmed).
type sarifProperties struct {
	Confirm *confirm.Result `json:"confirm,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

const projectURL = "https://github.com/origo-dev/origo"

// srcRoot is the uriBaseId of the files below the repository.
const srcRoot = "%SRCROOT%"

func printSARIF(w io.Writer, res *result) error {
	numeric, semantic := sarifVersions(version())
	driver := sarifDriver{Name: "origo", Version: numeric, SemanticVersion: semantic, InformationURI: projectURL}
	ruleIndex := make(map[string]int)
	addRule := func(r sarifRule) {
		ruleIndex[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, r)
	}
	for _, a := range suite {
		if debugging(a) && factdump.Mode == "" {
			continue
		}
		ks := kinds.Of(a.Name)
		if len(ks) == 0 {
			addRule(analyzerRule(a))
		}
		for _, k := range ks {
			addRule(kindRule(a, k))
		}
	}
	// The rule of a result: its kind's, or its analyzer's when it has no
	// kind of its analyzer's (added, if the analyzer has kinds).
	ruleOf := func(d diagnostic) string {
		if k, ok := kinds.Lookup(d.category); ok && k.Analyzer() == d.analyzer.Name {
			if _, ok := ruleIndex[k.ID]; ok {
				return k.ID
			}
		}
		if _, ok := ruleIndex[d.analyzer.Name]; !ok {
			addRule(analyzerRule(d.analyzer))
		}
		return d.analyzer.Name
	}
	root := repoRoot()
	cols := newColumns()
	run := sarifRun{
		Tool:        sarifTool{Driver: driver},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(res.errors) == 0}},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarifResult{},
	}
	if root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifact{srcRoot: {URI: fileURI(root) + "/"}}
	}
	for _, e := range res.errors {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifMessage{Text: e}})
	}
	prints := fingerprints(res.diags)
	for i, d := range res.diags {
		id := ruleOf(d)
		r := sarifResult{
			RuleID:              id,
			RuleIndex:           ruleIndex[id],
			Level:               levelOf(d.analyzer, d.category),
			Message:             sarifMessage{Text: d.message},
			Locations:           []sarifLocation{{PhysicalLocation: physical(root, cols, d.posn, d.end)}},
			PartialFingerprints: map[string]string{fingerprintKey: prints[i]},
		}
		if d.confirm != nil {
			r.Properties = &sarifProperties{Confirm: d.confirm}
		}
		for i, rel := range d.related {
			id := i + 1
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: physical(root, cols, rel.posn, rel.end),
				Message:          &sarifMessage{Text: rel.message},
			})
		}
		run.Results = append(run.Results, r)
	}
	run.Tool.Driver.Rules = driver.Rules // with the rules added for results
	data, err := json.MarshalIndent(sarifLog{
		Schema:  sarifSchema,
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// sarifSchema is the URI of the SARIF 2.1.0 schema, where JSON schema
// stores serve it (the OASIS standard with its errata).
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// kindRule is the rule of a kind of report of analyzer a: its
// descriptions and help are the kind's text in a's manual (see
// kinds.Help), whole, and its help says where the manual is.
func kindRule(a *analysis.Analyzer, k kinds.Kind) sarifRule {
	text, ok := kinds.Help(a.Doc, k.ID)
	if !ok {
		text = k.Title + ".\n" // a kind its manual lacks: kinds' test says so
	}
	text = capitalize(text)
	more := fmt.Sprintf("The %s analyzer's manual: %s (or: origo help %s).", a.Name, a.URL, a.Name)
	return sarifRule{
		ID:                   k.ID,
		Name:                 k.Name,
		ShortDescription:     sarifMessage{Text: capitalize(k.Title)},
		FullDescription:      sarifMessage{Text: plain(text)},
		Help:                 sarifMessage{Text: text + "\n" + more + "\n", Markdown: markdown(text + "\n" + more + "\n")},
		HelpURI:              a.URL,
		DefaultConfiguration: sarifConfiguration{Level: levelOf(a, k.ID)},
	}
}

// analyzerRule is the rule of an analyzer's reports that have no kind:
// its manual's title, introduction (the text before its first heading)
// and the whole manual as help.
func analyzerRule(a *analysis.Analyzer) sarifRule {
	return sarifRule{
		ID:                   a.Name,
		Name:                 capitalize(a.Name) + "Report",
		ShortDescription:     sarifMessage{Text: capitalize(title(a.Doc))},
		FullDescription:      sarifMessage{Text: plain(introduction(a.Doc))},
		Help:                 sarifMessage{Text: a.Doc, Markdown: markdown(a.Doc)},
		HelpURI:              a.URL,
		DefaultConfiguration: sarifConfiguration{Level: level(a)},
	}
}

// introduction returns the text of a manual (an analyzer's Doc) after
// its title and before its first heading, or the title if none.
func introduction(doc string) string {
	_, body, _ := strings.Cut(strings.TrimSpace(doc), "\n")
	if i := strings.Index("\n"+body, "\n# "); i >= 0 {
		body = body[:max(i-1, 0)]
	}
	if body = strings.TrimSpace(body); body == "" {
		return title(doc)
	}
	return body
}

// plain returns a Go doc comment's text as plain text for a SARIF
// description: its paragraphs each on one line, a blank line between,
// and code blocks as they are.
func plain(text string) string {
	var p comment.Parser
	pr := comment.Printer{TextWidth: -1} // no wrapping: a paragraph is a line
	return strings.TrimSpace(string(pr.Text(p.Parse(text))))
}

// capitalize returns s with its first letter in upper case.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// sarifVersions returns the tool's version for SARIF: a numeric one, as
// SARIF2005 asks ("1.2.3", "0.0.0" for a build from a checkout), and the
// Semantic Versioning 2.0 one, which keeps all ("1.2.3-rc.1",
// "0.0.0-devel+0123456789ab").
func sarifVersions(v string) (numeric, semantic string) {
	v = strings.TrimPrefix(v, "v")
	if rev, ok := strings.CutPrefix(v, "devel"); ok {
		if rev = strings.TrimPrefix(rev, "-"); rev != "" {
			return "0.0.0", "0.0.0-devel+" + rev
		}
		return "0.0.0", "0.0.0-devel"
	}
	numeric, _, _ = strings.Cut(v, "-")
	numeric, _, _ = strings.Cut(numeric, "+")
	return numeric, v
}

// levelOf is the SARIF level of a result of analyzer a of the kind
// category: its kind's (a possible data race, the lower tier, is a
// note), or its analyzer's.
func levelOf(a *analysis.Analyzer, category string) string {
	if k, ok := kinds.Lookup(category); ok && k.Analyzer() == a.Name {
		return kinds.Level(k.ID)
	}
	return level(a)
}

// level is the SARIF level of an analyzer's results: a finding is a
// warning, debugging output a note.
func level(a *analysis.Analyzer) string {
	if debugging(a) {
		return "note"
	}
	return "warning"
}

// markdown renders an analyzer's Doc, a Go doc comment's text, as
// Markdown for the rule's help. Headings get no anchors: GitHub's
// Markdown would show the {#id} that go/doc/comment writes.
func markdown(doc string) string {
	var p comment.Parser
	pr := comment.Printer{HeadingID: func(*comment.Heading) string { return "" }}
	return string(pr.Markdown(p.Parse(doc)))
}

// fingerprintKey is the partialFingerprints key of origo's results; the
// version changes when the way fingerprints are computed does.
const fingerprintKey = "origoFingerprint/v1"

// positions matches the positions messages cite: "bank.go:59", and
// "bank.go:59:5".
var positions = regexp.MustCompile(`(\.go):\d+(:\d+)?\b`)

// fingerprints returns the fingerprint of each diagnostic, which a code
// scanning service uses to tell whether a result of one commit is the
// result of another, so that a finding keeps its identity (an alert
// dismissed stays dismissed) when the lines around it move.
//
// A fingerprint is the hex SHA-256 (first 16 bytes) of the analyzer's
// name, the file's path relative to its module's root, the name of the
// enclosing function declaration (Type.Method, "" outside any) and the
// message as its analyzer wrote it (without the confirmation -confirm
// adds: a run does not make it another finding) with its positions cut
// to file names ("write at bank.go:59" becomes "write at bank.go"), none
// of which a line inserted above the finding changes; then ":" and the ordinal (from 1), in position order,
// of the diagnostics of the same hash, which tells apart the findings
// that only their lines distinguish. Moving code into another function
// or file, renaming what the message names, or a change in what the
// message says (another goroutine, other locks held) makes it another
// finding. The keys of cmd/origo-bench's realcode verdicts are made
// alike, but name function literals too (F$1): here the declaration is
// enough, and a literal added before another in the same function does
// not change the other's fingerprint.
func fingerprints(diags []diagnostic) []string {
	out := make([]string, len(diags))
	seen := make(map[string]int)
	for i, d := range diags {
		h := sha256.New()
		for _, part := range []string{d.analyzer.Name, d.file, d.function, positions.ReplaceAllString(d.analyzerMessage(), "$1")} {
			h.Write([]byte(part))
			h.Write([]byte{0})
		}
		sum := hex.EncodeToString(h.Sum(nil)[:16])
		seen[sum]++
		out[i] = fmt.Sprintf("%s:%d", sum, seen[sum])
	}
	return out
}

// physical locates a span: by a URI relative to the repository root
// when the file is below it (see sarifLog), or by an absolute file URI,
// its columns in UTF-16 code units (see columns).
func physical(root string, cols *columns, start, end token.Position) sarifPhysicalLocation {
	art := sarifArtifact{URI: fileURI(start.Filename)}
	if rel, err := filepath.Rel(root, start.Filename); root != "" && filepath.IsAbs(start.Filename) && err == nil && !strings.HasPrefix(rel, "..") {
		art = sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: srcRoot}
	}
	region := sarifRegion{StartLine: start.Line, StartColumn: cols.utf16(start)}
	// A diagnostic without an end is a point: leave the region's end
	// out rather than make it an empty span.
	if end.IsValid() && end.Filename == start.Filename && end.Offset > start.Offset {
		region.EndLine, region.EndColumn = end.Line, cols.utf16(end)
	}
	return sarifPhysicalLocation{ArtifactLocation: art, Region: region}
}

// fileURI returns the file URI of an absolute path, or the path as a
// relative URI reference.
func fileURI(path string) string {
	if !filepath.IsAbs(path) {
		return (&url.URL{Path: filepath.ToSlash(path)}).String()
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// repoRoot returns the root of the repository around the working
// directory: the nearest directory at or above it that holds .git, else
// the working directory itself; "" if it is unknown.
func repoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}

// columns converts the columns of positions, byte offsets in their line
// plus one, to UTF-16 code units plus one, from the files' text, read
// once each. A column of a file that cannot be read, or past its line,
// stays as it is.
type columns struct {
	files map[string][]byte
}

func newColumns() *columns { return &columns{files: make(map[string][]byte)} }

func (c *columns) utf16(p token.Position) int {
	if p.Column <= 1 || p.Filename == "" {
		return p.Column
	}
	src, ok := c.files[p.Filename]
	if !ok {
		src, _ = os.ReadFile(p.Filename)
		c.files[p.Filename] = src
	}
	// The line's start: p.Offset is the position's byte offset in the
	// file, when the file set had the file's text.
	start := p.Offset - (p.Column - 1)
	if start < 0 || p.Offset > len(src) || start > 0 && src[start-1] != '\n' {
		return p.Column
	}
	units := 0
	for _, r := range string(src[start:p.Offset]) {
		units += utf16.RuneLen(r)
	}
	return units + 1
}

// version returns the module version of the binary, or "devel" with the
// VCS revision when built from a checkout.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			return "devel-" + s.Value[:min(12, len(s.Value))]
		}
	}
	return "devel"
}

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
	"path/filepath"
	"regexp"
	"runtime/debug"

	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"golang.org/x/tools/go/analysis"
)

// SARIF 2.1.0, the subset origo writes. The schema is at
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
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
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

const projectURL = "https://github.com/origo-dev/origo"

func printSARIF(w io.Writer, res *result) error {
	driver := sarifDriver{Name: "origo", Version: version(), InformationURI: projectURL}
	ruleIndex := make(map[string]int)
	for _, a := range suite {
		if debugging(a) && factdump.Mode == "" {
			continue
		}
		ruleIndex[a.Name] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   a.Name,
			Name:                 a.Name,
			ShortDescription:     sarifMessage{Text: title(a.Doc)},
			FullDescription:      sarifMessage{Text: summary(a.Doc)},
			Help:                 sarifMessage{Text: a.Doc, Markdown: markdown(a.Doc)},
			HelpURI:              a.URL,
			DefaultConfiguration: sarifConfiguration{Level: level(a)},
		})
	}
	run := sarifRun{
		Tool:        sarifTool{Driver: driver},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(res.errors) == 0}},
		Results:     []sarifResult{},
	}
	for _, e := range res.errors {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifMessage{Text: e}})
	}
	prints := fingerprints(res.diags)
	for i, d := range res.diags {
		r := sarifResult{
			RuleID:              d.analyzer.Name,
			RuleIndex:           ruleIndex[d.analyzer.Name],
			Level:               level(d.analyzer),
			Message:             sarifMessage{Text: d.message},
			Locations:           []sarifLocation{{PhysicalLocation: physical(d.posn, d.end)}},
			PartialFingerprints: map[string]string{fingerprintKey: prints[i]},
		}
		for i, rel := range d.related {
			id := i + 1
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: physical(rel.posn, rel.end),
				Message:          &sarifMessage{Text: rel.message},
			})
		}
		run.Results = append(run.Results, r)
	}
	data, err := json.MarshalIndent(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
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
// message with its positions cut to file names ("write at bank.go:59"
// becomes "write at bank.go"), none of which a line inserted above the
// finding changes; then ":" and the ordinal (from 1), in position order,
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
		for _, part := range []string{d.analyzer.Name, d.file, d.function, positions.ReplaceAllString(d.message, "$1")} {
			h.Write([]byte(part))
			h.Write([]byte{0})
		}
		sum := hex.EncodeToString(h.Sum(nil)[:16])
		seen[sum]++
		out[i] = fmt.Sprintf("%s:%d", sum, seen[sum])
	}
	return out
}

// physical locates a span by a URI relative to the working directory
// when the file is below it (as code-scanning services expect), or by an
// absolute file URI otherwise.
func physical(start, end token.Position) sarifPhysicalLocation {
	uri := relPath(start.Filename)
	if filepath.IsAbs(uri) {
		uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(uri)}).String()
	} else {
		uri = filepath.ToSlash(uri)
	}
	region := sarifRegion{StartLine: start.Line, StartColumn: start.Column}
	// A diagnostic without an end is a point: leave the region's end
	// out rather than make it an empty span.
	if end.IsValid() && end.Filename == start.Filename && end.Offset > start.Offset {
		region.EndLine, region.EndColumn = end.Line, end.Column
	}
	return sarifPhysicalLocation{ArtifactLocation: sarifArtifact{URI: uri}, Region: region}
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

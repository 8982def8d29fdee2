package main

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"strings"
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
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	HelpURI          string       `json:"helpUri"`
}

type sarifMessage struct {
	Text string `json:"text"`
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
	for i, a := range suite {
		ruleIndex[a.Name] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID:               a.Name,
			Name:             a.Name,
			ShortDescription: sarifMessage{Text: title(a.Doc)},
			FullDescription:  sarifMessage{Text: a.Doc},
			HelpURI:          a.URL,
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
	for _, d := range res.diags {
		level := "warning"
		if d.category == "dump" {
			level = "note"
		}
		r := sarifResult{
			RuleID:    d.analyzer.Name,
			RuleIndex: ruleIndex[d.analyzer.Name],
			Level:     level,
			Message:   sarifMessage{Text: d.message},
			Locations: []sarifLocation{{PhysicalLocation: physical(d.posn, d.end)}},
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
	if end.IsValid() && end.Filename == start.Filename {
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

// title returns the first line of an analyzer's Doc.
func title(doc string) string {
	first, _, _ := strings.Cut(doc, "\n")
	return first
}

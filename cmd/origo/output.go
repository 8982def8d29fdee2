package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/origo-dev/origo/cmd/origo/internal/confirm"
)

// printText prints one finding per line, "file:line:col: message", with
// each related position indented beneath it.
func printText(w io.Writer, res *result) {
	for _, d := range res.diags {
		fmt.Fprintf(w, "%s: %s\n", relPosition(d.posn.String()), d.message)
		for _, r := range d.related {
			fmt.Fprintf(w, "\t%s: %s\n", relPosition(r.posn.String()), r.message)
		}
	}
}

// The JSON output has the shape of go vet -json: package ID → analyzer
// name → list of diagnostics, with the field names and order of
// x/tools' internal/analysis/driverutil.JSONDiagnostic, which go vet's
// unitchecker prints.
type jsonDiagnostic struct {
	Category       string        `json:"category,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated `json:"related,omitempty"`

	Confirm *confirm.Result `json:"confirm,omitempty"` // under -confirm
}

// jsonFix is a suggested fix: edits to apply all together or not at all.
type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

// jsonEdit replaces the bytes [Start, End) of a file, offsets from 0,
// by New.
type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

func printJSON(w io.Writer, res *result) error {
	tree := make(map[string]map[string][]jsonDiagnostic)
	for _, d := range res.diags {
		jd := jsonDiagnostic{
			Category: d.category,
			Posn:     d.posn.String(),
			End:      d.end.String(),
			Message:  d.message,
			Confirm:  d.confirm,
		}
		for _, f := range d.fixes {
			jf := jsonFix{Message: f.message}
			for _, e := range f.edits {
				jf.Edits = append(jf.Edits, jsonEdit{Filename: e.filename, Start: e.start, End: e.end, New: e.new})
			}
			jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
		}
		for _, r := range d.related {
			jd.Related = append(jd.Related, jsonRelated{Posn: r.posn.String(), End: r.end.String(), Message: r.message})
		}
		byAnalyzer := tree[d.pkgID]
		if byAnalyzer == nil {
			byAnalyzer = make(map[string][]jsonDiagnostic)
			tree[d.pkgID] = byAnalyzer
		}
		byAnalyzer[d.analyzer.Name] = append(byAnalyzer[d.analyzer.Name], jd)
	}
	// encoding/json sorts map keys, so the output is deterministic.
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// Package reltest checks, in an analyzer's tests, the related positions
// of its reports (analysis.Diagnostic.Related), which analysistest's
// "// want" comments do not cover: that each points into the package's
// files, to a place the message names, and that each kind of report
// carries the ones it should.
package reltest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/origo-dev/origo/analyzers/internal/posn"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Check checks the related positions of the reports in results.
//
// Each related position must be in the files of the package reported
// on, other than the report's own position, with a message; and the
// report's message must name its file:line (as "main.go:12"), unless its
// message matches one of the patterns of unnamed: a place the message
// does not cite but an editor should go to all the same.
//
// want maps a pattern of report messages to patterns of related
// messages: every report whose message matches the first must have, for
// each of the others, a related position whose message matches it; and
// each pattern of want must match some report, so that the table does
// not outlive the fixtures.
func Check(t *testing.T, results []*analysistest.Result, want map[string][]string, unnamed ...string) {
	t.Helper()
	var skip []*regexp.Regexp
	for _, u := range unnamed {
		skip = append(skip, regexp.MustCompile(u))
	}
	met := make(map[string]bool)
	for _, res := range results {
		fset := res.Pass.Fset
		for _, d := range res.Diagnostics {
			at := fset.Position(d.Pos)
			where := fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line)
			for _, r := range d.Related {
				rp := fset.Position(r.Pos)
				named := fmt.Sprintf("%s:%d", filepath.Base(rp.Filename), rp.Line)
				switch {
				case !posn.InFiles(res.Pass, r.Pos):
					t.Errorf("%s: %s: related position %s (%q) is not in the package's files", where, d.Message, rp, r.Message)
				case r.Pos == d.Pos:
					t.Errorf("%s: %s: related position %q is the report's own", where, d.Message, r.Message)
				case r.Message == "":
					t.Errorf("%s: %s: related position %s has no message", where, d.Message, named)
				case !regexp.MustCompile(regexp.QuoteMeta(named)+`\b`).MatchString(d.Message) && !matchesAny(skip, r.Message):
					t.Errorf("%s: %s: related position %s (%q) is not named by the message", where, d.Message, named, r.Message)
				}
			}
			for kind, rels := range want {
				if !regexp.MustCompile(kind).MatchString(d.Message) {
					continue
				}
				met[kind] = true
				for _, rel := range rels {
					re := regexp.MustCompile(rel)
					found := false
					for _, r := range d.Related {
						found = found || re.MatchString(r.Message)
					}
					if !found {
						var got []string
						for _, r := range d.Related {
							rp := fset.Position(r.Pos)
							got = append(got, fmt.Sprintf("%s:%d %s", filepath.Base(rp.Filename), rp.Line, r.Message))
						}
						t.Errorf("%s: %s: no related position matches %q; got %q", where, d.Message, rel, got)
					}
				}
			}
		}
	}
	for kind := range want {
		if !met[kind] {
			t.Errorf("no report matches %q", kind)
		}
	}
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

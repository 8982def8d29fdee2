package kinds_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/analyzers/guardedby"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/analyzers/race"
	"golang.org/x/tools/go/analysis"
)

// TestDeclared checks the declarations: IDs of the form ANALYZER/WORDS,
// unique IDs and names, a title each, every kind in All once.
func TestDeclared(t *testing.T) {
	idRE := regexp.MustCompile(`^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$`)
	nameRE := regexp.MustCompile(`^[A-Z][A-Za-z0-9]+$`)
	ids, names := make(map[string]bool), make(map[string]bool)
	for _, k := range kinds.All {
		if !idRE.MatchString(k.ID) || !nameRE.MatchString(k.Name) || k.Title == "" {
			t.Errorf("kind %+v: want an ID ANALYZER/lower-words, a CamelCase name and a title", k)
		}
		if ids[k.ID] || names[k.Name] {
			t.Errorf("kind %+v: ID or name declared twice", k)
		}
		ids[k.ID], names[k.Name] = true, true
		if got, ok := kinds.Lookup(k.ID); !ok || got != k {
			t.Errorf("Lookup(%q) = %+v, %v", k.ID, got, ok)
		}
	}
	if _, ok := kinds.Lookup("race"); ok {
		t.Error(`Lookup("race") found a kind`)
	}
}

// TestManuals checks that each analyzer's manual documents its kinds,
// in the order of All, and no other; that Help returns each kind's text
// without its ID; and that the kinds of All belong to these analyzers.
func TestManuals(t *testing.T) {
	analyzers := []*analysis.Analyzer{race.Analyzer, deadlock.Analyzer, blocking.Analyzer, guardedby.Analyzer, directive.Analyzer}
	var all []string
	for _, a := range analyzers {
		var want []string
		for _, k := range kinds.Of(a.Name) {
			want = append(want, k.ID)
		}
		all = append(all, want...)
		if got := kinds.Documented(a.Doc); !slices.Equal(got, want) {
			t.Errorf("%s's manual documents the kinds\n%v\nwant\n%v", a.Name, got, want)
		}
		for _, id := range want {
			help, ok := kinds.Help(a.Doc, id)
			if !ok || strings.HasPrefix(help, id) || len(help) < 40 || strings.Contains(help, "\n# ") {
				t.Errorf("Help(%s's manual, %s) = %q, %v", a.Name, id, help, ok)
			}
			for _, other := range want {
				if other != id && strings.Contains(help, other+":") {
					t.Errorf("Help(%s) runs into %s:\n%s", id, other, help)
				}
			}
		}
	}
	var declared []string
	for _, k := range kinds.All {
		declared = append(declared, k.ID)
	}
	if !slices.Equal(all, declared) {
		t.Errorf("the analyzers' kinds\n%v\nare not All\n%v", all, declared)
	}
	if _, ok := kinds.Help(race.Analyzer.Doc, "deadlock/double-lock"); ok {
		t.Error("race's manual has help for deadlock/double-lock")
	}
}

func TestHelp(t *testing.T) {
	const doc = `title

# What it reports

x/not-a-kind: text outside the section.

# Report kinds

Introduction, with a colon: and no kind.

x/one: the first kind,
on two lines.

	code of the first

x/two: the second.

# Silencing a report

Later.
`
	if got, ok := kinds.Help(doc, "x/one"); !ok || got != "the first kind,\non two lines.\n\n\tcode of the first\n" {
		t.Errorf("Help(x/one) = %q, %v", got, ok)
	}
	if got, ok := kinds.Help(doc, "x/two"); !ok || got != "the second.\n" {
		t.Errorf("Help(x/two) = %q, %v", got, ok)
	}
	if got, ok := kinds.Help(doc, "x/not-a-kind"); ok {
		t.Errorf("Help(x/not-a-kind) = %q, found outside the section", got)
	}
	if got := kinds.Documented(doc); !slices.Equal(got, []string{"x/one", "x/two"}) {
		t.Errorf("Documented = %v", got)
	}
}

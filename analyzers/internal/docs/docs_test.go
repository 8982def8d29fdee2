package docs

import (
	"strings"
	"testing"
)

const src = `// Package p is what godoc shows first.
//
// # Analyzer one
//
// one: report the first thing
//
// One finds things:
//
//	x := 1
//
// # What stays silent
//
// Nothing else.
//
// # Analyzer two
//
// two: report the second thing
package p
`

func TestExtract(t *testing.T) {
	got, err := Extract(src, "one")
	if err != nil {
		t.Fatal(err)
	}
	want := "report the first thing\n\nOne finds things:\n\n\tx := 1\n\n# What stays silent\n\nNothing else.\n"
	if got != want {
		t.Errorf("Extract(one) = %q, want %q", got, want)
	}
	if got, err := Extract(src, "two"); err != nil || got != "report the second thing" {
		t.Errorf("Extract(two) = %q, %v", got, err)
	}
	for name, wantErr := range map[string]string{
		"three": `no "# Analyzer three" heading`,
		"on":    `no "# Analyzer on" heading`,
	} {
		if _, err := Extract(src, name); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("Extract(%s): error %v, want %q", name, err, wantErr)
		}
	}
	if _, err := Extract(strings.Replace(src, "one: report", "report", 1), "one"); err == nil {
		t.Error("Extract accepted a section without its title line")
	}
	if _, err := Extract("package p\n", "one"); err == nil {
		t.Error("Extract accepted a file without a package comment")
	}
}

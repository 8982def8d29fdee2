package race_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/kinds"
)

// TestKindsInFixtures checks that the fixtures expect a report of each
// kind of the race analyzer: a "// want" pattern that begins with the
// kind's title. The tests that run them check that each report's
// category is the kind its message begins with (kindtest.Check), so
// every kind is met with its category.
func TestKindsInFixtures(t *testing.T) {
	want := regexp.MustCompile("// want `([^`]*)`")
	found := make(map[string]bool)
	err := filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range want.FindAllStringSubmatch(string(data), -1) {
			for _, k := range kinds.Of("race") {
				if strings.HasPrefix(m[1], k.Title) || strings.HasPrefix(m[1], regexp.QuoteMeta(k.Title)) {
					found[k.ID] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds.Of("race") {
		if !found[k.ID] {
			t.Errorf("no fixture expects a report of kind %s (a want pattern beginning %q)", k.ID, k.Title)
		}
	}
}

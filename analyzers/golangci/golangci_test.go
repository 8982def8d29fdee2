package golangci_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/origo-dev/origo/analyzers/golangci"
	"github.com/origo-dev/origo/analyzers/race"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

func names(as []*analysis.Analyzer) string {
	var s []string
	for _, a := range as {
		s = append(s, a.Name)
	}
	return strings.Join(s, ",")
}

// generated returns the value of the analyzers' generated flag.
func generated(t *testing.T) string {
	t.Helper()
	return race.Analyzer.Flags.Lookup("generated").Value.String()
}

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("origo")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
}

func TestSettings(t *testing.T) {
	for _, c := range []struct {
		name      string
		settings  any
		analyzers string
		generated string
	}{
		{"none", nil, "race,deadlock,blocking,guardedby,directive", "false"},
		{"empty", map[string]any{}, "race,deadlock,blocking,guardedby,directive", "false"},
		{"one", map[string]any{"analyzers": []any{"deadlock"}}, "deadlock", "false"},
		{"suite order, once each", map[string]any{"analyzers": []any{"blocking", "race", "blocking"}}, "race,blocking", "false"},
		{"generated", map[string]any{"generated": true}, "race,deadlock,blocking,guardedby,directive", "true"},
		{"generated off again", map[string]any{"generated": false}, "race,deadlock,blocking,guardedby,directive", "false"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := golangci.New(c.settings)
			if err != nil {
				t.Fatal(err)
			}
			as, err := p.BuildAnalyzers()
			if err != nil {
				t.Fatal(err)
			}
			if got := names(as); got != c.analyzers {
				t.Errorf("analyzers = %s, want %s", got, c.analyzers)
			}
			if got := generated(t); got != c.generated {
				t.Errorf("generated flag = %s, want %s", got, c.generated)
			}
		})
	}
}

func TestBadSettings(t *testing.T) {
	for _, c := range []struct {
		name     string
		settings any
		want     []string // substrings of the error
	}{
		{"unknown analyzer", map[string]any{"analyzers": []any{"race", "races"}},
			[]string{`unknown analyzer "races"`, "race, deadlock, blocking, guardedby, directive"}},
		{"debugging analyzer", map[string]any{"analyzers": []any{"factdump"}},
			[]string{`unknown analyzer "factdump"`, "debugging"}},
		{"empty list", map[string]any{"analyzers": []any{}},
			[]string{"analyzers is empty"}},
		{"unknown key", map[string]any{"library": false},
			[]string{`unknown field "library"`, "known settings: analyzers, generated, related"}},
		{"wrong type", map[string]any{"analyzers": "race"},
			[]string{"bad settings", "analyzers"}},
		{"not a map", []any{"race"},
			[]string{"bad settings"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := golangci.New(c.settings)
			if err == nil {
				t.Fatalf("New(%v) = %v, want an error", c.settings, p)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "origo: ") {
				t.Errorf("error %q does not name the plugin", err)
			}
		})
	}
}

// TestRelated checks that the analyzers drop their reports' related
// positions, which golangci-lint would show as issues of their own,
// unless the setting related keeps them.
func TestRelated(t *testing.T) {
	for _, keep := range []bool{false, true} {
		p, err := golangci.New(map[string]any{"analyzers": []any{"race"}, "related": keep})
		if err != nil {
			t.Fatal(err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatal(err)
		}
		dir, err := filepath.Abs(filepath.Join("..", "race", "testdata"))
		if err != nil {
			t.Fatal(err)
		}
		results := analysistest.Run(t, dir, as[0], "chains")
		related := 0
		for _, r := range results {
			for _, d := range r.Diagnostics {
				related += len(d.Related)
			}
		}
		if keep != (related > 0) {
			t.Errorf("related: %v gave %d related positions", keep, related)
		}
	}
}

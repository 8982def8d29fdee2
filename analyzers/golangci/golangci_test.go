package golangci_test

import (
	"fmt"
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

// oneOfEachName returns an error if the analyzers and those they require
// hold two analyzers of one name.
func oneOfEachName(as []*analysis.Analyzer) error {
	seen := map[string]*analysis.Analyzer{}
	var visit func(a *analysis.Analyzer) error
	visit = func(a *analysis.Analyzer) error {
		if b, ok := seen[a.Name]; ok {
			if b != a {
				return fmt.Errorf("two analyzers named %s", a.Name)
			}
			return nil
		}
		seen[a.Name] = a
		for _, r := range a.Requires {
			if err := visit(r); err != nil {
				return err
			}
		}
		return nil
	}
	for _, a := range as {
		if err := visit(a); err != nil {
			return err
		}
	}
	return nil
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
		{"with what directive requires", map[string]any{"analyzers": []any{"directive", "guardedby"}}, "guardedby,directive", "false"},
		{"with what blocking requires", map[string]any{"analyzers": []any{"blocking", "deadlock"}}, "deadlock,blocking", "false"},
		{"related", map[string]any{"related": true}, "race,deadlock,blocking,guardedby,directive", "false"},
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
			// golangci-lint validates the analyzers with what they
			// require before it runs them: one analyzer per name.
			if err := analysis.Validate(as); err != nil {
				t.Errorf("analysis.Validate: %v", err)
			}
			if err := oneOfEachName(as); err != nil {
				t.Error(err)
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

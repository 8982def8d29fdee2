package golangci

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"github.com/origo-dev/origo/analyzers/suite"
	"golang.org/x/tools/go/analysis"
)

// Name is the linter's name in golangci-lint's configuration.
const Name = "origo"

func init() { register.Plugin(Name, New) }

// analyzers are the analyzers a configuration may name, in the order
// they run. The origo command's debugging analyzer is not among them:
// its reports are dumps of facts, not findings.
var analyzers = suite.Analyzers

// Settings are the plugin's settings, under
// linters.settings.custom.origo.settings in .golangci.yml; see the
// package documentation.
type Settings struct {
	// Analyzers names the analyzers to run; nil runs them all.
	Analyzers []string `json:"analyzers"`
	// Generated reports in generated files too.
	Generated bool `json:"generated"`
	// Related keeps each report's related positions, which golangci-lint
	// shows as issues of their own ("race(related information): ..."):
	// off by default, as the message names those positions already.
	Related bool `json:"related"`
}

// knownKeys are the json names of Settings' fields, for the error on an
// unknown key.
const knownKeys = "analyzers, generated, related"

// Plugin is origo as a golangci-lint module plugin.
type Plugin struct {
	analyzers []*analysis.Analyzer
}

// New decodes and checks the settings golangci-lint passes and sets the
// analyzers' flags from them. It is the plugin's constructor, registered
// under the name "origo".
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("origo: bad settings: %v (known settings: %s)", err, knownKeys)
	}
	selected, err := selectAnalyzers(s.Analyzers)
	if err != nil {
		return nil, err
	}
	// The flag is set on every analyzer, selected or not, and to false
	// as well as true: it is one option of the suite, and the last New
	// decides it.
	for _, a := range analyzers {
		if err := a.Flags.Set("generated", strconv.FormatBool(s.Generated)); err != nil {
			return nil, fmt.Errorf("origo: setting %s's flag generated: %v", a.Name, err)
		}
	}
	if !s.Related {
		selected = withoutRelated(selected)
	}
	return &Plugin{analyzers: selected}, nil
}

// withoutRelated returns copies of the suite's analyzers whose reports
// carry no related positions, selected's in its order. A copy has its
// original's name, flags and requirements, except that it requires the
// copy of a suite analyzer where the original requires that analyzer
// (directive requires the four others, blocking deadlock): an analyzer
// and its copy in one run would be two analyzers of one name, each
// registering the same fact types, which golangci-lint's validation
// refuses.
func withoutRelated(selected []*analysis.Analyzer) []*analysis.Analyzer {
	copies := make(map[*analysis.Analyzer]*analysis.Analyzer, len(analyzers))
	for _, a := range analyzers {
		b := *a
		b.Run = func(pass *analysis.Pass) (any, error) {
			p := *pass
			p.Report = func(d analysis.Diagnostic) {
				d.Related = nil
				pass.Report(d)
			}
			return a.Run(&p)
		}
		copies[a] = &b
	}
	for _, b := range copies {
		requires := slices.Clone(b.Requires)
		for i, r := range requires {
			if c, ok := copies[r]; ok {
				requires[i] = c
			}
		}
		b.Requires = requires
	}
	out := make([]*analysis.Analyzer, len(selected))
	for i, a := range selected {
		out[i] = copies[a]
	}
	return out
}

// selectAnalyzers returns the analyzers names selects, in suite order:
// all of them for nil.
func selectAnalyzers(names []string) ([]*analysis.Analyzer, error) {
	if names == nil {
		return slices.Clone(analyzers), nil
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("origo: settings: analyzers is empty; leave it out to run all of %s", analyzerNames())
	}
	var selected []*analysis.Analyzer
	for _, n := range names {
		i := slices.IndexFunc(analyzers, func(a *analysis.Analyzer) bool { return a.Name == n })
		if i < 0 {
			why := ""
			if n == "factdump" {
				why = " (factdump is the origo command's debugging analyzer)"
			}
			return nil, fmt.Errorf("origo: settings: unknown analyzer %q%s; the analyzers are %s", n, why, analyzerNames())
		}
		if !slices.Contains(selected, analyzers[i]) {
			selected = append(selected, analyzers[i])
		}
	}
	slices.SortFunc(selected, func(a, b *analysis.Analyzer) int {
		return slices.Index(analyzers, a) - slices.Index(analyzers, b)
	})
	return selected, nil
}

func analyzerNames() string {
	var names []string
	for _, a := range analyzers {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

// BuildAnalyzers returns the selected analyzers; golangci-lint runs them
// with the analyzers they require. It implements register.LinterPlugin.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return p.analyzers, nil
}

// GetLoadMode returns register.LoadModeTypesInfo: origo needs syntax,
// types, and the facts of the imports, which golangci-lint computes in
// that mode by analyzing the dependencies from source. It implements
// register.LinterPlugin.
func (p *Plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// Package suite declares, once, the analyzers of origo that a user
// runs, in the order they run: the origo command (under go vet and
// standalone), the golangci-lint plugin and origo-bench's editor
// benchmark take them from here. Two lists cannot import this package
// and repeat it, checked by this package's test: the analyzers that the
// directive analyzer requires (every other one: it reports the
// directives they did not use) and the names a directive may give
// (ignore.Analyzers).
package suite

import (
	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/analyzers/guardedby"
	"github.com/origo-dev/origo/analyzers/race"
	"golang.org/x/tools/go/analysis"
)

// Analyzers are origo's analyzers, in the order they run; directive,
// which reads what the others silenced, is last.
var Analyzers = []*analysis.Analyzer{race.Analyzer, deadlock.Analyzer, blocking.Analyzer, guardedby.Analyzer, directive.Analyzer}

// Package guard keeps a failure inside one of origo's passes from
// crashing the process that hosts it (go vet, gopls, golangci-lint).
package guard

import (
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis"
)

// Stop is a panic value with which a pass gives up on a package on
// purpose (it is too large to analyze within bounds); Do reports its
// reason as a skip, not as an internal error.
type Stop struct{ Reason string }

// Do runs f. If f panics, Do recovers, writes one line naming the pass
// and the package to standard error, and returns that line; otherwise it
// returns "". The caller then degrades to an empty result: fewer findings,
// never a crash.
//
// Set ORIGO_PANIC=1 to let the panic through, with its stack, when
// debugging origo itself.
func Do(pass *analysis.Pass, name string, f func()) (failure string) {
	if os.Getenv("ORIGO_PANIC") == "1" {
		f()
		return ""
	}
	defer func() {
		switch r := recover().(type) {
		case nil:
			return
		case Stop:
			failure = fmt.Sprintf("origo: %s skipped package %s: %s", name, pass.Pkg.Path(), r.Reason)
		default:
			failure = fmt.Sprintf("origo: internal error in %s on package %s: %v (results for this package are incomplete; set ORIGO_PANIC=1 for a stack trace)",
				name, pass.Pkg.Path(), r)
		}
		fmt.Fprintln(os.Stderr, failure)
	}()
	f()
	return ""
}

// Package longtest is the switch for origo's long end-to-end tests:
// those that re-analyse the standard library under go vet, build
// golangci-lint, run the command many times to compare its outputs, or
// run large generated inputs. "go test ./..." leaves them out, so that a
// newcomer's run of the README's test command ends in minutes;
// ORIGO_LONG=1 runs them, as .ci/run does in steps of their own.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that runs the long tests.
const Env = "ORIGO_LONG"

// Enabled reports whether the long tests run.
func Enabled() bool { return os.Getenv(Env) != "" && os.Getenv(Env) != "0" }

// Skip skips t unless the long tests run, saying how to run it.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("a long end-to-end test: set " + Env + "=1 to run it (.ci/run does)")
	}
}

// Package paralleltests checks top-level tests that call t.Parallel:
// go test runs them on from that call only once every test that does not
// has returned, so a sequential test's writes happen before what a
// parallel test does after t.Parallel, while a goroutine a sequential
// test leaves running may run beside it.
package paralleltests

var (
	infinity bool
	roots    []string
	level    int
	polls    int
)

// Enable sets the package's mode, as a test does for its own run.
func Enable() { infinity = true }

// Encode reads the mode.
func Encode() string {
	if infinity {
		return "infinity"
	}
	return ""
}

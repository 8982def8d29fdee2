package buildir

import (
	"testing"

	"github.com/origo-dev/origo/passes/syncapi"
)

// TestFactless checks that a package whose SSA a run for facts alone
// skips is one whose memory and locks effects and lockset leave out of
// their facts, and that the other internal packages, whose pointer
// summaries and goroutines importers read, are built.
func TestFactless(t *testing.T) {
	for _, path := range []string{"runtime", "sync", "internal/sync", "sync/atomic", "testing", "runtime/pprof", "net/http"} {
		if factless(path) && !syncapi.Internal(path) {
			t.Errorf("factless(%q), but effects and lockset export its facts", path)
		}
		if want := path == "runtime"; factless(path) != want {
			t.Errorf("factless(%q) = %v, want %v", path, !want, want)
		}
	}
}

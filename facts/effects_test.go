package facts

import "testing"

// TestStableFile checks that facts name a file of the go command's
// temporary work directory by its base name only.
func TestStableFile(t *testing.T) {
	for name, want := range map[string]string{
		"/tmp/go-build3098244335/b002/_cgo_gotypes.go": "_cgo_gotypes.go",
		"/usr/local/go/src/net/net.go":                 "/usr/local/go/src/net/net.go",
		"/home/me/go-builder/x.go":                     "/home/me/go-builder/x.go",
		"x.go":                                         "x.go",
	} {
		if got := stableFile(name); got != want {
			t.Errorf("stableFile(%q) = %q, want %q", name, got, want)
		}
	}
}

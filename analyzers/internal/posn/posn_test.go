package posn

import (
	"go/token"
	"testing"
)

func TestNames(t *testing.T) {
	fset := token.NewFileSet()
	own := fset.AddFile("/m/p/a.go", -1, 100)
	other := fset.AddFile("/m/lib/a.go", -1, 100)
	own.SetLines([]int{0, 10, 20})
	other.SetLines([]int{0, 10, 20})
	f := Formatter{fset: fset, dir: "/m/p"}
	for _, c := range []struct {
		got, want string
	}{
		{f.Pos(own.Pos(12)), "a.go:2"},
		{f.Pos(other.Pos(25)), "lib/a.go:3"}, // a file of the same name in another package
		{f.Pos(token.NoPos), "?"},
		{f.At("/m/p/a.go:7:3"), "a.go:7"},
		{f.At("/usr/go/src/net/http/header.go:22:4"), "http/header.go:22"},
		{f.At("b.go:5:1"), "b.go:5"}, // a cgo file facts name by its base name
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

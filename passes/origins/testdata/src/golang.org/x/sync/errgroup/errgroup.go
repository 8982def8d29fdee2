// Package errgroup is a stand-in for golang.org/x/sync/errgroup with the
// same API, so that GOPATH-mode fixtures need no module download.
package errgroup

type Group struct{}

func (g *Group) Go(f func() error)         { go f() } // want Go:`go <dynamic>`
func (g *Group) TryGo(f func() error) bool { return true }
func (g *Group) Wait() error               { return nil }

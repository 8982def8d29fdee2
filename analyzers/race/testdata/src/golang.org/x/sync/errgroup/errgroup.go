// Package errgroup is a stand-in for golang.org/x/sync/errgroup with the
// same API, so that GOPATH-mode fixtures need no module download. origo
// knows Go and Wait by name; the bodies do not matter.
package errgroup

type Group struct{ err error }

func (g *Group) Go(f func() error)         {}
func (g *Group) TryGo(f func() error) bool { return true }
func (g *Group) Wait() error               { return g.err }

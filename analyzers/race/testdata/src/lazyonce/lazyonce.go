// Package main checks the Once of an object that initializes the object
// lazily (g.once.Do(g.initPeers)) where the object is one of several:
// whichever group the pointer analysis finds behind g in each
// goroutine, two accesses of the same g.peers are on one group, and so
// under the same Once, whose callback runs once and returns before
// every Do on it. A write outside the Do, or a read that no Do
// precedes, has no such order.
package main

import "sync"

type Group struct {
	once  sync.Once
	peers []string
	name  string
	hits  int
}

var groups = map[string]*Group{}

func New(name string) *Group {
	g := &Group{name: name}
	groups[name] = g
	return g
}

// initPeers is the callback, as a method value.
func (g *Group) initPeers() {
	if g.peers == nil {
		g.peers = []string{g.name} // silent "once"
	}
}

// Get reads what the callback wrote, after Do returned.
func (g *Group) Get() int {
	g.once.Do(g.initPeers)
	return len(g.peers) // silent "once"
}

// Peers reads it one call down from the Do.
func (g *Group) Peers() []string {
	g.once.Do(g.initPeers)
	return g.list()
}

func (g *Group) list() []string {
	return g.peers // silent "once"
}

type Cache struct {
	once sync.Once
	data map[string]int
	size int
}

var caches = []*Cache{{}, {}}

// Peek reads what the callback writes, before any Do: the callback may
// be writing.
func (c *Cache) Peek() int {
	return c.size
}

// Lookup has its callback as a function literal.
func (c *Cache) Lookup(k string) int {
	c.once.Do(func() {
		c.data = map[string]int{"a": 1} // silent "once"
		c.size = 1                      // want `data race on Cache.size`
	})
	return c.data[k] // silent "once"
}

// Hit writes outside the Do, in every goroutine that calls it.
func (g *Group) Hit() {
	g.once.Do(g.initPeers)
	g.hits++ // want `data race on Group.hits`
}

// hitEach's goroutines each take the group of their own name from the
// package-level map: two groups, made by the constructor main calls
// twice, which the pointer analysis merges. The map shows that any
// goroutine may reach any group, not that two reach one (rule evidence:
// an object a package-level variable holds is one object of the program
// only where the package's initialization alone makes it): silent, a
// possible data race with -all.
func hitEach(names []string, done chan bool) {
	for _, name := range names {
		go func() {
			groups[name].hits-- // silent "no-sharing-evidence"
			done <- true
		}()
	}
}

func main() {
	New("a")
	New("b")
	hitEach([]string{"a", "b"}, make(chan bool, 2))
	// The goroutines share the group they capture (see hitEach for
	// groups each goroutine looks up).
	g := groups["a"]
	for i := 0; i < 2; i++ {
		go func() {
			g.Get()
			g.Peers()
			g.Hit()
			g.Load()
			caches[i].Lookup("a")
			caches[i].Peek()
		}()
	}
}

// Load reads in a function literal made after the Do, which another
// function calls: whoever calls it runs after the Do.
func (g *Group) Load() int {
	g.once.Do(g.initPeers)
	return g.load()
}

func (g *Group) load() int {
	n := 0
	call(func() {
		n = len(g.peers) // silent "once"
	})
	return n
}

func call(f func()) { f() }

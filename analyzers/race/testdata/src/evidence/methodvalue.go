package main

// A method value binds its receiver as a call passes an argument: the
// object it points to is handed along, and no variable is captured
// that a goroutine reaches without running the function declaring it.
// A constructor that fills the node it made and then starts the node's
// loop orders its writes before that loop by the go statement; two
// nodes meet only where the analysis merged the nodes one call site
// makes, so the pairs are possible races, shown with -all.
type node struct {
	peers *peerQueue
	label string
	kind  string
	tag   string
}

type peerQueue struct{ count func() int }

func (n *node) size() int { return len(n.label) + len(n.kind) + len(n.tag) }

// newNode hands a method value to a struct it keeps.
func newNode(name string, done chan bool) *node {
	n := &node{}
	n.peers = &peerQueue{count: n.size}
	n.label = name // silent "no-sharing-evidence"
	go n.loop(done)
	return n
}

// newCounted hands a method value to a function that keeps it.
func newCounted(kind string, done chan bool) *node {
	n := &node{}
	keep(n.size)
	n.kind = kind // silent "no-sharing-evidence"
	go n.loop(done)
	return n
}

var kept []func() int

func keep(f func() int) { kept = append(kept, f) }

func (n *node) loop(done chan bool) {
	_ = n.size()
	done <- true
}

// newWatched hands the method value to the goroutine it starts, then
// writes what the method reads: the go statement hands the node over,
// and nothing orders the write after it.
func newWatched(tag string, done chan bool) *node {
	n := &node{}
	go poll(n.size, done)
	n.tag = tag // want `data race on node.tag`
	return n
}

func poll(f func() int, done chan bool) {
	_ = f()
	done <- true
}

// nodes builds them through two calls of a chain deeper than the
// analysis tells call sites apart: one node object for both.
func nodes(done chan bool) {
	build("a", done)
	build("b", done)
}

func build(name string, done chan bool) { buildAll(name, done) }

func buildAll(name string, done chan bool) {
	newNode(name, done)
	newCounted(name, done)
	newWatched(name, done)
}

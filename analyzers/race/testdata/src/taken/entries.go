package main

import "sync"

// An entry taken alone: a goroutine that, holding the mutex, looks a
// key up in a map field and deletes it, or pops an element off a slice
// field, owns what the entry held. The others reach the entries only
// through the field, holding the mutex, and that one is gone from it.

type handler struct {
	closed bool
	uses   int
	marks  int
}

type client struct {
	mu       sync.Mutex
	handlers map[int]*handler
	idle     []*handler
	queue    []*handler
}

// deregister takes one handler out of the map and closes it without
// the lock: silent, closeAll reaches it only under the lock, before.
func (c *client) deregister(id int) {
	c.mu.Lock()
	h, ok := c.handlers[id]
	delete(c.handlers, id)
	c.mu.Unlock()
	if ok {
		h.close()
	}
}

// deregisterLater does the same in a method whose function literal
// captures the receiver: go/ssa keeps c in a variable of its own and
// loads it at each use, the lookup's c and the delete's one value still.
func (c *client) deregisterLater(id int) func() {
	c.mu.Lock()
	h, ok := c.handlers[id]
	delete(c.handlers, id)
	c.mu.Unlock()
	if ok {
		h.closed = true // silent "taken-under-lock"
	}
	return func() { c.closeAll() }
}

func (h *handler) close() {
	if !h.closed {
		h.closed = true // silent "taken-under-lock"
	}
}

// closeAll closes every handler holding the lock.
func (c *client) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range c.handlers {
		h.close()
	}
	for _, h := range c.idle {
		h.uses = 0
	}
	for _, h := range c.queue {
		h.marks = 0
	}
}

// checkout pops the last idle handler and uses it without the lock.
func (c *client) checkout() {
	c.mu.Lock()
	if len(c.idle) == 0 {
		c.mu.Unlock()
		return
	}
	n := len(c.idle) - 1
	h := c.idle[n]
	c.idle = c.idle[:n]
	c.mu.Unlock()
	h.uses++ // silent "taken-under-lock"
}

// next pops the first queued handler and marks it without the lock.
func (c *client) next() {
	c.mu.Lock()
	if len(c.queue) == 0 {
		c.mu.Unlock()
		return
	}
	h := c.queue[0]
	c.queue = c.queue[1:]
	c.mu.Unlock()
	h.marks++ // silent "taken-under-lock"
}

type peeker struct {
	mu       sync.Mutex
	handlers map[int]*handler
	idle     []*handler
}

// find looks the handler up but leaves it in the map: closeAll may
// still reach it, so writing it without the lock races.
func (p *peeker) find(id int) {
	p.mu.Lock()
	h := p.handlers[id]
	p.mu.Unlock()
	if h != nil {
		h.closed = true // want `data race on handler.closed: .* vs write at entries.go:\d+ \(main goroutine\)` `data race on handler.closed: .* vs write at entries.go:\d+ \(goroutine started`
	}
}

// take deletes the handler it looks up: its own, but find's look-up
// left one in the map that take may delete later, so find's write
// still races with take's (one taker is not two).
func (p *peeker) take(id int) {
	p.mu.Lock()
	h := p.handlers[id]
	delete(p.handlers, id)
	p.mu.Unlock()
	if h != nil {
		h.closed = true
	}
}

// last reads the last idle handler without popping it.
func (p *peeker) last() {
	p.mu.Lock()
	h := p.idle[len(p.idle)-1]
	p.mu.Unlock()
	h.uses++ // want `data race on handler.uses`
}

func (p *peeker) sweep() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.handlers {
		h.closed = false
	}
	for _, h := range p.idle {
		h.uses = 0
	}
}

// slots keeps handlers by value: popping one leaves its slot in the
// array, and grab keeps a pointer into it, which the next put's append
// writes again. Reported.
type slots struct {
	mu   sync.Mutex
	free []handler
}

func (s *slots) grab() {
	s.mu.Lock()
	n := len(s.free) - 1
	h := &s.free[n]
	s.free = s.free[:n]
	s.mu.Unlock()
	h.uses++ // want `handler.uses`
}

func (s *slots) put() {
	s.mu.Lock()
	s.free = append(s.free, handler{})
	s.mu.Unlock()
}

func init() {
	c := &client{handlers: map[int]*handler{1: {}, 2: {}}, idle: []*handler{{}, {}}, queue: []*handler{{}, {}}}
	go c.deregister(1)
	go c.deregisterLater(2)
	go c.checkout()
	go c.checkout() // two takers: each pops its own handler
	go c.next()
	c.closeAll()

	p := &peeker{handlers: map[int]*handler{1: {}}, idle: []*handler{{}}}
	go p.find(1)
	go p.take(1)
	go p.last()
	p.sweep()

	s := &slots{free: make([]handler, 1, 4)}
	go s.grab()
	s.put()
}

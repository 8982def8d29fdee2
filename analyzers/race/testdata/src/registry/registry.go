// Package registry fills objects, starts their goroutines, and then
// publishes them into a map under the registry's mutex: a method that
// finds one there holding the mutex runs after the fill
// (published-under-lock), whatever it locks when it uses it.
package registry

import "sync"

// Transport adds peers under t.mu: startPeer, called holding it, starts
// the peer's goroutine and then fills its reader, before AddPeer stores
// the peer into t.peers, as a Peer interface. Pause finds the peer under
// t.mu (read-locked), and reads the reader through the interface's
// method, holding the peer's own mutex: silent.
type Transport struct {
	mu    sync.RWMutex
	peers map[int]Peer
}

type peer struct {
	mu     sync.Mutex
	reader *reader
	stopc  chan struct{}
	paused bool
}

type reader struct{ paused bool }

// Peer is what a transport keeps.
type Peer interface{ pause() }

func startPeer() *peer {
	p := &peer{stopc: make(chan struct{})}
	go p.run()
	p.reader = &reader{} // silent "published-under-lock"
	return p
}

func (p *peer) run() { <-p.stopc }

// Start makes the map, before the transport is shared.
func (t *Transport) Start() { t.peers = make(map[int]Peer) }

func (t *Transport) AddPeer(id int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.peers[id] = startPeer()
}

func (t *Transport) Pause(id int) {
	t.mu.RLock()
	p, ok := t.peers[id]
	t.mu.RUnlock()
	if ok {
		p.pause()
	}
}

func (p *peer) pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	p.reader.paused = true
}

// Consumer fills a connection before it takes its mutex to store it:
// the fill is before the store in Connect's goroutine, and Limit finds
// the connection under c.mtx before it writes holding the connection's
// mutex: silent. Connect's write after the store races with Limit's,
// reported. (Max's unlocked read against Connect's unlocked writes
// shows no sharing between two callers: no-evidence.)
type Consumer struct {
	mtx   sync.Mutex
	conns map[string]*conn
}

type conn struct {
	mu     sync.Mutex
	maxRdy int
	closed chan struct{}
}

// Start makes the map, before the consumer is shared.
func (c *Consumer) Start() { c.conns = make(map[string]*conn) }

func (c *Consumer) Connect(addr string) {
	cn := &conn{closed: make(chan struct{})}
	go cn.readLoop()
	cn.maxRdy = 10 // silent "published-under-lock"
	c.mtx.Lock()
	c.conns[addr] = cn
	c.mtx.Unlock()
	cn.maxRdy = 20 // want `data race on conn.maxRdy: write at registry.go:\d+ \(concurrent methods\) vs write at registry.go:\d+ \(concurrent methods\); locks held: \{\} vs \{conn.mu\}`
}

func (cn *conn) readLoop() { <-cn.closed }

func (c *Consumer) Max(addr string) int {
	c.mtx.Lock()
	cn := c.conns[addr]
	c.mtx.Unlock()
	return cn.maxRdy
}

func (c *Consumer) Limit(addr string, n int) {
	c.mtx.Lock()
	cn := c.conns[addr]
	c.mtx.Unlock()
	cn.mu.Lock()
	cn.maxRdy = n
	cn.mu.Unlock()
}

// Package libmode is a library: the exported methods of its types that
// carry a mutex or an atomic value may be called by goroutines at once,
// but a pair between two such callers is reported only where the code
// shows the location is meant to be shared.
package libmode

import (
	"sync"
	"sync/atomic"
)

// Counter locks n in Inc and forgets the lock in Reset: inconsistent
// locking, reported.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Reset() {
	c.n = 0 // want `data race on Counter.n: write at libmode.go:\d+ \(concurrent methods\) vs write at libmode.go:\d+ \(concurrent methods\); locks held: \{\} vs \{c.mu\}`
}

// Flag is read atomically in Ready and written plainly in Set: mixed
// atomic and plain access, reported.
type Flag struct {
	mu sync.Mutex
	v  int32
}

func (f *Flag) Ready() bool { return atomic.LoadInt32(&f.v) == 1 }

func (f *Flag) Set() {
	f.v = 1 // want `data race on Flag.v: write at libmode.go:\d+ \(concurrent methods\) vs (read|write) at libmode.go:\d+ \(concurrent methods\)`
}

// Server is set up by Configure and Start before it is shared, the way
// httptest.Server's Start sets URL: no access to addr or limit holds a
// lock or is atomic, and the goroutine Start starts reads them after
// they are written. Silent.
type Server struct {
	mu    sync.Mutex
	addr  string
	limit int
	conns int
}

func (s *Server) Configure(limit int) { s.limit = limit } // silent "no-evidence"

func (s *Server) Start(addr string) {
	s.addr = addr // silent "no-evidence"
	go s.serve()
}

func (s *Server) serve() {
	for range s.limit {
		_ = s.addr
		s.mu.Lock()
		s.conns++
		s.mu.Unlock()
	}
}

func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// Registry's count is written under the lock and read by Len without
// it: mutated while shared, and Len forgot the lock. Reported. Its name
// is written by SetName without the lock and read by Name with it: a
// setter called before the registry is shared, as SetID or Start in
// real code. Silent.
type Registry struct {
	mu    sync.Mutex
	count int
	name  string
}

func (r *Registry) Add() {
	r.mu.Lock()
	r.count++ // want `data race on Registry.count: write at libmode.go:\d+ \(concurrent methods\) vs read at libmode.go:\d+ \(concurrent methods\); locks held: \{r.mu\} vs \{\}`
	r.mu.Unlock()
}

func (r *Registry) Len() int {
	return r.count
}

func (r *Registry) SetName(name string) { r.name = name } // silent "no-evidence"

func (r *Registry) Name() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.name
}

// Worker starts its loop before it writes what the loop reads: a race
// inside one call of Run, reported without any lock in sight.
type Worker struct {
	mu   sync.Mutex
	name string
}

func (w *Worker) Run() {
	go w.loop()
	w.name = "worker" // want `data race on Worker.name: write at libmode.go:\d+ \(concurrent methods\) vs read at libmode.go:\d+ \(goroutine started at libmode.go:\d+\)`
}

func (w *Worker) loop() { println(w.name) }

// Node's Step is promoted through Raft's embedded interface; go/ssa
// loads all of n.r to call it, but the call reads the interface field
// alone, never tick, which the goroutine writes under the lock. Silent.
type Stepper interface{ Step(int) }

type config struct {
	Stepper
	name string
}

type raft struct {
	mu *sync.Mutex
	config
	tick int
}

type Node struct {
	mu sync.Mutex
	r  raft
}

func (n *Node) Start() {
	go func() {
		n.r.mu.Lock()
		n.r.tick++
		n.r.mu.Unlock()
	}()
}

func (n *Node) Process(m int) { n.r.Step(m) }

// Transport's Start makes the tables that AddPeer and Stop change under
// the lock: locking that is not consistent, but every call of Start the
// package shows (NewTransport's, a test's) is on a transport not yet
// shared, so Start sets the transport up. Silent.
type Transport struct {
	mu    sync.Mutex
	peers map[int]int
}

func NewTransport() *Transport {
	t := &Transport{}
	t.Start()
	return t
}

func (t *Transport) Start() { t.peers = make(map[int]int) } // silent "setup-method"

func (t *Transport) AddPeer(id int) {
	t.mu.Lock()
	t.peers[id] = id
	t.mu.Unlock()
}

func (t *Transport) Stop() {
	t.mu.Lock()
	t.peers = nil
	t.mu.Unlock()
}

// Cache's Clear makes a new table without the lock that Put holds, and
// its one call in the package is on a cache a goroutine already uses:
// reported: by the presumed callers in the package alone, by TestCache's
// own goroutines in its test variant (a pair the tests reach is shown
// rather than a presumed one).
type Cache struct {
	mu    sync.Mutex
	items map[int]int
}

func (c *Cache) Clear() {
	c.items = make(map[int]int) // want `data race on Cache.items: write at libmode.go:\d+ \((concurrent methods|test goroutine)\) vs write at libmode.go:\d+ \((concurrent methods|goroutine started at libmode_test.go:\d+)\); locks held: \{\} vs \{c.mu\}`
}

func (c *Cache) Put(k int) {
	c.mu.Lock()
	c.items = map[int]int{k: k}
	c.mu.Unlock()
}

// Errors is a slice of errors that Append grows; SafeErrors guards one
// with a mutex, on the shared receiver of its concurrent methods.
type Errors []error

func (errs *Errors) Append(err error) {
	if err != nil {
		*errs = append(*errs, err)
	}
}

func (errs Errors) First() error {
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}

type SafeErrors struct {
	mu   sync.Mutex
	errs Errors
}

func (s *SafeErrors) Append(err error) {
	s.mu.Lock()
	s.errs.Append(err)
	s.mu.Unlock()
}

// Gatherer collects its errors in a SafeErrors of its own per call, made
// there: the arrays that this call's appends make are its own, though
// Append on the shared receiver runs the same append.
type Gatherer struct {
	mu   sync.Mutex
	jobs []func() error
}

func (g *Gatherer) Gather() error {
	errs := &SafeErrors{}
	g.mu.Lock()
	jobs := g.jobs
	g.mu.Unlock()
	var wg sync.WaitGroup
	for _, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs.Append(job())
		}()
	}
	errs.Append(nil)
	wg.Wait()
	return errs.errs.First()
}

// Lines and SafeLines are the same, but SafeLines.First reads the
// shared receiver's lines without the mutex while Add may grow them.
type Lines []string

func (ls *Lines) Add(l string) {
	if l != "" {
		*ls = append(*ls, l) // want `data race on SafeLines.lines: write at libmode.go:\d+ \(concurrent methods\) vs read at libmode.go:\d+ \(concurrent methods\); locks held: \{s.mu\} vs \{\}` `data race on an element of Lines: append at libmode.go:\d+ \(concurrent methods\) vs read at libmode.go:\d+ \(concurrent methods\); locks held: \{s.mu\} vs \{\}`
	}
}

type SafeLines struct {
	mu    sync.Mutex
	lines Lines
}

func (s *SafeLines) Add(l string) {
	s.mu.Lock()
	s.lines.Add(l)
	s.mu.Unlock()
}

func (s *SafeLines) First() string {
	if len(s.lines) == 0 {
		return ""
	}
	return s.lines[0]
}

// Chunker's Balance counts with an atomic operation on its receiver: it
// is written to be called at once, and the default that it stores in
// ChunkSize with neither a lock nor an atomic is a race between two
// calls. Reported, one call down (the write is in balance).
type Chunker struct {
	ChunkSize int
	counter   uint32
}

func (c *Chunker) Balance(n int) int { return c.balance(n) }

func (c *Chunker) balance(n int) int {
	if c.ChunkSize < 1 {
		c.ChunkSize = 1 // want `data race on Chunker.ChunkSize: write at libmode.go:\d+ \(concurrent methods\) vs write at libmode.go:\d+ \(concurrent methods\); locks held: \{\} vs \{\}`
	}
	k := atomic.AddUint32(&c.counter, 1)
	return int(k/uint32(c.ChunkSize)) % n
}

// Sizer's size is written by SetSize, which synchronizes on nothing: a
// setter called before the value is shared, though Next counts with an
// atomic. Silent.
type Sizer struct {
	size    int
	counter uint32
}

func (s *Sizer) SetSize(n int) { s.size = n } // silent "no-evidence"

func (s *Sizer) Next() int { return int(atomic.AddUint32(&s.counter, 1)) % max(s.size, 1) }

// Stats counts under its lock and stamps the last value after Unlock: a
// write that the locking method leaves bare, made while the stats are
// shared. Reported.
type Stats struct {
	mu   sync.Mutex
	n    int
	last int
}

func (s *Stats) Record(v int) {
	s.mu.Lock()
	s.n += v
	s.mu.Unlock()
	s.last = v // want `data race on Stats.last: write at libmode.go:\d+ \(concurrent methods\) vs (read|write) at libmode.go:\d+ \(concurrent methods\); locks held: \{\} vs \{\}`
}

func (s *Stats) Last() int { return s.last }

// Ring's Link locks its own ring and labels the ring it is given: the
// lock is on another object than the write, so nothing shows the label
// written while that ring is shared; and the ring it is given is its
// caller's argument, each caller's own (see Store). Silent, with no
// candidate to explain.
type Ring struct {
	mu    sync.Mutex
	next  *Ring
	label string
}

func (r *Ring) Link(o *Ring) {
	r.mu.Lock()
	r.next = o
	r.mu.Unlock()
	o.label = "linked"
}

func (r *Ring) Label() string { return r.label }

// Parser is not safe for concurrent use: its mutex guards what it
// shares with its own goroutine. Count reads n without the lock Feed
// writes it under, which two callers at once would race on (as
// Registry's Len is reported), but its documentation tells callers not
// to. Silent.
type Parser struct {
	mu sync.Mutex
	n  int
}

func (p *Parser) Feed() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
}

func (p *Parser) Count() int { return p.n } // silent "documented-serial"

// Scanner keeps its position under a mutex its own goroutine shares;
// a Scanner itself isn't thread safe, its documentation says, in the
// contracted form: Offset reads off bare, silent.
type Scanner struct {
	mu  sync.Mutex
	off int
}

func (s *Scanner) Advance() {
	s.mu.Lock()
	s.off++
	s.mu.Unlock()
}

func (s *Scanner) Offset() int { return s.off } // silent "documented-serial"

// Arena counts what it has handed out, read atomically by Used.
type Arena struct {
	off uint64
}

// Alloc reserves n bytes and returns their offset. Alloc is not
// thread-safe: its callers take turns. Silent, where Chunker's
// undocumented Balance is reported.
func (a *Arena) Alloc(n uint64) uint64 {
	o := a.off
	a.off += n // silent "documented-serial"
	return o
}

func (a *Arena) Used() uint64 { return atomic.LoadUint64(&a.off) }

// Valve is safe for concurrent use by multiple goroutines.
//
// It says so, though it carries no mutex and no atomic: its callers may
// Close it while another goroutine Sends. Reported, directly and one
// call down.
type Valve struct {
	closed bool
	shut   bool
	out    chan int
}

func (v *Valve) Close() {
	v.closed = true // want `data race on Valve.closed: write at libmode.go:\d+ \(concurrent methods\) vs (read|write) at libmode.go:\d+ \(concurrent methods\)`
	v.markShut()
}

func (v *Valve) markShut() {
	v.shut = true // want `data race on Valve.shut: write at libmode.go:\d+ \(concurrent methods\) vs (read|write) at libmode.go:\d+ \(concurrent methods\)`
}

func (v *Valve) Send(x int) {
	if v.closed || v.shut {
		return
	}
	v.out <- x
}

// Tap has Valve's shape and says nothing of concurrent use: nothing
// shows that its callers share one Tap, and library mode starts no
// concurrent calls of its methods (there is no candidate for origo why
// to explain). Silent.
type Tap struct {
	closed bool
	out    chan int
}

func (t *Tap) Close() { t.closed = true }

func (t *Tap) Send(x int) {
	if t.closed {
		return
	}
	t.out <- x
}

// Hash spreads keys over shards. It's safe for
// concurrent use by multiple goroutines.
//
// (The promise is read across the comment's line break.) Its state is
// behind a pointer: a caller's Hash reaches one hashState through h.st,
// so two of its methods that go through it touch the same fields.
// OnNew appends to the hooks holding mu; SetAddrs reads them holding
// setMu, another mutex, one call down, and Hooks reads them holding
// setMu directly: reported. The shards, read and written holding mu,
// stay silent.
type Hash struct{ st *hashState }

type hashState struct {
	mu     sync.Mutex
	setMu  sync.Mutex
	hooks  []func(string)
	shards int
}

func (h *Hash) OnNew(fn func(string)) {
	h.st.mu.Lock()
	h.st.hooks = append(h.st.hooks, fn) // want `concurrent append: data race on hashState.hooks: write at libmode.go:\d+ \(concurrent methods\) vs read at libmode.go:\d+ \(concurrent methods\); locks held: \{h.st.mu\} vs \{h.st.setMu\}` `concurrent append: data race on an element of \[\]func\(string\)`
	h.st.mu.Unlock()
}

func (h *Hash) SetAddrs(addrs []string) {
	h.st.setMu.Lock()
	defer h.st.setMu.Unlock()
	for _, a := range addrs {
		h.st.add(a)
	}
}

func (st *hashState) add(a string) {
	for _, fn := range st.hooks {
		fn(a)
	}
	st.mu.Lock()
	st.shards++ // silent "common-lock"
	st.mu.Unlock()
}

func (h *Hash) Hooks() int {
	h.st.setMu.Lock()
	defer h.st.setMu.Unlock()
	return len(h.st.hooks)
}

func (h *Hash) Shards() int {
	h.st.mu.Lock()
	defer h.st.mu.Unlock()
	return h.st.shards // silent "common-lock"
}

// Store fills the entry its caller passes: each caller of a method
// passes its own arguments, so two calls of Get at once fill two
// entries, directly (Key) and one call down (Val): silent, with no
// candidate to explain, since the two callers' arguments are two
// objects. Touch writes the entry the store holds, holding only a read
// lock, which does not keep two writers apart: reported.
type Store struct {
	mu   sync.RWMutex
	vals map[int]int
	last *Entry
}

type Entry struct{ Key, Val int }

func (s *Store) Get(k int, e *Entry) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e.Key = k
	s.fill(k, e)
}

func (s *Store) fill(k int, e *Entry) { e.Val = s.vals[k] }

func (s *Store) Touch(v int) {
	s.mu.RLock()
	s.last.Val = v // want `data race on Entry.Val: write at libmode.go:\d+ \(concurrent methods\) vs write at libmode.go:\d+ \(concurrent methods\); locks held: \{s.mu \(read\)\} vs \{s.mu \(read\)\}`
	s.mu.RUnlock()
}

// Writer makes its buffers once, inside a sync.Once's Do (directly, and
// one call away in init), and reads them before it calls Do, holding no
// lock. A Once orders what its function did before every return of Do,
// not before a read that calls no Do; it is no mutex either, so a write
// inside Do is not "written holding a lock", and with no other evidence
// two callers are not presumed to reach the buffers at once. Silent.
type Writer struct {
	mu   sync.Mutex
	once sync.Once
	hdr  sync.Once
	buf  []byte
	head []byte
	n    int
}

func (w *Writer) Write(p []byte) {
	if w.Buffered() == 0 {
		w.once.Do(func() {
			w.buf = make([]byte, 0, 64) // silent "no-evidence"
		})
	}
	if w.Header() == nil {
		w.hdr.Do(w.init)
	}
	w.mu.Lock()
	w.n += len(p)
	w.mu.Unlock()
}

func (w *Writer) init() {
	w.head = make([]byte, 4) // silent "no-evidence"
}

func (w *Writer) Buffered() int { return cap(w.buf) }

func (w *Writer) Header() []byte { return w.head }

// Cluster's Load is entered with c.mu held: its one caller in the
// package, Recover, holds it around the call (etcd's UnsafeLoad); so is
// Apply, one call further, whose one caller restore is entered so by
// Restore. Neither is a call of its own for the concurrent callers: the
// callers that hold the mutex run them. reloadLocked and PurgeLocked say
// so by their names. Bump, called holding c.mu by Recover and bare by Refresh, is
// not, and Reset, which nothing calls, is a call of its own.
type Cluster struct {
	mu      sync.Mutex
	version int
	epoch   int
	members map[int]string
}

func (c *Cluster) Load() {
	c.version = 1 // silent "common-lock"
	c.members = map[int]string{}
}

func (c *Cluster) Recover() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Load()
	c.Bump()
}

func (c *Cluster) Restore() {
	c.mu.Lock()
	c.restore()
	c.mu.Unlock()
}

func (c *Cluster) restore() { c.Apply() }

func (c *Cluster) Apply() {
	c.version = 2 // silent "common-lock"
}

func (c *Cluster) Reload() {
	c.mu.Lock()
	c.reloadLocked()
	c.mu.Unlock()
}

func (c *Cluster) reloadLocked() { c.members = nil }

// PurgeLocked says by its name that its caller holds c.mu, though the
// package does not call it: no call of its own either.
func (c *Cluster) PurgeLocked() { c.members = map[int]string{} }

func (c *Cluster) Bump() {
	c.epoch++ // want `data race on Cluster.epoch: (write|read) at libmode.go:\d+ \(concurrent methods\) vs (write|read) at libmode.go:\d+ \(concurrent methods\); locks held: \{\} vs \{c.mu\}`
}

func (c *Cluster) Refresh() { c.Bump() }

func (c *Cluster) Reset() {
	c.members = nil // want `data race on Cluster.members: write at libmode.go:\d+ \(concurrent methods\) vs write at libmode.go:\d+ \(concurrent methods\); locks held: \{\} vs \{c.mu\}`
}

func (c *Cluster) SetVersion(v int) {
	c.mu.Lock()
	c.version = v
	c.mu.Unlock()
}

// A Loader writes, holding its own mutex, into the table of the
// database it was given, directly (Load) and one call away (Fill), and
// Size reads the table bare: the loader's mutex guards the loader and
// what it holds directly (its database), not the database's table, two
// pointers away, so the locking shows nothing about how the table is
// shared. Silent. Its cursor, which it holds directly, is its own to
// guard: Stage locks it and Pos reads it bare, reported.
type Loader struct {
	mu  sync.Mutex
	db  *database
	cur *cursor
}

type database struct{ tab *table }

type table struct{ size, rows int }

type cursor struct{ pos int }

func NewLoader() *Loader { return &Loader{db: &database{tab: &table{}}, cur: &cursor{}} }

func (l *Loader) Load(n int) {
	l.mu.Lock()
	l.db.tab.size += n // silent "no-sharing-evidence"
	l.mu.Unlock()
}

func (l *Loader) Fill(n int) {
	l.mu.Lock()
	l.db.grow(n)
	l.mu.Unlock()
}

func (d *database) grow(n int) { d.tab.rows += n } // silent "no-sharing-evidence"

func (l *Loader) Size() int { return l.db.tab.size + l.db.tab.rows }

func (l *Loader) Stage(p int) {
	l.mu.Lock()
	l.cur.pos = p // want `data race on cursor.pos: write at libmode.go:\d+ \(concurrent methods\) vs read at libmode.go:\d+ \(concurrent methods\); locks held: \{l.mu\} vs \{\}`
	l.mu.Unlock()
}

func (l *Loader) Pos() int { return l.cur.pos }

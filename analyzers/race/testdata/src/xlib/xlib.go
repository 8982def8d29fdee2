// Package xlib is imported by xuse: its functions' locks and accesses
// reach the race analysis of its importer through facts.
package xlib

import (
	"sync"
	"sync/atomic"
)

// Counter is safe when used through Inc and Value, not through Bump.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc increments under the counter's lock.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Value reads under the lock, released by a deferred call.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Bump increments without the lock.
func (c *Counter) Bump() {
	c.n++
}

// Lock and Unlock make the counter's mutex the caller's to hold: a lock
// helper that returns locked.
func (c *Counter) Lock()   { c.mu.Lock() }
func (c *Counter) Unlock() { c.mu.Unlock() }

// Set writes p.X through a helper in this package.
func Set(p *Point, v int) { setX(p, v) }

func setX(p *Point, v int) { p.X = v }

// Point is plain data.
type Point struct{ X, Y int }

// Table is a map guarded by a read-write mutex.
type Table struct {
	mu sync.RWMutex
	M  map[string]int
}

// Get reads the map holding the lock for reading.
func (t *Table) Get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.M[k]
}

// Put writes the map holding the lock.
func (t *Table) Put(k string, v int) {
	t.mu.Lock()
	t.M[k] = v
	t.mu.Unlock()
}

// PutUnlocked writes the map and forgets the lock.
func (t *Table) PutUnlocked(k string, v int) {
	t.M[k] = v
}

// Publish writes p.X, then sends on ch.
func Publish(p *Point, ch chan<- bool) {
	p.X = 1
	ch <- true
}

// SendFirst sends on ch, then writes p.X.
func SendFirst(p *Point, ch chan<- bool) {
	ch <- true
	p.X = 1
}

// Finish writes p.X, then closes done.
func Finish(p *Point, done chan struct{}) {
	p.X = 3
	close(done)
}

// CloseFirst closes done, then writes p.X.
func CloseFirst(p *Point, done chan struct{}) {
	close(done)
	p.X = 3
}

// Work writes p.Y; its deferred Done runs after.
func Work(p *Point, wg *sync.WaitGroup) {
	defer wg.Done()
	p.Y = 2
}

// DoneFirst marks wg done, then writes p.Y.
func DoneFirst(p *Point, wg *sync.WaitGroup) {
	wg.Done()
	p.Y = 2
}

// Wait waits for wg.
func Wait(wg *sync.WaitGroup) { wg.Wait() }

// Config loads itself once, whoever asks first.
type Config struct {
	once sync.Once
	Val  int
}

// Load sets c.Val on the first call; every call returns after it.
func (c *Config) Load() int {
	c.once.Do(func() { c.Val = 42 })
	return c.Val
}

// Queue hands values from producers to consumers through a Cond.
type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
}

func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.cond.Signal()
	q.mu.Unlock()
}

func (q *Queue) Get() int {
	q.mu.Lock()
	for len(q.items) == 0 {
		q.cond.Wait()
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.mu.Unlock()
	return v
}

// Server counts the Serve calls in progress; Stop waits for those begun.
type Server struct{ serving sync.WaitGroup }

func (s *Server) Serve() {
	s.serving.Add(1)
	defer s.serving.Done()
}

func (s *Server) Stop() { s.serving.Wait() }

// Box is made by NewBox: its importers know it only through summaries.
type Box struct{ v int }

func NewBox() *Box { return &Box{} }

func (b *Box) Set(v int) { b.v = v }

// File guards its descriptor with a reference count, as os.File does:
// Close marks it closing and the last reference destroys it.
type File struct {
	closing int32
	fd      int
}

func NewFile() *File { return &File{fd: 3} }

func (f *File) Sync() int {
	if atomic.LoadInt32(&f.closing) != 0 {
		return -1
	}
	return f.fd
}

func (f *File) Close() {
	if atomic.CompareAndSwapInt32(&f.closing, 0, 1) {
		f.fd = -1
	}
}

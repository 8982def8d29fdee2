// Package gb holds the reported accesses to guarded fields and their
// silent twins.
package gb

import (
	"sort"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	// +checklocks:mu
	count int // want count:`guarded\(mu at gb\.go:12\)`
	total int // +checklocks:mu // want total:`guarded\(mu at gb\.go:14\)`
	free  int // not annotated: never reported
}

func (c *Counter) Read() int {
	return c.count // want `read of c.count without c.mu held \(annotated \+checklocks:mu at gb.go:12\)`
}

func (c *Counter) Write() {
	c.total = 1 // want `write to c.total without c.mu held \(annotated \+checklocks:mu at gb.go:14\)`
}

func (c *Counter) Inc() {
	c.count++ // want `write to c.count without c.mu held`
}

func (c *Counter) Free() { c.free++ }

func (c *Counter) Locked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count++
	c.total = c.count
	return c.total
}

func (c *Counter) AfterUnlock() int {
	c.mu.Lock()
	c.count++
	c.mu.Unlock()
	return c.count // want `read of c.count without c.mu held`
}

func (c *Counter) OnSomePaths(b bool) {
	if b {
		c.mu.Lock()
	}
	c.count = 2 // want `write to c.count without c.mu held`
	if b {
		c.mu.Unlock()
	}
}

type Table struct {
	mu sync.RWMutex
	// +checklocks:mu
	rows map[string]int // want rows:`guarded\(mu at gb\.go:59\)`
	// +checklocks:mu
	n int // want n:`guarded\(mu at gb\.go:61\)`
}

func (t *Table) Get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.rows[k] + t.n
}

func (t *Table) SetUnderRLock() {
	t.mu.RLock()
	t.n = 3 // want `write to t.n with t.mu held only for reading \(annotated \+checklocks:mu at gb.go:61\)`
	t.mu.RUnlock()
}

func (t *Table) PutUnderRLock(k string) {
	t.mu.RLock()
	t.rows[k] = 1 // want `write to t.rows with t.mu held only for reading`
	t.mu.RUnlock()
}

func (t *Table) Put(k string) {
	t.mu.Lock()
	t.rows[k] = 1
	delete(t.rows, "")
	t.mu.Unlock()
}

// +checklocksignore
func (t *Table) Ignored() int { return t.n }

// +checklocks:ignore
func (t *Table) IgnoredOldSpelling() int { return t.n }

func (t *Table) IgnoredLine() int {
	x := t.n // +checklocksignore
	// +checklocksignore
	y := t.n
	return x + y
}

func (t *Table) OrigoIgnore() int {
	return t.n //origo:ignore guardedby the test checks the directive
}

func (t *Table) OtherAnalyzer() int {
	return t.n //origo:ignore race names another analyzer // want `read of t.n without t.mu held`
}

// +checklocks:t.mu
func (t *Table) setLocked(n int) { // want setLocked:`guarded\(t\.mu at gb\.go:111\)`
	t.n = n
	t.rows = nil
}

// +checklocksread:t.mu
func (t *Table) getLocked() int { return t.n } // want getLocked:`guarded\(read t\.mu at gb\.go:117\)`

// +checklocksread:t.mu
func (t *Table) setReadLocked(n int) { // want setReadLocked:`guarded\(read t\.mu at gb\.go:120\)`
	t.n = n // want `write to t.n with t.mu held only for reading`
}

// +checklocks:t.mu
func (t *Table) dropsTheLock() { // want dropsTheLock:`guarded\(t\.mu at gb\.go:125\)`
	t.n = 1
	t.mu.Unlock()
	t.n = 2 // want `write to t.n without t.mu held`
	t.mu.Lock()
	t.n = 3
}

func (t *Table) Set(n int) {
	t.mu.Lock()
	t.setLocked(n)
	_ = t.getLocked()
	t.dropsTheLock()
	t.mu.Unlock()
	t.setLocked(n) // want `call of setLocked without t.mu held \(annotated \+checklocks:t.mu at gb.go:111\)`
	t.mu.RLock()
	_ = t.getLocked()
	t.setLocked(n) // want `call of setLocked with t.mu held only for reading`
	t.mu.RUnlock()
}

func NewTable() *Table {
	t := &Table{rows: make(map[string]int)}
	t.n = 1
	t.setLocked(2)
	return t
}

func newTableLiteral() *Table {
	return &Table{n: 1}
}

func makeTable() *Table {
	t := &Table{n: 1} // a composite literal, not yet published
	t.n = 2
	t.setLocked(3)
	go t.Set(1)
	t.n = 4 // want `write to t.n without t.mu held`
	return t
}

func (t *Table) Sorted(keys []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sort.Slice(keys, func(i, j int) bool { return t.rows[keys[i]] < t.rows[keys[j]] })
	func() { t.n++ }()
	go func() {
		t.n++ // want `write to t.n without t.mu held`
	}()
}

type Outer struct {
	mu    sync.Mutex
	inner *Inner
	// +checklocks:inner.mu
	viaInner int // want viaInner:`guarded\(inner\.mu at gb\.go:180\)`
}

type Inner struct {
	mu sync.Mutex
	// +checklocks:mu
	n int // want n:`guarded\(mu at gb\.go:186\)`
}

func (o *Outer) Through() {
	o.inner.mu.Lock()
	o.inner.n++
	o.viaInner++
	o.inner.mu.Unlock()
	o.mu.Lock()
	o.inner.n++  // want `write to o.inner.n without o.inner.mu held`
	o.viaInner++ // want `write to o.viaInner without o.inner.mu held`
	o.mu.Unlock()
}

type Embeds struct {
	sync.Mutex
	// +checklocks:Mutex
	n int // want n:`guarded\(Mutex at gb\.go:203\)`
}

func (e *Embeds) Inc() {
	e.Lock()
	e.n++
	e.Unlock()
	e.n++ // want `write to e.n without e.Mutex held`
}

var global struct {
	mu sync.Mutex
	// +checklocks:mu
	n int // want n:`guarded\(mu at gb\.go:216\)`
}

func Global() {
	global.mu.Lock()
	global.n++
	global.mu.Unlock()
	global.n++ // want `write to global.n without global.mu held`
}

type Bad struct {
	mu sync.Mutex
	// +checklocks:mux // want `bad \+checklocks annotation: Bad has no field mux, so it guards nothing`
	a int
	// +checklocks:b // want `bad \+checklocks annotation: b is of type int, not a sync.Mutex, sync.RWMutex or sync.Locker, so it guards nothing`
	b int
}

// +checklocks:x.mu // want `bad \+checklocks annotation: bad has no receiver, parameter or package variable x, so it says nothing`
func (b *Bad) bad() {}

// Package samelock checks sibling locks: two accesses that reach a
// field from a base holding a mutex reached from the same base exclude
// each other. Its types are never made here: library mode gives the
// pointer fields of the methods' shared receiver an object each
// (r.tickMu and b.tickMu are two mutexes), so the mutexes behind them
// are named in the reports, and the silent twins hold the same one.
package samelock

import "sync"

// node is etcd's raftNode: a goroutine ticks, methods read the time.
type node struct {
	tickMu  *sync.RWMutex
	valMu   sync.Mutex
	other   *sync.Mutex
	latest  int
	stamp   stamp
	count   int
	a, g    int
	c, d, e int
	p       *shared
	peers   map[int]int // written under tickMu, read under it
	seen    map[int]int // written under tickMu, read without it
}

type shared struct{ x int }

type stamp struct{ wall, ext int64 }

// Server carries its nodes by value, as EtcdServer carries its r.
type Server struct {
	r, b node
	h    node
	mu   sync.Mutex // makes Server's exported methods roots (library mode)
}

var globalMu sync.Mutex

func (r *node) start() {
	go func() {
		for {
			r.tick()
			r.inc()
		}
	}()
}

// tick writes under the node's own lock, a pointer field. Each of its
// other fields is accessed elsewhere holding another lock.
func (r *node) tick() {
	r.tickMu.Lock()
	r.latest++
	r.stamp = stamp{1, 2}
	r.a++ // want `data race on Server.r.a: write at samelock.go:\d+ \(goroutine started at samelock.go:\d+\) vs read at samelock.go:\d+ \(concurrent methods\); locks held: \{s.r.tickMu\} vs \{s.r.other\}`
	r.g++ // want `data race on Server.r.g: write at samelock.go:\d+ \(goroutine started at samelock.go:\d+\) vs write at samelock.go:\d+ \(concurrent methods\); locks held: \{s.r.tickMu\} vs \{globalMu\}`
	r.c++ // want `data race on Server.r.c: write at samelock.go:\d+ \(goroutine started at samelock.go:\d+\) vs write at samelock.go:\d+ \(concurrent methods\); locks held: \{s.r.tickMu\} vs \{o.tickMu\}`
	r.peers[1] = 2
	r.seen[1] = 2 // want `concurrent map access: data race on a map\[int\]int: write at samelock.go:\d+ \(goroutine started at samelock.go:\d+\) vs read at samelock.go:\d+ \(concurrent methods\); locks held: \{s.r.tickMu\} vs \{\}`
	r.tickMu.Unlock()
	r.bump()
}

// bump writes p.x holding the node's lock. The field reached through a
// load, p, names no object of the node's: other nodes may share p.
func (r *node) bump() {
	r.tickMu.Lock()
	r.p.x++ // want `data race on shared.x: write at samelock.go:\d+ \(concurrent methods\) vs write at samelock.go:\d+ \(goroutine started at samelock.go:\d+\)`
	r.tickMu.Unlock()
}

// latestTick reads under the same lock, for reading, a field and a
// part of another that tick writes whole: silent.
func (r *node) latestTick() int {
	r.tickMu.RLock()
	defer r.tickMu.RUnlock()
	return r.latest + int(r.stamp.ext) // silent "common-lock"
}

// inc and counted use a mutex held by value: silent, and silent
// without sibling locks too, since the mutex is at a location of r's
// object.
func (r *node) inc() {
	r.valMu.Lock()
	r.count++ // silent "common-lock"
	r.valMu.Unlock()
}

func (r *node) counted() int {
	r.valMu.Lock()
	defer r.valMu.Unlock()
	return r.count
}

// pool is the shared object of every node.
var pool = &shared{}

// Start starts r's ticking goroutine; h shares r's p.
func (s *Server) Start() {
	s.r.p, s.h.p = pool, pool
	s.r.peers, s.r.seen = make(map[int]int), make(map[int]int)
	s.r.start()
}

// Peer reads a map that r's field holds, holding r's lock: the map is
// r's own, guarded like the field: silent.
func (s *Server) Peer(id int) int {
	s.r.tickMu.RLock()
	defer s.r.tickMu.RUnlock()
	return s.r.peers[id] // silent "no-evidence"
}

// Seen reads the other map without the lock: reported.
func (s *Server) Seen(id int) int { return s.r.seen[id] }

// Latest and Count read r with its locks: silent.
func (s *Server) Latest() int { return s.r.latestTick() }

func (s *Server) Count() int { return s.r.counted() }

// OtherLock reads r.a holding another of r's mutexes: reported.
func (s *Server) OtherLock() int {
	s.r.other.Lock()
	defer s.r.other.Unlock()
	return s.r.a
}

// GlobalLock writes r.g holding a package lock, not r's: reported.
func (s *Server) GlobalLock() {
	globalMu.Lock()
	s.r.g = 0
	globalMu.Unlock()
}

// CopyFrom writes r.c holding b's lock, another node's: reported.
func (s *Server) CopyFrom() { s.r.copyFrom(&s.b) }

func (r *node) copyFrom(o *node) {
	o.tickMu.Lock()
	r.c = o.c
	o.tickMu.Unlock()
}

// Shared bumps h.p.x holding h's lock, h.p being r.p: reported.
func (s *Server) Shared() { s.h.bump() }

// tock holds r's locks while helpers write: a helper's r is its
// caller's, and the lock a sibling of what it writes.
func (r *node) tock() {
	r.tickMu.Lock()
	r.setLocked()
	r.tickMu.Unlock()
	r.other.Lock()
	r.setOtherLocked()
	r.other.Unlock()
}

func (r *node) setLocked() { r.d++ } // silent "common-lock"

func (r *node) setOtherLocked() { r.e++ } // want `data race on Server.r.e: write at samelock.go:\d+ \(goroutine started at samelock.go:\d+\) vs read at samelock.go:\d+ \(concurrent methods\); locks held: \{s.r.other\} vs \{s.r.tickMu\}`

// Tock starts a goroutine that tocks r.
func (s *Server) Tock() { go s.r.tock() }

// ReadLocked reads d and e holding r's tickMu: d silent, e reported.
func (s *Server) ReadLocked() int {
	s.r.tickMu.Lock()
	defer s.r.tickMu.Unlock()
	return s.r.d + s.r.e
}

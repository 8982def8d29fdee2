// Package condlocker checks the contents of a slice kept in a field,
// guarded by a mutex that the pointer analysis cannot resolve to an
// object: the Locker of a sync.Cond that New makes, which a library's
// presumed callers never show made. Like a map, a slice kept in a field
// is taken to be its object's own: its elements, and the array an
// append writes, are guarded like the field, by a mutex of the same
// object, whichever path reaches it (r.cond.L).
package condlocker

import "sync"

type result struct {
	n   int
	err error
}

// Reader reads in the background; it is safe for concurrent use.
type Reader struct {
	cond    *sync.Cond
	results []result
	marks   []int
}

// New makes a Reader.
func New() *Reader {
	return &Reader{cond: &sync.Cond{L: &sync.Mutex{}}}
}

// Start starts the background reader.
func (r *Reader) Start() {
	go r.background()
}

func (r *Reader) background() {
	for i := 0; i < 10; i++ {
		r.cond.L.Lock()
		r.results = append(r.results, result{n: i}) // silent "common-lock"
		r.marks = append(r.marks, i)                // want `concurrent append: data race on an element of \[\]int: append at condlocker.go:\d+ \(goroutine started at condlocker.go:\d+\) vs read at condlocker.go:\d+`
		r.cond.L.Unlock()
		r.cond.Broadcast()
	}
}

// Read waits for a result and takes it.
func (r *Reader) Read() int {
	r.cond.L.Lock()
	defer r.cond.L.Unlock()
	for len(r.results) == 0 {
		r.cond.Wait()
	}
	r.results[0].err = nil // silent "common-lock"
	v := r.results[0].n
	r.results = r.results[1:]
	return v
}

// Marks hands the slice out: its caller reads the elements holding
// nothing, while the background reader appends. Reported.
func (r *Reader) Marks() []int {
	r.cond.L.Lock()
	defer r.cond.L.Unlock()
	return r.marks
}

// Sum reads the marks Marks handed out.
func (r *Reader) Sum() int {
	s := 0
	for _, m := range r.Marks() {
		s += m
	}
	return s
}

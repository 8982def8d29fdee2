// Package lib is imported by xpkg/app, which sees its functions only
// through their summaries.
package lib

import "sync"

// Mux carries a mutex: an object meant to be shared.
type Mux struct {
	mu sync.Mutex
	h  *int
}

// NewMux allocates a Mux.
func NewMux() *Mux { return &Mux{} }

// Handle stores its argument in the Mux.
func (m *Mux) Handle(h *int) { m.h = h }

// Handler returns what the Mux holds.
func (m *Mux) Handler() *int { return m.h }

type T struct {
	P, Q *int
	next *T
}

// New allocates: each call site in an importer gets its own object.
func New() *T { return &T{} }

// NewWith stores its argument in what it allocates.
func NewWith(p *int) *T { return &T{P: p} }

// SetQ stores its argument in what the receiver points to.
func (t *T) SetQ(q *int) { t.Q = q }

// GetP returns what the receiver's field points to.
func (t *T) GetP() *int { return t.P }

// Swap moves pointers between the fields of its argument.
func Swap(t *T) { t.P, t.Q = t.Q, t.P }

// Chain allocates through New (a callee in its own package) and links.
func Chain(t *T) *T {
	n := New()
	t.next = n
	return n
}

// Next returns the linked object.
func (t *T) Next() *T { return t.next }

// Pair returns two fresh objects.
func Pair() (*T, *T) { return New(), New() }

// Getter is implemented by an unexported type that Box hands out.
type Getter interface{ Get() *int }

type box struct{ p *int }

func (b *box) Get() *int { return b.p }

// Box returns an interface whose dynamic type importers cannot name.
func Box(p *int) Getter { return &box{p} }

// Getter returns a closure over its argument.
func GetterFunc(p *int) func() *int {
	return func() *int { return p }
}

// Setter returns a closure that stores into what its argument points to.
func Setter(t *T) func(*int) {
	return func(q *int) { t.P = q }
}

// Default is a package-level variable that Current returns.
var Default = &T{}

// current is unexported: importers know it only through summaries.
var current = &T{}

// Current returns the unexported variable.
func Current() *T { return current }

// DefaultPtr returns the exported one.
func DefaultPtr() *T { return Default }

// Index builds a map, a channel and a slice that hold its argument.
func Index(p *int) (map[string]*int, chan *int, []*int) {
	ch := make(chan *int, 1)
	ch <- p
	return map[string]*int{"k": p}, ch, []*int{p}
}

// Apply calls f with p: a call of a function argument, which summaries
// do not carry yet.
func Apply(f func(*int), p *int) { f(p) }

// Method returns a bound method value, a closure made by a wrapper that
// summaries do not describe yet.
func (t *T) Method() func() *int { return t.GetP }

// Unexported variables are reached through summaries only: a store into
// one by a function is not carried yet.
var sink *int

// Keep stores p in an unexported variable.
func Keep(p *int) { sink = p }

// Kept returns it.
func Kept() *int { return sink }

// Feed returns a channel that holds p.
func Feed(p *int) <-chan *int {
	ch := make(chan *int, 1)
	ch <- p
	return ch
}

// Ptr is a named pointer type, for conversions across the boundary.
type Ptr *int

// AsPtr converts.
func AsPtr(p *int) Ptr { return Ptr(p) }

// Any boxes p.
func Any(p *int) any { return p }

// Seq yields p: a range-over-func iterator made in lib.
func Seq(p *int) func(func(*int) bool) {
	return func(yield func(*int) bool) { yield(p) }
}

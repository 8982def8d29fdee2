// Package lib is imported by xpkg/app, which sees its functions only
// through their summaries.
package lib

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

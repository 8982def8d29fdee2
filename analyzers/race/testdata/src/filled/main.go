// Package filled shares slices whose length is their capacity: made
// full, or preallocated and filled one element per element ranged over.
// Goroutines that append to such a slice each get a new array and
// write nothing they share (silent); with room left, their appends
// write the same element of the shared array (reported).
package main

import "sync"

func main() {
	names := []string{"a", "b"}
	labels := map[string]string{"a": "1"}
	preallocated(names)
	roomLeft(names)
	skipsSome(names)
	field(labels)
	fieldBreaks(labels)
	publishedEarly(names)
	withOptions(labels)
	remembered(names)
	twoParts(names, names)
	madeFull()
	resliced()
}

func preallocated(names []string) {
	pairs := make([]string, 0, len(names))
	for _, n := range names {
		pairs = append(pairs, n+"=")
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(pairs, "extra")
			_ = mine
		}()
	}
	wg.Wait()
}

func roomLeft(names []string) {
	pairs := make([]string, 0, len(names)+1)
	for _, n := range names {
		pairs = append(pairs, n)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(pairs, "extra") // want `concurrent append: data race on an element of \[\]string`
			_ = mine
		}()
	}
	wg.Wait()
}

// skipsSome appends only some names: the slice may have room.
func skipsSome(names []string) {
	pairs := make([]string, 0, len(names))
	for _, n := range names {
		if n != "" {
			pairs = append(pairs, n)
		}
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(pairs, "extra") // want `concurrent append: data race on an element of \[\]string`
			_ = mine
		}()
	}
	wg.Wait()
}

type desc struct {
	name  string
	pairs []string
}

// newDesc fills d.pairs before anyone else can see d.
func newDesc(name string, labels map[string]string) *desc {
	d := &desc{name: name}
	d.pairs = make([]string, 0, len(labels))
	for k, v := range labels {
		d.pairs = append(d.pairs, k+"="+v)
	}
	return d
}

func field(labels map[string]string) {
	d := newDesc("d", labels)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(d.pairs, "extra")
			_ = mine
		}()
	}
	wg.Wait()
}

// newPartialDesc stops at the first empty value: d.pairs may have room.
func newPartialDesc(labels map[string]string) *desc {
	d := &desc{}
	d.pairs = make([]string, 0, len(labels))
	for k, v := range labels {
		if v == "" {
			break
		}
		d.pairs = append(d.pairs, k)
	}
	return d
}

func fieldBreaks(labels map[string]string) {
	d := newPartialDesc(labels)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(d.pairs, "extra") // want `concurrent append: data race on an element of \[\]string`
			_ = mine
		}()
	}
	wg.Wait()
}

// publishedEarly lets a goroutine hold d while d.pairs still has room:
// its append may write the element the next fill writes.
func publishedEarly(names []string) {
	var mu sync.Mutex
	d := &desc{}
	done := make(chan struct{})
	if len(names) > 0 {
		go extend(d, &mu, done)
	} else {
		close(done)
	}
	mu.Lock()
	d.pairs = make([]string, 0, len(names))
	mu.Unlock()
	for _, n := range names {
		mu.Lock()
		d.pairs = append(d.pairs, n)
		mu.Unlock()
	}
	<-done
}

func extend(d *desc, mu *sync.Mutex, done chan struct{}) {
	defer close(done)
	mu.Lock()
	pairs := d.pairs
	mu.Unlock()
	mine := append(pairs, "extra") // want `concurrent append: data race on an element of \[\]string`
	_ = mine
}

type option func(*desc)

func named(n string) option { return func(d *desc) { d.name = n } }

// newDescWith applies opts before it fills d.pairs: an option that
// only sets fields of d keeps no pointer to it.
func newDescWith(labels map[string]string, opts ...option) *desc {
	d := &desc{}
	for _, opt := range opts {
		opt(d)
	}
	d.pairs = make([]string, 0, len(labels))
	for k := range labels {
		d.pairs = append(d.pairs, k)
	}
	return d
}

func withOptions(labels map[string]string) {
	d := newDescWith(labels, named("d"))
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(d.pairs, "extra")
			_ = mine
		}()
	}
	wg.Wait()
}

var (
	lastMu sync.Mutex
	last   *desc
)

// remember is an option that publishes d before it is filled.
func remember(d *desc) {
	lastMu.Lock()
	last = d
	lastMu.Unlock()
}

func newDescRemembered(names []string, opts ...option) *desc {
	d := &desc{}
	for _, opt := range opts {
		opt(d)
	}
	lastMu.Lock()
	d.pairs = make([]string, 0, len(names))
	lastMu.Unlock()
	for _, n := range names {
		lastMu.Lock()
		d.pairs = append(d.pairs, n)
		lastMu.Unlock()
	}
	return d
}

func remembered(names []string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		lastMu.Lock()
		d := last
		lastMu.Unlock()
		if d != nil {
			lastMu.Lock()
			pairs := d.pairs
			lastMu.Unlock()
			mine := append(pairs, "extra") // want `concurrent append: data race on an element of \[\]string`
			_ = mine
		}
	}()
	newDescRemembered(names, remember)
	<-done
}

// joined makes room for both a and b and appends both.
func joined(a, b []string) []string {
	all := make([]string, 0, len(a)+len(b))
	for _, s := range a {
		all = append(all, s)
	}
	all = append(all, b...)
	return all
}

func twoParts(a, b []string) {
	all := joined(a, b)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(all, "extra")
			_ = mine
		}()
	}
	wg.Wait()
}

func madeFull() {
	counts := make([]int, 4)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(counts, 1)
			_ = mine
		}()
	}
	wg.Wait()
}

// resliced shares a prefix of a full slice: appending to it writes the
// element after the prefix.
func resliced() {
	counts := make([]int, 4)
	prefix := counts[:2]
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(prefix, 1) // want `concurrent append: data race on an element of \[\]int`
			_ = mine
		}()
	}
	wg.Wait()
}

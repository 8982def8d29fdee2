// Package fresh checks writes to an object its function just made: the
// pointer analysis merges the objects of one allocation site, so a
// constructor's writes meet the goroutines of the objects made before.
// Before the object is published they are no race; after, they are.
package main

import (
	"os"
	"sort"
	"sync"
)

type server struct {
	mu    sync.Mutex
	name  string
	mode  int
	ticks int
	buf   []int
	self  any
	idx   map[string]int
}

// newServer fills the server it made across branches, a loop and calls
// that only use it, then returns it: silent, though another server's
// loop reads the same fields.
func newServer(name string, n int, fast bool) *server {
	s := &server{name: name}
	if fast {
		s.mode = 1
	} else {
		s.mode = 2
	}
	idx := make(map[string]int)
	for i := range n {
		s.ticks += s.weight(i) // silent "not-published"
		idx[name] = i
	}
	s.idx = idx
	s.mu.Lock()
	s.buf = make([]int, n)
	s.mu.Unlock()
	s.init(s)
	s.ticks++
	use(s.ticks) // silent "not-published": a read before publication is no race either
	return s
}

// weight only reads its receiver, and gives another package a slice it
// holds, which cannot point back into the server.
func (s *server) weight(i int) int { return i*s.mode + sort.SearchInts(s.buf, i) }

// init stores the server into itself, which publishes nothing.
func (s *server) init(self any) { s.self = self }

func (s *server) Start() { go s.loop() }

func (s *server) loop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ticks++
	use(s.mode + len(s.buf) + len(s.idx))
}

func main() {
	a := newServer("a", 3, true)
	a.Start()
	b := newServer("b", 4, false)
	b.Start()
	started()
	stored()
	mapped(make(map[int]*worker), new(sync.Mutex))
	sent()
	looped()
	spawned()
	captured()
	selfLoaded()
	collected()
	grownAndSent(make(chan []int))
	registries()
	containerSent(make(chan map[string]*worker))
	helped()
	optioned()
	leaked()
	filled()
	lazyMaps()
	describe()
	remotes()
	capturedLater()
	capturedLater()
	madeCaptured()
	madeCaptured()
	capturedAndSet()
	ownedParts()
	ownedParts()
	looseParts()
	looseParts()
	spawnedInLoop()
	stackReaders()
	stackReaders()
	sharedStacks()
	gauges()
	nestedCaptures()
	counted()
}

func use(int) {}

type worker struct{ x, y int }

func (w *worker) loop() { use(w.x + w.y) }

// A write after the object is given to a goroutine races with it.
func started() {
	w := &worker{}
	w.x = 1 // silent "not-published"
	go w.loop()
	w.y = 1 // want `data race on worker.y`
}

var last *worker

// A write after the object is stored into a global that a goroutine
// reads races with it.
func stored() {
	go func() {
		if w := last; w != nil {
			use(w.x)
		}
	}()
	w := &worker{}
	last = w // want `data race on last`
	w.x = 2  // want `data race on worker.x`
}

// A write after the object is put into a map that a goroutine reads.
func mapped(m map[int]*worker, mu *sync.Mutex) {
	go func() {
		mu.Lock()
		use(m[0].y)
		mu.Unlock()
	}()
	w := &worker{}
	mu.Lock()
	m[0] = w
	mu.Unlock()
	w.y = 2 // want `data race on worker.y`
}

// A write after the object is sent on a channel races with the
// receiver.
func sent() {
	ch := make(chan *worker)
	go func() { use((<-ch).x) }()
	w := &worker{}
	ch <- w
	w.x = 3 // want `data race on worker.x`
}

// Published in one iteration, written in the next: the write is no
// longer to a fresh object.
func looped() {
	ch := make(chan *worker, 2)
	go func() {
		for w := range ch {
			use(w.y)
		}
	}()
	w := &worker{}
	for i := range 2 {
		w.y = i // want `data race on worker.y`
		ch <- w
	}
}

func (w *worker) spawn() { go w.loop() }

// A method of the package that starts a goroutine on the object
// publishes it.
func spawned() {
	w := &worker{}
	w.x = 4 // silent "not-published"
	w.spawn()
	w.y = 4 // want `data race on worker.y`
}

// A closure that captures the object publishes it, whoever runs it.
func captured() {
	w := &worker{}
	f := func() { use(w.x) }
	go f()
	w.x = 5 // want `data race on worker.x`
}

type node struct {
	self any
	v    int
}

// The object stored into itself is loaded back and given to a
// goroutine: published.
func selfLoaded() {
	n := &node{}
	n.self = n
	go func(x any) { use(x.(*node).v) }(n.self)
	n.v = 1 // want `data race on node.v`
}

// collect grows a slice of its own and returns it: its appends write
// arrays no goroutine has yet, though a goroutine reads the slice of an
// earlier call.
func collect(n int) []int {
	var out []int
	for i := range n {
		out = append(out, i)
	}
	out[0] = n // silent "not-published"
	return out
}

func collected() {
	a := collect(3)
	go func() { use(a[0]) }()
	b := collect(4)
	use(len(b))
}

// A struct handed by value to a goroutine carries its pointers: the
// copy go/ssa makes of the parameter (its fields' addresses taken)
// holds the caller's board, which every goroutine of the loop counts
// on. Reported. (The slices a function stores in a field of its own
// object, d.pairs below, are its own until it publishes the object.)
type board struct {
	hits int
	wg   sync.WaitGroup
}

type notice struct {
	b *board
}

func count(n notice) {
	defer n.b.wg.Done()
	n.b.hits++ // want `data race on board.hits: write at fresh.go:\d+ \(goroutine started at fresh.go:\d+, in a loop\) vs write at fresh.go:\d+ \(goroutine started at fresh.go:\d+, in a loop\)`
}

func counted() {
	b := &board{}
	for range 2 {
		b.wg.Add(1)
		go count(notice{b})
	}
	b.wg.Wait()
}

// Sending the slice in the loop publishes the array that the next
// append may write in place.
func grownAndSent(ch chan []int) {
	go func() {
		for s := range ch {
			use(s[0])
		}
	}()
	out := make([]int, 0, 8)
	for i := range 3 {
		out = append(out, i) // want `concurrent append`
		ch <- out
	}
}

type registry struct {
	byName map[string]*worker
}

// newRegistry puts its workers into a map of its own, inside a registry
// of its own, and fills them after: nothing is published until the
// return.
func newRegistry() *registry {
	m := make(map[string]*worker)
	w := &worker{}
	m["w"] = w
	r := &registry{byName: m}
	w.x = 6 // silent "not-published"
	return r
}

func (r *registry) Start() { go r.loop() }

func (r *registry) loop() { use(r.byName["w"].x) }

func registries() {
	newRegistry().Start()
	newRegistry().Start()
}

// The map the worker is stored into is sent: the worker goes with it.
func containerSent(ch chan map[string]*worker) {
	go func() { use((<-ch)["w"].y) }()
	m := make(map[string]*worker)
	w := &worker{}
	m["w"] = w
	ch <- m
	w.y = 7 // want `data race on worker.y`
}

// A helper's accesses to the object every caller gives it fresh are
// silent too (etcd's newLessor calling initAndRecover).
func newHelped() *server {
	s := &server{}
	s.setup()
	return s
}

func (s *server) setup() { s.mode = 3 } // silent "not-published"

// tune is given a fresh server by one caller and a running one by the
// other: its write races with the loop of the running one.
func (s *server) tune() { s.mode = 4 } // want `data race on server.mode`

func newTuned() *server {
	s := &server{}
	s.tune()
	return s
}

func helped() {
	a := newHelped()
	a.Start()
	newHelped().Start()
	b := newTuned()
	b.Start()
	b.tune()
}

// An option is applied to the object its constructor made.
type option func(*worker)

func withY(y int) option { return func(w *worker) { w.y = y } }

// newOpted applies its options, which the pointer analysis finds, and
// none of them publishes the worker: its write after them is silent.
func newOpted(opts ...option) *worker {
	w := &worker{}
	for _, opt := range opts {
		opt(w)
	}
	w.x = 8 // silent "not-published"
	return w
}

// The worker newOpted returns is the caller's alone until it starts its
// loop: the writes before are silent, those after race.
func optioned() {
	for range 2 {
		w := newOpted(withY(1))
		w.y = 2 // silent "not-published"
		go w.loop()
		w.x = 3 // want `data race on worker.x`
	}
}

func withLoop(w *worker) { go w.loop() }

// newLeaky applies an option that starts the worker's loop: the write
// after it races.
func newLeaky(opts ...option) *worker {
	w := &worker{}
	for _, opt := range opts {
		opt(w)
	}
	w.y = 9 // want `data race on worker.y`
	return w
}

// leaked's write races too: newLeaky's result is published already.
func leaked() {
	for range 2 {
		w := newLeaky(withLoop)
		w.x = 9 // want `data race on worker.x`
	}
}

type metric struct{ v int }

// fill writes the metric it is given: a fresh one from newMetric, whose
// write is silent though earlier metrics are read by goroutines, and a
// published one from filled, whose write races.
func fill(m *metric, v int) { m.v = v } // want `data race on metric.v: write at fresh.go:\d+ \(main goroutine\) vs read at fresh.go:\d+ \(goroutine started at fresh.go:\d+\); locks held: \{\} vs \{\}`

func newMetric(v int) *metric {
	m := &metric{}
	fill(m, v)
	return m
}

func filled() {
	for i := range 2 {
		m := newMetric(i)
		go func() { use(m.v) }()
	}
	s := &metric{}
	go func() { use(s.v) }()
	fill(s, 2)
}

var (
	mapsMu sync.Mutex
	maps   []map[int]bool
)

// lazyMap makes its map on first need, in a loop, and fills it there:
// silent, since only the append under mapsMu after the loop publishes
// it, though the reader reads the maps of earlier calls.
func lazyMap(n int) {
	var m map[int]bool
	for i := range n {
		if m == nil {
			m = make(map[int]bool)
		}
		m[i] = true // silent "not-published"
	}
	mapsMu.Lock()
	maps = append(maps, m)
	mapsMu.Unlock()
}

// lateMap writes its map after publishing it: a race with the reader.
func lateMap(n int) {
	var m map[int]bool
	if n > 0 {
		m = make(map[int]bool, n)
	} else {
		m = make(map[int]bool)
	}
	mapsMu.Lock()
	maps = append(maps, m)
	mapsMu.Unlock()
	m[n] = true // want `concurrent map access`
}

func lazyMaps() {
	go func() {
		mapsMu.Lock()
		for _, m := range maps {
			use(len(maps) + b2i(m[0]))
		}
		mapsMu.Unlock()
	}()
	lazyMap(2)
	lazyMap(3)
	lateMap(1)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

type desc struct{ pairs []int }

var (
	descsMu sync.Mutex
	descs   []*desc
)

// newDesc grows the slice it stores in a field of the desc it made,
// through loads of that field: silent, though a reader reads the pairs
// of earlier descs.
func newDesc(n int) *desc {
	d := &desc{}
	d.pairs = make([]int, 0, n)
	for i := range n {
		d.pairs = append(d.pairs, i) // silent "not-published"
	}
	return d
}

// grownLate grows it after the desc is published: a race.
func grownLate(n int) {
	d := &desc{pairs: make([]int, 0, n)}
	descsMu.Lock()
	descs = append(descs, d)
	descsMu.Unlock()
	d.pairs = append(d.pairs, n) // want `concurrent append`
}

func describe() {
	go func() {
		descsMu.Lock()
		for _, d := range descs {
			use(d.pairs[0])
		}
		descsMu.Unlock()
	}()
	for i := range 2 {
		d := newDesc(i)
		descsMu.Lock()
		descs = append(descs, d)
		descsMu.Unlock()
	}
	grownLate(3)
}

// A pipe whose start is called on a new pipe by startRemote, under the
// table's mutex, and on a published one by resume: the writes of the
// first run of start touch a pipe no other goroutine has, so they race
// with nothing (not-published); resume's race with the loops the first
// run started. The two are goroutines of the program that reach the
// pipe only three pointers down from a package-level map, and the lock
// around the first run shows that stopc is shared, not that these two
// share one pipe: a possible data race, reported with -all (see
// "Evidence of sharing" in package ownership).
type pipe struct{ stopc chan struct{} }

func (p *pipe) start() {
	p.stopc = make(chan struct{})
	go p.loop()
}

func (p *pipe) loop() { <-p.stopc }

type remote struct{ p *pipe }

func startRemote() *remote {
	p := &pipe{}
	p.start()
	return &remote{p: p}
}

func (g *remote) resume() { g.p.start() }

var (
	remotesMu sync.Mutex
	remoteMap = make(map[int]*remote)
)

func remotes() {
	go func() {
		remotesMu.Lock()
		defer remotesMu.Unlock()
		remoteMap[1] = startRemote()
	}()
	go func() {
		remotesMu.Lock()
		g := remoteMap[1]
		remotesMu.Unlock()
		if g != nil {
			g.resume()
		}
	}()
}

// A variable that a closure captures lives in a cell, which every use
// loads: still the function's own variable, holding what it was
// assigned. The writes through it before the go statement are silent,
// those after race, whether the variable holds what the function made
// or what a constructor returned.
func capturedLater() {
	w := &worker{}
	w.x = 10 // silent "not-published"
	go w.loop()
	w.y = 10 // want `data race on worker.y`
	report := func() { use(w.x) }
	report()
}

func madeCaptured() {
	w := newWorker()
	w.y = 11 // silent "not-published"
	go w.loop()
	defer func() { use(w.y) }()
	w.x = 11 // want `data race on worker.x`
}

func newWorker() *worker { return &worker{} }

// A closure that assigns the variable may change what it holds: the
// write after the call is to what the closure stored (shared, which a
// goroutine reads).
var shared = &worker{}

func capturedAndSet() {
	go func() { use(shared.x) }()
	w := &worker{}
	set := func() { w = shared }
	set()
	w.x = 12 // want `data race on worker.x`
}

// An object that only a field of another holds is its holder's part: a
// field that every store of the package gives an object just made,
// published no other way. Written through an unpublished holder, the
// part is unpublished too, whether the holder's constructor or its
// function put it there.
type part struct{ n int }

func (p *part) run() { use(p.n) }

type whole struct{ p, q *part }

func newWhole() *whole { return &whole{p: &part{}} }

func ownedParts() {
	w := newWhole()
	w.q = &part{}
	w.p.n = 1 // silent "not-published"
	w.q.n = 1 // silent "not-published"
	go w.p.run()
	go w.q.run()
	w.p.n = 2 // want `data race on part.n`
}

// A field that one store gives a shared object is no part: a write
// through it, though the holder is unpublished, may be to that object.
type loose struct{ p *part }

var common = &part{}

func looseParts() {
	go common.run()
	l := &loose{p: &part{}}
	if len(os.Args) > 1 {
		l.p = common
	}
	l.p.n = 3 // want `data race on part.n`
}

type looper struct{ a, n int }

func newLooper() *looper { return &looper{} }

func (l *looper) spawn() { go l.run() }

func (l *looper) run() { use(l.a + l.n) }

// A constructor's looper that a call in a loop publishes (spawn starts
// its goroutine): the write before the loop is the maker's, the write in
// the loop comes after the previous iteration's spawn.
func spawnedInLoop() {
	l := newLooper()
	l.a = 10 // silent "not-published"
	for i := range 2 {
		l.n = i // want `data race on looper.n`
		l.spawn()
	}
}

// Parts may move between owning fields of one holder: a stack whose top
// is the reader's and each stackNode's parent the next. A stackNode pushed is made
// where it is pushed, a stackNode popped goes from a parent back to the top:
// every stackNode is still reached only through its reader. What the reader's
// constructor writes into its top stackNode, itself or in a method it calls,
// is the reader's own until the constructor returns it.
type stackNode struct {
	parent *stackNode
	count  int
}

type stackReader struct {
	mu  sync.Mutex
	top *stackNode
}

func newStackReader() *stackReader {
	r := &stackReader{top: &stackNode{}}
	r.push()
	r.top.count = 2 // silent "not-published"
	r.header()
	return r
}

func (r *stackReader) header() {
	r.top.count = 1 // silent "not-published": in the constructor's call; under r.mu in next's
}

func (r *stackReader) push() { r.top = &stackNode{parent: r.top} }

func (r *stackReader) pop() {
	if r.top.parent != nil {
		r.top = r.top.parent
	}
}

func (r *stackReader) next() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.push()
	r.header()
	use(r.top.count)
	r.pop()
}

func stackReaders() {
	r := newStackReader()
	go r.next()
	r.next()
}

// A stackNode taken from another reader's stack is no part of one reader:
// the constructor's writes through its top may be to a stackNode that the
// other reader's goroutine uses.
type sharedStack struct {
	mu   sync.Mutex
	top  *stackNode
	from string
}

func newSharedStack(from *sharedStack) *sharedStack {
	r := &sharedStack{top: &stackNode{}}
	if from != nil {
		r.top = from.top
	}
	r.header()
	return r
}

func (r *sharedStack) header() {
	r.top.count = 4 // want `data race on stackNode.count`
}

func (r *sharedStack) next() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.header()
}

func sharedStacks() {
	a := newSharedStack(nil)
	go a.next()
	b := newSharedStack(a)
	b.next()
}

// A function literal that only runs on the spot publishes nothing: each
// calls its callback and keeps it nowhere, so the gauge is still its
// constructor's after the call. One given to a function that starts a
// goroutine with it is published there.
type gauge struct{ v int }

func (g *gauge) run() { use(g.v) }

func (g *gauge) start() { go g.run() }

func each(n int, f func(int)) {
	for i := range n {
		f(i)
	}
}

func later(f func(int)) { go f(0) }

func newGauge() *gauge {
	g := &gauge{}
	each(2, func(i int) { use(g.v + i) })
	g.v = 1 // silent "not-published": the literal ran on the spot
	return g
}

func newLateGauge() *gauge {
	g := &gauge{}
	later(func(i int) { use(g.v + i) })
	g.v = 2 // want `data race on gauge.v`
	return g
}

func gauges() {
	for range 2 {
		newGauge().start()
	}
	newLateGauge().start()
}

// A literal inside a literal writes through what the outer one
// captured: the chain of calls leads back to the outer literal's free
// variable, not to the cell its maker made, and the write after the go
// statement races.
func nestedCaptures() {
	w := &worker{}
	go w.loop()
	outer := func() {
		each(1, func(int) { w.x = 13 }) // want `data race on worker.x`
	}
	outer()
}

// Package spawns has one function per way of starting a goroutine.
package spawns

import (
	"context"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

func work() {}

type T struct{ n int }

func (t *T) run() {}

func GoStmt() { // want GoStmt:`^origins\(go spawns.work spawns.go:20\)$`
	go work()
}

func GoClosure() { // want GoClosure:`^origins\(go spawns.GoClosure\$1 spawns.go:24\)$`
	go func() { work() }()
}

func GoMethodValue(t *T) { // want GoMethodValue:`^origins\(go \(\*spawns.T\).run spawns.go:29\)$`
	f := t.run
	go f()
}

func GoMethodCall(t *T) { // want GoMethodCall:`^origins\(go \(\*spawns.T\).run spawns.go:33\)$`
	go t.run()
}

func GoDynamic(f func()) { // want GoDynamic:`^origins\(go <dynamic> spawns.go:37\)$`
	go f()
}

func GoInterface(s interface{ Run() }) { // want GoInterface:`^origins\(go <dynamic> spawns.go:41\)$`
	go s.Run()
}

func InLoop(n int) { // want InLoop:`^origins\(go spawns.work spawns.go:46 multi\)$`
	for i := 0; i < n; i++ {
		go work()
	}
}

func InRange(xs []int) { // want InRange:`^origins\(go spawns.InRange\$1 spawns.go:52 multi\)$`
	for _, x := range xs {
		go func() { _ = x }()
	}
}

func NotInLoop(xs []int) { // want NotInLoop:`^origins\(go spawns.work spawns.go:60\)$`
	for range xs {
		work()
	}
	go work()
}

func WaitGroupGo(wg *sync.WaitGroup) { // want WaitGroupGo:`^origins\(wg.Go spawns.work spawns.go:64\)$`
	wg.Go(work)
}

func Errgroup(g *errgroup.Group) { // want Errgroup:`^origins\(errgroup.Go spawns.Errgroup\$1 spawns.go:68; errgroup.Go spawns.Errgroup\$2 spawns.go:69\)$`
	g.Go(func() error { return nil })
	g.TryGo(func() error { return nil })
}

func AfterFunc() { // want AfterFunc:`^origins\(time.AfterFunc spawns.work spawns.go:73\)$`
	time.AfterFunc(time.Second, work)
}

func ContextAfterFunc(ctx context.Context) { // want ContextAfterFunc:`^origins\(context.AfterFunc spawns.work spawns.go:77\)$`
	context.AfterFunc(ctx, work)
}

type handler struct{}

func (handler) ServeHTTP(http.ResponseWriter, *http.Request) {}

func serve(http.ResponseWriter, *http.Request) {}

func Handlers(mux *http.ServeMux) { // want Handlers:`^origins\(http.Handler spawns.serve spawns.go:87 multi; http.Handler \(spawns.handler\).ServeHTTP spawns.go:88 multi; http.Handler spawns.serve spawns.go:89 multi; http.Handler \(spawns.handler\).ServeHTTP spawns.go:90 multi; http.Handler spawns.serve spawns.go:91 multi\)$`
	http.HandleFunc("/a", serve)
	http.Handle("/b", handler{})
	mux.HandleFunc("/c", serve)
	mux.Handle("/d", handler{})
	http.ListenAndServe(":0", http.HandlerFunc(serve))
}

func DefaultMux() { // DefaultServeMux: its handlers are registered elsewhere.
	http.ListenAndServe(":0", nil)
}

func Deferred() { // want Deferred:`^origins\(go spawns.work spawns.go:100\)$`
	defer func() {
		go work()
	}()
}

// Once: sync.Once.Do runs its function at most once, in the caller.
func Once(once *sync.Once) { // want Once:`^origins\(go spawns.work spawns.go:107\)$`
	once.Do(func() {
		go work()
	})
}

// Callback: a function passed to an unknown callee may be called many times.
func Callback(each func(func())) { // want Callback:`^origins\(go spawns.work spawns.go:114 multi\)$`
	each(func() {
		go work()
	})
}

func RangeFunc(seq func(func(int) bool)) { // want RangeFunc:`^origins\(go spawns.work spawns.go:120 multi\)$`
	for range seq {
		go work()
	}
}

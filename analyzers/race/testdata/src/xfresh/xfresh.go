// Package xfresh writes packets that package xmade makes. A packet that
// the constructor of another package made and handed to no one (by its
// points-to summary: stored nowhere its arguments or a variable reach)
// and started no goroutine on (by its origins) is its caller's until the
// caller publishes it, directly or behind the interface it was boxed in;
// one the constructor handed on, on the caller's channel, is not.
package main

import (
	"sync"
	"sync/atomic"

	"xmade"
)

// pool keeps packets under its mutex; a watcher goroutine watches each.
type pool struct {
	mu   sync.Mutex
	pubs []*xmade.Publish
}

func (s *pool) put(p *xmade.Publish) {
	s.mu.Lock()
	s.pubs = append(s.pubs, p)
	s.mu.Unlock()
}

func (s *pool) watch() {
	s.mu.Lock()
	pubs := append([]*xmade.Publish(nil), s.pubs...)
	s.mu.Unlock()
	for _, p := range pubs {
		p.Watch()
	}
}

func fill(s *pool) {
	for range 2 {
		p := xmade.NewPublish()
		p.Qos = 1 // silent "not-published": NewPublish's packet is this call's until put
		s.put(p)
	}
}

func fillBoxed(s *pool) {
	for range 2 {
		p := xmade.NewPacket(1).(*xmade.Publish)
		p.Qos = 2 // silent "not-published": boxed by NewPacket, still this call's
		s.put(p)
	}
}

func fillSent() {
	ch := make(chan *xmade.Publish, 1)
	go func() {
		p := <-ch
		atomic.LoadInt32(&p.Qos)
	}()
	p := xmade.NewSent(ch)
	p.Qos = 3 // want `data race on memory of xmade.Publish made by xmade.NewSent`
}

func main() {
	s := new(pool)
	go func() {
		for {
			s.watch()
		}
	}()
	fill(s)
	fillBoxed(s)
	fillSent()
}

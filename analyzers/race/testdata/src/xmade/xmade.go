// Package xmade makes packets for package xfresh: some its callers are
// the first to hold, some it has already handed on.
package xmade

import "sync/atomic"

type Packet interface{ Kind() int }

type Publish struct{ Qos int32 }

func (*Publish) Kind() int { return 1 }

// Watch waits, atomically, for the packet's Qos.
func (p *Publish) Watch() {
	for atomic.LoadInt32(&p.Qos) == 0 {
	}
}

// NewPublish makes a packet and gives it to no one else.
func NewPublish() *Publish { return &Publish{} }

// NewPacket makes one behind an interface, boxed here.
func NewPacket(kind int) Packet {
	switch kind {
	case 1:
		return &Publish{}
	}
	return nil
}

// NewSent hands the packet on, on the caller's channel.
func NewSent(ch chan<- *Publish) *Publish {
	p := &Publish{}
	ch <- p
	return p
}

package main

import "sync"

// A lock taken under one name and released under another the code
// stored it under: next stores the slot's cond into r.cur and locks its
// L; finish unlocks r.cur.L, the same mutex. After finish, nothing is
// held: no double lock is even a candidate (lockset's Held.Alias).
type slot struct {
	c    *sync.Cond
	mark int
}

type slotRing struct {
	store [4]slot
	cur   *sync.Cond
	old   *sync.Cond
	pos   int
}

func newSlotRing() *slotRing {
	r := &slotRing{}
	for i := range r.store {
		r.store[i].c = sync.NewCond(new(sync.Mutex))
	}
	return r
}

func (r *slotRing) next() int {
	n := &r.store[r.pos%len(r.store)]
	r.cur = n.c
	n.c.L.Lock()
	return n.mark
}

func (r *slotRing) finish() {
	if r.cur != nil {
		r.cur.L.Unlock()
		r.cur = nil
	}
}

func (r *slotRing) put(x int) {
	n := &r.store[x%len(r.store)]
	n.c.L.Lock()
	n.mark = x
	n.c.L.Unlock()
}

func useSlotRing() {
	r := newSlotRing()
	r.next()
	r.finish()
	r.put(1) // not held: finish released it through r.cur
	r.next()
	r.finish()
	r.put(2) // not held
}

// The twin: finishOld unlocks what r.old reaches, which next never
// stored there; the slot's mutex stays held.
func (r *slotRing) finishOld() {
	if r.old != nil {
		r.old.L.Unlock()
	}
}

func misuseSlotRing() {
	r := newSlotRing()
	r.next()
	r.finishOld()
	r.put(1) // want `double lock: r.store\[i\].c.L is held`
}

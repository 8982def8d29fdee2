package shb

import "slices"

// A goroutine that a lock holder starts and waits for before it lets the
// lock go runs inside the holder's critical section (rule
// joined-under-lock):
//
//	t.mu.Lock()
//	var wg sync.WaitGroup
//	for _, n := range nodes {
//		wg.Add(1)
//		go func() { defer wg.Done(); n.split() }()
//	}
//	wg.Wait()
//	t.mu.Unlock()
//
// The go statement happens after the Lock and the goroutine's work before
// the Wait returns, so before the Unlock: another goroutine's critical
// section of t.mu comes either before the Lock or after the Unlock, and
// what the workers do is ordered with it as the holder's own accesses
// are; so are the workers of another holder's section. The workers hold
// nothing themselves (a goroutine inherits no lock) and run at once with
// each other and with their starter, whose accesses between the go
// statement and the join are not ordered with them: the rule orders them
// only with other goroutines' sections.

// section is a critical section of trace t that starts a goroutine at
// event s and joins it at event j, holding a lock at every event between.
type section struct {
	t    *Trace
	s, j int32
}

// sections returns the critical sections of u's ancestors that start
// the goroutine u descends from (or u's) and join it after u's event y.
func (o *Order) sections(u *Trace, y int32) []section {
	var out []section
	for p := u.Origin.Parent; p != nil; p = p.Parent {
		t := o.r.TraceOf(p)
		if t == nil {
			break
		}
		c := childOf(p, u.Origin)
		w, ok := o.FirstAfter(u, y, t)
		if c == nil || !ok {
			continue
		}
		for _, s := range o.spawnsOf(t, c) {
			// The edge into t lands just after the join: the join is
			// w-1.
			if s < w-1 && t.Events[s].Locks != 0 && o.heldThrough(t, s, w-1, t.Events[s].Locks) {
				out = append(out, section{t, s, w - 1})
			}
		}
	}
	return out
}

// JoinedUnderLock reports whether event y of trace u, holding lockset
// lu, and event z of trace v, holding lv, are kept apart by critical
// sections: one runs inside an ancestor's section (see sections) holding,
// at every event, a lock that the other's lockset excludes (see inside);
// or they run inside sections of two goroutines, neither inside the
// other's, each holding a lock that excludes the other's.
func (o *Order) JoinedUnderLock(u *Trace, y int32, lu LocksetID, v *Trace, z int32, lv LocksetID) bool {
	usecs, vsecs := o.sections(u, y), o.sections(v, z)
	if len(usecs) == 0 && len(vsecs) == 0 {
		return false
	}
	if o.inside(u, usecs, v, vsecs, lv) || o.inside(v, vsecs, u, usecs, lu) {
		return true
	}
	for _, sa := range usecs {
		for _, sb := range vsecs {
			if sa.t == sb.t || slices.Contains(vsecs, sa) || slices.Contains(usecs, sb) {
				continue // both in one section: its workers run at once
			}
			if o.heldThrough(sa.t, sa.s, sa.j, sb.t.Events[sb.s].Locks) && o.heldThrough(sb.t, sb.s, sb.j, sa.t.Events[sa.s].Locks) {
				return true
			}
		}
	}
	return false
}

// inside reports whether one of usecs, the sections u's event runs in,
// holds at every event a lock that other, the lockset of v's event,
// excludes, where v is none of u's ancestors (whose own accesses in the
// section the workers are not ordered with) and v's event, whose
// sections are vsecs, is not inside that section too.
func (o *Order) inside(u *Trace, usecs []section, v *Trace, vsecs []section, other LocksetID) bool {
	if other == 0 || descends(u.Origin, v.Origin) {
		return false
	}
	for _, sec := range usecs {
		if !slices.Contains(vsecs, sec) && o.heldThrough(sec.t, sec.s, sec.j, other) {
			return true
		}
	}
	return false
}

// heldThrough reports whether every event of t from first to last holds
// a lock that excludes lockset other: no Unlock and Lock again between
// (the Lock's Acquire event holds what was held before it).
func (o *Order) heldThrough(t *Trace, first, last int32, other LocksetID) bool {
	if first > last || other == 0 {
		return false
	}
	for e := first; e <= last; e++ {
		if !o.Exclusive(t.Events[e].Locks, other) {
			return false
		}
	}
	return true
}

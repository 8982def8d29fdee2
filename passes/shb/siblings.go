package shb

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"golang.org/x/tools/go/ssa"
)

// A sibling lock is a mutex that an access holds on the object it
// accesses: "r.mu.Lock(); r.n++" holds "the mutex at .mu of the object
// whose .n is written", whatever the pointer analysis resolves r.mu to
// (nothing, when r's object is one it cannot see made, or another
// abstract object in each goroutine). Two accesses of the same memory
// from bases of one type T, each by a path of fields with no loads, are
// in one T at run time: two Ts overlap only if they are the same. So
// they hold the same mutex at the same path from it, and exclude each
// other (RacerD's and checklocks' "guarded by" a field of the same
// object), even by different paths (r.t and r.t.ext).
//
// The lock's path may load pointers (r.muPtr.Lock() is the mutex at
// .muPtr@): that assumes the pointer fields on the way are set before
// the object is shared and not reassigned, as lockset already does to
// match a Lock with its Unlock.

// siblingLocks returns the lockset of the sibling locks that access
// instr holds, given held, the locks its function holds there.
func (ls *Locksets) siblingLocks(instr ssa.Instruction, held lockset.Set) LocksetID {
	if len(held) == 0 {
		return 0
	}
	if id, ok := ls.siblings[instr]; ok {
		return id
	}
	id := ls.intern(siblingElems(instr, held))
	ls.siblings[instr] = id
	return id
}

// siblingElems returns the sibling locks of access instr among held.
func siblingElems(instr ssa.Instruction, held lockset.Set) []lockElem {
	addr := accessedAddr(instr)
	if addr == nil {
		return nil
	}
	base := fieldBase(addr)
	root := lockset.Key(base)
	if !root.Path().IsEmpty() {
		return nil // a loaded base: another load of it may see another object
	}
	var elems []lockElem
	for _, h := range held {
		if !h.Key.Bound() || !sameRoot(h.Key, root) || !objectPath(h.Key.Path()) {
			continue
		}
		sibling := types.TypeString(base.Type(), nil) + " " + pathString(h.Key.Path())
		elems = append(elems, lockElem{sibling: sibling, read: h.Read})
	}
	return elems
}

// accessedAddr returns the address that a load or store reads or
// writes, or nil for other accesses.
func accessedAddr(instr ssa.Instruction) ssa.Value {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Addr
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			return instr.X
		}
	}
	return nil
}

// fieldBase returns the value that addr is a chain of field addresses
// from.
func fieldBase(addr ssa.Value) ssa.Value {
	for {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			return addr
		}
		addr = fa.X
	}
}

func sameRoot(a, b facts.Key) bool {
	ak, ai, an := a.Root()
	bk, bi, bn := b.Root()
	return ak == bk && ai == bi && an == bn
}

// objectPath reports whether a mutex at path p from a base is one
// mutex of the base's object: fields and the pointers they hold, no
// element of an array or slice, which an index chooses.
func objectPath(p facts.Path) bool {
	for _, s := range p.Steps() {
		if s.Op != facts.FieldAddr && s.Op != facts.Load {
			return false
		}
	}
	return true
}

// pathString renders the steps of p, for a sibling lock's key.
func pathString(p facts.Path) string {
	var b strings.Builder
	for _, s := range p.Steps() {
		if s.Op == facts.Load {
			b.WriteString("@")
			continue
		}
		b.WriteString("." + strconv.Itoa(s.Index))
	}
	return b.String()
}

package shb

import (
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// LocksetID names a canonical lockset (SWORD): few distinct lock
// combinations occur, so events carry an ID and intersections are cached.
// 0 is the empty set.
type LocksetID int32

// lockElem is a held lock: the locations the mutex may be (usually one)
// and whether it is held for reading only.
type lockElem struct {
	locs []int32
	read bool
	once bool // the Once of a Do callback (see walker.onceDo)
	spin bool // a spin flag (see lockset.Held.Spin)
	// onceDone, with sibling or callee, is instead a Once of the
	// accessed object that a Do has returned on before the access (see
	// walker.ownAt): no lock, a callback that is over.
	onceDone bool
	// observe numbers, from 1, the observation site of an element that
	// is no lock: the events are where an atomic operation saw a write
	// to locs[0] (see Order.Observed).
	observe int32
	// sibling, when not empty, names instead a lock of the accessed
	// object by its paths from the access's base (see siblingLocks):
	// it excludes only the same sibling.
	sibling string
	// callee and key, when callee is set, name instead a lock that a
	// caller holds by its key from callee's parameters, for the sibling
	// locks of callee's accesses (see bindCallerLocks). It excludes
	// nothing by itself.
	callee *ssa.Function
	key    facts.Key
}

// Locksets interns locksets. It is filled while the pass builds the
// graph and read-only after: every lockset an event or an access holds
// is interned by then (see Result.AccessLocks).
type Locksets struct {
	sets   [][]lockElem
	index  map[string]LocksetID
	unions map[[2]LocksetID]LocksetID
	names  map[int32]string // lock location → how the code names it
	// siblings are the sibling locks of each access walked, by the
	// locks its callers hold; bound, the locks a call passes its callee.
	siblings map[heldAt]LocksetID
	bound    map[heldAt]LocksetID

	objs      *objects   // for the locations of locks (see clones)
	cloneKeys []cloneKey // by location
}

func newLocksets() *Locksets {
	return &Locksets{
		sets:   [][]lockElem{nil},
		index:  map[string]LocksetID{"": 0},
		unions: make(map[[2]LocksetID]LocksetID),
		names:  make(map[int32]string),

		siblings: make(map[heldAt]LocksetID),
		bound:    make(map[heldAt]LocksetID),
	}
}

// elemKey returns a string that identifies e, and orders the elements
// of a lockset. It is what fmt.Sprint(e.locs, e.read, e.once,
// e.observe, e.sibling, callee) printed, made without fmt: building
// the locksets of a large package made millions.
func elemKey(e lockElem) string {
	b := make([]byte, 0, 32)
	b = append(b, '[')
	for i, l := range e.locs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(l), 10)
	}
	b = append(b, "] "...)
	b = strconv.AppendBool(b, e.read)
	b = append(b, ' ')
	b = strconv.AppendBool(b, e.once)
	if e.spin {
		b = append(b, " spin"...)
	}
	if e.onceDone {
		b = append(b, " done"...)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(e.observe), 10)
	b = append(b, e.sibling...)
	if e.callee != nil {
		b = append(b, e.callee.String()...)
		b = append(b, ' ')
		b = append(b, e.key.String()...)
	}
	return string(b)
}

type keyedElem struct {
	key  string
	elem lockElem
}

// intern returns the ID of the set of elems.
func (ls *Locksets) intern(elems []lockElem) LocksetID {
	// Each element's key is made once: made in each comparison of the
	// sort, they were most of the cost of building a package's traces.
	keyed := make([]keyedElem, len(elems))
	for i, e := range elems {
		keyed[i] = keyedElem{elemKey(e), e}
	}
	slices.SortFunc(keyed, func(x, y keyedElem) int { return strings.Compare(x.key, y.key) })
	keyed = slices.CompactFunc(keyed, func(x, y keyedElem) bool { return x.key == y.key })
	elems = elems[:0]
	var b strings.Builder
	for _, e := range keyed {
		elems = append(elems, e.elem)
		b.WriteString(e.key)
		b.WriteByte(';')
	}
	k := b.String()
	if id, ok := ls.index[k]; ok {
		return id
	}
	id := LocksetID(len(ls.sets))
	ls.sets = append(ls.sets, elems)
	ls.index[k] = id
	return id
}

// union returns the ID of the union of two locksets.
func (ls *Locksets) union(a, b LocksetID) LocksetID {
	if a == 0 || a == b {
		return b
	}
	if b == 0 {
		return a
	}
	k := [2]LocksetID{min(a, b), max(a, b)}
	if id, ok := ls.unions[k]; ok {
		return id
	}
	id := ls.intern(append(slices.Clone(ls.sets[a]), ls.sets[b]...))
	ls.unions[k] = id
	return id
}

// without returns the ID of lockset a without the semaphore channel obj
// (see walker.chanOp).
func (ls *Locksets) without(a LocksetID, obj int32) LocksetID {
	i := slices.IndexFunc(ls.sets[a], func(e lockElem) bool {
		return !e.once && e.observe == 0 && !e.read && len(e.locs) == 1 && e.locs[0] == obj
	})
	if i < 0 {
		return a
	}
	return ls.intern(slices.Delete(slices.Clone(ls.sets[a]), i, i+1))
}

// resolve turns the locks a function holds, named by expressions, into
// a lockset of the locations those mutexes are in origin o.
func (ls *Locksets) resolve(o *pointer.Origin, s lockset.Set, objs *objects) LocksetID {
	if len(s) == 0 {
		return 0
	}
	var elems []lockElem
	for _, h := range s {
		if h.Value == nil {
			continue
		}
		var locs []int32
		name := ExprName(h.Value)
		if !h.Path.IsEmpty() {
			for _, loc := range objs.ptr.PointsToPath(o, h.Value, h.Path) {
				locs = append(locs, objs.id(loc))
			}
			name = h.Path.Render(name, h.Value.Type())
		} else {
			locs = objs.pointsTo(o, h.Value)
		}
		if len(locs) == 0 {
			continue // nothing known: it protects nothing we can name
		}
		elems = append(elems, lockElem{locs: slices.Sorted(slices.Values(locs)), read: h.Read, spin: h.Spin})
		for _, l := range locs {
			if _, ok := ls.names[l]; !ok {
				ls.names[l] = name
			}
		}
	}
	return ls.intern(elems)
}

// importedSet interns the locks that a function of another package
// holds at one of its accesses (see pointer.Imported).
func (r *Result) importedSet(locks []pointer.ImportedLock) LocksetID {
	ls := r.Locks
	var elems []lockElem
	for _, l := range locks {
		var ids []int32
		for _, loc := range l.Locs {
			ids = append(ids, r.objs.id(loc))
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		if l.Once {
			if len(ids) == 1 { // OnceOrdered needs the one Once
				elems = append(elems, lockElem{locs: ids, once: true})
			}
			continue
		}
		elems = append(elems, lockElem{locs: ids, read: l.Read})
		for _, i := range ids {
			if _, ok := ls.names[i]; !ok {
				ls.names[i] = l.Name
			}
		}
	}
	return ls.intern(elems)
}

// importedKey is an event of an access made by a function of another
// package.
type importedKey struct {
	ext *pointer.Imported
	t   *Trace
	ev  int32
}

// internImported adds, for every event of an access that a function of
// another package makes, the lockset of the event with the locks that
// function holds there, so that AccessLocks only reads.
func (r *Result) internImported(ptr *pointer.Result) {
	sets := make(map[*pointer.Imported]LocksetID)
	for _, acc := range ptr.Accesses() {
		if acc.Imported == nil || len(acc.Imported.Locks) == 0 {
			continue
		}
		t := r.byOrig[acc.Origin]
		if t == nil {
			continue
		}
		set, ok := sets[acc.Imported]
		if !ok {
			set = r.importedSet(acc.Imported.Locks)
			sets[acc.Imported] = set
		}
		for _, id := range t.at[acc.Instr] {
			if int(t.Events[id].Imported) == acc.Imported.Index+1 {
				r.imported[importedKey{acc.Imported, t, id}] = r.Locks.union(t.Events[id].Locks, set)
			}
		}
	}
}

// AccessLocks returns the lockset held at event ev of trace t, an event
// of access acc: the event's, and for an access that a function of
// another package makes, with the locks that function holds there.
func (r *Result) AccessLocks(t *Trace, ev int32, acc pointer.Access) LocksetID {
	if acc.Imported != nil {
		if id, ok := r.imported[importedKey{acc.Imported, t, ev}]; ok {
			return id
		}
	}
	return t.Events[ev].Locks
}

// Exclusive reports whether two events holding locksets a and b cannot
// run at the same time: both hold a mutex that may be the same, or the
// same sibling lock of the object they access, and not both for reading
// only.
func (ls *Locksets) Exclusive(a, b LocksetID) bool {
	if a == 0 || b == 0 {
		return false
	}
	for _, x := range ls.sets[a] {
		for _, y := range ls.sets[b] {
			if x.observe > 0 || y.observe > 0 || x.callee != nil || y.callee != nil || x.read && y.read {
				continue
			}
			if x.onceDone || y.onceDone || x.sibling != "" && x.once || y.sibling != "" && y.once {
				continue // a Once of the accessed object orders (see OnceSiblings), it excludes nothing
			}
			if x.sibling != "" || y.sibling != "" {
				if x.sibling == y.sibling {
					return true
				}
				continue
			}
			if overlaps(x.locs, y.locs) || ls.clones(x.locs, y.locs) {
				return true
			}
		}
	}
	return false
}

// SpinOnly reports whether the locks by which a and b exclude each
// other (see Exclusive) are spin flags only.
func (ls *Locksets) SpinOnly(a, b LocksetID) bool {
	spin := false
	for _, x := range ls.sets[a] {
		for _, y := range ls.sets[b] {
			if x.sibling != "" || y.sibling != "" || x.callee != nil || y.callee != nil || x.observe > 0 || y.observe > 0 || x.read && y.read {
				continue
			}
			if overlaps(x.locs, y.locs) || ls.clones(x.locs, y.locs) {
				if !x.spin || !y.spin {
					return false
				}
				spin = true
			}
		}
	}
	return spin
}

// RunOnce reports whether locksets a and b each hold an observation
// that only one operation on one location of obj ever makes (see
// Result.lastOfCount): the code they hold it in runs once for each
// object, in one goroutine, and what it does to that object's memory
// does not race with itself. Another object it reaches may be shared by
// objects that each run it once (a pool that every connection's Close
// updates), and the abstract object stands for them all.
func (o *Order) RunOnce(a, b LocksetID, obj *pointer.Object) bool {
	return a != 0 && b != 0 && o.r.lastOfCount(a, b, obj)
}

// Exclusive is Locksets.Exclusive, memoized for this Order's asker: a
// lock that may be one of many locations makes the question costly, and
// the pairs of a package ask it of few locksets, many times.
func (o *Order) Exclusive(a, b LocksetID) bool {
	if a == 0 || b == 0 {
		return false // an empty lockset excludes nothing
	}
	k := uint64(uint32(a))<<32 | uint64(uint32(b))
	v, ok := o.excl[k]
	if !ok {
		v = o.r.Locks.Exclusive(a, b)
		if o.excl == nil {
			o.excl = make(map[uint64]bool)
		}
		o.excl[k] = v
	}
	return v
}

// clones reports whether a lock location of a and one of b are the same
// field of objects made at one site, in one goroutine, by calls of a
// constructor from different call sites. The pointer analysis tells such
// calls apart so that their objects differ, but not what the objects'
// methods allocate: that is one object for all of them (the entries of
// each table, each guarded by the table's mutex). Taking such mutexes as
// one lock judges them as it would if the calls were not told apart. A
// mutex each goroutine makes for itself stays its own: two goroutines
// locking their own mutexes exclude nothing. A channel used as a lock
// is no table's: the channels of newMu(c) called for c.readMu and for
// c.writeMu are two locks of one connection, which a Close that locks
// one for good and a read that holds the other do not share.
func (ls *Locksets) clones(a, b []int32) bool {
	for _, x := range a {
		if int(x) >= len(ls.cloneKeys) || ls.cloneKeys[x].site == nil {
			continue
		}
		kx := ls.cloneKeys[x]
		for _, y := range b {
			if int(y) < len(ls.cloneKeys) && ls.cloneKeys[y] == kx {
				return true
			}
		}
	}
	return false
}

// cloneKey is what a lock location shares with its clones (see clones).
type cloneKey struct {
	site   ssa.Value
	leaf   int
	kind   pointer.ObjectKind
	origin *pointer.Origin
}

// keyClones computes the clone key of every lock location, once the
// graph is built: Exclusive is asked concurrently after.
func (ls *Locksets) keyClones() {
	ls.cloneKeys = make([]cloneKey, len(ls.objs.locs))
	for i, l := range ls.objs.locs {
		if l.Obj.Site != nil && l.Obj.Ctx != nil && l.Obj.Kind != pointer.ObjChan {
			ls.cloneKeys[i] = cloneKey{l.Obj.Site, l.Leaf, l.Obj.Kind, l.Obj.Ctx.Origin}
		}
	}
}

func overlaps(a, b []int32) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			return true
		}
	}
	return false
}

// Len returns the number of locks in lockset id. Sibling locks do not
// count: each names again a lock of the set, or one that no location
// was found for.
func (ls *Locksets) Len(id LocksetID) int {
	n := 0
	for _, e := range ls.sets[id] {
		if e.observe == 0 && e.sibling == "" && e.callee == nil {
			n++
		}
	}
	return n
}

// Members returns the locks of lockset id: for each, the numbers of the
// locations the mutex may be (see Result.Location) and whether it is
// held for reading only. The Once of a Do callback, which the set holds
// too, is not a mutex and is left out, as are observations and sibling
// locks, which name no location.
func (ls *Locksets) Members(id LocksetID) (locs [][]int32, read []bool) {
	for _, e := range ls.sets[id] {
		if e.once || e.observe > 0 || e.sibling != "" || e.callee != nil {
			continue
		}
		locs = append(locs, e.locs)
		read = append(read, e.read)
	}
	return locs, read
}

// HoldsMutex reports whether lockset id holds a mutex: a lock of its
// own, a sibling lock or a caller's, but not the Once of a Do callback
// (Do orders what its function did before Do returns; it excludes no one
// who reads without calling Do) nor an observation of an atomic write.
func (ls *Locksets) HoldsMutex(id LocksetID) bool {
	return slices.ContainsFunc(ls.sets[id], func(e lockElem) bool { return !e.once && !e.onceDone && e.observe == 0 })
}

// OnceSiblings reports whether two accesses holding locksets a and b
// are ordered by a sync.Once of the object they access: one runs in a
// Do callback on that Once (x.once.Do(x.init), x.init writing x.peers)
// and the other in a callback on it too, or after a Do on it returned
// (x.once.Do(x.init); read x.peers). Two accesses of the same memory
// from bases of one type are in one object (see siblingLocks), so the
// Once is the same one, whichever object the pointer analysis finds
// behind each base: its callback runs once, and every Do returns after
// it.
func (ls *Locksets) OnceSiblings(a, b LocksetID) bool {
	if a == 0 || b == 0 {
		return false
	}
	for _, x := range ls.sets[a] {
		if x.sibling == "" || !x.once && !x.onceDone {
			continue
		}
		for _, y := range ls.sets[b] {
			if y.sibling == x.sibling && (y.once || y.onceDone) && (x.once || y.once) {
				return true
			}
		}
	}
	return false
}

// Holds reports whether lockset id holds the mutex at lock location
// lock, known to be that one (a member of one location), and whether it
// holds it for reading only.
func (ls *Locksets) Holds(id LocksetID, lock int32) (held, read bool) {
	locs, reads := ls.Members(id)
	i := slices.IndexFunc(locs, func(l []int32) bool { return len(l) == 1 && l[0] == lock })
	return i >= 0, i >= 0 && reads[i]
}

// Name returns how the code names the mutex at lock location l, as in
// "c.mu", or "".
func (ls *Locksets) Name(l int32) string { return ls.names[l] }

// HeldName names the mutex a lock set member reaches as the code does
// (s.mu, or p.s.mu for a lock another package's function takes through
// the caller's p.s), or "" when it has no name.
func HeldName(h lockset.Held) string {
	if h.Value == nil {
		return ""
	}
	name := ExprName(h.Value)
	if name != "" && !h.Path.IsEmpty() {
		name = h.Path.Render(name, h.Value.Type())
	}
	return name
}

// ExprName renders the expression that reaches a value: a variable and
// its fields, or "" when the value has no name in the source.
func ExprName(v ssa.Value) string {
	name, _ := exprName(v)
	return name
}

// exprName is ExprName, and the value the name starts from (the
// parameter m of m.ch).
func exprName(v ssa.Value) (string, ssa.Value) {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		if x, root := exprName(v.X); x != "" {
			return x + "." + fieldName(v.X.Type(), v.Field), root
		}
	case *ssa.Field:
		if x, root := exprName(v.X); x != "" {
			return x + "." + fieldName(v.X.Type(), v.Field), root
		}
	case *ssa.UnOp:
		return exprName(v.X)
	case *ssa.ChangeType:
		return exprName(v.X)
	case *ssa.IndexAddr:
		if x, root := exprName(v.X); x != "" {
			return x + "[i]", root
		}
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return v.Name(), v
	case *ssa.Alloc:
		if v.Comment != "" && !strings.ContainsAny(v.Comment, " ") {
			return v.Comment, v
		}
	}
	return "", nil
}

// fieldName returns the name of field i of the struct t (or *t) is.
func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return "?"
}

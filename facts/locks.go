package facts

// Locks is the package fact of passes/lockset: what a call of each of
// the package's exported functions and methods does to the mutexes its
// arguments and the package variables reach, so that an importer sees
// the lock a helper leaves held, the one it releases, and the ones it
// may block to acquire. Mutexes are Keys in the callee's terms.
type Locks struct {
	V       uint16
	Strings []string    // keys, names and positions; index 0 is ""
	Funcs   []FuncLocks // sorted by Name's string
}

// AFact implements analysis.Fact.
func (*Locks) AFact() {}

// Valid reports whether l was written by this format version.
func (l *Locks) Valid() bool { return l != nil && l.V == Version }

// Str returns string i of the table.
func (l *Locks) Str(i uint32) string {
	if int(i) < len(l.Strings) {
		return l.Strings[i]
	}
	return ""
}

// Key returns the key at index i of the string table.
func (l *Locks) Key(i uint32) Key { return parseKey(l.Str(i)) }

// FuncLocks is what one function, callees included, does to mutexes.
// A lock it takes or releases only when some of its boolean parameters
// have given values ("if needLock { mu.Lock() }") says so in its
// HeldLock's When, so that a call passing a constant that falsifies
// the condition does not count it.
type FuncLocks struct {
	Name     uint32     // the function's SSA name
	Acquires []HeldLock // held on every return: a lock helper
	Releases []HeldLock // the locks it may unlock (Key, When)
	Unlocks  []HeldLock // the locks it unlocks on every path (Key): held by its caller after, never
	Takes    []HeldLock // the locks it may block to acquire (Lock, RLock), with where (Pos) and when (When)
	// Leaves are the locks it takes itself and returns still holding on
	// some paths, not all, with the first such return (Pos): a lock left
	// held, which its importer's next Lock of the mutex waits for forever.
	Leaves []HeldLock
	// Callbacks are the locks it holds when it calls one of its
	// function-typed parameters (Each(f) { mu.Lock(); ...; f(v) }): a
	// function value its importer passes there that locks one of them
	// deadlocks.
	Callbacks []CallbackLock
}

// CallbackLock is a lock that a function holds when it calls its
// parameter Param (the receiver first).
type CallbackLock struct {
	Param uint16
	Lock  HeldLock
}

// ParamIs is a condition on a call: the boolean parameter Param of the
// function (the receiver first) has value Value. It is written as one
// number, twice the parameter's index, plus one for true.
type ParamIs uint32

// MakeParamIs returns the condition "parameter i is v".
func MakeParamIs(i int, v bool) ParamIs {
	p := ParamIs(i) << 1
	if v {
		p |= 1
	}
	return p
}

// Param returns the index of the parameter p is on.
func (p ParamIs) Param() int { return int(p >> 1) }

// Value returns the value p wants the parameter to have.
func (p ParamIs) Value() bool { return p&1 != 0 }

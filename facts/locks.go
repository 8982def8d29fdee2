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
type FuncLocks struct {
	Name     uint32     // the function's SSA name
	Acquires []HeldLock // held on every return: a lock helper
	Releases []uint32   // keys of the locks it may unlock
	Takes    []HeldLock // the locks it may block to acquire (Lock, RLock), with where
}

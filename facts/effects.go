package facts

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"strings"
)

// Effects is the package fact of passes/effects: what a call of each of
// the package's exported functions and methods does to the memory its
// arguments and the package variables reach, and the synchronization
// operations it performs on them, so that an importer sees the fields a
// method writes and the channel it closes. Expressions are Keys in the
// callee's terms, rooted at a parameter (the receiver first) or a
// package variable. What the functions do to mutexes is the Locks fact.
type Effects struct {
	V       uint16
	Strings []string      // keys and positions; index 0 is ""
	Funcs   []FuncEffects // sorted by Name's string
}

// AFact implements analysis.Fact.
func (*Effects) AFact() {}

// Valid reports whether e was written by this format version.
func (e *Effects) Valid() bool { return e != nil && e.V == Version }

// Str returns string i of the table.
func (e *Effects) Str(i uint32) string {
	if int(i) < len(e.Strings) {
		return e.Strings[i]
	}
	return ""
}

// FuncEffects is the effect of one function, callees included.
type FuncEffects struct {
	Name     uint32      // the function's SSA name
	Accesses []MemAccess // in program order, at most MaxAccesses, the first of each kind
	Syncs    []SyncOp    // in program order, at most MaxSyncs
	// Contained has bit i set when parameter i (the receiver first) is a
	// channel, *sync.WaitGroup or *sync.Cond that the function uses only
	// for the operations Syncs lists, handing it to no other code: an
	// importer's channel given to it has not escaped.
	Contained uint64
	// SkipsDone has bit i set when parameter i is a contained
	// *sync.WaitGroup that some path of the function returns without
	// calling Done on (if err != nil { return }; wg.Done()).
	SkipsDone uint64
	// Async has bit i set when parameter i is a function value that the
	// function keeps (in a field of a struct) where code the package's
	// goroutines run loads it and calls it: a handler the package calls
	// later, on a goroutine of its own, concurrently with the caller.
	Async uint64
}

// Bounds on one function's effect.
const (
	MaxAccesses = 32
	MaxSyncs    = 16
)

// SyncKind is a synchronization operation that importers order
// accesses by.
type SyncKind uint8

// The synchronization operations of an effect.
const (
	SyncSend       SyncKind = iota + 1 // channel send
	SyncRecv                           // channel receive
	SyncClose                          // channel close
	SyncAdd                            // WaitGroup.Add
	SyncDone                           // WaitGroup.Done
	SyncWait                           // WaitGroup.Wait
	SyncOnceAfter                      // the return of Once.Do
	SyncCondWait                       // Cond.Wait
	SyncCondSignal                     // Cond.Signal or Broadcast
)

// SyncOp is a synchronization operation on the channel or WaitGroup a
// key points to, placed in program order after the first After accesses.
type SyncOp struct {
	Kind  SyncKind
	Key   uint32
	Pos   uint32
	After uint32
}

// HeldLock is a mutex held, by key.
type HeldLock struct {
	Key  uint32
	Read bool   // held by RLock only
	Pos  uint32 // in Locks' Takes: "file:line:col" of the Lock call
	// Once is set for the sync.Once whose Do callback makes the access:
	// not a mutex, but the callback runs once and before every Do
	// returns (see SyncOnceAfter).
	Once bool
	// When, in Locks' Takes and Releases, is the condition on the
	// function's boolean parameters under which it takes or releases
	// the lock, sorted by parameter, at most one per parameter: every
	// one must hold. Empty: on any call.
	When []ParamIs
}

// MemAccess is a read or write of the memory a key points to, with the
// locks the function holds there.
type MemAccess struct {
	Key   uint32 // the address (or, with Whole, the map or channel) accessed
	Pos   uint32 // "file:line:col" of the access, in the callee's package
	Write bool
	// Whole is set when the access is of a whole object that the key's
	// value refers to: a map update or lookup, a channel close.
	Whole  bool
	Atomic bool
	Locks  []HeldLock
}

// Posn renders pos as facts write positions: "file:line:col", or ""
// for no position.
func Posn(fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", stableFile(p.Filename), p.Line, p.Column)
}

// stableFile returns the name of a file as facts record it: the file
// itself, but only the base name of a file that the go command made in
// its temporary work directory ($WORK/b001/_cgo_gotypes.go for a cgo
// package), whose directory changes with every build: facts must be the
// same for the same source, or runs differ and the build cache keeps
// nothing.
func stableFile(name string) string {
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(name)), "/") {
		if rest, ok := strings.CutPrefix(dir, "go-build"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return filepath.Base(name)
		}
	}
	return name
}

// ComparePos orders two positions of fset by file name, line and column,
// as Posn renders them. A token.Pos of another file depends on the order
// the driver loaded the files in, which varies from run to run; what
// origo prints or exports must not.
func ComparePos(fset *token.FileSet, p, q token.Pos) int {
	a, b := fset.Position(p), fset.Position(q)
	return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

// ShortPos shortens a "file:line:col" position of an effect to
// "base:line", as messages show positions.
func ShortPos(at string) string {
	if i := strings.LastIndexByte(at, ':'); i > 0 {
		at = at[:i]
	}
	return filepath.Base(at)
}

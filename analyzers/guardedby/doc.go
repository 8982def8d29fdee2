// Package guardedby defines an Analyzer that checks the lock annotations
// written for gVisor's checklocks: a struct field annotated
// "+checklocks:mu" is guarded by the mutex mu of the same struct, and
// every access to it must hold that mutex.
//
// # Analyzer guardedby
//
// guardedby: report accesses to +checklocks fields without their mutex
//
// The guardedby analyzer reads the annotations that code checked by
// gVisor's checklocks already carries, and reports each read or write
// of an annotated field or package variable made without the mutex that
// the annotation names, and each call of an annotated function made
// without the mutex it expects. The annotation says which mutex protects
// which field, and a report needs no second goroutine: one access that
// forgets the lock is enough. The race analyzer reads no annotation: it
// finds the same rule in the code (two accesses to x.f that both hold a
// mutex of the same x exclude each other: package shb's sibling locks),
// and reports only where two goroutines meet.
//
// # The annotations
//
// Each annotation is a line of a comment of its own, in checklocks'
// syntax:
//
//   - "// +checklocks:mu" on a struct field, in its doc comment or at the
//     end of its line: the field is guarded by mu, a sync.Mutex,
//     sync.RWMutex or sync.Locker field of the same struct. The path may go through
//     fields and pointers ("+checklocks:parent.mu"), name an embedded
//     mutex ("+checklocks:Mutex"), or start at a package variable
//     ("+checklocks:tableMu"). Several lines mean every mutex must be
//     held; with "+checklocksreadany" as well, a read holds any one of
//     them and a write all. With "+checkatomic" as well, the field's
//     address handed to a call (an atomic operation, which checklocks'
//     atomic check judges) is not checked; its plain reads and writes
//     are.
//   - "// +checklocks:countMu" on a package variable (above it, at the
//     end of its line, or above a var declaration of one variable): the
//     variable is guarded by a mutex that is, or is reached from, a
//     package variable.
//   - "// +checklocks:s.mu" in a function's doc comment: the function is
//     called with the mutex held, s being its receiver or a parameter (a
//     pointer) or a package variable; "+checklocksread:s.mu" with it held
//     at least for reading. Inside the function the mutex counts as held
//     until the function may have released it, and every call must hold
//     it.
//   - "// +checklocksignore" (or checklocks' older "+checklocks:ignore")
//     in a function's doc comment: nothing is reported in the function
//     or the function literals inside it. At the end of a line of code,
//     or alone on the line above it, it silences that line.
//
// Checklocks' other annotations (+checklocksacquire,
// +checklocksrelease, +checklocksexclude, +checklocksforce,
// +checklocksfail, +checklocksalias) are not read: what a function does
// to mutexes is what package lockset computes.
//
// An annotation that names no mutex is reported, since it guards
// nothing:
//
//	s.go:14:2: bad +checklocks annotation: Server has no field mux, so it guards nothing
//
// # What it reports
//
// WRONG: Hits reads count without the mutex.
//
//	type Server struct {
//		mu sync.RWMutex
//		// +checklocks:mu
//		count int
//	}
//
//	func (s *Server) Hits() int { return s.count }
//
// RIGHT: a read holds the mutex, for reading at least; a write holds
// it for writing.
//
//	func (s *Server) Hits() int {
//		s.mu.RLock()
//		defer s.mu.RUnlock()
//		return s.count
//	}
//
// The reports, one per access in the source (s.count++ is a write),
// name the field and the mutex as the code names them, and the
// annotation:
//
//	s.go:20:11: read of s.count without s.mu held (annotated +checklocks:mu at s.go:12)
//	s.go:25:4: write to s.count without s.mu held (annotated +checklocks:mu at s.go:12)
//	s.go:30:4: write to s.count with s.mu held only for reading (annotated +checklocks:mu at s.go:12)
//	s.go:41:13: call of addLocked without s.mu held (annotated +checklocks:s.mu at s.go:35)
//
// A write is a store to the field, or to the map or slice elements it
// holds (s.m[k] = v, delete(s.m, k)); handing the field's address on (to
// a method with a pointer receiver, a call, a variable) is an "access
// to" it that a read lock covers.
//
// The mutex held is the lockset pass's must-held lockset at the access
// (see package lockset): a lock taken on every path to it and not
// released since, by this function or a helper it calls. It matches when
// it is reached from the same value as the field: s.count needs s.mu,
// o.inner.n needs o.inner.mu, whichever variable the code used to lock
// it. A function literal holds what its function holds where it calls
// the literal (its parameters standing for the arguments) or hands it
// to a call (sort.Slice, once.Do, a ForEach helper), but not when a go
// statement runs it, a library function runs it in another goroutine
// (time.AfterFunc, errgroup's Go), or it is stored for later. A deferred
// literal holds what its function holds at its returns, but for the
// locks that a call deferred after it may release first.
//
// Annotations on the fields, variables and functions of imported
// packages apply too: they reach the importer as facts (facts.Guarded).
//
// # What stays silent
//
// Constructors. An object that no other goroutine can reach yet needs
// no lock: the fields of a composite literal (&Server{count: 1}), the
// stores that follow new(Server) in the same block before anything else
// is handed the object, and a local variable whose address never
// escapes (a copy, c := *s). A function named new or New, or either
// followed by a capital letter, a digit or an underscore (newServer,
// NewClient), that allocates a struct is taken for its constructor:
// nothing it does to the fields of that struct, or to a struct it holds
// by value, is reported, and neither are its calls of annotated
// functions on one.
//
// Functions annotated +checklocksignore, and the lines silenced as the
// last section says.
//
// # Known limits
//
// A lock held through another path to the same mutex (a mutex reached
// by an alias the analysis cannot name, or declared equal with
// +checklocksalias) does not count. A function literal stored and called
// later while its creator still holds the mutex is believed to run
// without it; one handed to a function that keeps it to run after the
// mutex is released is believed to run with it (checklocks reports the
// access in any literal handed to a call instead). A helper that the constructor calls on the object it makes is
// checked as any function: annotate it +checklocksignore, or have it
// take the lock. A mutex that is an unexported variable of another
// package is taken for held there: go vet's export data leaves it out,
// so the lockset pass cannot see that package's functions take it.
// Reads through sync/atomic of an annotated field count as accesses;
// copying the whole struct (c := *s) does not, nor does a go or defer
// statement's call of an annotated function count as a call.
//
// # Report kinds
//
// Each report carries its kind as its category (the "category" of go vet
// -json and origo -json, the rule of a SARIF result; see package kinds):
//
// guardedby/unguarded-access: a read or write of a field or package
// variable annotated +checklocks:mu made without mu held, or a write
// made with mu held only for reading. Take the mutex around the access.
//
// guardedby/unguarded-call: a call of a function annotated
// +checklocks:s.mu (or +checklocksread:s.mu) made without that mutex
// held as the annotation requires. Take the mutex around the call.
//
// guardedby/bad-annotation: an annotation that names no mutex (a field
// the struct does not have, a path that is not a mutex): it guards
// nothing. Fix the path.
//
// # Silencing a report
//
// Check the report first: find the access, the mutex the annotation
// names, and where you expected it to be taken. An access that does
// not need the lock (a field read before the object is shared, by a
// helper of its constructor) is silenced by a line comment
//
//	//origo:ignore guardedby <reason>
//
// on the line of the access, after the code, or alone on the line above
// it, or by checklocks' own "// +checklocksignore" there or on the
// function. The comment starts exactly "//origo:ignore " (no space
// after the slashes), the next word names the analyzers it silences
// (guardedby, or a list: guardedby,race), and the reason says why. A
// malformed directive silences nothing and is reported by the directive
// analyzer. Nothing is reported in a file marked "// Code generated ...
// DO NOT EDIT." unless the -generated flag is set.
package guardedby

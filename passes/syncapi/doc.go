// Package syncapi is the one place in origo that knows the
// synchronization API of Go and its libraries: which calls lock a mutex,
// touch memory atomically, order goroutines (WaitGroup, errgroup, Cond,
// Once, close) or start goroutines (spawners).
//
// The passes and analyzers ask this package instead of matching names
// themselves, so that adding an API, or fixing how one is recognized,
// changes every consumer at once. In the style of staticcheck's knowledge
// package it only recognizes; what an operation means for a lockset, a
// happens-before edge or a points-to graph is left to each pass.
//
// Calls of methods of sync's types (Mutex, WaitGroup, Cond, Once) and of
// errgroup.Group are recognized when the call's static callee is the
// method itself, with the receiver as the first argument; a method value
// or method expression calls a wrapper, which the passes walk into where
// it has a body. Functions of sync/atomic and spawners are recognized by
// the declared function, whatever the call passes.
//
// The channel builtins len and cap read a channel's state without
// synchronizing: only close (and the send and receive instructions,
// which are not calls) orders goroutines.
package syncapi

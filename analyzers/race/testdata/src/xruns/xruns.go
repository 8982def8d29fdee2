// Package xruns: each test makes its own objects, also through a call
// of another package's function that allocates them (by its summary):
// a goroutine one test leaves running works on that test's stub, and
// another test's code on its own, though the pointer analysis, which
// runs every test in one context, gives the helper's call one object
// (rule test-objects). A stub another package's variable holds is
// every test's.
package xruns

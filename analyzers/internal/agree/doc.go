// Package agree holds the test that race, deadlock and blocking agree on
// which goroutines may run at once: they ask the same question
// (shb.Order.Concurrent and the roots' programs and runs), so two
// goroutines that never overlap are silent in all three, and two that
// may overlap are reported by each that finds a bug between them.
//
// Its fixtures mark what each analyzer reports with
//
//	// expect ANALYZER "regexp" [ANALYZER "regexp" ...]
//
// and the lines whose race and deadlock candidates (a pair of accesses,
// a lock order inversion) a rule must rule out with
//
//	// silent "rule"
package agree

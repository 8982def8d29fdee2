// Package pta declares the assertions that pointer fixtures make about
// themselves. The test finds the calls in SSA and checks each against
// the analysis; the functions do nothing when run.
package pta

// MayAlias: x and y may point to a common location.
func MayAlias(x, y any) {}

// NoAlias: x and y point to no common location (both point somewhere).
func NoAlias(x, y any) {}

// PointsTo: the locations x may point to, printed and joined by ", ",
// match the regular expression want.
func PointsTo(x any, want string) {}

// PointsToNothing: x points to no location.
func PointsToNothing(x any) {}

// Shared: a location x points to is origin-shared: two origins access
// it and one writes.
func Shared(x any) {}

// NotShared: no location x points to is origin-shared.
func NotShared(x any) {}

// SharedByGoroutines: a location x points to is shared among the
// goroutines started by go statements and spawners (roots left out).
func SharedByGoroutines(x any) {}

// NotSharedByGoroutines: no location x points to is shared among
// started goroutines.
func NotSharedByGoroutines(x any) {}

// MissedAlias: x and y alias when the program runs, and the analysis
// does not see it yet (a known false negative). The assertion fails once
// the analysis finds the alias: then make it a MayAlias.
func MissedAlias(x, y any) {}

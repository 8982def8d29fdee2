package syncapi

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// testReports are the methods of testing.T, B and F (their common part)
// that record a log line, a failure or a skip: the testing package
// panics when one runs after its test has returned.
var testReports = map[string]bool{
	"Log": true, "Logf": true,
	"Error": true, "Errorf": true,
	"Fatal": true, "Fatalf": true,
	"Fail": true, "FailNow": true,
	"Skip": true, "Skipf": true, "SkipNow": true,
}

// FailsTest reports whether call fails, ends or skips its test (t.Error,
// t.Fatalf, tb.FailNow, b.Skip...): a report to the test other than a
// log line.
func FailsTest(call *ssa.CallCommon) bool {
	name := TestReport(call)
	return name != "" && name != "Log" && name != "Logf"
}

// Goexits reports whether call ends its goroutine by runtime.Goexit,
// which runs the deferred calls first: runtime.Goexit itself, or a
// method of testing's T, B or F that stops its test (t.Fatal, t.FailNow,
// t.Skip, t.SkipNow...), not one that records a failure and returns
// (t.Error, t.Fail).
func Goexits(call *ssa.CallCommon) bool {
	if fn := call.StaticCallee(); fn != nil && fn.Object() != nil && fn.Object().Pkg() != nil &&
		fn.Object().Pkg().Path() == "runtime" && fn.Name() == "Goexit" {
		return true
	}
	switch TestReport(call) {
	case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
		return true
	}
	return false
}

// TestReport returns the method name when call reports to a test
// (t.Errorf, b.Log, tb.Fatal through testing.TB), or "".
func TestReport(call *ssa.CallCommon) string {
	name := testingMethod(call)
	if testReports[name] {
		return name
	}
	return ""
}

// OnBenchmark reports whether call, a report to a test (see
// TestReport), reports to a benchmark: its receiver is a *testing.B, or
// the common part of one (b.Logf calls common's Logf on &b.common). The
// testing package marks a test or a fuzz target done when its function
// returns, and a report after that panics; it never marks a benchmark
// so, and a late b.Log is only a line of output.
func OnBenchmark(call *ssa.CallCommon) bool {
	if call.IsInvoke() || len(call.Args) == 0 {
		return false
	}
	recv := call.Args[0]
	if fa, ok := recv.(*ssa.FieldAddr); ok {
		recv = fa.X
	}
	return isNamed(recv.Type(), "testing", "B")
}

// TCleanup reports whether call registers a function to run when the
// test ends: t.Cleanup(f), on a T, B or F or through testing.TB.
func TCleanup(call *ssa.CallCommon) bool { return testingMethod(call) == "Cleanup" }

// testingMethod returns the name of the method of testing's T, B, F,
// their common part or testing.TB that call calls, or "".
func testingMethod(call *ssa.CallCommon) string {
	if call.IsInvoke() {
		if isNamed(call.Value.Type(), "testing", "TB") {
			return call.Method.Name()
		}
		return ""
	}
	fn := call.StaticCallee()
	if fn == nil || fn.Object() == nil || fn.Object().Pkg() == nil || fn.Object().Pkg().Path() != "testing" {
		return "" // asked of every call the walks inline: no names built
	}
	for _, typ := range []string{"common", "T", "B", "F"} {
		if n, ok := strings.CutPrefix(qualifiedName(fn), "testing."+typ+"."); ok {
			return n
		}
	}
	return ""
}

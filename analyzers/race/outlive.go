package race

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// lateReports reports the calls that report to a test (t.Errorf, t.Log,
// t.Fatal) in a goroutine that the test, or the subtest, that started
// it does not wait for: the call may run after the test returned, where
// the testing package panics ("Log in goroutine after TestX has
// completed") or, before it notices, races with the test's end. A
// benchmark is never marked done: its late logs are only output, and
// only its late failures (b.Error, b.Fatal) are reported, as failures
// the testing package no longer reports.
func (c *checker) lateReports() {
	seen := make(map[token.Pos]bool)
	for _, t := range c.hb.Traces {
		if t.Origin.Parent == nil || t.Origin.Kind == facts.SpawnSubtest {
			continue // a test's or subtest's own body
		}
		for _, ev := range t.Events {
			if ev.Kind != shb.TestReport {
				continue
			}
			pos := ev.Instr.Pos()
			call := ev.Instr.(ssa.CallInstruction).Common()
			bench := syncapi.OnBenchmark(call)
			if seen[pos] || !c.inPackage(pos) || c.ignored.Has(pos) || bench && !syncapi.FailsTest(call) {
				continue
			}
			test, ok := c.outlived(t, ev.ID, owner(ev.Instr.Parent()))
			if !ok {
				continue
			}
			seen[pos] = true
			name := syncapi.TestReport(call)
			after := "where the testing package panics"
			if bench {
				after = "where the benchmark's failure is no longer reported"
			}
			c.pass.Report(analysis.Diagnostic{
				Pos:      pos,
				Category: kinds.TestReportAfterTest.ID,
				Message: fmt.Sprintf("test report after the test: %s at %s runs in the %s, which %s does not wait for, so it may run after the test returned, %s; wait for the goroutine (a sync.WaitGroup, a channel) before the test returns",
					name, c.pos(pos), c.goroutine(t.Origin), test, after),
			})
		}
	}
}

// owner returns the function that declares fn: fn itself, or the
// function its function literal is in.
func owner(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// outlived reports whether event id of goroutine trace t may happen
// after the test or subtest that started the goroutine returned, and
// names that test. A report in a function literal of a test is a report
// to that test: only that test's runs count. A trace that was cut, or
// that signals on a channel it cannot name, may hide the join, and a
// time.AfterFunc callback is stopped rather than joined: no answer then.
func (c *checker) outlived(t *shb.Trace, id int32, declared *ssa.Function) (string, bool) {
	if t.Truncated || t.Origin.Kind == facts.SpawnAfterFunc || unknownSignal(t, id) {
		return "", false
	}
	if waitedBySpawners(t.Origin) {
		return "", false
	}
	child := t.Origin
	for o := t.Origin; o.Parent != nil; o = o.Parent {
		if o.Kind == facts.SpawnSubtest {
			sub := c.hb.TraceOf(o)
			if sub == nil || sub.Truncated {
				return "", false
			}
			return "the subtest started at " + c.pos(o.Site), !c.order.HappensBefore(t, id, sub, int32(len(sub.Events)), false)
		}
		child = o
	}
	root := c.hb.TraceOf(child.Parent)
	if root == nil || root.Truncated || root.Origin.Root != "tests" && root.Origin.Root != "parallel tests" {
		return "", false
	}
	// The goroutine may come from several tests (a helper they share):
	// it outlives any of them whose run does not wait for it.
	entries := c.ptr.RootFuncs(root.Origin)
	for _, ev := range root.Events {
		if ev.Kind != shb.Spawn || !slices.Contains(root.Spawned(ev.ID), child) {
			continue
		}
		// The end of the run: where the next run starts, or the
		// trace's end (edges into a trace land after their event).
		run, end := root.Run(ev.ID), int32(len(root.Events))
		if run >= 0 && run+1 < len(root.Entries) {
			end = root.Entries[run+1]
		}
		if run >= 0 && run < len(entries) && slices.Contains(entries, declared) && entries[run] != declared {
			continue // another test's run: the report is to declared's T
		}
		if !c.order.HappensBefore(t, id, root, end, false) {
			if run >= 0 && run < len(entries) && c.starves(t, id, root, ev.ID, end, entries[run]) {
				continue // where it reports, the test waits forever
			}
			test := "its test"
			if run >= 0 && run < len(entries) {
				test = entries[run].Name()
			} else if len(entries) == 1 {
				test = entries[0].Name()
			}
			return test, true
		}
	}
	return "", false
}

// waitedBySpawners reports whether each goroutine from o up to its root
// was started by a call that returns only after it ended (b.RunParallel's
// bodies, a subtest without t.Parallel): the test waits for o at every
// call of the code that starts it, wherever the trace put the calls.
func waitedBySpawners(o *pointer.Origin) bool {
	for ; o.Parent != nil; o = o.Parent {
		if o.Flags&facts.Sync == 0 {
			return false
		}
	}
	return true
}

// unknownSignal reports whether a send, close or Done of trace t after
// event id is on a channel or WaitGroup that is not one known object
// (made by several calls merged): the join may be there, unseen. A
// stopped timer's callback never runs: its function is left alone too.
func unknownSignal(t *shb.Trace, id int32) bool {
	for _, ev := range t.Events[id+1:] {
		switch ev.Kind {
		case shb.Send, shb.Close, shb.WGDone:
			if ev.Obj < 0 {
				return true
			}
		}
	}
	return false
}

// starves reports whether the report at event id of goroutine trace t
// can only run where the test never returns: the test function (fn,
// whose run of the tests' trace root spans events from to end)
// receives from a channel on every path to its end (a return, a panic,
// a t.Fatal), and every send on
// or close of that channel is the goroutine's own, in the report's
// function, on paths the report is not on (a branch that reports and
// returns; t.Fatal, whose Goexit runs no deferred signal there). The
// goroutine runs once, so where the report runs nothing ever lets the
// test's receive complete: the report comes before a return that
// never happens, and the test times out rather than completing. Not
// where several goroutines may run the report's function (a go
// statement in a loop, here or in a goroutine that started this one):
// one may send while another reports.
func (c *checker) starves(t *shb.Trace, id int32, root *shb.Trace, from, end int32, fn *ssa.Function) bool {
	report := t.Events[id].Instr
	if report == nil {
		return false
	}
	for o := t.Origin; o.Parent != nil; o = o.Parent {
		if o.Multi {
			return false // started in a loop, or by a goroutine that is
		}
	}
	for _, ev := range root.Events[from:end] {
		if ev.Kind != shb.Recv || ev.Select || ev.Obj < 0 || ev.Instr.Parent() != fn || !blocks.PassesFirst(fn.Blocks[:1], ev.Instr, nil) {
			continue
		}
		if c.onlySignalsApart(t, report, ev.Obj) {
			return true
		}
	}
	return false
}

// onlySignalsApart reports whether every send on or close of channel
// obj, in any goroutine, is an event of t in report's function, neither
// before nor after report on a path of it, and not deferred; and there
// is one at least.
func (c *checker) onlySignalsApart(t *shb.Trace, report ssa.Instruction, obj int32) bool {
	n := 0
	for _, tr := range c.hb.Traces {
		for _, ev := range tr.Events {
			if ev.Obj != obj || ev.Kind != shb.Send && ev.Kind != shb.Close {
				continue
			}
			if _, deferred := ev.Instr.(*ssa.Defer); tr != t || deferred || ev.Instr.Parent() != report.Parent() {
				return false
			}
			if dataflow.MayPrecede(ev.Instr, report) || dataflow.MayPrecede(report, ev.Instr) {
				return false
			}
			n++
		}
	}
	return n > 0
}

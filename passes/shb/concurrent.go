package shb

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
)

// Concurrent reports whether event x of trace t and event y of trace u
// may run at the same time, and if not, the rule that keeps them apart:
// one goroutine (program order), two programs (main and the tests never
// run in one process), one run of a parallel test (it runs once), runs
// in sequence (a test and what the next one does, when it joined its
// goroutines), or a chain of happens-before edges either way.
// It is the question race, deadlock and blocking all ask of two events,
// so that they cannot disagree on it; each adds the rules of its own
// (locks, ownership) after it.
func (o *Order) Concurrent(t *Trace, x int32, u *Trace, y int32) (bool, rules.ID) {
	switch {
	case t == u:
		return false, rules.OneGoroutine
	case !t.Origin.SameProgram(u.Origin):
		return false, rules.OtherProgram
	}
	if rule := o.OneRun(t, x, u, y); rule != "" {
		return false, rule
	}
	switch {
	case o.r.SeparateRuns(t, x, u, y):
		return false, o.r.RunsRule(t, u)
	case o.HappensBefore(t, x, u, y, false) || o.HappensBefore(u, y, t, x, false):
		return false, rules.HappensBefore
	case o.JoinedPerIteration(t, x, u, y):
		return false, rules.JoinedPerIteration
	}
	return true, ""
}

// OneRun returns the rule by which event x of t and event y of u are
// in one run of a parallel test that keeps them apart: the two copies
// of that run's goroutines (test-runs-once), or the run and the
// subtests it waits for (subtests-wait); "" otherwise. Concurrent asks
// it, and so does race, which asks locks and ownership between it and
// happens-before.
func (o *Order) OneRun(t *Trace, x int32, u *Trace, y int32) rules.ID {
	if o.r.SameTestRun(t, x, u, y) {
		return rules.TestRunsOnce
	}
	if beforeParallel(t, x, u) || beforeParallel(u, y, t) {
		return rules.SubtestsWait
	}
	return o.sequentialRun(t, x, u, y)
}

// beforeParallel reports whether event x of t runs in a parallel subtest
// before its t.Parallel, and u is the goroutine whose t.Run started it:
// t.Run returns only once the subtest calls t.Parallel, so its caller
// runs nothing meanwhile (the copy tt := tt a table-driven test makes
// before t.Parallel is done before the loop writes tt again).
func beforeParallel(t *Trace, x int32, u *Trace) bool {
	o := t.Origin
	return o.Kind == facts.SpawnSubtest && o.Flags&facts.Parallel != 0 && t.ParallelAt > 0 && x < t.ParallelAt && o.Parent != nil && o.Parent == u.Origin
}

// Explain says, for a person, what rule id found between event x of t
// and event y of u: for happens-before, the chain of edges from one to
// the other, each edge from the event of its goroutine to the event of
// the next; for two programs, which each runs in.
func (o *Order) Explain(fset *token.FileSet, id rules.ID, t *Trace, x int32, u *Trace, y int32) string {
	switch id {
	case rules.OtherProgram:
		return ProgramsApart(fset, t.Origin, u.Origin)
	case rules.OneGoroutine:
		return "both in " + t.Origin.Describe(fset)
	case rules.HappensBefore:
		if chain := o.chain(fset, t, x, u, y); chain != "" {
			return chain
		}
		if chain := o.chain(fset, u, y, t, x); chain != "" {
			return chain
		}
	}
	return ""
}

// ProgramsApart says which program each of two goroutines runs in, the
// detail of rules.OtherProgram.
func ProgramsApart(fset *token.FileSet, a, b *pointer.Origin) string {
	return fmt.Sprintf("%s runs in %s, %s in %s", a.Describe(fset), a.InPrograms(), b.Describe(fset), b.InPrograms())
}

// chain finds a path of edges from event x of t to an event of u at or
// before y, breadth first, and describes its hops; "" when there is
// none. It follows the edges as reach does, without its memo: it is
// asked for one pair, to explain it.
func (o *Order) chain(fset *token.FileSet, t *Trace, x int32, u *Trace, y int32) string {
	type step struct {
		t       *Trace
		at, end int32 // the events reached: a span of a case body, or from at on
		prev    int   // index in seen, -1 for the start
		edge    Edge
	}
	seen := []step{{t: t, at: t.Last(x, false), end: noEvent, prev: -1}}
	best := map[*Trace]int32{t: x}
	spans := make(map[traceSpan]bool)
	for i := 0; i < len(seen); i++ {
		s := seen[i]
		for _, e := range s.t.Out {
			if i == 0 && e.Before <= s.at || i > 0 && (e.Before < s.at || e.Before > s.end) {
				continue
			}
			if i == 0 && x < s.t.maxFrom && e.From > x {
				continue
			}
			lands := []Span{{e.At, noEvent}}
			if e.Body > 0 {
				lands = e.To.bodySpans[e.Body-1]
			}
			for _, l := range lands {
				at := max(l.Start, e.At)
				if at > l.End {
					continue
				}
				if b, ok := best[e.To]; ok && b <= at {
					continue
				}
				if l.End == noEvent {
					best[e.To] = at
				} else if k := (traceSpan{e.To.index, at, l.End}); spans[k] {
					continue
				} else {
					spans[k] = true
				}
				seen = append(seen, step{t: e.To, at: at, end: l.End, prev: i, edge: e})
				if e.To != u || at > y || y > l.End {
					continue
				}
				var hops []string
				for j := len(seen) - 1; seen[j].prev >= 0; j = seen[j].prev {
					from := seen[seen[j].prev].t
					hops = append(hops, fmt.Sprintf("%s → %s", eventAt(fset, from, seen[j].edge.Before), eventAt(fset, seen[j].t, seen[j].edge.At)))
				}
				for l, r := 0, len(hops)-1; l < r; l, r = l+1, r-1 {
					hops[l], hops[r] = hops[r], hops[l]
				}
				return strings.Join(hops, ", then ")
			}
		}
	}
	return ""
}

// eventAt names event id of t for a person: its kind and line, in its
// goroutine.
func eventAt(fset *token.FileSet, t *Trace, id int32) string {
	if id < 0 || int(id) >= len(t.Events) {
		return t.Origin.Describe(fset)
	}
	ev := &t.Events[id]
	where := "?"
	if ev.Instr != nil {
		if p := fset.Position(ev.Instr.Pos()); p.IsValid() {
			where = fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
		} else if fn := ev.Instr.Parent(); fn != nil {
			if p := fset.Position(fn.Pos()); p.IsValid() {
				where = fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			}
		}
	}
	return fmt.Sprintf("%s at %s (%s)", Kinds[ev.Kind], where, t.Origin.Describe(fset))
}

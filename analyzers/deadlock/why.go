package deadlock

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// WhyCategory is the category of the diagnostics -why asks for.
const WhyCategory = rules.WhyCategory

// whyTarget is the -why flag's value (see rules.TargetFlag).
var whyTarget string

// whyLog keeps the verdict on each candidate deadlock at the line asked
// about: a report's places (reported, or ruled out by an //origo:ignore
// directive), and each place where the checks found no deadlock, with
// the rule that ruled it out (see the package documentation, "What
// stays silent"). nil when -why is off: every method is then a no-op.
type whyLog struct {
	fset    *token.FileSet
	target  rules.Target
	entries map[whyEntry]bool
}

type whyEntry struct {
	at      token.Pos
	message string
}

func newWhyLog(fset *token.FileSet) *whyLog {
	if whyTarget == "" {
		return nil
	}
	t, _ := rules.ParseTarget(whyTarget) // checked by the flag
	return &whyLog{fset: fset, target: t, entries: make(map[whyEntry]bool)}
}

// wants reports whether a verdict at pos is asked for: -why is on and
// pos is at its line. Callers ask it before they word a candidate.
func (w *whyLog) wants(pos token.Pos) bool { return w != nil && w.target.Matches(w.fset, pos) }

// note records the verdict on a candidate at pos, worded by format and
// args: reported when rule is "", else ruled out by rule, with detail
// saying what in the program it applied to.
func (w *whyLog) note(at token.Pos, rule rules.ID, detail string, format string, args ...any) {
	if !w.wants(at) {
		return
	}
	w.entries[whyEntry{at, "why: " + fmt.Sprintf(format, args...) + ": " + verdict(rule, detail)}] = true
}

// verdict words a rule's verdict: "reported", or "ruled out by RULE
// (its statement): detail".
func verdict(rule rules.ID, detail string) string {
	if rule == "" {
		return "reported"
	}
	r, _ := rules.Lookup(rule)
	v := fmt.Sprintf("ruled out by %s (%s)", rule, r.Statement)
	if detail != "" {
		v += ": " + detail
	}
	return v
}

// noteInversion records the verdict on the candidate inversion of order
// edges x and y, at both acquisitions, when a rule ruled it out; a
// candidate that deadlocks is noted where it is reported (see
// reportFix).
func (c *checker) noteInversion(hb *shb.Result, x, y orderEdge, rule rules.ID) {
	w := c.why
	if w == nil || rule == "" {
		return
	}
	for _, e := range [2][2]orderEdge{{x, y}, {y, x}} {
		a, b := e[0], e[1]
		at := a.t.Events[a.ev].Instr.Pos()
		if !w.wants(at) {
			continue
		}
		detail := c.order.Explain(w.fset, rule, a.t, a.ev, b.t, b.ev)
		w.note(at, rule, detail, "lock order inversion: %s locked at %s holding %s (%s) vs %s locked at %s holding %s (%s)",
			hb.Locks.Name(a.to), c.pos(at), hb.Locks.Name(a.from), a.t.Origin.Describe(w.fset),
			hb.Locks.Name(b.to), c.pos(b.t.Events[b.ev].Instr.Pos()), hb.Locks.Name(b.from), b.t.Origin.Describe(w.fset))
	}
}

// noteLeftHeld records the verdict on the return ret of fn, which holds
// h while other returns of fn do not: "" for reported (lock left held),
// else the rule that ruled it out.
func (c *checker) noteLeftHeld(fn *ssa.Function, ret *ssa.Return, h lockset.Held, rule rules.ID) {
	at := lockset.ReturnPos(fn, ret)
	if !c.why.wants(at) {
		return
	}
	c.why.note(at, rule, "", "lock left held: %s (locked at %s) is held when %s returns at %s, and not at its other returns",
		lockName(h), c.where(h), fn.Name(), c.pos(at))
}

// report emits the verdicts kept, in the order of their positions.
func (w *whyLog) report(pass *analysis.Pass) {
	if w == nil {
		return
	}
	var es []whyEntry
	for e := range w.entries {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b whyEntry) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.message, b.message)) })
	for _, e := range es {
		pass.Report(analysis.Diagnostic{Pos: e.at, Category: WhyCategory, Message: e.message})
	}
}

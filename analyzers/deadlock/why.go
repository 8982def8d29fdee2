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

// whyLog keeps the verdict on each candidate lock order inversion (two
// goroutines' acquisitions of two mutexes in opposite orders) with an
// acquisition at the line asked about; nil when -why is off.
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

func (w *whyLog) matches(pos token.Pos) bool { return w.target.Matches(w.fset, pos) }

// inversion records the verdict on the candidate inversion of order
// edges x and y: "" for reported, else the rule that ruled it out.
func (c *checker) noteInversion(hb *shb.Result, x, y orderEdge, rule rules.ID) {
	w := c.why
	if w == nil {
		return
	}
	for _, e := range [2][2]orderEdge{{x, y}, {y, x}} {
		a, b := e[0], e[1]
		at := a.t.Events[a.ev].Instr.Pos()
		if !w.matches(at) {
			continue
		}
		verdict := "reported"
		if rule != "" {
			r, _ := rules.Lookup(rule)
			verdict = fmt.Sprintf("ruled out by %s (%s)", rule, r.Statement)
		}
		msg := fmt.Sprintf("why: lock order inversion: %s locked at %s holding %s (%s) vs %s locked at %s holding %s (%s): %s",
			hb.Locks.Name(a.to), c.pos(at), hb.Locks.Name(a.from), a.t.Origin.Describe(w.fset),
			hb.Locks.Name(b.to), c.pos(b.t.Events[b.ev].Instr.Pos()), hb.Locks.Name(b.from), b.t.Origin.Describe(w.fset), verdict)
		w.entries[whyEntry{at, msg}] = true
	}
}

// noteLeftHeld records the verdict on the return ret of fn, which holds
// h while other returns of fn do not: "" for reported (lock left held),
// else the rule that ruled it out.
func (w *whyLog) noteLeftHeld(c *checker, fn *ssa.Function, ret *ssa.Return, h lockset.Held, rule rules.ID) {
	if w == nil {
		return
	}
	at := lockset.ReturnPos(fn, ret)
	if !w.matches(at) {
		return
	}
	verdict := "reported"
	if rule != "" {
		r, _ := rules.Lookup(rule)
		verdict = fmt.Sprintf("ruled out by %s (%s)", rule, r.Statement)
	}
	msg := fmt.Sprintf("why: lock left held: %s (locked at %s) is held when %s returns at %s, and not at its other returns: %s",
		lockName(h), c.where(h), fn.Name(), c.pos(at), verdict)
	w.entries[whyEntry{at, msg}] = true
}

// reportWhy emits the verdicts kept, in the order of their positions.
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

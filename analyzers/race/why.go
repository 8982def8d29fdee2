package race

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
)

// WhyCategory is the category of the diagnostics -why asks for.
const WhyCategory = rules.WhyCategory

// whyLog keeps the verdict on each candidate pair of accesses at the
// line asked about: the rule that ruled it out, or "reported". A nil
// whyLog keeps nothing, at the cost of one comparison per pair.
type whyLog struct {
	fset    *token.FileSet
	target  rules.Target
	entries map[whyKey]*whyEntry
	// events are the two events whose rule racy returned, when it did:
	// their edge chain is the happens-before rule's detail.
	events whyEvents
}

type whyEvents struct {
	t *shb.Trace
	x int32
	u *shb.Trace
	y int32
}

type whyVerdict struct {
	rule   rules.ID
	detail string
}

// whyEntry is the verdict on one candidate: reported, or the rules that
// ruled out its pairs, each once, with the first pair's detail.
type whyEntry struct {
	reported bool
	locks    string // of the first pair reported: "locks held: {mu} vs {}"
	ruled    []whyVerdict
}

// whyKey is one candidate as a person reads it: the accesses' lines and
// goroutines, the memory.
type whyKey struct {
	at       token.Pos // the access at the line asked about
	what     string
	sideA    string
	sideB    string
	relatedB token.Pos
}

func newWhyLog(fset *token.FileSet, target string) *whyLog {
	if target == "" {
		return nil
	}
	t, _ := rules.ParseTarget(target) // checked by the flag
	return &whyLog{fset: fset, target: t, entries: make(map[whyKey]*whyEntry)}
}

// matches reports whether pos is at the line asked about.
func (w *whyLog) matches(pos token.Pos) bool { return w.target.Matches(w.fset, pos) }

// note records the verdict rule on the pair a, b on loc ("" for
// reported), under the access at the line asked about. Pairs of
// different goroutines that print alike ("test goroutine", the copies
// of a goroutine started in a loop) are one candidate to a reader: it
// is reported if one of them is, and is otherwise ruled out by each
// rule that ruled out one of them (one-goroutine only when no other
// did: a pair of one goroutine's accesses is no candidate where a pair
// of two goroutines that print alike is).
func (w *whyLog) note(c *checker, loc pointer.Location, a, b pointer.Access, rule rules.ID) {
	w.noteLocks(c, loc, a, b, rule, 0, 0)
}

// noteLocks is note with the locks each side holds, for a pair
// reported: a reader checks a lock the analysis missed there.
func (w *whyLog) noteLocks(c *checker, loc pointer.Location, a, b pointer.Access, rule rules.ID, la, lb shb.LocksetID) {
	if w == nil {
		return
	}
	pa, pb := accessPos(a), accessPos(b)
	if w.matches(pa) {
		w.keep(c, loc, a, b, rule, la, lb)
	}
	if pb != pa && w.matches(pb) {
		w.keep(c, loc, b, a, rule, lb, la)
	}
}

func (w *whyLog) keep(c *checker, loc pointer.Location, at, other pointer.Access, rule rules.ID, la, lb shb.LocksetID) {
	k := whyKey{at: accessPos(at), what: c.describe(loc), sideA: c.side(at), sideB: c.side(other), relatedB: accessPos(other)}
	e := w.entries[k]
	if e == nil {
		e = new(whyEntry)
		w.entries[k] = e
	}
	if rule == "" {
		if !e.reported {
			e.reported = true
			e.locks = fmt.Sprintf("locks held: %s vs %s", c.lockNames(la), c.lockNames(lb))
		}
		return
	}
	if e.reported || slices.ContainsFunc(e.ruled, func(v whyVerdict) bool { return v.rule == rule }) {
		return
	}
	v := whyVerdict{rule: rule}
	switch ev := w.events; {
	case rule == rules.HappensBefore && ev.t != nil:
		v.detail = c.order.Explain(w.fset, rule, ev.t, ev.x, ev.u, ev.y)
	case rule == rules.OtherProgram:
		v.detail = shb.ProgramsApart(w.fset, at.Origin, other.Origin)
	case rule == rules.OneGoroutine:
		v.detail = "both in " + at.Origin.Describe(w.fset)
	}
	e.ruled = append(e.ruled, v)
}

// verdicts returns what report prints of e: reported, or each rule
// that ruled out a pair, in the order of rules.All, one-goroutine only
// when no other did.
func (e *whyEntry) verdicts() []whyVerdict {
	if e.reported {
		return []whyVerdict{{detail: e.locks}}
	}
	vs := slices.Clone(e.ruled)
	if len(vs) > 1 {
		vs = slices.DeleteFunc(vs, func(v whyVerdict) bool { return v.rule == rules.OneGoroutine })
	}
	slices.SortStableFunc(vs, func(x, y whyVerdict) int { return cmp.Compare(ruleIndex(x.rule), ruleIndex(y.rule)) })
	return vs
}

// ruleIndex returns the index of id in rules.All.
func ruleIndex(id rules.ID) int {
	return slices.IndexFunc(rules.All, func(r rules.Rule) bool { return r.ID == id })
}

// side describes an access for a why line: its kind, line and goroutine.
func (c *checker) side(acc pointer.Access) string {
	kind := "read"
	if acc.Write {
		kind = "write"
	}
	return fmt.Sprintf("%s at %s (%s, in %s)", kind, c.pos(accessPos(acc)), acc.Origin.Describe(c.pass.Fset), acc.Origin.InPrograms())
}

// report emits one diagnostic per candidate kept and rule that ruled it out, in the order of their
// positions: "why: data race on x: write at a.go:3 (...) vs read at
// a.go:9 (...): ruled out by happens-before: <the rule>", or "...:
// reported".
func (w *whyLog) report(pass *analysis.Pass) {
	if w == nil {
		return
	}
	keys := make([]whyKey, 0, len(w.entries))
	for k := range w.entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y whyKey) int {
		return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.what, y.what), cmp.Compare(x.sideA, y.sideA), cmp.Compare(x.sideB, y.sideB), cmp.Compare(x.relatedB, y.relatedB))
	})
	for _, k := range keys {
		for _, v := range w.entries[k].verdicts() {
			verdict := "reported"
			if v.rule == "" && v.detail != "" {
				verdict += "; " + v.detail
			}
			if v.rule != "" {
				r, _ := rules.Lookup(v.rule)
				verdict = fmt.Sprintf("ruled out by %s (%s)", v.rule, r.Statement)
				if v.detail != "" {
					verdict += ": " + v.detail
				}
			}
			pass.Report(analysis.Diagnostic{
				Pos:      k.at,
				Category: WhyCategory,
				Message:  fmt.Sprintf("why: %s: %s vs %s: %s", k.what, k.sideA, k.sideB, verdict),
				Related:  []analysis.RelatedInformation{{Pos: k.relatedB, Message: "the other access"}},
			})
		}
	}
}

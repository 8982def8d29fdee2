package blocking

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// WhyCategory is the category of the diagnostics -why asks for.
const WhyCategory = rules.WhyCategory

// whyTarget is the -why flag's value (see rules.TargetFlag).
var whyTarget string

// whyLog keeps the verdict on each candidate blocking operation at the
// line asked about: each question a check asked of it ("does anything
// receive what it sends", "does its receiver stay for the result") with
// the rule that answered it, or "reported". A nil whyLog keeps nothing:
// every method is a no-op on it, and at reports false.
type whyLog struct {
	fset    *token.FileSet
	target  rules.Target
	entries map[whyKey]rules.Reason
	// sequel marks the entries of the sequel rounds, which a later
	// round answers again, and a bound may leave unanswered.
	sequel map[whyKey]bool
}

// whyKey is one candidate as a person reads it: where the operation is,
// and what was asked of it.
type whyKey struct {
	at       token.Pos
	question string
}

func newWhyLog(fset *token.FileSet, target string) *whyLog {
	if target == "" {
		return nil
	}
	t, _ := rules.ParseTarget(target) // checked by the flag
	return &whyLog{fset: fset, target: t, entries: make(map[whyKey]rules.Reason), sequel: make(map[whyKey]bool)}
}

// at reports whether a candidate at pos is asked about: -why is on, and
// pos is at its line. Callers ask it before they word a candidate.
func (w *whyLog) at(pos token.Pos) bool { return w != nil && w.target.Matches(w.fset, pos) }

// note records the verdict on a candidate at pos (rules.None for
// reported); a reported verdict is never replaced by a rule.
func (w *whyLog) note(pos token.Pos, question string, r rules.Reason) {
	if !w.at(pos) {
		return
	}
	k := whyKey{pos, question}
	if old, ok := w.entries[k]; ok && old.Rule == "" {
		return
	}
	w.entries[k] = r
}

// noteSequel records the verdict of a sequel round: the last round's
// stands.
func (w *whyLog) noteSequel(pos token.Pos, question string, r rules.Reason) {
	if !w.at(pos) {
		return
	}
	w.note(pos, question, r)
	w.sequel[whyKey{pos, question}] = true
}

// boundSequels says that the sequel rounds stopped at their bound with
// reports still coming: the candidates they ruled out might have been
// reported by another round.
func (w *whyLog) boundSequels() {
	if w == nil {
		return
	}
	for k := range w.sequel {
		if w.entries[k].Rule != "" {
			w.entries[k] = rules.Reason{Rule: rules.Budget, Detail: fmt.Sprintf("what goroutines blocked forever leave stuck is followed %d rounds deep, and the last round still found some", maxSequelRounds)}
		}
	}
}

// has reports whether a verdict was kept at pos.
func (w *whyLog) has(pos token.Pos) bool {
	for k := range w.entries {
		if k.at == pos {
			return true
		}
	}
	return false
}

// report emits one diagnostic per candidate kept, in the order of their
// positions: "why: send blocks forever? ...: ruled out by partner (the
// rule): the receive at a.go:9 (...)", or "why: <the report>: reported".
func (w *whyLog) report(pass *analysis.Pass) {
	if w == nil {
		return
	}
	keys := make([]whyKey, 0, len(w.entries))
	for k := range w.entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y whyKey) int { return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.question, y.question)) })
	for _, k := range keys {
		verdict := "reported"
		if r := w.entries[k]; r.Rule != "" {
			rule, _ := rules.Lookup(r.Rule)
			verdict = fmt.Sprintf("ruled out by %s (%s)", r.Rule, rule.Statement)
			if r.Detail != "" {
				verdict += ": " + r.Detail
			}
		}
		pass.Report(analysis.Diagnostic{Pos: k.at, Category: WhyCategory, Message: fmt.Sprintf("why: %s: %s", k.question, verdict)})
	}
}

// why returns a Reason of rule with a detail.
func why(rule rules.ID, format string, args ...any) rules.Reason {
	return rules.Reason{Rule: rule, Detail: fmt.Sprintf(format, args...)}
}

// firstOf returns the first of rs that names a rule, or rules.None.
func firstOf(rs ...rules.Reason) rules.Reason {
	for _, r := range rs {
		if r.Rule != "" {
			return r
		}
	}
	return rules.None
}

// weight orders the rules by which the paths of a goroutine, or of the
// function waiting for it, all do what a partner waits for: the
// plainest first, then the assumption that a loop runs as often as
// needed. Of several paths or goroutines, the verdict names the least
// plain rule any needed.
var weight = map[rules.ID]int{rules.EveryPath: 1, rules.Panics: 2, rules.FailedTest: 3, rules.AnsweredOtherwise: 4, rules.Values: 5}

// heavier returns whichever of a and b needed more to rule out.
func heavier(a, b rules.Reason) rules.Reason {
	if weight[b.Rule] > weight[a.Rule] {
		return b
	}
	return a
}

// opQuestion words the question that partnerless asks of the operation
// of event ev of t: does anything complete it.
func (c *checker) opQuestion(t *shb.Trace, ev *shb.Event) string {
	switch instr := ev.Instr.(type) {
	case *ssa.Send:
		return fmt.Sprintf("send blocks forever? %s sends on %s, and nothing may receive", c.goroutine(t), c.chanName(instr.Chan))
	case *ssa.UnOp:
		if ranged(instr) {
			return fmt.Sprintf("range over channel blocks forever? %s ranges over %s, and nothing may close it", c.goroutine(t), c.chanName(instr.X))
		}
		return fmt.Sprintf("receive blocks forever? %s receives from %s, and nothing may send on or close it", c.goroutine(t), c.chanName(instr.X))
	case *ssa.Select:
		return fmt.Sprintf("select blocks forever? %s selects, and no case may proceed", c.goroutine(t))
	}
	return ""
}

// notJudged says why the channels that ch may be in t's goroutine are
// not judged by their partners (see partnerless): code the analysis does
// not see may complete the operation.
func (c *checker) notJudged(t *shb.Trace, ch ssa.Value) rules.Reason {
	if fromElsewhere(ch) {
		return why(rules.OutOfView, "%s is a channel another package's function returns: that package's own", c.chanName(ch))
	}
	locs := c.ptr.PointsToIn(t.Origin, ch)
	if len(locs) == 0 {
		return why(rules.OutOfView, "the analysis cannot name the channel %s is", c.chanName(ch))
	}
	for _, l := range locs {
		mc, ok := l.Obj.Site.(*ssa.MakeChan)
		switch {
		case !ok:
			return why(rules.OutOfView, "%s may be a channel made outside the package's code", c.chanName(ch))
		case mc.Parent() == nil || mc.Parent().Pkg != c.pkg:
			return why(rules.OutOfView, "%s may be a channel another package made", c.chanName(ch))
		case c.globalObjects()[l.Obj]:
			return why(rules.OutOfView, "%s (made at %s) is reached from a package variable, which any code may use", c.chanName(ch), c.pos(mc.Pos()))
		default:
			return why(rules.OutOfView, "%s (made at %s) is given to code the analysis cannot see (another package's, or a function value it cannot resolve)", c.chanName(ch), c.pos(mc.Pos()))
		}
	}
	return rules.None
}

// partnerAt says that the operation at pos of goroutine t (inCode for
// code no trace follows) may complete a candidate.
func (c *checker) partnerAt(what string, t *shb.Trace, pos token.Pos) rules.Reason {
	if c.why == nil {
		return rules.Reason{Rule: rules.Partner} // not worded: nobody asks
	}
	if t == inCode {
		return why(rules.Partner, "%s at %s, in code no goroutine of the package's programs reaches, which another package may call at any time", what, c.pos(pos))
	}
	return why(rules.Partner, "%s at %s (%s)", what, c.pos(pos), c.goroutine(t))
}

// explainUntraced gives the operations of the package's code at the
// line asked about that no check judged a verdict: not-traced when no
// goroutine's walk reaches them, budget when the analysis stopped
// first (failure says why; "" when it did not).
func (c *checker) explainUntraced(failure string) {
	if c.why == nil {
		return
	}
	traced := make(map[ssa.Instruction]bool)
	if c.hb != nil {
		for _, t := range c.hb.Traces {
			for i := range t.Events {
				traced[t.Events[i].Instr] = true
			}
		}
	}
	for _, op := range c.blockingOps() {
		pos := op.Pos()
		if !c.why.at(pos) || c.why.has(pos) {
			continue
		}
		q := "blocks forever? " + opName(op)
		switch {
		case failure != "":
			c.why.note(pos, q, why(rules.Budget, "%s", failure))
		case !traced[op]:
			c.why.note(pos, q, why(rules.NotTraced, "no goroutine of the package's programs reaches it (a method only another package calls, or code past a bound of the walk)"))
		}
	}
}

// blockingOps returns the operations of the package's code that may
// block: sends, receives, blocking selects, and WaitGroup and Cond Waits.
func (c *checker) blockingOps() []ssa.Instruction {
	var ops []ssa.Instruction
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Send:
					ops = append(ops, x)
				case *ssa.UnOp:
					if x.Op == token.ARROW {
						ops = append(ops, x)
					}
				case *ssa.Select:
					if x.Blocking {
						ops = append(ops, x)
					}
				case *ssa.Call:
					if op, _ := syncapi.WaitGroup(x.Common()); op == syncapi.WaitGroupWait {
						ops = append(ops, x)
					} else if op, _ := syncapi.Cond(x.Common()); op == syncapi.CondWait {
						ops = append(ops, x)
					}
				}
			}
		}
	}
	return ops
}

// opName names a blocking operation for a why line.
func opName(op ssa.Instruction) string {
	switch op.(type) {
	case *ssa.Send:
		return "a send"
	case *ssa.UnOp:
		return "a receive"
	case *ssa.Select:
		return "a select"
	}
	return "a Wait"
}

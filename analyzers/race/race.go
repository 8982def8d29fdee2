package race

import (
	"cmp"
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/docs"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/internal/posn"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/ownership"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// doc is the source of doc.go, whose package comment is the manual.
//
//go:embed doc.go
var doc string

// Analyzer reports data races; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:     "race",
	Doc:      docs.MustExtract(doc, "race"),
	URL:      "https://pkg.go.dev/github.com/origo-dev/origo/analyzers/race",
	Run:      run,
	Requires: []*analysis.Analyzer{pointer.Analyzer, shb.Analyzer, ownership.Analyzer},
	// The directives that silenced a report, for the directive analyzer.
	ResultType: reflect.TypeFor[*ignore.Silenced](),
}

// whyTarget is the -why flag's value (see rules.TargetFlag).
var whyTarget string

// PossiblePrefix begins the message of a possible data race, the lower
// tier: what follows it is the message the pair would have with
// evidence of sharing, then why it has none.
const PossiblePrefix = "possible data race: "

// showAll is the -all flag's value: report the pairs without evidence
// of sharing too, as possible data races (see evidence).
var showAll bool

func init() {
	ignore.Flag(&Analyzer.Flags)
	Analyzer.Flags.BoolVar(&showAll, "all", false, "report the pairs nothing shows to be shared (no lock or atomic on the memory, not a package-level variable, not handed to the goroutine), as possible data races")
	Analyzer.Flags.Var(rules.TargetFlag{Value: &whyTarget}, "why", "explain every candidate pair with an access at `FILE:LINE` (or all): the rule that ruled it out, or reported; as diagnostics of category \"why\"")
}

func run(pass *analysis.Pass) (any, error) {
	ptr := pass.ResultOf[pointer.Analyzer].(*pointer.Result)
	hb := pass.ResultOf[shb.Analyzer].(*shb.Result)
	if ptr.Incomplete != "" {
		return (*ignore.Silenced)(nil), nil // nothing checked
	}
	ignored := ignore.Find(pass)
	if len(hb.Traces) > 0 && guard.Do(pass, "race", func() {
		order := hb.NewOrder()
		own := pass.ResultOf[ownership.Analyzer].(*ownership.Result).NewQuery(order)
		c := &checker{pass: pass, ptr: ptr, hb: hb, order: order, own: own, ignored: ignored, why: newWhyLog(pass.Fset, whyTarget)}
		c.check()
	}) != "" {
		return (*ignore.Silenced)(nil), nil // not all checked
	}
	return ignored.Silenced(), nil
}

type checker struct {
	pass      *analysis.Pass
	ptr       *pointer.Result
	hb        *shb.Result
	order     *shb.Order       // happens-before queries, memoized for this run
	own       *ownership.Query // ownership queries, memoized for this run
	ignored   ignore.Lines
	why       *whyLog // the verdicts -why asks for; nil when off
	reports   map[reportKey]*report
	vars      *declared                   // loop variables and named results, once asked
	described map[pointer.Location]string // see checker.describe
	files     [][2]token.Pos              // see inPackage

	withheld map[reportKey]bool // bugs without evidence of sharing, not reported (see evidence)
}

// A report is one bug: the racy pairs on one location between the same
// two goroutine sites, of which the first found is shown.
type report struct {
	loc            pointer.Location
	a, b           pointer.Access
	locksA, locksB shb.LocksetID
	evidence       string // what shows that loc is shared, or "" (a possible race: see evidence)
}

// reportKey groups racy pairs into bugs: the pairs on one location
// between the same two goroutine sites. The reports are then grouped by
// the pair of lines (the variable and the backing array of one append,
// the copies of a worker).
type reportKey struct {
	what         string
	siteA, siteB token.Pos
}

// maxPairsPerLocation bounds the pairs checked on one location: a location touched
// everywhere (a logger, a global config) must not make the check square.
const maxPairsPerLocation = 10_000

// maxPairsPerPackage bounds the pairs whose order and locks are checked
// (racy, a few microseconds each) on all locations at
// maxPairsPerLocation each; past it, the locations left get
// maxPairsPastBudget each, so that each is still looked at. A package
// whose tests start 150 goroutines on one database (database/sql) had
// 20 million such pairs, 3 minutes of checking; badger's root package,
// the largest of the modules measured, 2.1 million.
const (
	maxPairsPerPackage = 2_500_000
	maxPairsPastBudget = 100
)

// maxAccessesPerOrigin bounds the accesses of one goroutine (and kind,
// read or write) to one location that are paired: a table that package
// initialization fills element by element (20,000 stores to one abstract
// element) must not spend the pair budget on pairs its order dismisses.
const maxAccessesPerOrigin = 256

// capPerOrigin returns the first maxAccessesPerOrigin accesses of each
// goroutine and kind among accs, and whether it left any out.
func capPerOrigin(accs []pointer.Access) ([]pointer.Access, bool) {
	type key struct {
		o     *pointer.Origin
		write bool
	}
	counts := make(map[key]int)
	var out []pointer.Access
	for _, a := range accs {
		k := key{a.Origin, a.Write}
		if counts[k]++; counts[k] <= maxAccessesPerOrigin {
			out = append(out, a)
		}
	}
	return out, len(out) < len(accs)
}

func (c *checker) check() {
	c.reports = make(map[reportKey]*report)
	budgetHits, firstHit := 0, ""
	total, thinned := 0, 0 // pairs checked for order and locks, locations checked past maxPairsPerPackage
	var placed []placement // by index in a location's accesses, once asked
	var writes []int32     // the indices of a location's writes
	for _, sh := range c.ptr.Shared() {
		perIter := c.own.PerIteration(sh.Loc.Obj)
		pairs, limit := 0, maxPairsPerLocation
		if total > maxPairsPerPackage {
			limit = maxPairsPastBudget
			thinned++
		}
		accesses, capped := capPerOrigin(sh.Accesses)
		placed = slices.Grow(placed[:0], len(accesses))[:len(accesses)]
		clear(placed)
		// A pair needs a write: a read is paired with the writes after
		// it only, in the same order as with every access after it.
		writes = writes[:0]
		for k, acc := range accesses {
			if acc.Write {
				writes = append(writes, int32(k))
			}
		}
		for i, a := range accesses {
			w, _ := slices.BinarySearch(writes, int32(i+1))
			for j := i + 1; j < len(accesses); j++ {
				if !a.Write {
					if w == len(writes) {
						break
					}
					j, w = int(writes[w]), w+1
				}
				b := accesses[j]
				if !a.Write && !b.Write {
					continue // no candidate
				}
				if rule := c.goroutinesApart(a, b); rule != "" {
					c.why.note(c, sh.Loc, a, b, rule)
					continue
				}
				if pairs++; pairs > limit {
					capped = true
					c.why.note(c, sh.Loc, a, b, rules.Budget)
					break
				}
				sa, sb := c.screen(&placed[i], a, sh.Loc.Obj), c.screen(&placed[j], b, sh.Loc.Obj)
				if rule := c.accessesApart(sh.Loc.Obj, a, b, sa, sb); rule != "" {
					c.why.note(c, sh.Loc, a, b, rule)
					continue
				}
				total++
				la, lb, rule := c.racy(sh.Loc.Obj, a, b, c.place(&placed[i], a, sh.Loc.Obj), c.place(&placed[j], b, sh.Loc.Obj), perIter)
				if rule == "" {
					rule = c.add(sh.Loc, accesses, a, b, la, lb)
				}
				c.why.noteLocks(c, sh.Loc, a, b, rule, la, lb)
				if c.why != nil {
					c.why.events = whyEvents{}
				}
			}
		}
		if capped {
			if budgetHits++; firstHit == "" {
				firstHit = c.describe(sh.Loc)
			}
		}
	}
	if c.ptr.Stats.Overflow {
		fmt.Fprintf(os.Stderr, "origo: race: budget hit on package %s: more goroutines than the pointer analysis gives origins of their own; those found past it share one and are not checked, so their races may go unreported; split the package, or report it at %s\n",
			c.pass.Pkg.Path(), guard.IssuesURL)
	}
	if thinned > 0 {
		fmt.Fprintf(os.Stderr, "origo: race: budget hit on package %s: more than %d pairs of accesses to check, so the last %d shared locations had at most %d pairs each checked, and races on them may go unreported; if they matter, report it at %s\n",
			c.pass.Pkg.Path(), maxPairsPerPackage, thinned, maxPairsPastBudget, guard.IssuesURL)
	}
	if cut := c.hb.CutShort; len(cut) > 0 {
		goroutines := "goroutines"
		if len(cut) == 1 {
			goroutines = "goroutine"
		}
		fmt.Fprintf(os.Stderr, "origo: race: budget hit on package %s: %d %s followed only up to %d events each or %d in all (first: %s), so races in what they do past that may go unreported; if they matter, report it at %s\n",
			c.pass.Pkg.Path(), len(cut), goroutines, shb.MaxTraceEvents, shb.MaxPackageEvents, cut[0].Origin.Describe(c.pass.Fset), guard.IssuesURL)
	}
	if n := c.withheldCount(); n > 0 && c.ptr.ContextInsensitive {
		fmt.Fprintf(os.Stderr, "origo: race: package %s was analyzed degraded (one context for all goroutines), so %d %s no evidence of sharing that holds without contexts (an atomic, inconsistent locking between calls of the package's API, an object made once or held by a package-level variable, a type documented as safe for concurrent use) and %s withheld; the flag -all reports them as possible data races\n",
			c.pass.Pkg.Path(), n, plural(n, "candidate race had", "candidate races had"), plural(n, "was", "were"))
	}
	if budgetHits > 0 {
		fmt.Fprintf(os.Stderr, "origo: race: budget hit on package %s: %d locations with more than %d accesses in one goroutine or %d pairs, not all checked (first: %s), so races on them may go unreported; if they matter, report it at %s\n",
			c.pass.Pkg.Path(), budgetHits, maxAccessesPerOrigin, maxPairsPerLocation, firstHit, guard.IssuesURL)
	}
	// One report per pair of lines: the goroutines that reach them are
	// many in a program with many workers, the bug is one.
	byLine := make(map[[2]lineKey]*report)
	for _, r := range c.reports {
		k := [2]lineKey{c.line(accessPos(r.a)), c.line(accessPos(r.b))}
		if k[1].compare(k[0]) < 0 {
			k[0], k[1] = k[1], k[0]
		}
		if old, ok := byLine[k]; !ok || c.better(r, old) {
			byLine[k] = r
		}
	}
	// In the order of their positions; the pair of lines, which is a
	// report's own, breaks ties (accesses without a position of their
	// own), so that the order never follows the map's.
	keys := slices.Collect(maps.Keys(byLine))
	slices.SortFunc(keys, func(k, l [2]lineKey) int {
		x, y := byLine[k], byLine[l]
		return cmp.Or(c.comparePos(x.a.Pos(), y.a.Pos()), c.comparePos(x.b.Pos(), y.b.Pos()),
			k[0].compare(l[0]), k[1].compare(l[1]))
	})
	for _, k := range keys {
		c.report(byLine[k])
	}
	c.lateAdds()
	c.lateReports()
	c.why.report(c.pass)
}

// goroutinesApart returns the rule by which the goroutines of a and b
// never make the pair, whatever the accesses: "" when they may.
func (c *checker) goroutinesApart(a, b pointer.Access) rules.ID {
	switch {
	case a.Origin == b.Origin:
		return rules.OneGoroutine
	case a.Origin.Twin(b.Origin):
		return rules.Twins
	case a.Origin.Overflow() || b.Origin.Overflow():
		return rules.Budget
	case a.Atomic && b.Atomic:
		return rules.BothAtomic
	case !a.Origin.SameProgram(b.Origin):
		return rules.OtherProgram
	}
	return c.order.Sequential(a.Origin, b.Origin)
}

// accessesApart returns the rule by which two accesses to obj, with
// what screen found of each (sa, sb), never race, before their order
// and locks are asked: "" when they may.
func (c *checker) accessesApart(obj *pointer.Object, a, b pointer.Access, sa, sb *placement) rules.ID {
	switch {
	case !sa.inPackage && !sb.inPackage:
		return rules.NotInPackage
	case sa.alone != "":
		return sa.alone
	case sb.alone != "":
		return sb.alone
	}
	if rule := c.own.Apart(obj, a, b); rule != "" {
		return rule
	}
	return c.own.Presumed(a, b)
}

// plural returns one if n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// withheldCount returns how many bugs were withheld for want of
// evidence of sharing, with no report on their location between their
// goroutine sites.
func (c *checker) withheldCount() int {
	n := 0
	for k := range c.withheld {
		if _, ok := c.reports[k]; !ok {
			n++
		}
	}
	return n
}

// placement is where an access runs in its goroutine's trace: the
// trace and the access's events in it that may touch the location's
// object, and whether the goroutine skips the access (see
// ownership.Query.FlagSkipped). A location's accesses are paired each
// with all the others; their placements are found once, as is what
// screen finds.
type placement struct {
	t       *shb.Trace
	evs     []int32 // at most shb.MaxPlaces
	skipped bool
	fresh   bool // an execution was dropped as on an object its chain of calls had not published
	done    bool

	// What screen found of the access alone.
	screened  bool
	inPackage bool     // it is in the package's files
	alone     rules.ID // the rule by which it races with nothing, or "": see screen

}

// screen returns p, with what the pair loop asks of acc alone, an
// access to obj, filled when it is first asked: whether it is in the
// package, and the rule by which it races with nothing (see
// ownership.Query.Alone).
func (c *checker) screen(p *placement, acc pointer.Access, obj *pointer.Object) *placement {
	if !p.screened {
		p.screened = true
		p.inPackage = c.inPackage(acc.Pos())
		p.alone = c.own.Alone(acc, obj)
	}
	return p
}

// place returns p, filled for acc, an access to obj, when it is first
// asked.
func (c *checker) place(p *placement, acc pointer.Access, obj *pointer.Object) *placement {
	if p.done {
		return p
	}
	p.done = true
	if p.t = c.hb.TraceOf(acc.Origin); p.t == nil {
		return p
	}
	evs := p.t.AccessEvents(acc)
	evs = evs[:min(len(evs), shb.MaxPlaces)]
	p.evs = evs[:0]
	for _, x := range evs {
		if c.own.Touches(p.t, x, acc, obj) {
			p.evs = append(p.evs, x)
		} else if c.own.FreshAlong(p.t, x, acc) {
			p.fresh = true
		}
	}
	p.skipped = len(p.evs) > 0 && c.own.FlagSkipped(acc, p.t)
	return p
}

// racy reports whether some execution of a in its goroutine and of b in
// its goroutine are not ordered by happens-before and hold no common
// lock, with the locksets of that execution; pa and pb are their
// placements. When none is, it returns the rule that ruled out the
// first execution.
func (c *checker) racy(obj *pointer.Object, a, b pointer.Access, pa, pb *placement, perIter bool) (la, lb shb.LocksetID, rule rules.ID) {
	ta, tb := pa.t, pb.t
	if ta == nil || tb == nil {
		return 0, 0, rules.NotTraced
	}
	ea, eb := pa.evs, pb.evs
	if len(ea) == 0 && ta.ConstDead(a.Instr) || len(eb) == 0 && tb.ConstDead(b.Instr) {
		return 0, 0, rules.DeadCode // ruled out by its calls' constants
	}
	if len(ea) == 0 && pa.fresh || len(eb) == 0 && pb.fresh {
		return 0, 0, rules.NotPublished // its executions touch what their callers had not published
	}
	if len(ea) == 0 || len(eb) == 0 {
		return 0, 0, rules.NotTraced // not on a path the trace followed, or not touching obj
	}
	if pa.skipped || pb.skipped {
		return 0, 0, rules.FlagSkipped // not run in that goroutine
	}
	// Whether two goroutines other than the tests' run in separate tests
	// does not depend on their events.
	byEvent := c.hb.Sequenced(ta) || c.hb.Sequenced(tb)
	if !byEvent && c.hb.SeparateRuns(ta, 0, tb, 0) {
		return 0, 0, c.hb.RunsRule(ta, tb)
	}
	for _, x := range ea {
		for _, y := range eb {
			la, lb := c.hb.AccessLocks(ta, x, a), c.hb.AccessLocks(tb, y, b)
			id := c.ordered(obj, a, b, ta, x, la, tb, y, lb, perIter, byEvent)
			if id == "" {
				return la, lb, ""
			}
			if rule == "" {
				rule = id
				if c.why != nil {
					c.why.events = whyEvents{ta, x, tb, y}
				}
			}
		}
	}
	return 0, 0, rule
}

// ordered returns the rule by which event x of trace ta, access a
// holding la, and event y of tb, access b holding lb, do not race: a
// lock, an order, or an owner; "" when nothing keeps them apart.
func (c *checker) ordered(obj *pointer.Object, a, b pointer.Access, ta *shb.Trace, x int32, la shb.LocksetID, tb *shb.Trace, y int32, lb shb.LocksetID, perIter, byEvent bool) rules.ID {
	if byEvent && c.hb.SeparateRuns(ta, x, tb, y) {
		return c.hb.RunsRule(ta, tb)
	}
	if rule := c.order.OneRun(ta, x, tb, y); rule != "" {
		return rule
	}
	if c.order.RunOnce(la, lb, obj) {
		return rules.RunsOnce
	}
	if c.order.Exclusive(la, lb) {
		if c.hb.Locks.SpinOnly(la, lb) {
			return rules.SpinFlag
		}
		return rules.CommonLock
	}
	if c.order.JoinedUnderLock(ta, x, la, tb, y, lb) {
		return rules.JoinedUnderLock
	}
	ea, eb := ownership.Exec{Acc: a, T: ta, X: x, Locks: la}, ownership.Exec{Acc: b, T: tb, X: y, Locks: lb}
	if rule := c.own.Guarded(ea, eb); rule != "" {
		return rule
	}
	if c.hb.OnceOrdered(la, tb, y) || c.hb.OnceOrdered(lb, ta, x) || c.hb.Locks.OnceSiblings(la, lb) {
		return rules.Once
	}
	if c.order.Observed(la, ta, tb, y) || c.order.Observed(lb, tb, ta, x) {
		return rules.AtomicObserved
	}
	// Each event may touch the object its own run of a loop made.
	px, py := perIter || c.own.MadeInLoop(ta, x, obj), perIter || c.own.MadeInLoop(tb, y, obj)
	if c.order.HappensBefore(ta, x, tb, y, px) || c.order.HappensBefore(tb, y, ta, x, py) {
		return rules.HappensBefore
	}
	if c.order.JoinedPerIteration(ta, x, tb, y) {
		return rules.JoinedPerIteration
	}
	return c.own.Owned(obj, ea, eb, perIter)
}

func (c *checker) add(loc pointer.Location, accesses []pointer.Access, a, b pointer.Access, la, lb shb.LocksetID) rules.ID {
	// Put the report on a write, the one holding fewer locks (the one
	// that forgot), then the earlier; on this package's side.
	if c.before(b, lb, a, la) {
		a, b, la, lb = b, a, lb, la
	}
	if !c.inPackage(accessPos(a)) {
		a, b, la, lb = b, a, lb, la
	}
	if c.ignored.Has(accessPos(a)) || c.ignored.Has(accessPos(b)) {
		return rules.Ignored
	}
	k := reportKey{what: c.describe(loc), siteA: site(a.Origin), siteB: site(b.Origin)}
	if c.comparePos(k.siteB, k.siteA) < 0 {
		k.siteA, k.siteB = k.siteB, k.siteA
	}
	r := &report{loc: loc, a: a, b: b, locksA: la, locksB: lb, evidence: c.own.Evidence(loc, accesses, a, b, la, lb)}
	if r.evidence == "" && !showAll {
		if c.withheld == nil {
			c.withheld = make(map[reportKey]bool)
		}
		c.withheld[k] = true
		return rules.NoSharingEvidence
	}
	if old, ok := c.reports[k]; !ok || c.better(r, old) {
		c.reports[k] = r
	}
	return ""
}

// better reports whether r is a better report of a bug than old: on a
// named variable or field rather than an anonymous element, on an access
// placed earlier by before, against a write rather than a read.
func (c *checker) better(r, old *report) bool {
	// A pair with evidence of sharing is the bug's first.
	if er, eo := r.evidence != "", old.evidence != ""; er != eo {
		return er
	}
	// A pair the package's own tests or main reach names the test and
	// its objects, which a reader checks (and -confirm runs) more
	// readily than an importer's presumed call.
	if pr, po := presumedCaller(r), presumedCaller(old); pr != po {
		return po
	}
	if nr, no := named(r.loc), named(old.loc); nr != no {
		return nr
	}
	if c.before(r.a, r.locksA, old.a, old.locksA) {
		return true
	}
	if c.before(old.a, old.locksA, r.a, r.locksA) {
		return false
	}
	if r.b.Write != old.b.Write {
		return r.b.Write
	}
	// A total order, so that the choice never depends on map order: the
	// goroutines and locks are part of the message.
	return cmp.Or(
		c.comparePos(r.b.Pos(), old.b.Pos()),
		strings.Compare(c.describe(r.loc), c.describe(old.loc)),
		cmp.Compare(c.hb.Locks.Len(r.locksB), c.hb.Locks.Len(old.locksB)),
		c.comparePos(site(r.a.Origin), site(old.a.Origin)),
		c.comparePos(site(r.b.Origin), site(old.b.Origin)),
		cmp.Compare(r.a.Origin.ID, old.a.Origin.ID),
		cmp.Compare(r.b.Origin.ID, old.b.Origin.ID),
		cmp.Compare(r.locksA, old.locksA),
		cmp.Compare(r.locksB, old.locksB),
	) < 0
}

// presumedCaller reports whether a side of r runs in a library's
// presumed caller (an entry point's call, a concurrent method's) rather
// than in the package's tests or main.
func presumedCaller(r *report) bool {
	for _, o := range []*pointer.Origin{r.a.Origin, r.b.Origin} {
		if root := o.Ancestor().Root; root == pointer.EntriesRoot || root == pointer.MethodsRoot {
			return true
		}
	}
	return false
}

// named reports whether a location has a name in the source: it is a
// variable or a field, not an element of a slice or map.
func named(loc pointer.Location) bool {
	return loc.Obj.Kind != pointer.ObjSlice && loc.Obj.Kind != pointer.ObjMap
}

// before orders the accesses a report may sit on: writes first, then
// fewer locks held, then position.
func (c *checker) before(a pointer.Access, la shb.LocksetID, b pointer.Access, lb shb.LocksetID) bool {
	if a.Write != b.Write {
		return a.Write
	}
	if na, nb := c.hb.Locks.Len(la), c.hb.Locks.Len(lb); na != nb {
		return na < nb
	}
	return c.comparePos(a.Pos(), b.Pos()) < 0
}

// comparePos orders two positions by file, line and column, never by
// token.Pos (see facts.ComparePos).
func (c *checker) comparePos(p, q token.Pos) int { return facts.ComparePos(c.pass.Fset, p, q) }

// site identifies where a goroutine was started, its copies as one.
func site(o *pointer.Origin) token.Pos {
	if o.Parent == nil {
		return o.Entry.Pos()
	}
	return o.Site
}

func (c *checker) report(r *report) {
	what := describe(r.loc)
	msg := fmt.Sprintf("data race on %s: %s at %s (%s) vs %s at %s (%s); locks held: %s vs %s",
		what,
		kind(r.a), c.where(r.a), c.goroutine(r.a.Origin),
		kind(r.b), c.where(r.b), c.goroutine(r.b.Origin),
		c.lockNames(r.locksA), c.lockNames(r.locksB))
	var fixes []analysis.SuggestedFix
	cl, named := c.classify(r)
	if named {
		msg = cl.kind.Title + ": " + msg
		if cl.hint != "" {
			msg += "; " + cl.hint
		}
		fixes = cl.fixes
	}
	var evidence []analysis.RelatedInformation
	if r.evidence == "" {
		// The lower tier: the report as it would be, marked.
		cl.kind, fixes = kinds.PossibleRace, nil
		msg = PossiblePrefix + msg + "; " + NoEvidenceNote
	} else {
		// What a reader checks first: why this memory is taken to be
		// shared at all.
		evidence = []analysis.RelatedInformation{{Pos: accessPos(r.a), Message: EvidencePrefix + r.evidence}}
	}
	c.pass.Report(analysis.Diagnostic{
		Pos:            accessPos(r.a),
		Category:       cl.kind.ID,
		Message:        msg,
		SuggestedFixes: fixes,
		Related: append([]analysis.RelatedInformation{{
			Pos:     accessPos(r.b),
			Message: fmt.Sprintf("the other %s of %s (%s)", kind(r.b), what, c.goroutine(r.b.Origin)),
		}}, slices.Concat(c.startedAt(r.a.Origin, r.b.Origin), c.madeAt(r.loc), evidence)...),
	})
}

func kind(a pointer.Access) string {
	if call, ok := a.Instr.(*ssa.Call); ok && a.Write {
		if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
			return "append" // not its read of what it appends
		}
		if op, _ := syncapi.MutexOp(call.Common()); op != syncapi.NoLockOp && call.Common().StaticCallee() != nil {
			return call.Common().StaticCallee().Name() // Lock, Unlock, ...
		}
	}
	if a.Write {
		return "write"
	}
	return "read"
}

func isMap(loc pointer.Location) bool { return loc.Obj.Kind == pointer.ObjMap }

// goroutine describes an origin: where it was started.
func (c *checker) goroutine(o *pointer.Origin) string { return o.Describe(c.pass.Fset) }

// accessPos returns where an access is: its own position or, for an
// instruction the compiler made up (a variadic slice, a spill), the
// nearest instruction of its block that has one.
func accessPos(acc pointer.Access) token.Pos {
	if p := acc.Pos(); p.IsValid() {
		return p
	}
	if b := acc.Instr.Block(); b != nil {
		i := slices.Index(b.Instrs, acc.Instr)
		for d := 1; i >= 0 && d < len(b.Instrs); d++ {
			for _, j := range []int{i + d, i - d} {
				if j >= 0 && j < len(b.Instrs) && b.Instrs[j].Pos().IsValid() {
					return b.Instrs[j].Pos()
				}
			}
		}
	}
	return acc.Instr.Parent().Pos()
}

// where says where an access is: file:line, and for an access made by
// a function of another package, where it is and where it was called.
func (c *checker) where(acc pointer.Access) string {
	if acc.Imported == nil {
		return c.pos(accessPos(acc))
	}
	return fmt.Sprintf("%s (in %s, called at %s)", posn.For(c.pass).At(acc.Imported.At), facts.ShortName(acc.Imported.Func.String()), c.pos(accessPos(acc)))
}

// pos formats a position as file:line (see package posn).
func (c *checker) pos(p token.Pos) string { return posn.For(c.pass).Pos(p) }

func (c *checker) lockNames(id shb.LocksetID) string {
	locs, read := c.hb.Locks.Members(id)
	var names []string
	for i, l := range locs {
		n := c.hb.Locks.Name(l[0])
		if n == "" {
			n = describe(c.hb.Location(l[0]))
		}
		if read[i] {
			n += " (read)"
		}
		names = append(names, n)
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// describe is the function describe, memoized: the racy pairs of one
// location are many.
func (c *checker) describe(loc pointer.Location) string {
	d, ok := c.described[loc]
	if !ok {
		d = describe(loc)
		if c.described == nil {
			c.described = make(map[pointer.Location]string)
		}
		c.described[loc] = d
	}
	return d
}

// describe names a location for a person: a variable, a package
// variable, or a field of a named type, with its path.
func describe(loc pointer.Location) string {
	obj := loc.Obj
	path := cutAtMutex(obj.Type, loc.Path())
	switch site := obj.Site.(type) {
	case *ssa.Global:
		return site.Name() + path
	case *ssa.Alloc:
		if site.Comment == "makeslice" {
			// make([]T, n) with a constant n: go/ssa allocates an array.
			if arr, ok := site.Type().(*types.Pointer).Elem().Underlying().(*types.Array); ok && strings.HasPrefix(path, "[*]") {
				return "an element of []" + types.TypeString(arr.Elem(), func(*types.Package) string { return "" }) + strings.TrimPrefix(path, "[*]")
			}
		}
		if site.Comment != "" && !strings.Contains(site.Comment, "complit") && site.Comment != "new" && site.Comment != "varargs" && site.Comment != "slicelit" && site.Comment != "makeslice" {
			return site.Comment + path
		}
	}
	if t := obj.ImportedType(); t != "" {
		// Its leaves are pointer words of a layout the summary gives,
		// not fields: name the object by its type and maker.
		return "memory of " + obj.Label
	}
	qual := func(*types.Package) string { return "" }
	t := types.TypeString(obj.Type, qual)
	switch obj.Kind {
	case pointer.ObjSlice:
		if obj.Site != nil {
			t = types.TypeString(obj.Site.Type(), qual)
		}
		return "an element of " + t + path
	case pointer.ObjMap:
		if obj.Site != nil {
			t = types.TypeString(obj.Site.Type(), qual)
		}
		return "a " + t
	case pointer.ObjChan:
		// A close writes the channel and a send reads it; the object
		// stands for the element, which no access names alone.
		if obj.Site != nil && path == "" {
			return "a " + types.TypeString(obj.Site.Type(), qual)
		}
	}
	if path == "" {
		return t
	}
	return t + path
}

// cutAtMutex cuts a location's path, from an object of type t, after
// the sync.Mutex or RWMutex it enters: the mutex's own fields are the
// sync package's business ("mu", not "mu._").
func cutAtMutex(t types.Type, path string) string {
	isMutex := func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex")
	}
	for i := 0; ; {
		if isMutex(t) {
			return path[:i]
		}
		rest := path[i:]
		switch {
		case strings.HasPrefix(rest, "[*]"):
			switch u := t.Underlying().(type) {
			case *types.Array:
				t = u.Elem()
			case *types.Slice:
				t = u.Elem()
			default:
				return path
			}
			i += 3
		case strings.HasPrefix(rest, "."):
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			name := rest[1 : 1+end]
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				return path
			}
			var next types.Type
			for f := range st.Fields() {
				if f.Name() == name {
					next = f.Type()
					break
				}
			}
			if next == nil {
				return path
			}
			t = next
			i += 1 + end
		default:
			return path
		}
	}
}

func (c *checker) inPackage(p token.Pos) bool {
	if !p.IsValid() {
		return false
	}
	if c.files == nil {
		// The position ranges of the package's files, sorted: asked of
		// every pair, a search of the file set would dominate.
		for _, file := range c.pass.Files {
			if f := c.pass.Fset.File(file.Pos()); f != nil {
				c.files = append(c.files, [2]token.Pos{token.Pos(f.Base()), token.Pos(f.Base() + f.Size())})
			}
		}
		slices.SortFunc(c.files, func(x, y [2]token.Pos) int { return cmp.Compare(x[0], y[0]) })
		if c.files == nil {
			c.files = [][2]token.Pos{}
		}
	}
	i, _ := slices.BinarySearchFunc(c.files, p, func(r [2]token.Pos, p token.Pos) int {
		if r[1] < p {
			return -1
		}
		if r[0] > p {
			return 1
		}
		return 0
	})
	return i < len(c.files) && c.files[i][0] <= p && p <= c.files[i][1]
}

type lineKey struct {
	file string
	line int
}

func (k lineKey) compare(l lineKey) int {
	return cmp.Or(strings.Compare(k.file, l.file), cmp.Compare(k.line, l.line))
}

func (c *checker) line(p token.Pos) lineKey {
	posn := c.pass.Fset.Position(p)
	return lineKey{posn.Filename, posn.Line}
}

// Package kinds declares the kinds of report that origo's analyzers
// make. Each diagnostic carries its kind's ID as its analysis.Diagnostic
// Category: go vet -json and origo -json show it as "category", SARIF
// makes each kind a rule of its own, and tools that read the reports
// (origo-bench's corpus scores) sort them by it rather than by the words
// of their messages, which may change.
//
// An ID is the analyzer's name, a slash and the kind in lower-case words
// joined by hyphens, the words the message begins with:
// "race/data-race", "deadlock/double-lock". IDs are stable: a kind that
// goes away leaves its ID unused, and a new kind gets a new one.
//
// Each analyzer's manual (its doc.go, the Analyzer's Doc) documents its
// kinds in its section "# Report kinds": a paragraph that begins with the
// ID and a colon starts the kind's text, which runs to the next kind's;
// Help returns it. A test checks that the manuals and this list agree.
package kinds

import (
	"strings"
)

// A Kind is a kind of report.
type Kind struct {
	// ID is the kind's identifier, the Category of its diagnostics:
	// "race/data-race".
	ID string
	// Name is the kind's name as one CamelCase word, the name of its
	// SARIF rule: "DataRace".
	Name string
	// Title says what the reported problem is in a few words, as the
	// messages of the kind begin: "data race".
	Title string
}

// Analyzer returns the name of the analyzer that reports the kind.
func (k Kind) Analyzer() string {
	a, _, _ := strings.Cut(k.ID, "/")
	return a
}

// The kinds of the race and deadlock analyzers.
var (
	DataRace                 = Kind{"race/data-race", "DataRace", "data race"}
	ConcurrentMapAccess      = Kind{"race/concurrent-map-access", "ConcurrentMapAccess", "concurrent map access"}
	ConcurrentAppend         = Kind{"race/concurrent-append", "ConcurrentAppend", "concurrent append"}
	CapturedLoopVariable     = Kind{"race/captured-loop-variable", "CapturedLoopVariable", "captured loop variable"}
	CapturedNamedResult      = Kind{"race/captured-named-result", "CapturedNamedResult", "captured named result"}
	CapturedErr              = Kind{"race/captured-err", "CapturedErr", "captured err"}
	WaitGroupAddInGoroutine  = Kind{"race/waitgroup-add-in-goroutine", "WaitGroupAddInGoroutine", "WaitGroup.Add inside the goroutine"}
	TestReportAfterTest      = Kind{"race/test-report-after-test", "TestReportAfterTest", "test report after the test"}
	PossibleRace             = Kind{"race/possible-race", "PossibleDataRace", "possible data race"}
	DoubleLock               = Kind{"deadlock/double-lock", "DoubleLock", "double lock"}
	RWMutexUpgrade           = Kind{"deadlock/rwmutex-upgrade", "RWMutexUpgrade", "RWMutex upgrade"}
	RecursiveReadLock        = Kind{"deadlock/recursive-read-lock", "RecursiveReadLock", "recursive read lock"}
	LockLeftHeld             = Kind{"deadlock/lock-left-held", "LockLeftHeld", "lock left held"}
	LockAfterLeftHeld        = Kind{"deadlock/lock-after-left-held", "LockAfterLeftHeld", "Lock blocks forever (deadlock)"}
	LockKeptByReturned       = Kind{"deadlock/lock-kept-by-returned-goroutine", "LockKeptByReturnedGoroutine", "lock kept by a returned goroutine"}
	LockOrderInversion       = Kind{"deadlock/lock-order-inversion", "LockOrderInversion", "lock order inversion"}
	LockOrderCycle           = Kind{"deadlock/lock-order-cycle", "LockOrderCycle", "lock order cycle"}
	UnlockOfUnlocked         = Kind{"deadlock/unlock-of-unlocked-mutex", "UnlockOfUnlockedMutex", "unlock of unlocked mutex"}
	BlockingWhileHoldingLock = Kind{"deadlock/blocking-while-holding-lock", "BlockingWhileHoldingLock", "blocking while holding a lock"}
)

// The kinds of the blocking analyzer, one per operation that blocks
// forever, and those of guardedby and directive.
var (
	SendBlocks      = Kind{"blocking/send", "SendBlocksForever", "send blocks forever"}
	ReceiveBlocks   = Kind{"blocking/receive", "ReceiveBlocksForever", "receive blocks forever"}
	RangeBlocks     = Kind{"blocking/range", "RangeBlocksForever", "range over channel blocks forever"}
	SelectBlocks    = Kind{"blocking/select", "SelectBlocksForever", "select blocks forever"}
	WaitGroupBlocks = Kind{"blocking/waitgroup-wait", "WaitGroupWaitBlocksForever", "WaitGroup.Wait blocks forever"}
	CondWaitBlocks  = Kind{"blocking/cond-wait", "CondWaitBlocksForever", "Cond.Wait blocks forever"}
	LockBlocks      = Kind{"blocking/lock", "LockBlocksForever", "Lock blocks forever"}
	UnguardedAccess = Kind{"guardedby/unguarded-access", "UnguardedAccess", "access without its mutex"}
	UnguardedCall   = Kind{"guardedby/unguarded-call", "UnguardedCall", "call without its mutex"}
	BadAnnotation   = Kind{"guardedby/bad-annotation", "BadAnnotation", "bad +checklocks annotation"}
	MalformedIgnore = Kind{"directive/malformed", "MalformedDirective", "bad //origo:ignore directive"}
	StaleIgnore     = Kind{"directive/stale", "StaleDirective", "stale //origo:ignore directive"}
)

// All are the kinds, by analyzer (race, deadlock, blocking, guardedby,
// directive) and then as each manual lists them.
var All = []Kind{
	DataRace, ConcurrentMapAccess, ConcurrentAppend, CapturedLoopVariable, CapturedNamedResult, CapturedErr, WaitGroupAddInGoroutine, TestReportAfterTest, PossibleRace,
	DoubleLock, RWMutexUpgrade, RecursiveReadLock, LockLeftHeld, LockAfterLeftHeld, LockKeptByReturned, LockOrderInversion, LockOrderCycle, UnlockOfUnlocked, BlockingWhileHoldingLock,
	SendBlocks, ReceiveBlocks, RangeBlocks, SelectBlocks, WaitGroupBlocks, CondWaitBlocks, LockBlocks,
	UnguardedAccess, UnguardedCall, BadAnnotation,
	MalformedIgnore, StaleIgnore,
}

// Level returns the SARIF level of the reports of kind id: "note" for
// the lower tier (a possible data race, shown with -all), "warning"
// for the others.
func Level(id string) string {
	if id == PossibleRace.ID {
		return "note"
	}
	return "warning"
}

// Lookup returns the kind whose ID is id.
func Lookup(id string) (Kind, bool) {
	for _, k := range All {
		if k.ID == id {
			return k, true
		}
	}
	return Kind{}, false
}

// Of returns the kinds of the analyzer called name, in All's order.
func Of(name string) []Kind {
	var out []Kind
	for _, k := range All {
		if k.Analyzer() == name {
			out = append(out, k)
		}
	}
	return out
}

// OtherSide begins the message of a related position where another
// goroutine of a deadlock blocks forever: "the other side of the
// deadlock: goroutine started at main.go:20 locks a here while holding
// b". A deadlock is one report, at one of its goroutines, and an
// //origo:ignore directive on the line of either side silences it.
const OtherSide = "the other side of the deadlock"

// Sequel begins the message of a related position where a goroutine
// blocks forever only because another may block forever first, at the
// report's operation or at one of its sequels: "blocks forever as a
// consequence: Lock blocks forever: ...". One cause is one report.
const Sequel = "blocks forever as a consequence"

// section is the heading of the manual's section on the kinds.
const section = "# Report kinds"

// Help returns the text of kind id in doc, an analyzer's manual (see
// the package comment): its paragraphs, the ID and colon that begin the
// first left out, as a Go doc comment's text.
func Help(doc, id string) (string, bool) {
	paras := kindParagraphs(doc)
	var out []string
	in := false
	for _, p := range paras {
		if pid, rest, ok := kindPrefix(p); ok {
			if in {
				break
			}
			if pid == id {
				in = true
				p = rest
			}
		}
		if in {
			out = append(out, p)
		}
	}
	if !in {
		return "", false
	}
	return strings.TrimSpace(strings.Join(out, "\n\n")) + "\n", true
}

// Documented returns the IDs that doc's section on kinds documents, in
// its order.
func Documented(doc string) []string {
	var ids []string
	for _, p := range kindParagraphs(doc) {
		if id, _, ok := kindPrefix(p); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// kindParagraphs returns the blocks of doc's section on kinds, separated
// by blank lines, the section's heading and introduction left out.
func kindParagraphs(doc string) []string {
	_, rest, ok := strings.Cut(doc, "\n"+section+"\n")
	if !ok {
		return nil
	}
	if i := strings.Index(rest, "\n# "); i >= 0 {
		rest = rest[:i]
	}
	var out []string
	started := false
	for p := range strings.SplitSeq(rest, "\n\n") {
		p = strings.Trim(p, "\n")
		if p == "" {
			continue
		}
		if _, _, ok := kindPrefix(p); ok {
			started = true
		}
		if started {
			out = append(out, p)
		}
	}
	return out
}

// kindPrefix reports whether paragraph p begins with a kind's ID and a
// colon, and returns the ID and the rest.
func kindPrefix(p string) (id, rest string, ok bool) {
	word, rest, ok := strings.Cut(p, ": ")
	if !ok || !strings.Contains(word, "/") || strings.ContainsAny(word, " \t\n") || strings.HasPrefix(word, "\t") {
		return "", "", false
	}
	return word, rest, true
}

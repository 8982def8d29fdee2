package race

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/posn"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// startedBy returns, for a goroutine that a go statement or a spawning
// call started, where it was started and the chain of calls that led
// there from a root ("main → (*Bank).Run → go (*Bank).worker"), so that
// a reader can find both goroutines of a report without running the
// program in their head. ok is false for a root, or where the walk that
// started it stands for several chains.
func (c *checker) startedBy(o *pointer.Origin) (pos token.Pos, chain string, ok bool) {
	var parts []string
	for o.Parent != nil {
		t := c.hb.TraceOf(o.Parent)
		if t == nil {
			return token.NoPos, "", false
		}
		ev, found := spawnOf(t, o)
		if !found {
			return token.NoPos, "", false
		}
		frames, known := t.Frames(ev.ID)
		if !known {
			return token.NoPos, "", false
		}
		if !pos.IsValid() {
			pos = ev.Instr.Pos()
		}
		verb := "go "
		if o.Kind == facts.SpawnCallback {
			verb = "callback " // kept by another package for its goroutines
		}
		step := []string{verb + facts.ShortName(o.Entry.String())}
		first := 1 // the parent's own function: named by its go statement
		if o.Parent.Parent == nil {
			first = 0 // a root's: main, the test
		}
		for i := len(frames) - 1; i >= first; i-- {
			step = append(step, facts.ShortName(frames[i].Fn.String()))
		}
		parts = append(parts, step...)
		o = o.Parent
	}
	if !pos.IsValid() {
		return token.NoPos, "", false
	}
	if len(parts) > maxChain {
		parts = append(parts[:maxChain-1], "…")
	}
	slices.Reverse(parts) // from the root
	return pos, strings.Join(parts, " → "), true
}

// maxChain bounds the calls a chain names.
const maxChain = 8

// spawnOf returns the event of trace t that starts o.
func spawnOf(t *shb.Trace, o *pointer.Origin) (shb.Event, bool) {
	for _, ev := range t.Events {
		if ev.Kind != shb.Spawn || ev.Instr == nil {
			continue
		}
		for _, s := range t.Spawned(ev.ID) {
			if s == o {
				return ev, true
			}
		}
	}
	return shb.Event{}, false
}

// startedAt returns the related positions of the go statements that started
// the goroutines of a report, each with its chain of calls, once per
// statement.
func (c *checker) startedAt(origins ...*pointer.Origin) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	seen := make(map[token.Pos]bool)
	for _, o := range origins {
		pos, chain, ok := c.startedBy(o)
		if !ok || seen[pos] {
			continue
		}
		seen[pos] = true
		out = append(out, analysis.RelatedInformation{Pos: pos, Message: fmt.Sprintf("goroutine started here: %s", chain)})
	}
	return out
}

// madeAt returns the related position of where the racy object is made,
// when the pointer analysis names one place in this package's files: a
// reader checks that both accesses can reach that object ("the Bank is
// made here"). Nothing for a variable, which the message names.
func (c *checker) madeAt(loc pointer.Location) []analysis.RelatedInformation {
	obj := loc.Obj
	if obj.Kind == pointer.ObjGlobal {
		return nil
	}
	if a, ok := obj.Site.(*ssa.Alloc); ok && !a.Heap || ok && a.Comment != "" && !strings.Contains(a.Comment, "complit") && a.Comment != "new" && a.Comment != "varargs" && a.Comment != "slicelit" {
		return nil // a local variable: the message names it
	}
	made := obj.MadeAt()
	if made == nil || !posn.InFiles(c.pass, made.Pos()) {
		return nil
	}
	what := "the object is made here"
	switch obj.Kind {
	case pointer.ObjMap:
		what = "the map is made here"
	case pointer.ObjSlice:
		what = "the array is made here"
	case pointer.ObjChan:
		what = "the channel is made here"
	default:
		if named, ok := types.Unalias(obj.Type).(*types.Named); ok && obj.ImportedType() == "" {
			what = "the " + named.Obj().Name() + " is made here"
		}
	}
	if made.Parent() != nil {
		what += " (in " + facts.ShortName(made.Parent().String()) + ")"
	}
	return []analysis.RelatedInformation{{Pos: made.Pos(), Message: what}}
}

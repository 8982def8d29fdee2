package effects_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/effects"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestEffectsFact checks the facts.Effects package fact that the pass
// exports for effects/lib, the fixture that lockset's tests share
// (lockset exports what its functions do to mutexes, this pass what
// they do to memory and synchronization), rendered with short
// positions, in program order.
func TestEffectsFact(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "lockset", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	results := analysistest.Run(t, testdata, effects.Analyzer, "effects/lib")
	var got []string
	for _, r := range results {
		if r.Pass.Pkg.Path() != "effects/lib" {
			continue
		}
		for _, f := range r.Facts[nil] {
			if set, ok := f.(*facts.Effects); ok {
				got = append(got, renderEffects(set)...)
			}
		}
	}
	want := []string{
		"func (*effects/lib.Counter).Inc",
		"  read p0.1 at lib.go:22 holds {p0.0}",
		"  write p0.1 at lib.go:22 holds {p0.0}",
		"func effects/lib.Start",
		"  write p0.1 at lib.go:31 holds {}",
		"  read g:effects/lib.Ready at lib.go:32 holds {}",
		"  write whole g:effects/lib.Ready@ at lib.go:32 holds {}",
		"  close g:effects/lib.Ready@ at lib.go:32",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("effects of effects/lib:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// renderKey renders a key as the tests write it: "p0.1".
func renderKey(k facts.Key) string { return strings.Replace(k.String(), "|", "", 1) }

// renderEffects renders an Effects fact, one line per function and one
// per access and synchronization operation.
func renderEffects(set *facts.Effects) []string {
	if !set.Valid() {
		return []string{"invalid version"}
	}
	locks := func(hs []facts.HeldLock) string {
		var elems []string
		for _, h := range hs {
			e := renderKey(set.Key(h.Key))
			if h.Read {
				e += " read"
			}
			if h.Once {
				e += " once"
			}
			elems = append(elems, e)
		}
		return "{" + strings.Join(elems, ", ") + "}"
	}
	syncNames := map[facts.SyncKind]string{
		facts.SyncSend: "send", facts.SyncRecv: "recv", facts.SyncClose: "close",
		facts.SyncAdd: "add", facts.SyncDone: "done", facts.SyncWait: "wait",
		facts.SyncOnceAfter: "once-after", facts.SyncCondWait: "cond-wait", facts.SyncCondSignal: "cond-signal",
	}
	var out []string
	for _, fe := range set.Funcs {
		out = append(out, "func "+set.Str(fe.Name))
		// Accesses and syncs interleaved in program order: a sync goes
		// after the first After accesses.
		si := 0
		syncsUpTo := func(n int) {
			for ; si < len(fe.Syncs) && int(fe.Syncs[si].After) <= n; si++ {
				s := fe.Syncs[si]
				out = append(out, fmt.Sprintf("  %s %s at %s", syncNames[s.Kind], renderKey(set.Key(s.Key)), facts.ShortPos(set.Str(s.Pos))))
			}
		}
		for i, a := range fe.Accesses {
			syncsUpTo(i)
			kind := "read"
			if a.Write {
				kind = "write"
			}
			if a.Whole {
				kind += " whole"
			}
			if a.Atomic {
				kind += " atomic"
			}
			out = append(out, fmt.Sprintf("  %s %s at %s holds %s", kind, renderKey(set.Key(a.Key)), facts.ShortPos(set.Str(a.Pos)), locks(a.Locks)))
		}
		syncsUpTo(len(fe.Accesses) + len(fe.Syncs))
	}
	return out
}

package guard_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/origo-dev/origo/passes/guard"
	"golang.org/x/tools/go/analysis"
)

func TestDoRecovers(t *testing.T) {
	t.Setenv("ORIGO_PANIC", "")
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p")}
	msg := guard.Do(pass, "origins", func() { panic("boom") })
	for _, want := range []string{"internal error in origins", "example.com/p", "boom"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("message is not one line: %q", msg)
	}
	if msg := guard.Do(pass, "origins", func() {}); msg != "" {
		t.Errorf("no panic, but message %q", msg)
	}
}

func TestDoStop(t *testing.T) {
	t.Setenv("ORIGO_PANIC", "")
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/big", "big")}
	msg := guard.Do(pass, "pointer", func() { panic(guard.Stop{Reason: "too large", Lost: "no analysis of it"}) })
	if want := "origo: pointer skipped package example.com/big: too large; no analysis of it; split the package, or report it at " + guard.IssuesURL; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	msg = guard.Do(pass, "pointer", func() { panic(guard.Stop{Reason: "too large"}) })
	if want := "origo: pointer skipped package example.com/big: too large; findings for this package may be missing; split the package, or report it at " + guard.IssuesURL; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
}

func TestDoNamesFunction(t *testing.T) {
	t.Setenv("ORIGO_PANIC", "")
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p")}
	msg := guard.Do(pass, "lockset", func() {
		guard.At(pass, "p.(*T).Run")
		panic("boom\nsecond line")
	})
	for _, want := range []string{"internal error in lockset on package example.com/p in p.(*T).Run: boom second line", "(origo " + guard.Version() + ";",
		"; results for this package are incomplete; set ORIGO_PANIC=1 for a stack trace and report it at " + guard.IssuesURL + ")"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	// The next run of the pass starts with no function.
	msg = guard.Do(pass, "lockset", func() { panic("again") })
	if strings.Contains(msg, "(*T).Run") {
		t.Errorf("message %q names the function of an earlier run", msg)
	}
}

func TestForcedFailure(t *testing.T) {
	t.Setenv("ORIGO_PANIC", "")
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p")}
	ran := false
	t.Setenv(guard.FailEnv, "race:example.com/q")
	if msg := guard.Do(pass, "race", func() { ran = true }); msg != "" || !ran {
		t.Errorf("hook for another package: message %q, ran %v", msg, ran)
	}
	t.Setenv(guard.FailEnv, "race:example.com/p")
	if msg := guard.Do(pass, "race", func() {}); !strings.Contains(msg, "internal error in race on package example.com/p: failure forced by") {
		t.Errorf("forced failure: message %q", msg)
	}
}

// TestDoPanicThrough checks that ORIGO_PANIC=1 lets a pass's panic
// through, with its stack, rather than turning it into a line.
func TestDoPanicThrough(t *testing.T) {
	t.Setenv("ORIGO_PANIC", "1")
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p")}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the pass's panic, boom", r)
		}
	}()
	msg := guard.Do(pass, "race", func() { panic("boom") })
	t.Errorf("Do returned %q, want the panic let through", msg)
}

// fakeM is a testing.M whose tests pass, having run f.
type fakeM struct{ f func() }

func (m fakeM) Run() int { m.f(); return 0 }

// TestRunTestsFailsOnRecovered checks that a test binary whose passes
// crashed fails, though its tests passed.
func TestRunTestsFailsOnRecovered(t *testing.T) {
	t.Setenv("ORIGO_PANIC", "")
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p")}
	if code := guard.RunTests(fakeM{func() { guard.Do(pass, "shb", func() { panic("boom") }) }}); code == 0 {
		t.Error("RunTests returned 0 after a recovered panic")
	}
}

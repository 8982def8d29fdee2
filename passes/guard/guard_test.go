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
	msg := guard.Do(pass, "pointer", func() { panic(guard.Stop{Reason: "too large"}) })
	if want := "origo: pointer skipped package example.com/big: too large"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
}

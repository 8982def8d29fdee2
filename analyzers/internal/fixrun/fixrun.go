// Package fixrun checks, in the analyzers' tests, that the fixes a
// fixture's golden files show make a program that builds, passes go vet
// and runs: a fix must never make code worse. analysistest's
// RunWithSuggestedFixes checks that the fixes are the golden files'; this
// checks what the golden files do.
//
// A fixture directory is a command: its files with the fixes applied
// (each X.go replaced by X.go.golden where there is one) are copied into
// a scratch module, with the fixture's go.mod if it has one; go vet must
// say nothing of them that it did not say of the fixture as it is (which
// keeps the bugs no fix is certain for), and they are built with the tag
// fixrun, so that a file of the fixture may hold a main
// that the analyzers never see (it would make the fixture's reports
// other than the ones the fixes are about). The command must exit 0
// within a minute: a fix that unlocks a mutex its function did not lock
// dies with "unlock of unlocked mutex", one that leaves a lock held
// blocks the next Lock.
package fixrun

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Check builds, vets and runs the fixture directory dir with its fixes
// applied (see the package documentation), and fails t if that fails.
func Check(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go command: %v", err)
	}
	if err := Run(dir, t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// Run builds, vets and runs the fixture directory dir with its fixes
// applied, in the scratch directory tmp.
func Run(dir, tmp string) error {
	before, after := filepath.Join(tmp, "before"), filepath.Join(tmp, "after")
	golden, err := copyFixture(dir, before, false)
	if err != nil {
		return err
	}
	if golden == 0 {
		return fmt.Errorf("%s: no golden file: no fix to check", dir)
	}
	if _, err := copyFixture(dir, after, true); err != nil {
		return err
	}
	// go vet: what it says of the fixed code it said before the fixes
	// (a fixture keeps the bugs no fix is certain for).
	was, err := vet(before)
	if err != nil {
		return fmt.Errorf("%s: %v", dir, err)
	}
	is, err := vet(after)
	if err != nil {
		return fmt.Errorf("%s with its fixes applied: %v", dir, err)
	}
	for msg, n := range is {
		if n > was[msg] {
			return fmt.Errorf("%s with its fixes applied: go vet says %q %d times, before the fixes %d", dir, msg, n, was[msg])
		}
	}
	bin := filepath.Join(tmp, "fixed")
	if out, err := goCmd(after, "build", "-tags", "fixrun", "-o", bin, "."); err != nil {
		return fmt.Errorf("%s with its fixes applied: go build: %v\n%s", dir, err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = after
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s with its fixes applied: running it: %v\n%s", dir, err, out)
	}
	return nil
}

// copyFixture copies the fixture dir into the new directory dst as a
// module, its files as they are or, if fixed, with their fixes applied,
// and returns how many files have a golden file.
func copyFixture(dir, dst string, fixed bool) (golden int, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return 0, err
	}
	goMod := "module fixrun\n\ngo 1.26\n"
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == "go.mod":
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				return 0, err
			}
			goMod = string(b)
			continue
		case !strings.HasSuffix(name, ".go"):
			continue
		}
		src := filepath.Join(dir, name)
		if _, err := os.Stat(src + ".golden"); err == nil {
			golden++
			if fixed {
				src += ".golden"
			}
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			return 0, err
		}
	}
	return golden, os.WriteFile(filepath.Join(dst, "go.mod"), []byte(goMod), 0o644)
}

// vet runs go vet in dir and returns its findings' messages, without
// their positions, and how many times each was said. A failure that is
// no finding (the code does not compile) is an error.
func vet(dir string) (map[string]int, error) {
	out, err := goCmd(dir, "vet", "-tags", "fixrun", ".")
	found := make(map[string]int)
	for _, line := range strings.Split(string(out), "\n") {
		if m := finding.FindStringSubmatch(line); m != nil {
			found[m[1]]++
		} else if err != nil && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
			return nil, fmt.Errorf("go vet: %v\n%s", err, out)
		}
	}
	return found, nil
}

// finding matches a line of go vet's output that is a finding.
var finding = regexp.MustCompile(`^\S+\.go:\d+:\d+: (.*)$`)

// goCmd runs the go command in dir, outside any workspace.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	return cmd.CombinedOutput()
}

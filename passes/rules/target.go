package rules

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// WhyCategory is the category of the diagnostics that an analyzer's
// -why flag asks for: explanations, not findings.
const WhyCategory = "why"

// TargetFlag is an analyzer's -why flag (a flag.Value): "FILE:LINE",
// "all", or "" for off, checked by ParseTarget when set.
type TargetFlag struct{ Value *string }

func (f TargetFlag) String() string {
	if f.Value == nil {
		return ""
	}
	return *f.Value
}

// Set implements flag.Value.
func (f TargetFlag) Set(s string) error {
	if s != "" {
		if _, err := ParseTarget(s); err != nil {
			return err
		}
	}
	*f.Value = s
	return nil
}

// Target is what "origo why" asks about: a line of a file, or every
// line ("all").
type Target struct {
	file string // "" for every line
	line int
}

// ParseTarget parses "FILE:LINE" (FILE is matched as the end of a path:
// main.go, cmd/x/main.go) or "all".
func ParseTarget(s string) (Target, error) {
	if s == "all" {
		return Target{}, nil
	}
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return Target{}, fmt.Errorf("want FILE:LINE or all, not %q", s)
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n <= 0 {
		return Target{}, fmt.Errorf("want FILE:LINE or all, not %q: bad line", s)
	}
	return Target{filepath.ToSlash(s[:i]), n}, nil
}

// Matches reports whether pos is at the target's line.
func (t Target) Matches(fset *token.FileSet, pos token.Pos) bool {
	if t.file == "" {
		return pos.IsValid()
	}
	p := fset.Position(pos)
	name := filepath.ToSlash(p.Filename)
	return p.Line == t.line && (name == t.file || strings.HasSuffix(name, "/"+t.file))
}

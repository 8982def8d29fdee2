package rules

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

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

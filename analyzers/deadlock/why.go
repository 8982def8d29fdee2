package deadlock

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
)

// WhyCategory is the category of the diagnostics that the -why flag
// asks for: explanations, not findings.
const WhyCategory = "why"

// whyTarget is the -why flag's value: "FILE:LINE", "all" or "".
var whyTarget string

type whyFlag struct{}

func (whyFlag) String() string { return whyTarget }

func (whyFlag) Set(s string) error {
	if s != "" && s != "all" {
		if _, _, err := parseWhy(s); err != nil {
			return err
		}
	}
	whyTarget = s
	return nil
}

func parseWhy(s string) (string, int, error) {
	i := strings.LastIndexByte(s, ':')
	n, err := strconv.Atoi(s[i+1:])
	if i <= 0 || err != nil || n <= 0 {
		return "", 0, fmt.Errorf("want FILE:LINE or all, not %q", s)
	}
	return filepath.ToSlash(s[:i]), n, nil
}

// whyLog keeps the verdict on each candidate lock order inversion (two
// goroutines' acquisitions of two mutexes in opposite orders) with an
// acquisition at the line asked about; nil when -why is off.
type whyLog struct {
	fset    *token.FileSet
	file    string
	line    int
	entries map[whyEntry]bool
}

type whyEntry struct {
	at      token.Pos
	message string
}

func newWhyLog(fset *token.FileSet) *whyLog {
	if whyTarget == "" {
		return nil
	}
	w := &whyLog{fset: fset, entries: make(map[whyEntry]bool)}
	if whyTarget != "all" {
		w.file, w.line, _ = parseWhy(whyTarget)
	}
	return w
}

func (w *whyLog) matches(pos token.Pos) bool {
	if w.file == "" {
		return pos.IsValid()
	}
	p := w.fset.Position(pos)
	name := filepath.ToSlash(p.Filename)
	return p.Line == w.line && (name == w.file || strings.HasSuffix(name, "/"+w.file))
}

// inversion records the verdict on the candidate inversion of order
// edges x and y: "" for reported, else the rule that ruled it out.
func (c *checker) noteInversion(hb *shb.Result, x, y orderEdge, rule rules.ID) {
	w := c.why
	if w == nil {
		return
	}
	for _, e := range [2][2]orderEdge{{x, y}, {y, x}} {
		a, b := e[0], e[1]
		at := a.t.Events[a.ev].Instr.Pos()
		if !w.matches(at) {
			continue
		}
		verdict := "reported"
		if rule != "" {
			r, _ := rules.Lookup(rule)
			verdict = fmt.Sprintf("ruled out by %s (%s)", rule, r.Statement)
		}
		msg := fmt.Sprintf("why: lock order inversion: %s locked at %s holding %s (%s) vs %s locked at %s holding %s (%s): %s",
			hb.Locks.Name(a.to), c.pos(at), hb.Locks.Name(a.from), a.t.Origin.Describe(w.fset),
			hb.Locks.Name(b.to), c.pos(b.t.Events[b.ev].Instr.Pos()), hb.Locks.Name(b.from), b.t.Origin.Describe(w.fset), verdict)
		w.entries[whyEntry{at, msg}] = true
	}
}

// reportWhy emits the verdicts kept, in the order of their positions.
func (w *whyLog) report(pass *analysis.Pass) {
	if w == nil {
		return
	}
	var es []whyEntry
	for e := range w.entries {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b whyEntry) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.message, b.message)) })
	for _, e := range es {
		pass.Report(analysis.Diagnostic{Pos: e.at, Category: WhyCategory, Message: e.message})
	}
}

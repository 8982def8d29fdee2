package confirm

import (
	"bufio"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// This file reads what a run of a test binary prints: the race
// detector's reports and goroutine dumps (the testing package's on a
// timeout, the runtime's on a fatal error, and the goroutine leak
// profile at debug level 2, which has the same shape).

// frame is one call of a stack: the function and its file and line.
type frame struct {
	fn   string
	file string
	line int
}

// raceAccess is one side of a race detector report: "Write at 0x... by
// goroutine 8:" and its stack, innermost call first.
type raceAccess struct {
	what      string // "Write", "Previous read", "Atomic write", ...
	goroutine string // "goroutine 8", "main goroutine"
	frames    []frame
}

// raceWarning is one "WARNING: DATA RACE" block.
type raceWarning struct {
	accesses []raceAccess // the current access, then the previous one
	created  []raceAccess // "Goroutine 8 (running) created at:", what = "goroutine 8"
}

var (
	raceHeader    = regexp.MustCompile(`^((?:Previous )?(?:[Aa]tomic )?(?:[Rr]ead|[Ww]rite))(?: at 0x[0-9a-f]+)? by (.+):$`)
	createdHeader = regexp.MustCompile(`^Goroutine (\d+) \([a-z]+\) created at:$`)
	frameFile     = regexp.MustCompile(`^\s+(.+\.(?:go|s|c)):(\d+)(?: \+0x[0-9a-f]+)?$`)
)

// parseRaces returns the race detector's reports in out.
func parseRaces(out string) []raceWarning {
	var warnings []raceWarning
	var cur *raceWarning
	var stack *raceAccess
	fn := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "WARNING: DATA RACE":
			warnings = append(warnings, raceWarning{})
			cur, stack = &warnings[len(warnings)-1], nil
			continue
		case cur == nil:
			continue
		case strings.HasPrefix(line, "=================="):
			cur, stack = nil, nil
			continue
		}
		if m := raceHeader.FindStringSubmatch(line); m != nil {
			cur.accesses = append(cur.accesses, raceAccess{what: m[1], goroutine: m[2]})
			stack = &cur.accesses[len(cur.accesses)-1]
			continue
		}
		if m := createdHeader.FindStringSubmatch(line); m != nil {
			cur.created = append(cur.created, raceAccess{what: "goroutine " + m[1]})
			stack = &cur.created[len(cur.created)-1]
			continue
		}
		if stack == nil {
			continue
		}
		if m := frameFile.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			stack.frames = append(stack.frames, frame{fn: fn, file: m[1], line: n})
			continue
		}
		if t := strings.TrimSpace(line); t != "" {
			fn = strings.TrimSuffix(t, "()")
		}
	}
	return warnings
}

// goroutine is one goroutine of a dump.
type goroutine struct {
	id      string
	state   string // the wait reason, "chan send", without the time blocked or "(leaked)"
	leaked  bool   // marked so by the goroutine leak profile
	frames  []frame
	created *frame // the go statement that started it
}

var goroutineHeader = regexp.MustCompile(`^goroutine (\d+)(?: [^\[]*)? \[([^\]]*)\]:$`)

// parseDump returns the goroutines of every goroutine dump in out.
func parseDump(out string) []goroutine {
	var gs []goroutine
	var cur *goroutine
	fn := ""
	createdBy := false
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := goroutineHeader.FindStringSubmatch(line); m != nil {
			state := m[2]
			leaked := strings.Contains(state, "(leaked)")
			state = strings.TrimSpace(strings.Replace(state, "(leaked)", "", 1))
			if i := strings.Index(state, ", "); i >= 0 && strings.HasSuffix(state, "minutes") {
				state = state[:i] // "sync.Mutex.Lock, 2 minutes"
			}
			gs = append(gs, goroutine{id: m[1], state: state, leaked: leaked})
			cur, createdBy = &gs[len(gs)-1], false
			continue
		}
		if cur == nil {
			continue
		}
		if strings.TrimSpace(line) == "" {
			cur = nil
			continue
		}
		if m := frameFile.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "\t") {
			n, _ := strconv.Atoi(m[2])
			f := frame{fn: fn, file: m[1], line: n}
			if createdBy {
				cur.created = &f
			} else {
				cur.frames = append(cur.frames, f)
			}
			continue
		}
		createdBy = strings.HasPrefix(line, "created by ")
		fn = strings.TrimPrefix(line, "created by ")
		if i := strings.Index(fn, " in goroutine "); i >= 0 {
			fn = fn[:i]
		}
		if i := strings.LastIndexByte(fn, '('); i > 0 && strings.HasSuffix(fn, ")") {
			fn = fn[:i]
		}
	}
	return gs
}

// blocked reports whether a goroutine of a dump waits on a channel or on
// the sync package: a goroutine sleeping, in a system call or running is
// not stuck in any operation a report names.
func (g *goroutine) blocked() bool {
	for _, p := range []string{"chan send", "chan receive", "select", "sync.", "semacquire"} {
		if strings.HasPrefix(g.state, p) {
			return true
		}
	}
	return false
}

// stalled reports whether the dump a test printed at its timeout shows a
// program that would have made no more progress: each goroutine but the
// one that panicked at the timeout waits in a channel or sync operation,
// on the network, or in a select. A goroutine asleep (time.Sleep, or a
// yield of the run), runnable, running or in a system call would have
// gone on: the test was slow, not hung, and a goroutine blocked at the
// reported line at that moment may have been released later. (ants'
// TestMaxBlockingSubmit: a pool worker waits at <-ch while the test
// sleeps for a second before it closes ch; with the run's yields, the
// timeout came first.) A goroutine in a select with a timer may go on
// too: the dump does not tell, and such a select counts as stuck.
func stalled(gs []goroutine) bool {
	for _, g := range gs {
		if g.alarm() {
			continue
		}
		for _, p := range []string{"sleep", "runnable", "running", "syscall", "preempted"} {
			if strings.HasPrefix(g.state, p) {
				return false
			}
		}
	}
	return true
}

// alarm reports whether g is the goroutine of the testing package that
// panics at the test's timeout.
func (g *goroutine) alarm() bool {
	for _, f := range g.frames {
		if strings.HasPrefix(f.fn, "testing.(*M).startAlarm") {
			return true
		}
	}
	return false
}

// samePlace reports whether a frame's file and line are a report's.
// The race detector and tracebacks print the path the compiler saw:
// absolute, unless the build trimmed paths (GOFLAGS=-trimpath), where it
// is the package's import path and the file's base name.
func samePlace(f frame, file string, line int) bool {
	if f.line != line {
		return false
	}
	if f.file == file {
		return true
	}
	if !filepath.IsAbs(f.file) {
		return filepath.Base(f.file) == filepath.Base(file)
	}
	a, errA := filepath.EvalSymlinks(f.file)
	b, errB := filepath.EvalSymlinks(file)
	return errA == nil && errB == nil && a == b
}

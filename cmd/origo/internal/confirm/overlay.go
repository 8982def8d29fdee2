package confirm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The runs push the schedule toward a report with yields inserted in a
// copy of the package's files, which go test reads through -overlay:
// before the statement of each reported access (or lock, or channel
// operation), a call origoConfirmYield(N), which sleeps or yields when
// the run's environment names N and does nothing otherwise. One build
// serves every report of the package and every order: a run picks the
// yields it wants by environment. The calls go on the line of the
// statement they precede, so that no line moves and every position the
// race detector or a traceback prints is the user's file's.
//
// Each test, benchmark and fuzz target also starts with
// "defer origoConfirmLeaks()", which, when the environment asks for it
// and the toolchain has the goroutine leak profile
// (GOEXPERIMENT=goroutineleakprofile), writes that profile at the end of
// the test: the runtime's own detector of goroutines blocked forever.

// Environment of the instrumented test binaries.
const (
	envYield  = "ORIGO_CONFIRM_YIELD"  // comma-separated yield IDs to activate
	envSleep  = "ORIGO_CONFIRM_SLEEP"  // how long an active yield sleeps (a duration); 0 or none: runtime.Gosched
	envWindow = "ORIGO_CONFIRM_WINDOW" // for how long after the start of the run yields sleep (a duration)
	envLeaks  = "ORIGO_CONFIRM_LEAKS"  // file to append the goroutine leak profile to
)

// instrumented is a package directory rewritten for confirmation runs.
type instrumented struct {
	src     *pkgSource
	tmp     string // removed by the caller
	overlay string // the -overlay file
	yields  map[yieldPoint]int
}

// yieldPoint is where a yield goes: before the statement at this byte
// offset of this file.
type yieldPoint struct {
	file   string
	offset int
}

// instrument writes, under tmp, the overlay that puts a yield before the
// statement of each of positions and the leak hook in every test.
func (s *pkgSource) instrument(tmp string, positions []Position) (*instrumented, error) {
	in := &instrumented{src: s, tmp: tmp, overlay: filepath.Join(tmp, "overlay.json"), yields: make(map[yieldPoint]int)}
	type insertion struct {
		offset int
		text   string
	}
	edits := make(map[*srcFile][]insertion)
	for _, p := range positions {
		f, off, ok := s.stmtStart(p)
		if !ok {
			continue
		}
		pt := yieldPoint{f.path, off}
		if _, ok := in.yields[pt]; ok {
			continue
		}
		id := len(in.yields) + 1
		in.yields[pt] = id
		edits[f] = append(edits[f], insertion{off, fmt.Sprintf("origoConfirmYield(%d); ", id)})
	}
	for _, t := range s.tests {
		if t.file.cgo {
			continue
		}
		off := s.fset.Position(t.decl.Body.Lbrace).Offset + 1
		edits[t.file] = append(edits[t.file], insertion{off, " defer origoConfirmLeaks();"})
	}

	// The helpers: one in the package for its files (a test file if
	// only test files use it), one in the external test package.
	base := s.packageName()
	var nonTest, internalTest, external string
	replace := make(map[string]string)
	for _, f := range slices.SortedFunc(maps.Keys(edits), func(a, b *srcFile) int { return strings.Compare(a.path, b.path) }) {
		ins := edits[f]
		slices.SortStableFunc(ins, func(a, b insertion) int { return b.offset - a.offset })
		src := slices.Clone(f.src)
		for _, e := range ins {
			src = slices.Insert(src, e.offset, []byte(e.text)...)
		}
		dst := filepath.Join(tmp, fmt.Sprintf("%d_%s", len(replace), filepath.Base(f.path)))
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			return nil, err
		}
		replace[f.path] = dst
		name := f.ast.Name.Name
		switch {
		case !f.test:
			nonTest = name
		case name != base && strings.HasSuffix(name, "_test"):
			external = name
		default:
			internalTest = name
		}
	}
	helpers := map[string]string{}
	switch {
	case nonTest != "":
		helpers["origo_confirm_helper.go"] = nonTest
	case internalTest != "":
		helpers["origo_confirm_helper_test.go"] = internalTest
	}
	if external != "" {
		helpers["origo_confirm_xhelper_test.go"] = external
	}
	for name, pkg := range helpers {
		dst := filepath.Join(tmp, name)
		if err := os.WriteFile(dst, []byte(helperSource(pkg)), 0o644); err != nil {
			return nil, err
		}
		replace[filepath.Join(s.dir, name)] = dst
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return nil, err
	}
	return in, os.WriteFile(in.overlay, data, 0o644)
}

// packageName returns the name of the package of the directory's
// non-test files, or else of its test files without the "_test" of an
// external test package, as go/build decides.
func (s *pkgSource) packageName() string {
	var names []string
	for _, f := range s.files {
		if !f.test {
			return f.ast.Name.Name
		}
		names = append(names, f.ast.Name.Name)
	}
	slices.Sort(names)
	for _, n := range names {
		if !strings.HasSuffix(n, "_test") {
			return n
		}
	}
	if len(names) > 0 {
		return strings.TrimSuffix(names[0], "_test")
	}
	return ""
}

// helperSource is the file that declares the yield and the leak hook in
// package pkg. Its imports are renamed: a file's imports may not share a
// name with a declaration of its package. It is compiled at the
// language version of the package's module, which may be as old as
// go1.12 (robfig/cron's): no 0o literals, generics, any, min or max.
func helperSource(pkg string) string {
	return `package ` + pkg + `

import (
	origoconfirmos "os"
	origoconfirmruntime "runtime"
	origoconfirmpprof "runtime/pprof"
	origoconfirmstrconv "strconv"
	origoconfirmstrings "strings"
	origoconfirmtime "time"
)

var origoConfirmYields = func() map[int]bool {
	m := make(map[int]bool)
	for _, f := range origoconfirmstrings.Split(origoconfirmos.Getenv("` + envYield + `"), ",") {
		if n, err := origoconfirmstrconv.Atoi(f); err == nil {
			m[n] = true
		}
	}
	return m
}()

var origoConfirmSleep, _ = origoconfirmtime.ParseDuration(origoconfirmos.Getenv("` + envSleep + `"))

var origoConfirmWindow, _ = origoconfirmtime.ParseDuration(origoconfirmos.Getenv("` + envWindow + `"))

var origoConfirmStart = origoconfirmtime.Now()

// origoConfirmYield sleeps when the run asks for yield id, during the
// window the run gives from its start (a yield in a hot loop must not
// make the test time out), and yields the processor after that. It reads
// only what was set at initialization and synchronizes with nothing, so
// that it hides no race from the race detector.
func origoConfirmYield(id int) {
	if !origoConfirmYields[id] {
		return
	}
	if origoConfirmSleep > 0 && origoconfirmtime.Since(origoConfirmStart) < origoConfirmWindow {
		origoconfirmtime.Sleep(origoConfirmSleep)
		return
	}
	origoconfirmruntime.Gosched()
}

// origoConfirmLeaks appends the goroutine leak profile to the file the
// run names, when the toolchain has it, after giving the goroutines the
// test started a moment to reach where they block.
func origoConfirmLeaks() {
	file := origoconfirmos.Getenv("` + envLeaks + `")
	p := origoconfirmpprof.Lookup("goroutineleak")
	if file == "" || p == nil {
		return
	}
	origoconfirmtime.Sleep(100 * origoconfirmtime.Millisecond)
	f, err := origoconfirmos.OpenFile(file, origoconfirmos.O_WRONLY|origoconfirmos.O_CREATE|origoconfirmos.O_APPEND, 0644)
	if err != nil {
		return
	}
	p.WriteTo(f, 2)
	f.Close()
}
`
}

// buildMode says how a test binary is built.
type buildMode int

const (
	raceBuild     buildMode = iota // with the race detector
	leakBuild                      // with the goroutine leak profile
	leakRaceBuild                  // both, for a package that builds only under -race
	plainBuild                     // neither: for the goroutine dump at a timeout alone
	numBuildModes
)

// build compiles the instrumented test binary of the package. It
// returns the binary's path, or "" when the package has no tests.
func (in *instrumented) build(ctx context.Context, mode buildMode, tags string) (string, error) {
	name, args := "plain.test", []string{"test", "-c"}
	env := os.Environ()
	switch mode {
	case raceBuild:
		name = "race.test"
		args = append(args, "-race")
	case leakBuild:
		name = "leak.test"
		env = append(env, "GOEXPERIMENT="+withExperiment(os.Getenv("GOEXPERIMENT")))
	case leakRaceBuild:
		name = "leakrace.test"
		args = append(args, "-race")
		env = append(env, "GOEXPERIMENT="+withExperiment(os.Getenv("GOEXPERIMENT")))
	}
	bin := filepath.Join(in.tmp, name)
	args = append(args, "-o", bin, "-overlay", in.overlay)
	if tags = buildTags(tags); tags != "" {
		args = append(args, "-tags="+tags)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, ".")...)
	cmd.Dir = in.src.dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v: %s", strings.Join(args[:len(args)-2], " "), err, firstLines(out.String(), 3))
	}
	if _, err := os.Stat(bin); err != nil {
		return "", nil // no test files
	}
	return bin, nil
}

// buildTags drops "race" from the user's build tags: -race sets it for
// the race build, and without -race it would build std's race
// annotations into a binary that has no race runtime.
func buildTags(tags string) string {
	var out []string
	for t := range strings.SplitSeq(tags, ",") {
		if t != "" && t != "race" {
			out = append(out, t)
		}
	}
	return strings.Join(out, ",")
}

// leakExperiment is the GOEXPERIMENT that gives the goroutine leak
// profile (Go 1.26).
const leakExperiment = "goroutineleakprofile"

func withExperiment(cur string) string {
	if cur == "" {
		return leakExperiment
	}
	return cur + "," + leakExperiment
}

// firstLines returns the first n lines of s, joined by " | ".
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, " | ")
}

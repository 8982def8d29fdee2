package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/origo-dev/origo/cmd/internal/longtest"
)

// TestExitCodes checks the exit codes of the standalone command against
// go vet's on the same input: a command line it does not understand is
// one line and exit 2, with a pointer to -h; findings are exit 3, and 0
// under -json, as go vet -json; a package that does not load is 1.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	functional(t)
	demo, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-nosuchflag", "."},
		{"-json", "-sarif", "."},
		{"-diff", "."},
		{"-fix", "-json", "."},
		{"-race=maybe", "."},
		{"version", "extra"},
	} {
		stdout, stderr, code := run(t, demo, args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "origo: ") || !strings.HasSuffix(stderr, "(run 'origo -h' for usage)\n") {
			t.Errorf("origo %s: exit %d, stdout %q, stderr %q; want exit %d and one line on stderr that points to -h", strings.Join(args, " "), code, stdout, stderr, exitUsage)
		}
	}
	if _, stderr, code := run(t, demo, "help", "nosuch"); code != exitUsage || strings.Count(stderr, "\n") != 1 {
		t.Errorf("origo help nosuch: exit %d, stderr %q; want %d and one line", code, stderr, exitUsage)
	}
	if _, _, code := run(t, demo, "."); code != exitFindings {
		t.Errorf("origo on the demo: exit %d, want %d", code, exitFindings)
	}
	_, _, vetCode := runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-json", "."), demo)
	if _, _, code := run(t, demo, "-json", "."); code != vetCode || code != exitClean {
		t.Errorf("origo -json on the demo: exit %d; go vet -json: exit %d; want both %d", code, vetCode, exitClean)
	}
	_, _, vetCode = runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-json", "./nope"), demo)
	if _, _, code := run(t, demo, "-json", "./nope"); code != exitError || vetCode != exitError {
		t.Errorf("origo -json on a pattern that matches nothing: exit %d; go vet -json: exit %d; want both %d", code, vetCode, exitError)
	}
}

// TestAnalyzerFlags checks that the standalone command picks analyzers
// as go vet does, on the demo, which has a race and a deadlock: -race
// alone runs only race, -race=false all but race; and that go vet with
// -race=false reports the same. TestSelectAnalyzers checks the other
// combinations without running them.
func TestAnalyzerFlags(t *testing.T) {
	t.Parallel()
	functional(t)
	demo, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flags []string
		want  []string // the start of each message reported
		vet   bool     // also under go vet, where each set of flags analyzes std anew
	}{
		{[]string{"-race"}, []string{"data race"}, false},
		{[]string{"-race=false"}, []string{"double lock"}, true},
	} {
		args := append(append([]string{"-json"}, tc.flags...), ".")
		stdout, stderr, _ := run(t, demo, args...)
		outputs := map[string]string{"standalone": stdout}
		if tc.vet && longtest.Enabled() { // each set of flags is a go vet of std again
			vetOut, vetErr, _ := runCmd(t, exec.Command("go", append([]string{"vet", "-vettool=" + origoBin}, args...)...), demo)
			outputs["go vet"] = vetOut + vetErr
		}
		for driver, out := range outputs {
			var kinds []string
			for _, f := range findings(t, demo, out) {
				_, msg, _ := strings.Cut(f, ": ")
				kind, _, _ := strings.Cut(msg, " on ")
				kind, _, _ = strings.Cut(kind, ":")
				kinds = append(kinds, kind)
			}
			if strings.Join(kinds, "|") != strings.Join(tc.want, "|") {
				t.Errorf("%s %v: reports %q, want %q\n%s", driver, tc.flags, kinds, tc.want, stderr)
			}
		}
	}
}

// TestVersion checks "origo version", in the form of "go version", and
// -V=full, which go vet asks a vet tool for.
func TestVersion(t *testing.T) {
	stdout, stderr, code := run(t, ".", "version")
	if want := "origo version "; code != exitClean || !strings.HasPrefix(stdout, want) || !strings.HasSuffix(stdout, " "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+"\n") {
		t.Errorf("origo version: exit %d, %q%s; want %q, the version, %s and the platform", code, stdout, stderr, want, runtime.Version())
	}
	stdout, _, code = run(t, ".", "-V=full")
	if code != exitClean || !strings.Contains(stdout, " version ") || !strings.Contains(stdout, "buildID=") {
		t.Errorf("origo -V=full: exit %d, %q; want a version line with a build ID", code, stdout)
	}
}

// TestStandaloneFix checks -fix and -fix -diff of the standalone command
// on a late WaitGroup.Add: the diff is go vet's hunk for the same fix,
// nothing is written by -diff, and -fix moves the Add; the fixed file
// then has nothing to report.
func TestStandaloneFix(t *testing.T) {
	t.Parallel()
	functional(t)
	dir := t.TempDir()
	const src = "package main\n\nimport \"sync\"\n\nfunc work() {}\n\nfunc main() {\n\tvar wg sync.WaitGroup\n\tgo func() {\n\t\twg.Add(1)\n\t\tdefer wg.Done()\n\t\twork()\n\t}()\n\twg.Wait()\n}\n"
	for name, text := range map[string]string{
		"go.mod":  "module example.com/fix\n\ngo 1.26\n",
		"main.go": src,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	diff, stderr, code := run(t, dir, "-fix", "-diff", ".")
	vetDiff, _, _ := runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-fix", "-diff", "."), dir)
	hunk := func(d string) string { _, h, _ := strings.Cut(d, "@@"); return h }
	if code != exitClean || stderr != "" || !strings.HasPrefix(diff, "--- main.go (old)\n+++ main.go (new)\n@@") || hunk(diff) == "" || hunk(diff) != hunk(vetDiff) {
		t.Errorf("origo -fix -diff: exit %d, stderr %q, diff:\n%s\ngo vet -fix -diff:\n%s", code, stderr, diff, vetDiff)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(data) != src {
		t.Errorf("-fix -diff changed main.go:\n%s", data)
	}
	if stdout, stderr, code := run(t, dir, "-fix", "."); code != exitClean || stdout+stderr != "" {
		t.Errorf("origo -fix: exit %d, output:\n%s%s\nwant 0 and nothing", code, stdout, stderr)
	}
	fixed, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil || !strings.Contains(string(fixed), "\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()") {
		t.Errorf("origo -fix did not move the Add (%v):\n%s", err, fixed)
	}
	if stdout, stderr, code := run(t, dir, "."); code != exitClean || stdout+stderr != "" {
		t.Errorf("after -fix: exit %d, output:\n%s%s\nwant nothing to report", code, stdout, stderr)
	}
}

// TestUnifiedDiff checks the diff of edits that touch two places of a
// file, far apart and near its end, which has no final newline.
func TestUnifiedDiff(t *testing.T) {
	var old strings.Builder
	for i := 1; i <= 20; i++ {
		old.WriteString("line " + string(rune('a'+i-1)) + "\n")
	}
	src := old.String() + "last"
	at := func(s string) int { return strings.Index(src, s) }
	edits := []edit{
		{start: at("line b\n"), end: at("line c\n"), new: ""},               // delete line 2
		{start: at("line k\n"), end: at("line k\n"), new: "new before k\n"}, // insert before line 11
		{start: at("last"), end: len(src), new: "final\n"},                  // replace the unterminated last line
	}
	got := unifiedDiff("f.go", src, edits)
	want := `--- f.go (old)
+++ f.go (new)
@@ -1,5 +1,4 @@
 line a
-line b
 line c
 line d
 line e
@@ -8,6 +7,7 @@
 line h
 line i
 line j
+new before k
 line k
 line l
 line m
@@ -18,4 +18,4 @@
 line r
 line s
 line t
-last
\ No newline at end of file
+final
`
	if got != want {
		t.Errorf("unifiedDiff:\n%s\nwant:\n%s", got, want)
	}
	wantSrc := strings.Replace(strings.Replace(strings.TrimSuffix(src, "last")+"final\n", "line b\n", "", 1), "line k\n", "new before k\nline k\n", 1)
	if applied := applyEdits(src, edits); applied != wantSrc {
		t.Errorf("applyEdits:\n%s\nwant:\n%s", applied, wantSrc)
	}
}

// TestSelectAnalyzers checks how the -NAME flags pick the analyzers, as
// go vet's: any true runs only those, else any false runs all but
// those; the debugging analyzer, which reports only under -dump, is
// always kept.
func TestSelectAnalyzers(t *testing.T) {
	for args, want := range map[string]string{
		"":                                  "factdump race deadlock blocking guardedby directive",
		"-race":                             "factdump race",
		"-race=true -deadlock":              "factdump race deadlock",
		"-race=false":                       "factdump deadlock blocking guardedby directive",
		"-race=false -deadlock=false":       "factdump blocking guardedby directive",
		"-race -deadlock=false":             "factdump race",
		"-blocking=false -blocking=true":    "factdump blocking",
		"-directive -guardedby -race=false": "factdump guardedby directive",
	} {
		fs := flag.NewFlagSet("origo", flag.ContinueOnError)
		choices := registerAnalyzerFlags(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		var names []string
		for _, a := range selectAnalyzers(choices) {
			names = append(names, a.Name)
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%q runs %s, want %s", args, got, want)
		}
	}
}

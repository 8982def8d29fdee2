package main

import (
	"errors"
	"go/format"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/origo-dev/origo/cmd/internal/longtest"
)

// TestGolangci builds golangci-lint with origo's plugin and checks that
// it reports the demo's data race and deadlock: origo-bench golangci. It
// downloads golangci-lint and its dependencies through the module proxy
// and builds it, about a minute here with a warm build cache.
func TestGolangci(t *testing.T) {
	longtest.Skip(t) // builds golangci-lint from the module proxy
	var out strings.Builder
	err := checkGolangci(&out, defaultGolangciVersion, "", 20*time.Second)
	if errors.Is(err, errNoProxy) {
		t.Skipf("golangci-lint %s cannot be had from the module proxy, nothing checked: %v", defaultGolangciVersion, err)
	}
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
}

func TestGolangciGoMod(t *testing.T) {
	got := golangciGoMod("v2.15.0", "/src/origo")
	for _, want := range []string{
		"\n\tgithub.com/golangci/golangci-lint/v2 v2.15.0\n",
		"\n\tgithub.com/origo-dev/origo v0.0.0-00010101000000-000000000000\n",
		"\nreplace github.com/origo-dev/origo => /src/origo\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, got)
		}
	}
}

func TestGolangciMain(t *testing.T) {
	src := golangciMain("v2.15.0")
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0)
	if err != nil {
		t.Fatalf("main.go does not parse: %v\n%s", err, src)
	}
	if formatted, err := format.Source([]byte(src)); err != nil || string(formatted) != src {
		t.Errorf("main.go is not gofmt'ed:\n%s", src)
	}
	if f.Name.Name != "main" {
		t.Errorf("package %s, want main", f.Name.Name)
	}
	blank := false
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path == pluginImport && imp.Name != nil && imp.Name.Name == "_" {
			blank = true
		}
	}
	if !blank {
		t.Errorf("main.go does not blank-import %s:\n%s", pluginImport, src)
	}
	for _, want := range []string{"commands.Execute(info)", `Version:   "(devel)"`} {
		if !strings.Contains(src, want) {
			t.Errorf("main.go lacks %q:\n%s", want, src)
		}
	}
}

func TestGolangciConfig(t *testing.T) {
	got := golangciConfig("/tmp/x/issues.json")
	for _, want := range []string{
		"version: \"2\"\n",
		"  default: none\n  enable:\n    - origo\n",
		"      origo:\n        type: module\n",
		"          analyzers: [race, deadlock, blocking, guardedby, directive]\n",
		"  relative-path-mode: wd\n",
		"    json:\n      path: \"/tmp/x/issues.json\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf(".golangci.yml lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\t") {
		t.Errorf(".golangci.yml has a tab, which YAML forbids in indentation:\n%s", got)
	}
}

func TestMissingFindings(t *testing.T) {
	report := `{"Issues":[
{"FromLinter":"origo","Text":"race: data race on Bank.processed: write at bank.go:59","Pos":{"Filename":"testdata/demo/bank.go","Line":59,"Column":5}},
{"FromLinter":"govet","Text":"deadlock: double lock: b.mu is held","Pos":{"Filename":"testdata/demo/bank.go","Line":92,"Column":97}},
{"FromLinter":"origo","Text":"deadlock: double lock: b.mu is held (locked at bank.go:89)","Pos":{"Filename":"testdata/demo/bank.go","Line":93,"Column":1}}
],"Report":{}}`
	missing, err := missingFindings([]byte(report), demoFindings)
	if err != nil {
		t.Fatal(err)
	}
	// The deadlock is reported by another linter, or on another line.
	want := "testdata/demo/bank.go:92: deadlock: double lock: b.mu is held"
	if len(missing) != 1 || missing[0] != want {
		t.Errorf("missing = %q, want [%q]", missing, want)
	}
	if _, err := missingFindings([]byte("0 issues."), demoFindings); err == nil {
		t.Error("a report that is not JSON gave no error")
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The golangci benchmark proves that origo works as a golangci-lint
// module plugin: it builds a golangci-lint binary with the plugin
// linked, as "golangci-lint custom" does, and checks that it reports the
// demo's two bugs. "golangci-lint custom" clones golangci-lint's
// repository, adds a blank import of each plugin to its main package and
// a replace directive for a plugin with a local path, and builds
// ./cmd/golangci-lint. Here golangci-lint is a module from the proxy
// instead of a clone: a scratch main module requires it, replaces origo
// by this repository, and its main.go imports the plugin and calls
// golangci-lint's command, as golangci-lint's own main does.

// defaultGolangciVersion is the golangci-lint release the plugin is
// proven against.
const defaultGolangciVersion = "v2.15.0"

const (
	golangciModule = "github.com/golangci/golangci-lint/v2"
	origoModule    = "github.com/origo-dev/origo"
	pluginImport   = origoModule + "/analyzers/golangci"
)

// exitNoProxy is origo-bench golangci's exit status when golangci-lint
// cannot be had from the module proxy: nothing was proven either way.
const exitNoProxy = 4

// errNoProxy marks the errors that say the module proxy is unreachable.
var errNoProxy = errors.New("module proxy unreachable")

// golangciFinding is a finding the demo must produce under golangci-lint:
// an issue of the linter origo at file:line whose text contains text.
type golangciFinding struct {
	file string
	line int
	text string
}

// demoFindings are the demo's data race and deadlock (see README.md).
var demoFindings = []golangciFinding{
	{"testdata/demo/bank.go", 59, "race: data race on Bank.processed"},
	{"testdata/demo/bank.go", 92, "deadlock: double lock: b.mu is held"},
}

// benchGolangci runs the check and turns an unreachable proxy into its
// own exit status, once the scratch directory is removed.
func benchGolangci(args []string) error {
	fs := flag.NewFlagSet("golangci", flag.ExitOnError)
	version := fs.String("version", defaultGolangciVersion, "the golangci-lint release to build")
	keep := fs.String("keep", "", "build in this directory and keep it for later runs")
	fs.Parse(args)
	if fs.NArg() > 0 {
		usage()
	}
	err := checkGolangci(os.Stdout, *version, *keep, 2*time.Minute)
	if errors.Is(err, errNoProxy) {
		fmt.Fprintf(os.Stderr, "origo-bench: %v\norigo-bench: nothing was checked (exit status %d)\n", err, exitNoProxy)
		os.Exit(exitNoProxy)
	}
	return err
}

// checkGolangci builds golangci-lint at version with origo's plugin in
// keep (or a temporary directory), runs it on the demo, and prints the
// commands, the findings and PASS or FAIL to w. The error is non-nil on
// FAIL; it wraps errNoProxy when golangci-lint cannot be downloaded
// within proxyTimeout.
func checkGolangci(w io.Writer, version, keep string, proxyTimeout time.Duration) (err error) {
	defer func() {
		if err != nil && !errors.Is(err, errNoProxy) {
			fmt.Fprintln(w, "FAIL")
		}
	}()
	start := time.Now()
	repo, err := origoRepo()
	if err != nil {
		return err
	}
	if err := golangciReachable(version, proxyTimeout); err != nil {
		return err
	}
	tmp, dir, err := scratch(keep, "golangci")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string]string{
		"go.mod":        golangciGoMod(version, repo),
		"main.go":       golangciMain(version),
		".golangci.yml": golangciConfig(filepath.Join(dir, "issues.json")),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	os.Remove(filepath.Join(dir, "go.sum")) // tidy writes it afresh
	fmt.Fprintf(w, "scratch module %s (go.mod, main.go, .golangci.yml written)\n", dir)

	// The scratch module builds on its own, whatever the environment
	// says of workspaces and vendoring.
	buildEnv := append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	bin := filepath.Join(dir, "golangci-lint-origo")
	for _, args := range [][]string{
		{"go", "mod", "tidy"},
		{"go", "build", "-o", bin, "."},
	} {
		if _, err := runLogged(w, dir, buildEnv, args...); err != nil {
			return err
		}
	}
	built := time.Since(start)
	fmt.Fprintf(w, "built in %.0fs\n", built.Seconds())

	// golangci-lint runs in the repository, where the demo is a package
	// of the origo module, with an empty cache of its own, so that it
	// analyzes everything, the dependencies' facts included.
	jsonPath := filepath.Join(dir, "issues.json")
	cache := filepath.Join(dir, "cache")
	os.Remove(jsonPath)
	if err := os.RemoveAll(cache); err != nil {
		return err
	}
	runEnv := append(os.Environ(), "GOLANGCI_LINT_CACHE="+cache)
	out, err := runLogged(w, repo, runEnv, bin, "run", "--config", filepath.Join(dir, ".golangci.yml"), "./testdata/demo/...")
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: issues found
		return err
	}
	fmt.Fprintf(w, "ran in %.0fs (build and run %.0fs)\n", time.Since(start.Add(built)).Seconds(), time.Since(start).Seconds())
	fmt.Fprintf(w, "findings:\n%s", out)
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return fmt.Errorf("golangci-lint wrote no JSON report: %v", err)
	}
	missing, err := missingFindings(data, demoFindings)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return fmt.Errorf("golangci-lint with origo's plugin did not report: %s", strings.Join(missing, "; "))
	}
	fmt.Fprintln(w, "PASS")
	return nil
}

// origoRepo returns the root of the origo repository that holds the
// current directory.
func origoRepo() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Dir}}").Output()
	path, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if err != nil || path != origoModule || dir == "" {
		return "", fmt.Errorf("run origo-bench golangci in the origo repository (go list -m: %q, %v)", out, err)
	}
	return dir, nil
}

// golangciReachable downloads golangci-lint's module at version, within
// timeout. An error wraps errNoProxy unless the proxy answered, that
// there is no such version.
func golangciReachable(version string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", golangciModule+"@"+version)
	cmd.Dir = os.TempDir() // outside any module
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: go mod download %s@%s took more than %v (GOPROXY=%s)", errNoProxy, golangciModule, version, timeout, goproxy())
	}
	var dl struct{ Error string }
	json.Unmarshal(out, &dl)
	msg := strings.TrimSpace(dl.Error)
	if msg == "" {
		if exit, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(exit.Stderr))
		}
	}
	for _, s := range []string{"server response:", "unknown revision", "invalid version", "404 Not Found", "410 Gone"} {
		if strings.Contains(msg, s) {
			return fmt.Errorf("go mod download %s@%s: %s", golangciModule, version, msg)
		}
	}
	return fmt.Errorf("%w: go mod download %s@%s: %s (GOPROXY=%s)", errNoProxy, golangciModule, version, msg, goproxy())
}

// goproxy returns the go command's GOPROXY, for the messages.
func goproxy() string {
	out, _ := exec.Command("go", "env", "GOPROXY").Output()
	return strings.TrimSpace(string(out))
}

// runLogged prints the command, runs it in dir with env, and returns its
// standard output; its standard error goes to w as well.
func runLogged(w io.Writer, dir string, env []string, args ...string) ([]byte, error) {
	fmt.Fprintf(w, "$ cd %s && %s\n", dir, strings.Join(args, " "))
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if stderr.Len() > 0 {
		w.Write(stderr.Bytes())
	}
	if err != nil {
		return out, fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

// golangciGoMod is the scratch module's go.mod: golangci-lint at
// version, and origo from the repository at repo.
func golangciGoMod(version, repo string) string {
	return fmt.Sprintf(`module origo-bench/golangci-lint

go 1.26

require (
	%s %s
	%s v0.0.0-00010101000000-000000000000
)

replace %s => %s
`, golangciModule, version, origoModule, origoModule, repo)
}

// golangciMain is the scratch module's main.go: golangci-lint's command
// with origo's plugin linked in, which registers itself when imported.
// The version is "(devel)", for which golangci-lint salts its cache
// keys with the binary's hash, not with the version: a binary with
// another origo must not take the results of this one from the cache.
// ("golangci-lint custom" hashes the plugins into the version instead.)
func golangciMain(version string) string {
	return fmt.Sprintf(`// Command golangci-lint-origo is golangci-lint %[1]s with origo's
// module plugin, built by origo-bench golangci.
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ %[2]q
)

func main() {
	info := commands.BuildInfo{
		GoVersion: runtime.Version(),
		Version:   "(devel)",
		Commit:    "(origo-bench, golangci-lint %[1]s)",
		Date:      "(unknown)",
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %%v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
`, version, pluginImport)
}

// golangciConfig is the .golangci.yml that enables origo alone, with
// its default settings spelled out, prints the issues as text on
// standard output and as JSON into jsonPath, and keeps them all.
func golangciConfig(jsonPath string) string {
	return fmt.Sprintf(`version: "2"
run:
  timeout: 10m
  relative-path-mode: wd
linters:
  default: none
  enable:
    - origo
  settings:
    custom:
      origo:
        type: module
        description: static data races, deadlocks and goroutine leaks
        settings:
          analyzers: [race, deadlock, blocking, guardedby, directive]
          generated: false
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
output:
  formats:
    text:
      path: stdout
      print-issued-lines: false
      colors: false
    json:
      path: %q
`, jsonPath)
}

// missingFindings returns the findings of want that golangci-lint's JSON
// report does not hold, as "file:line: text".
func missingFindings(report []byte, want []golangciFinding) ([]string, error) {
	var r struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
	}
	if err := json.Unmarshal(report, &r); err != nil {
		return nil, fmt.Errorf("golangci-lint's JSON report: %v", err)
	}
	var missing []string
	for _, f := range want {
		found := false
		for _, is := range r.Issues {
			if is.FromLinter == "origo" && filepath.ToSlash(is.Pos.Filename) == f.file && is.Pos.Line == f.line && strings.Contains(is.Text, f.text) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, fmt.Sprintf("%s:%d: %s", f.file, f.line, f.text))
		}
	}
	return missing, nil
}

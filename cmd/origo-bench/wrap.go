package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// In wrapper mode origo-bench is the vet tool that go vet runs: it runs
// the real tool (named by envTool), appends one measurement per package
// to the file named by envLog, and makes the tool's ID unique to the run
// (envNonce) so that go vet does not reuse earlier analysis results.
const (
	envTool  = "ORIGO_BENCH_TOOL"
	envLog   = "ORIGO_BENCH_LOG"
	envNonce = "ORIGO_BENCH_NONCE"
)

// unit is one package's measurement.
type unit struct {
	Package    string        `json:"package"`
	VetxOnly   bool          `json:"vetx_only"`
	Wall       time.Duration `json:"wall_ns"`
	MaxRSSKB   int64         `json:"max_rss_kb"`
	FactsBytes int64         `json:"facts_bytes"`
	ExitCode   int           `json:"exit"`
}

func wrap(args []string) int {
	tool := os.Getenv(envTool)
	if len(args) == 1 && args[0] == "-V=full" {
		out, err := exec.Command(tool, args...).Output()
		if err != nil {
			return 1
		}
		line := strings.TrimSpace(string(out))
		nonce := os.Getenv(envNonce)
		if strings.Contains(line, "devel") && strings.Contains(line, "buildID=") {
			line += nonce // the content ID ends the line
		} else {
			line += " " + nonce
		}
		os.Stdout.WriteString(line + "\n")
		return 0
	}
	cmd := exec.Command(tool, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	u := unit{Wall: time.Since(start)}
	if cmd.ProcessState != nil {
		u.ExitCode = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			u.MaxRSSKB = ru.Maxrss
		}
	} else if err != nil {
		return 1
	}
	if cfgFile := args[len(args)-1]; strings.HasSuffix(cfgFile, ".cfg") {
		var cfg struct {
			ImportPath string
			VetxOnly   bool
			VetxOutput string
		}
		if data, err := os.ReadFile(cfgFile); err == nil && json.Unmarshal(data, &cfg) == nil {
			u.Package, u.VetxOnly = cfg.ImportPath, cfg.VetxOnly
			if fi, err := os.Stat(cfg.VetxOutput); err == nil {
				u.FactsBytes = fi.Size()
			}
			logUnit(u)
		}
	}
	return u.ExitCode
}

func logUnit(u unit) {
	name := os.Getenv(envLog)
	if name == "" {
		return
	}
	data, _ := json.Marshal(u)
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(data, '\n')) // one write: lines of parallel tools do not interleave
}

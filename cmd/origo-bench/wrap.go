package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
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
	envProcs = "ORIGO_BENCH_GOMAXPROCS" // GOMAXPROCS for the tool alone, not for go vet
)

// unit is one package's measurement.
type unit struct {
	Package    string        `json:"package"`
	VetxOnly   bool          `json:"vetx_only"`
	Wall       time.Duration `json:"wall_ns"`
	MaxRSSKB   int64         `json:"max_rss_kb"`
	FactsBytes int64         `json:"facts_bytes"`
	TypesBytes int64         `json:"types_bytes"` // the type information in the same file (see vetxSizes)
	ExitCode   int           `json:"exit"`
	// For the corpus run: hashes of what the tool printed and of the
	// facts it wrote (not the type information), and its lines that tell
	// of trouble.
	OutHash   string   `json:"out_hash,omitempty"`
	FactsHash string   `json:"facts_hash,omitempty"`
	Trouble   []string `json:"trouble,omitempty"`
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
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, io.MultiWriter(os.Stdout, &stdout), io.MultiWriter(os.Stderr, &stderr)
	if procs := os.Getenv(envProcs); procs != "" {
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
	}
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
			ID         string // "p [p.test]" for a test variant
			ImportPath string
			VetxOnly   bool
			VetxOutput string
		}
		if data, err := os.ReadFile(cfgFile); err == nil && json.Unmarshal(data, &cfg) == nil {
			u.Package, u.VetxOnly = cmp.Or(cfg.ID, cfg.ImportPath), cfg.VetxOnly
			if data, err := os.ReadFile(cfg.VetxOutput); err == nil {
				u.FactsBytes, u.TypesBytes = vetxSizes(data)
				u.FactsHash = hash(data[u.TypesBytes+headerBytes(u.TypesBytes):])
			}
			u.OutHash = hash(stdout.Bytes()) + " " + hash(stderr.Bytes())
			u.Trouble = trouble(stdout.String() + stderr.String())
			logUnit(u)
		}
	}
	return u.ExitCode
}

// vetxSizes splits the bytes of a vet tool's output file into its facts
// and its type information. A unitchecker of recent x/tools
// writes "vetx", the two lengths, the package's export data, then the
// facts, so that importers need no compiler export data; go vet's own
// tool writes the facts alone. The facts are what the tool adds.
func vetxSizes(data []byte) (facts, types int64) {
	if len(data) >= 12 && string(data[:4]) == "vetx" {
		t, f := int64(binary.LittleEndian.Uint32(data[4:8])), int64(binary.LittleEndian.Uint32(data[8:12]))
		if 12+t+f == int64(len(data)) {
			return f, t
		}
	}
	return int64(len(data)), 0
}

// headerBytes is the length of the header of a vet tool's output file
// that holds types bytes of type information (see vetxSizes).
func headerBytes(types int64) int64 {
	if types > 0 {
		return 12
	}
	return 0
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

// hash is a short digest of data, for comparing two runs.
func hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// trouble returns the lines of a tool's output that tell of a panic, an
// internal error or a package skipped past a bound.
func trouble(out string) []string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") ||
			strings.Contains(line, "origo: internal error in") || strings.Contains(line, " skipped package ") {
			lines = append(lines, line)
		}
	}
	return lines
}

package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// origo's results live in Go's build cache: go vet stores each package's
// analysis (its facts, its diagnostics) under an action ID, as it stores
// compiled packages. A team shares that cache through GOCACHEPROG, a
// program the go command asks for each object before doing the work. The
// cache program here keeps its objects in a directory, standing for the
// team's shared store (a network disk, an object store behind a real
// program); the shared cache benchmark shows a second machine's empty
// cache filled from it, at warm speed.

// cacheRequest and cacheResponse are the messages of the GOCACHEPROG
// protocol (cmd/go/internal/cacheprog), one JSON object per line.
type cacheRequest struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type cacheResponse struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// cacheEntry is what the store keeps under an action ID.
type cacheEntry struct {
	OutputID []byte
	Size     int64
	Time     time.Time
}

// cacheProg serves the GOCACHEPROG protocol on standard input and output
// from the store in the directory -dir.
func cacheProg(args []string) error {
	fs := flag.NewFlagSet("cacheprog", flag.ExitOnError)
	dir := fs.String("dir", "", "the directory of the shared store")
	fs.Parse(args)
	if *dir == "" {
		return errors.New("cacheprog: no -dir")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	return serveCache(&diskStore{*dir}, os.Stdin, os.Stdout)
}

// serveCache answers the go command's requests from in on out, one at a
// time, until it says close or in ends.
func serveCache(store *diskStore, in io.Reader, out io.Writer) error {
	dec := json.NewDecoder(bufio.NewReader(in))
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	if err := enc.Encode(cacheResponse{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for {
		var req cacheRequest
		if err := dec.Decode(&req); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		resp := cacheResponse{ID: req.ID}
		switch req.Command {
		case "get":
			e, path, ok := store.get(req.ActionID)
			if !ok {
				resp.Miss = true
				break
			}
			resp.OutputID, resp.Size, resp.Time, resp.DiskPath = e.OutputID, e.Size, &e.Time, path
		case "put":
			var body []byte // a base64 JSON string on the next line
			if req.BodySize > 0 {
				if err := dec.Decode(&body); err != nil {
					return err
				}
			}
			path, err := store.put(req.ActionID, req.OutputID, body)
			if err != nil {
				resp.Err = err.Error()
			}
			resp.DiskPath = path
		case "close":
			if err := enc.Encode(resp); err != nil {
				return err
			}
			return w.Flush()
		default:
			resp.Err = "unknown command " + req.Command
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// diskStore keeps each entry in a file named by its action ID and each
// body in a file named by its output ID.
type diskStore struct{ dir string }

func (s *diskStore) get(action []byte) (cacheEntry, string, bool) {
	var e cacheEntry
	data, err := os.ReadFile(filepath.Join(s.dir, hex.EncodeToString(action)+"-a"))
	if err != nil || json.Unmarshal(data, &e) != nil {
		return e, "", false
	}
	path := filepath.Join(s.dir, hex.EncodeToString(e.OutputID)+"-d")
	if fi, err := os.Stat(path); err != nil || fi.Size() != e.Size {
		return e, "", false
	}
	return e, path, true
}

func (s *diskStore) put(action, output, body []byte) (string, error) {
	path := filepath.Join(s.dir, hex.EncodeToString(output)+"-d")
	if err := writeAtomic(path, body); err != nil {
		return "", err
	}
	entry, err := json.Marshal(cacheEntry{OutputID: output, Size: int64(len(body)), Time: time.Now()})
	if err != nil {
		return "", err
	}
	return path, writeAtomic(filepath.Join(s.dir, hex.EncodeToString(action)+"-a"), entry)
}

// writeAtomic writes a file that readers see whole or not at all: two go
// commands may share the store.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// benchSharedCache runs go vet with origo on the packages twice, each
// time from an empty GOCACHE backed by one shared store through
// GOCACHEPROG (this program's cacheprog), and compares the second run
// with a fully warm run in the ordinary build cache.
func benchSharedCache(args []string) error {
	fs := flag.NewFlagSet("sharedcache", flag.ExitOnError)
	origo := fs.String("origo", "", "the origo binary (default: built from this repository)")
	dir := fs.String("C", ".", "run go vet in this directory")
	fs.Parse(args)
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	self, tmp, _, err := vetSetup("", "", origo)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	store := filepath.Join(tmp, "shared")
	prog := self + " cacheprog -dir " + store
	if strings.Contains(self+store, " ") {
		return fmt.Errorf("sharedcache: a path with a space (%s): GOCACHEPROG splits on spaces", prog)
	}
	vet := func(env ...string) (time.Duration, error) {
		wall, out := timedRun(goVetCmd(*dir, *origo, patterns, env...))
		if crashed(out) || strings.Contains(out, "GOCACHEPROG") {
			return wall, fmt.Errorf("go vet failed:\n%s", lastLines(out, 40))
		}
		return wall, nil
	}
	if _, err := vet(); err != nil { // the ordinary cache, warmed
		return err
	}
	warm, err := vet()
	if err != nil {
		return err
	}
	first, err := vet("GOCACHE="+filepath.Join(tmp, "cache1"), "GOCACHEPROG="+prog)
	if err != nil {
		return err
	}
	second, err := vet("GOCACHE="+filepath.Join(tmp, "cache2"), "GOCACHEPROG="+prog)
	if err != nil {
		return err
	}
	objects, _ := filepath.Glob(filepath.Join(store, "*-d"))
	fmt.Printf("go vet -vettool=origo %s in %s\n\n", strings.Join(patterns, " "), *dir)
	fmt.Printf("%-58s %10s %8s\n", "run", "wall", "ratio")
	fmt.Printf("%-58s %10s %7.2fx\n", "fully warm, in the ordinary build cache (reference)", round(warm), 1.0)
	fmt.Printf("%-58s %10s %7.2fx\n", "empty GOCACHE, empty shared store (compiles, analyses)", round(first), float64(first)/float64(warm))
	fmt.Printf("%-58s %10s %7.2fx\n", "second empty GOCACHE, the store the first run filled", round(second), float64(second)/float64(warm))
	fmt.Printf("\nthe shared store holds %d objects\n", len(objects))
	return nil
}

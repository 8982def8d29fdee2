package facts

import (
	"bytes"
	"compress/flate"
	"encoding/gob"
	"io"
	"sync"
)

// The package facts (Effects, Locks, PointerSummaries, OriginsTable) are
// gob-encoded, then deflated: their string tables repeat long file paths in every
// position ("/home/u/go/pkg/mod/.../x.pb.go:120:9"), and a module's
// generated packages have thousands of them. go vet keeps every fact
// file in the build cache and each importer reads its imports' facts,
// so bytes are disk and time: the best compression, which costs little
// next to the analysis (grpc's facts 8% smaller than at BestSpeed, no
// measurable time). flate's output is the same for the same input, so
// facts stay byte-identical across runs.

// The flate writers and readers are reused: a writer at the best
// compression holds a megabyte of tables, and the checker that
// analysistest runs (its SanityCheck) encodes and decodes every package
// fact of every dependency again for each importer, so that allocating
// them made the garbage collector most of an analysistest run. A reset
// writer writes what a new one would.
var (
	writers = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flate.BestCompression) // the level is valid
		return w
	}}
	readers sync.Pool // of flate readers, which implement flate.Resetter
)

// pack gob-encodes v and deflates the result.
func pack(v any) ([]byte, error) {
	var buf bytes.Buffer
	w := writers.Get().(*flate.Writer)
	defer writers.Put(w)
	w.Reset(&buf)
	if err := gob.NewEncoder(w).Encode(v); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unpack inflates data and gob-decodes it into v.
func unpack(data []byte, v any) error {
	src := bytes.NewReader(data)
	r, _ := readers.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if err := r.(flate.Resetter).Reset(src, nil); err != nil {
		return err
	}
	defer readers.Put(r)
	if err := gob.NewDecoder(r).Decode(v); err != nil {
		return err
	}
	_, err := io.Copy(io.Discard, r)
	return err
}

// The wire forms: the same fields without the methods, so that gob
// encodes their fields rather than calling GobEncode again.
type (
	effectsWire   Effects
	locksWire     Locks
	summariesWire PointerSummaries
	originsWire   OriginsTable
)

// GobEncode implements gob.GobEncoder: a deflated gob of e's fields.
func (e *Effects) GobEncode() ([]byte, error) { return pack((*effectsWire)(e)) }

// GobDecode implements gob.GobDecoder.
func (e *Effects) GobDecode(data []byte) error { return unpack(data, (*effectsWire)(e)) }

// GobEncode implements gob.GobEncoder: a deflated gob of l's fields.
func (l *Locks) GobEncode() ([]byte, error) { return pack((*locksWire)(l)) }

// GobDecode implements gob.GobDecoder.
func (l *Locks) GobDecode(data []byte) error { return unpack(data, (*locksWire)(l)) }

// GobEncode implements gob.GobEncoder: a deflated gob of s's fields.
func (s *PointerSummaries) GobEncode() ([]byte, error) { return pack((*summariesWire)(s)) }

// GobDecode implements gob.GobDecoder.
func (s *PointerSummaries) GobDecode(data []byte) error { return unpack(data, (*summariesWire)(s)) }

// GobEncode implements gob.GobEncoder: a deflated gob of t's fields.
func (t *OriginsTable) GobEncode() ([]byte, error) { return pack((*originsWire)(t)) }

// GobDecode implements gob.GobDecoder.
func (t *OriginsTable) GobDecode(data []byte) error { return unpack(data, (*originsWire)(t)) }

package facts

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
)

// The package facts (Effects, Locks, PointerSummaries, OriginsTable) are
// written in their binary form (see wire.go), then deflated: their
// string tables repeat long file paths in every
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
// writer writes what a new one would. The buffers that facts are
// inflated into are reused too: decoding copies what it keeps.
var (
	writers = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flate.BestCompression) // the level is valid
		return w
	}}
	readers  sync.Pool // of flate readers, which implement flate.Resetter
	inflated = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

// pack writes the fact of version v, whose fields body encodes, and
// deflates it.
func pack(v uint16, body func(*encoder)) ([]byte, error) {
	raw := encodeFact(v, body)
	var buf bytes.Buffer
	w := writers.Get().(*flate.Writer)
	defer writers.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unpack inflates data and decodes it into *v and, at this Version, the
// fields by body.
func unpack(data []byte, v *uint16, body func(*decoder)) error {
	src := bytes.NewReader(data)
	r, _ := readers.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if err := r.(flate.Resetter).Reset(src, nil); err != nil {
		return err
	}
	defer readers.Put(r)
	raw := inflated.Get().(*bytes.Buffer)
	defer inflated.Put(raw)
	raw.Reset()
	if _, err := raw.ReadFrom(r); err != nil {
		return err
	}
	return decodeFact(raw.Bytes(), v, body)
}

// GobEncode implements gob.GobEncoder: e's binary form, deflated.
func (e *Effects) GobEncode() ([]byte, error) { return pack(e.V, e.encode) }

// GobDecode implements gob.GobDecoder.
func (e *Effects) GobDecode(data []byte) error { return unpack(data, &e.V, e.decode) }

// GobEncode implements gob.GobEncoder: l's binary form, deflated.
func (l *Locks) GobEncode() ([]byte, error) { return pack(l.V, l.encode) }

// GobDecode implements gob.GobDecoder.
func (l *Locks) GobDecode(data []byte) error { return unpack(data, &l.V, l.decode) }

// GobEncode implements gob.GobEncoder: s's binary form, deflated.
func (s *PointerSummaries) GobEncode() ([]byte, error) { return pack(s.V, s.encode) }

// GobDecode implements gob.GobDecoder.
func (s *PointerSummaries) GobDecode(data []byte) error { return unpack(data, &s.V, s.decode) }

// GobEncode implements gob.GobEncoder: t's binary form, deflated.
func (t *OriginsTable) GobEncode() ([]byte, error) { return pack(t.V, t.encode) }

// GobDecode implements gob.GobDecoder.
func (t *OriginsTable) GobDecode(data []byte) error { return unpack(data, &t.V, t.decode) }

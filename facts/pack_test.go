package facts

import (
	"bytes"
	"compress/flate"
	"encoding/gob"
	"reflect"
	"testing"
)

// TestPackReusesWriters checks that a fact packed by a reused writer,
// after other facts, is the bytes that a new writer gives (they key the
// caches of every reverse dependency), and that a reused reader unpacks
// it.
func TestPackReusesWriters(t *testing.T) {
	locks := &Locks{V: Version, Strings: []string{"", "(*example.com/c.T).Inc", "p0|.0"}, Funcs: []FuncLocks{{Name: 1, Acquires: []HeldLock{{Key: 2}}}}}
	other := &Effects{V: Version, Strings: []string{"", "example.com/c.F", "/a/long/path/to/c.go:9:4"}}
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if err := gob.NewEncoder(w).Encode((*locksWire)(locks)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := other.GobEncode(); err != nil {
			t.Fatal(err)
		}
		got, err := locks.GobEncode()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("packing %d: %d bytes, a new writer's %d; want the same bytes", i, len(got), buf.Len())
		}
		if err := new(Effects).GobDecode(mustPack(t, other)); err != nil {
			t.Fatal(err)
		}
		var back Locks
		if err := back.GobDecode(got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, locks) {
			t.Errorf("unpacking %d: %+v, want %+v", i, back, *locks)
		}
	}
}

func mustPack(t *testing.T, e *Effects) []byte {
	t.Helper()
	data, err := e.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

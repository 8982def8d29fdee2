package facts

import (
	"bytes"
	"compress/flate"
	"fmt"
	"math/rand/v2"
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
	if _, err := w.Write(encodeFact(locks.V, locks.encode)); err != nil {
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

// packed is a package fact in its wire form.
type packed interface {
	GobEncode() ([]byte, error)
	GobDecode([]byte) error
}

// packedFacts returns a new value of each package fact type.
func packedFacts() []packed {
	return []packed{new(Effects), new(Locks), new(PointerSummaries), new(OriginsTable)}
}

// TestWireCoversEveryField fills every field of each package fact, at
// every depth, with values that are not zero, and checks that the fact
// decodes from its wire form equal to itself, and encodes again to the
// same bytes: a field the wire form leaves out comes back zero.
func TestWireCoversEveryField(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range packedFacts() {
		for round := range 50 {
			fill(reflect.ValueOf(f).Elem(), rng, 0)
			reflect.ValueOf(f).Elem().FieldByName("V").SetUint(uint64(Version))
			data, err := f.GobEncode()
			if err != nil {
				t.Fatal(err)
			}
			back := reflect.New(reflect.TypeOf(f).Elem()).Interface().(packed)
			if err := back.GobDecode(data); err != nil {
				t.Fatalf("%T, round %d: %v", f, round, err)
			}
			if !reflect.DeepEqual(back, f) {
				t.Fatalf("%T, round %d: decoded\n%+v\nwant\n%+v", f, round, back, f)
			}
			again, err := back.GobEncode()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Fatalf("%T, round %d: encoding the decoded fact gives other bytes", f, round)
			}
		}
	}
}

// fill sets v to random values, no field zero but for some of the
// integers; slices have one to three elements, fewer deeper down.
func fill(v reflect.Value, rng *rand.Rand, depth int) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), rng, depth+1)
		}
	case reflect.Slice:
		n := 1 + rng.IntN(max(1, 4-depth))
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(s.Index(i), rng, depth+1)
		}
		v.Set(s)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d/%x", rng.IntN(100), rng.Uint64()))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1 + rng.Uint64()>>(64-8*v.Type().Size()+1))
		if rng.IntN(4) == 0 { // the largest value too
			v.SetUint(1<<(8*v.Type().Size()) - 1)
		}
	case reflect.Int32:
		v.SetInt(int64(int32(rng.Uint32())))
	default:
		panic(fmt.Sprintf("fill: no values for %s: add the kind here and to the wire form", v.Type()))
	}
}

// TestWireOtherVersion checks that a fact written by another format
// version decodes as invalid, without an error, whatever its fields,
// and that data without the wire form's magic does too.
func TestWireOtherVersion(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range packedFacts() {
		fill(reflect.ValueOf(f).Elem(), rng, 0)
		reflect.ValueOf(f).Elem().FieldByName("V").SetUint(uint64(Version - 1))
		data, err := f.GobEncode()
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(reflect.TypeOf(f).Elem())
		if err := back.Interface().(packed).GobDecode(data); err != nil {
			t.Fatalf("%T of version %d: %v", f, Version-1, err)
		}
		if v := back.Elem().FieldByName("V").Uint(); v != uint64(Version-1) {
			t.Errorf("%T of version %d: decoded V %d", f, Version-1, v)
		}
		if back.MethodByName("Valid").Call(nil)[0].Bool() {
			t.Errorf("%T of version %d: valid", f, Version-1)
		}
	}
	var old bytes.Buffer
	w, _ := flate.NewWriter(&old, flate.BestCompression)
	w.Write([]byte("\x1c\xff\x81\x03\x01\x01\x07Effects")) // the start of a gob, as facts were written before
	w.Close()
	var e Effects
	if err := e.GobDecode(old.Bytes()); err != nil || e.Valid() {
		t.Errorf("data of another format: error %v, valid %v; want neither", err, e.Valid())
	}
}

// TestWireCorrupt checks that every truncation of a fact, and a fact
// with bytes after its end, is an error, not a panic or a fact.
func TestWireCorrupt(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, f := range packedFacts() {
		fill(reflect.ValueOf(f).Elem(), rng, 0)
		reflect.ValueOf(f).Elem().FieldByName("V").SetUint(uint64(Version))
		raw := encodeFact(Version, f.(interface{ encode(*encoder) }).encode)
		dec := reflect.New(reflect.TypeOf(f).Elem()).Interface().(interface{ decode(*decoder) })
		var v uint16
		for n := len(wireMagic) + 1; n < len(raw); n++ {
			if err := decodeFact(raw[:n], &v, dec.decode); err == nil {
				t.Fatalf("%T cut at %d of %d bytes: no error", f, n, len(raw))
			}
		}
		if err := decodeFact(append(raw, 0), &v, dec.decode); err == nil {
			t.Errorf("%T with a byte after its end: no error", f)
		}
	}
}

package facts

import (
	"encoding/binary"
	"errors"
	"math"
)

// The package facts are written in a binary form of their own, field by
// field in declaration order, not by gob: gob sends the descriptors of a
// fact's types with every fact, and the decoder compiles an engine for
// them anew each time, for every import of every package (a third of
// the decoding on client_golang), then fills the fields by reflection.
//
// The form: the magic, then the fact's V as an unsigned varint, then,
// when V is this Version, its fields. Unsigned integers are unsigned
// varints, signed ones (int32) zig-zag varints, kinds one byte, the
// booleans of a struct one byte of flags; a slice is its length then its
// elements, a string its length then its bytes, and a string table the
// lengths of all its strings, then all their bytes, which the decoder
// makes one string of. A fact of another version keeps its V and no
// fields, which Valid rejects; data without the magic decodes as a fact
// of no version. A field added to a fact type must be added here
// (TestWireCoversEveryField fails otherwise), and Version bumped.

const wireMagic = "ofw"

var errCorrupt = errors.New("origo facts: corrupt data")

// An encoder appends a fact's fields to b.
type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int32)   { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *encoder) byte(v uint8)  { e.b = append(e.b, v) }

// flags writes up to eight booleans as one byte, the first in bit 0.
func (e *encoder) flags(bs ...bool) {
	var f byte
	for i, b := range bs {
		if b {
			f |= 1 << i
		}
	}
	e.b = append(e.b, f)
}

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// strs writes a string table: the count, each length, then the bytes.
func (e *encoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.uint(uint64(len(s)))
	}
	for _, s := range ss {
		e.b = append(e.b, s...)
	}
}

func encodeSlice[T any](e *encoder, s []T, elem func(*encoder, *T)) {
	e.uint(uint64(len(s)))
	for i := range s {
		elem(e, &s[i])
	}
}

// A decoder reads a fact's fields from b. After the first error every
// read returns zero and err stays set.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() {
	d.err, d.b = errCorrupt, nil
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) u64() uint64 { return d.uint() }

func (d *decoder) u32() uint32 {
	v := d.uint()
	if v > math.MaxUint32 {
		d.fail()
		return 0
	}
	return uint32(v)
}

func (d *decoder) u16() uint16 {
	v := d.uint()
	if v > math.MaxUint16 {
		d.fail()
		return 0
	}
	return uint16(v)
}

func (d *decoder) int() int32 {
	v, n := binary.Varint(d.b)
	if n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return int32(v)
}

func (d *decoder) byte() uint8 {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// flags reads a byte of n booleans; other bits set are corrupt data.
func (d *decoder) flags(n int) byte {
	f := d.byte()
	if f>>n != 0 {
		d.fail()
		return 0
	}
	return f
}

// count reads the length of a slice, each of whose elements takes a
// byte at least: a count beyond the data left is corrupt, not an
// allocation to make.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.count()
	if n == 0 {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// strs reads a string table: its strings share one allocation.
func (d *decoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	lens := d.b // the lengths, read twice: for the total, then for the strings
	total := uint64(0)
	for range n {
		total += uint64(d.count()) // each no longer than the data: no overflow
	}
	if d.err != nil || total > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	all := string(d.b[:total])
	d.b = d.b[total:]
	ss := make([]string, n)
	at := 0
	for i := range ss {
		l, k := binary.Uvarint(lens)
		lens = lens[k:]
		ss[i] = all[at : at+int(l)]
		at += int(l)
	}
	return ss
}

// decodeSlice reads a slice; an empty one is nil, as gob made it.
func decodeSlice[T any](d *decoder, elem func(*decoder, *T)) []T {
	n := d.count()
	if n == 0 {
		return nil
	}
	s := make([]T, n)
	for i := range s {
		elem(d, &s[i])
	}
	return s
}

// encodeFact writes the magic, v, and the fields by body.
func encodeFact(v uint16, body func(*encoder)) []byte {
	e := encoder{b: make([]byte, 0, 512)}
	e.b = append(e.b, wireMagic...)
	e.uint(uint64(v))
	body(&e)
	return e.b
}

// decodeFact reads what encodeFact wrote into *v and, when *v is
// Version, the fields by body.
func decodeFact(data []byte, v *uint16, body func(*decoder)) error {
	if len(data) < len(wireMagic) || string(data[:len(wireMagic)]) != wireMagic {
		*v = 0 // another format: no version of this one
		return nil
	}
	d := decoder{b: data[len(wireMagic):]}
	*v = d.u16()
	if d.err != nil || *v != Version {
		return d.err
	}
	body(&d)
	if d.err == nil && len(d.b) > 0 {
		d.fail()
	}
	return d.err
}

// The fields of each type, in declaration order.

func encHeldLock(e *encoder, l *HeldLock) {
	e.uint(uint64(l.Key))
	e.flags(l.Read, l.Once)
	e.uint(uint64(l.Pos))
	encodeSlice(e, l.When, func(e *encoder, p *ParamIs) { e.uint(uint64(*p)) })
}

func decHeldLock(d *decoder, l *HeldLock) {
	l.Key = d.u32()
	f := d.flags(2)
	l.Read, l.Once = f&1 != 0, f&2 != 0
	l.Pos = d.u32()
	l.When = decodeSlice(d, func(d *decoder, p *ParamIs) { *p = ParamIs(d.u32()) })
}

func (x *Effects) encode(e *encoder) {
	e.strs(x.Strings)
	encodeSlice(e, x.Funcs, func(e *encoder, f *FuncEffects) {
		e.uint(uint64(f.Name))
		encodeSlice(e, f.Accesses, func(e *encoder, a *MemAccess) {
			e.uint(uint64(a.Key))
			e.uint(uint64(a.Pos))
			e.flags(a.Write, a.Whole, a.Atomic)
			encodeSlice(e, a.Locks, encHeldLock)
		})
		encodeSlice(e, f.Syncs, func(e *encoder, s *SyncOp) {
			e.byte(uint8(s.Kind))
			e.uint(uint64(s.Key))
			e.uint(uint64(s.Pos))
			e.uint(uint64(s.After))
		})
		e.uint(f.Contained)
		e.uint(f.SkipsDone)
		e.uint(f.Async)
	})
}

func (x *Effects) decode(d *decoder) {
	x.Strings = d.strs()
	x.Funcs = decodeSlice(d, func(d *decoder, f *FuncEffects) {
		f.Name = d.u32()
		f.Accesses = decodeSlice(d, func(d *decoder, a *MemAccess) {
			a.Key = d.u32()
			a.Pos = d.u32()
			fl := d.flags(3)
			a.Write, a.Whole, a.Atomic = fl&1 != 0, fl&2 != 0, fl&4 != 0
			a.Locks = decodeSlice(d, decHeldLock)
		})
		f.Syncs = decodeSlice(d, func(d *decoder, s *SyncOp) {
			s.Kind = SyncKind(d.byte())
			s.Key = d.u32()
			s.Pos = d.u32()
			s.After = d.u32()
		})
		f.Contained = d.u64()
		f.SkipsDone = d.u64()
		f.Async = d.u64()
	})
}

func (x *Locks) encode(e *encoder) {
	e.strs(x.Strings)
	encodeSlice(e, x.Funcs, func(e *encoder, f *FuncLocks) {
		e.uint(uint64(f.Name))
		encodeSlice(e, f.Acquires, encHeldLock)
		encodeSlice(e, f.Releases, encHeldLock)
		encodeSlice(e, f.Unlocks, encHeldLock)
		encodeSlice(e, f.Takes, encHeldLock)
		encodeSlice(e, f.Leaves, encHeldLock)
		encodeSlice(e, f.Callbacks, func(e *encoder, c *CallbackLock) {
			e.uint(uint64(c.Param))
			encHeldLock(e, &c.Lock)
		})
	})
}

func (x *Locks) decode(d *decoder) {
	x.Strings = d.strs()
	x.Funcs = decodeSlice(d, func(d *decoder, f *FuncLocks) {
		f.Name = d.u32()
		f.Acquires = decodeSlice(d, decHeldLock)
		f.Releases = decodeSlice(d, decHeldLock)
		f.Unlocks = decodeSlice(d, decHeldLock)
		f.Takes = decodeSlice(d, decHeldLock)
		f.Leaves = decodeSlice(d, decHeldLock)
		f.Callbacks = decodeSlice(d, func(d *decoder, c *CallbackLock) {
			c.Param = d.u16()
			decHeldLock(d, &c.Lock)
		})
	})
}

func encSumEdge(e *encoder, s *SumEdge) {
	e.int(s.From)
	e.uint(uint64(s.FromOff))
	e.int(s.To)
	e.uint(uint64(s.ToOff))
}

func decSumEdge(d *decoder, s *SumEdge) {
	s.From = d.int()
	s.FromOff = d.u32()
	s.To = d.int()
	s.ToOff = d.u32()
}

func (x *PointerSummaries) encode(e *encoder) {
	e.strs(x.Strings)
	encodeSlice(e, x.Funcs, func(e *encoder, f *FuncSummary) {
		e.uint(uint64(f.Name))
		encodeSlice(e, f.Objects, func(e *encoder, o *SumObject) {
			e.byte(uint8(o.Kind))
			e.uint(uint64(o.Param))
			e.uint(uint64(o.Leaf))
			e.int(o.Parent)
			e.uint(uint64(o.Size))
			e.uint(uint64(o.Type))
			e.uint(uint64(o.Site))
			e.uint(uint64(o.Func))
			e.uint(uint64(o.Dyn))
		})
		encodeSlice(e, f.Edges, encSumEdge)
		encodeSlice(e, f.Results, encSumEdge)
		e.flags(f.Truncated)
	})
}

func (x *PointerSummaries) decode(d *decoder) {
	x.Strings = d.strs()
	x.Funcs = decodeSlice(d, func(d *decoder, f *FuncSummary) {
		f.Name = d.u32()
		f.Objects = decodeSlice(d, func(d *decoder, o *SumObject) {
			o.Kind = SumObjectKind(d.byte())
			o.Param = d.u16()
			o.Leaf = d.u32()
			o.Parent = d.int()
			o.Size = d.u32()
			o.Type = d.u32()
			o.Site = d.u32()
			o.Func = d.u32()
			o.Dyn = d.u32()
		})
		f.Edges = decodeSlice(d, decSumEdge)
		f.Results = decodeSlice(d, decSumEdge)
		f.Truncated = d.flags(1) != 0
	})
}

func (x *OriginsTable) encode(e *encoder) {
	encodeSlice(e, x.Funcs, func(e *encoder, f *NamedOrigins) {
		e.str(f.Name)
		o := &f.Origins
		e.uint(uint64(o.V))
		e.strs(o.Strings)
		encodeSlice(e, o.Sites, func(e *encoder, s *Site) {
			e.byte(uint8(s.Kind))
			e.byte(uint8(s.Flags))
			e.uint(uint64(s.Target))
			e.uint(uint64(s.File))
			e.uint(uint64(s.Line))
			e.uint(uint64(s.Col))
			e.int(s.Parent)
		})
		e.uint(uint64(o.Dropped))
	})
}

func (x *OriginsTable) decode(d *decoder) {
	x.Funcs = decodeSlice(d, func(d *decoder, f *NamedOrigins) {
		f.Name = d.str()
		o := &f.Origins
		o.V = d.u16()
		o.Strings = d.strs()
		o.Sites = decodeSlice(d, func(d *decoder, s *Site) {
			s.Kind = SpawnKind(d.byte())
			s.Flags = SiteFlags(d.byte())
			s.Target = d.u32()
			s.File = d.u32()
			s.Line = d.u32()
			s.Col = d.u32()
			s.Parent = d.int()
		})
		o.Dropped = d.u32()
	})
}

package callgraph

import "encoding/binary"

// This file reads the protobuf wire format for the decoder, field by
// field, as google/pprof's profile/proto.go does.

// pb reads a protobuf message field by field, as pprof's decodeField does.
type pb struct {
	b []byte
	i int // the next byte
}

// more reports whether fields are left.
func (p *pb) more() bool { return p.i < len(p.b) }

// varint reads a varint as pprof does (at most 10 bytes, bits past the
// 64th dropped); false at a malformed one.
func (p *pb) varint() (uint64, bool) {
	if i := p.i; i < len(p.b) {
		if c := p.b[i]; c < 0x80 {
			p.i = i + 1
			return uint64(c), true
		}
	}
	return p.varintSlow()
}

// varintSlow is varint without its shortcut for one-byte varints.
func (p *pb) varintSlow() (uint64, bool) {
	var u uint64
	for k := 0; ; k++ {
		if k >= 10 || p.i+k >= len(p.b) {
			return 0, false
		}
		c := p.b[p.i+k]
		u |= uint64(c&0x7F) << uint(7*k)
		if c&0x80 == 0 {
			p.i += k + 1
			return u, true
		}
	}
}

// field reads the next field: its number and wire type, and its value
// (wire types 0, 1 and 5) or bytes (wire type 2); false at a malformed
// field or an unknown wire type.
func (p *pb) field() (num uint64, typ int, u uint64, data []byte, ok bool) {
	// varint's one-byte case by hand: varint does not inline.
	var x uint64
	if i := p.i; i < len(p.b) && p.b[i] < 0x80 {
		x, ok = uint64(p.b[i]), true
		p.i = i + 1
	} else if x, ok = p.varintSlow(); !ok {
		return 0, 0, 0, nil, false
	}
	num, typ = x>>3, int(x&7)
	switch typ {
	case 0:
		if i := p.i; i < len(p.b) && p.b[i] < 0x80 {
			u = uint64(p.b[i])
			p.i = i + 1
		} else {
			u, ok = p.varintSlow()
		}
	case 1:
		if len(p.b)-p.i < 8 {
			return 0, 0, 0, nil, false
		}
		u = binary.LittleEndian.Uint64(p.b[p.i:])
		p.i += 8
	case 2:
		n, ok := p.varint()
		if !ok || n > uint64(len(p.b)-p.i) {
			return 0, 0, 0, nil, false
		}
		data = p.b[p.i : p.i+int(n) : p.i+int(n)]
		p.i += int(n)
	case 5:
		if len(p.b)-p.i < 4 {
			return 0, 0, 0, nil, false
		}
		u = uint64(binary.LittleEndian.Uint32(p.b[p.i:]))
		p.i += 4
	default:
		return 0, 0, 0, nil, false
	}
	return num, typ, u, data, ok
}

// varints calls add for each value of a repeated varint field of wire type
// typ: every varint of data for a packed one (wire type 2), else u (wire
// type 0); false for another wire type, a malformed varint or when add
// returns false.
func varints(typ int, u uint64, data []byte, add func(uint64) bool) bool {
	switch typ {
	case 0:
		return add(u)
	case 2:
		for p := (pb{b: data}); p.more(); {
			v, ok := p.varint()
			if !ok || !add(v) {
				return false
			}
		}
		return true
	}
	return false
}

// scalars decodes a message whose fields 1 to len(dst) are varints into
// dst (last value wins), skipping other fields.
func scalars(b []byte, dst []uint64) bool {
	for p := (pb{b: b}); p.more(); {
		num, typ, u, _, ok := p.field()
		if !ok {
			return false
		}
		if num-1 < uint64(len(dst)) { // 1 ≤ num ≤ len(dst)
			if typ != 0 {
				return false
			}
			dst[num-1] = u
		}
	}
	return true
}

package encoding

import (
	"fmt"
	"math"
	"math/bits"
)

// MarshalValues appends the XOR compression of vs to dst and returns the
// extended buffer. The scheme is the one from Facebook's Gorilla paper:
// the first value is stored verbatim, later values as the XOR with their
// predecessor, where runs of leading and trailing zero bits are elided.
// Slowly changing gauges typically need 1–2 bytes per value.
func MarshalValues(dst []byte, vs []float64) []byte {
	if len(vs) == 0 {
		return dst
	}
	w := bitWriter{buf: dst}
	prev := math.Float64bits(vs[0])
	w.writeBits(prev, 64)
	prevLeading, prevTrailing := -1, 0
	for _, v := range vs[1:] {
		cur := math.Float64bits(v)
		xor := cur ^ prev
		prev = cur
		if xor == 0 {
			w.writeBit(false)
			continue
		}
		w.writeBit(true)
		leading := min(bits.LeadingZeros64(xor), 31)
		trailing := bits.TrailingZeros64(xor)
		if prevLeading >= 0 && leading >= prevLeading && trailing >= prevTrailing {
			// The meaningful bits fit in the previous window: reuse it.
			w.writeBit(false)
			w.writeBits(xor>>uint(prevTrailing), 64-prevLeading-prevTrailing)
			continue
		}
		sig := 64 - leading - trailing
		w.writeBit(true)
		w.writeBits(uint64(leading), 5)
		w.writeBits(uint64(sig&63), 6) // 64 significant bits are written as 0
		w.writeBits(xor>>uint(trailing), sig)
		prevLeading, prevTrailing = leading, trailing
	}
	return w.buf
}

// UnmarshalValues decodes n values written by [MarshalValues] from src and
// appends them to dst. It fails with [ErrShortBuffer] if src holds fewer
// than n values.
func UnmarshalValues(dst []float64, src []byte, n int) ([]float64, error) {
	if n == 0 {
		return dst, nil
	}
	r := bitReader{buf: src}
	prev, err := r.readBits(64)
	if err != nil {
		return dst, fmt.Errorf("decoding value 0 of %d: %w", n, err)
	}
	dst = append(dst, math.Float64frombits(prev))
	leading, trailing := 0, 0
	for i := 1; i < n; i++ {
		changed, err := r.readBit()
		if err != nil {
			return dst, fmt.Errorf("decoding value %d of %d: %w", i, n, err)
		}
		if changed {
			newWindow, err := r.readBit()
			if err != nil {
				return dst, fmt.Errorf("decoding value %d of %d: %w", i, n, err)
			}
			if newWindow {
				l, err1 := r.readBits(5)
				s, err2 := r.readBits(6)
				if err := errors2(err1, err2); err != nil {
					return dst, fmt.Errorf("decoding value %d of %d: %w", i, n, err)
				}
				if s == 0 {
					s = 64
				}
				leading, trailing = int(l), 64-int(l)-int(s)
			}
			x, err := r.readBits(64 - leading - trailing)
			if err != nil {
				return dst, fmt.Errorf("decoding value %d of %d: %w", i, n, err)
			}
			prev ^= x << uint(trailing)
		}
		dst = append(dst, math.Float64frombits(prev))
	}
	return dst, nil
}

func errors2(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// bitWriter appends bits, most significant first, to buf.
type bitWriter struct {
	buf  []byte
	free uint // unused low bits in the last byte of buf
}

func (w *bitWriter) writeBit(bit bool) {
	if w.free == 0 {
		w.buf = append(w.buf, 0)
		w.free = 8
	}
	w.free--
	if bit {
		w.buf[len(w.buf)-1] |= 1 << w.free
	}
}

// writeBits writes the low nbits bits of v.
func (w *bitWriter) writeBits(v uint64, nbits int) {
	for nbits > 0 {
		if w.free == 0 {
			w.buf = append(w.buf, 0)
			w.free = 8
		}
		k := min(nbits, int(w.free))
		chunk := (v >> uint(nbits-k)) & (1<<uint(k) - 1)
		w.buf[len(w.buf)-1] |= byte(chunk << (w.free - uint(k)))
		w.free -= uint(k)
		nbits -= k
	}
}

// bitReader reads bits written by bitWriter.
type bitReader struct {
	buf []byte
	pos int // next bit to read
}

func (r *bitReader) readBit() (bool, error) {
	i := r.pos >> 3
	if i >= len(r.buf) {
		return false, ErrShortBuffer
	}
	bit := r.buf[i]>>(7-uint(r.pos&7))&1 == 1
	r.pos++
	return bit, nil
}

func (r *bitReader) readBits(nbits int) (uint64, error) {
	var v uint64
	for nbits > 0 {
		i := r.pos >> 3
		if i >= len(r.buf) {
			return 0, ErrShortBuffer
		}
		avail := 8 - r.pos&7
		k := min(nbits, avail)
		chunk := (uint64(r.buf[i]) >> uint(avail-k)) & (1<<uint(k) - 1)
		v = v<<uint(k) | chunk
		r.pos += k
		nbits -= k
	}
	return v, nil
}

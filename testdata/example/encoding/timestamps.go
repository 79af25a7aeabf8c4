// Package encoding implements the formats tinytsdb reads and writes:
// delta-of-delta varint compression for timestamps, XOR ("Gorilla")
// compression for float64 values, and the line protocol accepted by the
// /write endpoint.
//
// All Marshal functions append to a caller-supplied buffer and return the
// extended buffer, so hot paths can reuse memory.
package encoding

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrShortBuffer is returned when compressed data ends before the expected
// number of items has been decoded.
var ErrShortBuffer = errors.New("encoding: short buffer")

// MarshalTimestamps appends the delta-of-delta encoding of ts to dst and
// returns the extended buffer.
//
// The first timestamp is stored as a zig-zag varint, the second as the delta
// from the first, and every later one as the difference between two
// consecutive deltas. Regularly spaced timestamps therefore cost one byte
// each. ts need not be sorted, but sorted input compresses much better.
func MarshalTimestamps(dst []byte, ts []int64) []byte {
	if len(ts) == 0 {
		return dst
	}
	dst = binary.AppendVarint(dst, ts[0])
	if len(ts) == 1 {
		return dst
	}
	prevDelta := ts[1] - ts[0]
	dst = binary.AppendVarint(dst, prevDelta)
	for i := 2; i < len(ts); i++ {
		d := ts[i] - ts[i-1]
		dst = binary.AppendVarint(dst, d-prevDelta)
		prevDelta = d
	}
	return dst
}

// UnmarshalTimestamps decodes n timestamps written by [MarshalTimestamps]
// from src and appends them to dst. It fails with [ErrShortBuffer] if src
// holds fewer than n timestamps.
func UnmarshalTimestamps(dst []int64, src []byte, n int) ([]int64, error) {
	if n == 0 {
		return dst, nil
	}
	next := func() (int64, error) {
		v, k := binary.Varint(src)
		if k <= 0 {
			return 0, fmt.Errorf("decoding timestamp %d of %d: %w", len(dst), n, ErrShortBuffer)
		}
		src = src[k:]
		return v, nil
	}
	first, err := next()
	if err != nil {
		return dst, err
	}
	dst = append(dst, first)
	if n == 1 {
		return dst, nil
	}
	delta, err := next()
	if err != nil {
		return dst, err
	}
	prev := first + delta
	dst = append(dst, prev)
	for i := 2; i < n; i++ {
		dd, err := next()
		if err != nil {
			return dst, err
		}
		delta += dd
		prev += delta
		dst = append(dst, prev)
	}
	return dst, nil
}

package callgraph

import (
	"strings"

	"github.com/google/pprof/profile"
)

// This file holds the decoder's checks of a profile's tables, those
// profile.ParseData makes besides the samples', and the indexes of
// functions and locations by id they build.

// checkTable checks what profile.ParseData checks besides the samples:
// every string index in range, ids non-zero and unique, every line's
// function in the Function table. It indexes functions and locations by
// id and returns the sample types and the default sample type.
func (d *decoder) checkTable() ([]*profile.ValueType, string, bool) {
	n := int64(len(d.strs))
	in := func(i int64) bool { return i >= 0 && i < n }
	for _, i := range d.refs {
		if !in(i) {
			return nil, "", false
		}
	}
	for _, i := range [...]int64{d.dropFrames, d.keepFrames, d.periodType, d.periodUnit, d.defaultType, d.docURL} {
		if !in(i) {
			return nil, "", false
		}
	}
	types := make([]*profile.ValueType, len(d.types))
	for i, vt := range d.types {
		if !in(vt.typ) || !in(vt.unit) {
			return nil, "", false
		}
		types[i] = &profile.ValueType{Type: strings.Clone(d.str(vt.typ)), Unit: strings.Clone(d.str(vt.unit))}
	}
	for _, fn := range d.funcs {
		if !in(fn.name) || !in(fn.sys) {
			return nil, "", false
		}
	}
	if !d.unique(len(d.mapIDs), func(i int) uint64 { return d.mapIDs[i] }, nil) ||
		!d.unique(len(d.funcs), func(i int) uint64 { return d.funcs[i].id }, &d.funcIdx) ||
		!d.unique(len(d.locs), func(i int) uint64 { return d.locs[i].id }, &d.locIdx) {
		return nil, "", false
	}
	for _, id := range d.lines {
		if id == 0 || d.funcIdx.get(id) == 0 {
			return nil, "", false
		}
	}
	return types, d.str(d.defaultType), true
}

// unique reports whether the n ids that id returns are non-zero and
// distinct, and indexes them in idx (position + 1) when it is not nil.
func (d *decoder) unique(n int, id func(int) uint64, idx *idIndex) bool {
	var x idIndex
	if idx != nil {
		x = *idx
		defer func() { *idx = x }()
	}
	dense := true
	for i := range n {
		if v := id(i); v == 0 {
			return false
		} else if v > uint64(n) {
			dense = false
		}
	}
	if dense {
		// ids in 1..n: distinct when each is seen once.
		d.seen = resize(d.seen, n+1)
		for i := range n {
			v := id(i)
			if d.seen[v] {
				return false
			}
			d.seen[v] = true
		}
		if idx != nil {
			x.m = nil
			x.dense = resize(x.dense, n+1)
			for i := range n {
				x.dense[id(i)] = int32(i + 1)
			}
		}
		return true
	}
	m := x.m
	if m == nil {
		m = make(map[uint64]int32, n)
	} else {
		clear(m)
	}
	for i := range n {
		v := id(i)
		if _, dup := m[v]; dup {
			return false
		}
		m[v] = int32(i + 1)
	}
	if idx != nil {
		x.m = m
		x.dense = x.dense[:0]
	}
	return true
}

// idIndex maps ids to positions + 1 (0: absent): a slice when the ids are
// 1..n, else a map.
type idIndex struct {
	dense []int32
	m     map[uint64]int32
}

func (x *idIndex) get(id uint64) int32 {
	if x.m != nil {
		return x.m[id]
	}
	if id < uint64(len(x.dense)) {
		return x.dense[id]
	}
	return 0
}

// resize returns s with length n, every element zero.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Package index is a sorted in-memory index whose benchmarks spend most of
// their time building it: each builds a large index before b.ResetTimer,
// then times a cheap operation (a fixture of mbopt's collection
// benchmarks: go test repeats that setup at every b.N it tries).
package index

import (
	"math/rand/v2"
	"slices"
)

// An Index maps keys to values and keeps the keys sorted.
type Index struct {
	keys   []uint64
	values map[uint64]uint32
}

// Build returns an index of n pseudo-random keys, the same for every n.
func Build(n int) *Index {
	r := rand.New(rand.NewPCG(1, 2))
	idx := &Index{keys: make([]uint64, n), values: make(map[uint64]uint32, n)}
	for i := range idx.keys {
		k := r.Uint64()
		idx.keys[i] = k
		idx.values[k] = uint32(i)
	}
	slices.Sort(idx.keys)
	return idx
}

// Len returns the number of keys.
func (x *Index) Len() int { return len(x.keys) }

// Min returns the smallest key.
func (x *Index) Min() uint64 { return x.keys[0] }

// At returns the i-th smallest key.
func (x *Index) At(i int) uint64 { return x.keys[i%len(x.keys)] }

// Lookup returns the value of key k.
func (x *Index) Lookup(k uint64) (uint32, bool) {
	v, ok := x.values[k]
	return v, ok
}

// Rank returns the number of keys below k.
func (x *Index) Rank(k uint64) int {
	i, _ := slices.BinarySearch(x.keys, k)
	return i
}

// Check reports whether the keys are sorted and every key has a value.
func (x *Index) Check() bool {
	if !slices.IsSorted(x.keys) {
		return false
	}
	for _, k := range x.keys {
		if _, ok := x.values[k]; !ok {
			return false
		}
	}
	return true
}

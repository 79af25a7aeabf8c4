// Package bitset provides a fixed-size set of small non-negative integers,
// the representation mbopt uses for coverage sets over application node ids.
//
// A [Set] is a plain slice of 64-bit words; the zero value is an empty set of
// capacity zero. Binary operations panic if the two sets were made for
// different universes (different word counts): that is a programming error.
package bitset

import (
	"fmt"
	"math/bits"
)

// Set is a set of integers in [0, n) for the n it was made with.
type Set []uint64

// New returns an empty set for the universe [0, n).
func New(n int) Set {
	if n < 0 {
		panic(fmt.Sprintf("bitset: negative size %d", n))
	}
	return make(Set, (n+63)/64)
}

// Add puts i in s.
func (s Set) Add(i int) { s[i>>6] |= 1 << uint(i&63) }

// Remove takes i out of s.
func (s Set) Remove(i int) { s[i>>6] &^= 1 << uint(i&63) }

// Has reports whether i is in s.
func (s Set) Has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }

// Len returns the number of elements of s.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Clone returns a copy of s.
func (s Set) Clone() Set { return append(Set(nil), s...) }

func check(a, b Set) {
	if len(a) != len(b) {
		panic(fmt.Sprintf("bitset: sets of different sizes (%d and %d words)", len(a), len(b)))
	}
}

// Or adds every element of t to s.
func (s Set) Or(t Set) {
	check(s, t)
	for i, w := range t {
		s[i] |= w
	}
}

// And keeps in s only the elements also in t.
func (s Set) And(t Set) {
	check(s, t)
	for i, w := range t {
		s[i] &= w
	}
}

// AndNot removes from s every element of t.
func (s Set) AndNot(t Set) {
	check(s, t)
	for i, w := range t {
		s[i] &^= w
	}
}

// IntersectionLen returns |s ∩ t| without allocating.
func (s Set) IntersectionLen(t Set) int {
	check(s, t)
	n := 0
	for i, w := range t {
		n += bits.OnesCount64(s[i] & w)
	}
	return n
}

// AndNotLen returns |s ∩ m \ t|: the elements of s that are in mask m and not
// in t, without allocating. It is the gain of a greedy set-cover step.
func (s Set) AndNotLen(m, t Set) int {
	check(s, m)
	check(s, t)
	n := 0
	for i, w := range s {
		n += bits.OnesCount64(w & m[i] &^ t[i])
	}
	return n
}

// Each calls f for every element of s in increasing order.
func (s Set) Each(f func(i int)) {
	for wi, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(wi<<6 + b)
			w &= w - 1
		}
	}
}

// Elems returns the elements of s in increasing order.
func (s Set) Elems() []int {
	out := make([]int, 0, s.Len())
	s.Each(func(i int) { out = append(out, i) })
	return out
}

// Package store has one function of each shape whose name coverage and CPU
// profiles must agree on: methods, generic functions and methods, closures
// (nested, deferred, in a generic function, in a package-level variable),
// init functions, a range-over-func loop and a closure that inlining copies.
package store

import (
	"iter"
	"sort"
)

// DB is a map with methods.
type DB struct{ m map[string]int }

// New returns an empty DB.
func New() *DB { return &DB{m: map[string]int{}} }

// Put sets k.
func (d *DB) Put(k string, v int) { d.m[k] = v }

// Get returns k's value.
func (d *DB) Get(k string) int { return d.m[k] }

// Pair has a value-receiver method.
type Pair struct{ A, B int }

// Sum adds the pair.
func (p Pair) Sum() int { return p.A + p.B }

// Tree is a generic sorted slice.
type Tree[T any] struct{ items []T }

// Insert adds v and sorts with a closure.
func (t *Tree[T]) Insert(v T, less func(a, b T) bool) {
	t.items = append(t.items, v)
	sort.Slice(t.items, func(i, j int) bool { return less(t.items[i], t.items[j]) })
}

// Len is never called.
func (t *Tree[T]) Len() int { return len(t.items) }

// Map applies f to every element, with a closure of its own.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	push := func(u U) { out = append(out, u) }
	for _, x := range xs {
		push(f(x))
	}
	return out
}

// Scale is a package-level closure.
var Scale = func(x int) int { return x * 2 }

// Twice is a second package-level closure, never called.
var Twice = func(x int) int { return x * 2 }

var ready int

func init() { ready++ }

func init() { ready += 2 }

// Outer has nested and deferred closures.
func Outer(xs []int) (n int) {
	for _, x := range xs {
		func() {
			n += Scale(x)
			func() { n++ }()
		}()
	}
	defer func() { n-- }()
	if n < 0 {
		func() { n = 0 }() // never runs
	}
	return n
}

// Seq yields 0..n-1.
func Seq(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// Ranged sums with a range-over-func loop.
func Ranged(n int) int {
	total := 0
	for i := range Seq(n) {
		total += i
	}
	return total
}

// small returns a closure; inlined into UseSmall, the closure is copied
// there and named UseSmall.small.func1.
func small(k int) func() int { return func() int { return k + 1 } }

var sink func() int

// UseSmall calls the closure small returns.
func UseSmall() int { sink = small(3); return sink() }

// Unused is never called.
func Unused() int { return ready }

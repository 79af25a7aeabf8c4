// Command names is a fixture of package staticcg: every kind of function
// whose profile name the static call graph must reproduce (methods, generic
// functions and types, closures nested and in range-over-func bodies,
// method values, init functions, a package-level closure). TestNames
// compares the names against the symbols of the compiled binary.
package main

import (
	"example.com/names/lib.v2"
	"fmt"
	"iter"
	"os"
	"sort"
)

type T struct{ n int }

func (t T) Val() int  { return t.n }
func (t *T) Ptr() int { return t.n + 1 }

type Tree[K any] struct{ k []K }

func (t *Tree[K]) Insert(k K) { t.k = append(t.k, k); func() { fmt.Fprint(os.Stderr, "") }() }

func Map[K, V any](xs []K, f func(K) V) []V {
	var out []V
	for _, x := range xs {
		out = append(out, f(x))
	}
	g := func() int { return len(out) }
	_ = g()
	return out
}

var glob = func() int { return 3 }

func seq() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range 3 {
			if !yield(i) {
				return
			}
		}
	}
}

func init() { fmt.Fprint(os.Stderr, "") }
func init() { fmt.Fprint(os.Stderr, "") }

func work(x int) { fmt.Fprint(os.Stderr, x) }

func F() int {
	a := func() int {
		b := func() int { return 2 }
		return b() + 1
	}
	s := []int{3, 1, 2}
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	total := 0
	for v := range seq() {
		total += v
		c := func() int { return v }
		total += c()
	}
	done := make(chan bool)
	go work(total)
	go func() { done <- true }()
	defer work(1)
	defer func() { work(2) }()
	<-done
	t := T{1}
	fv := t.Val
	fp := (&t).Ptr
	me := T.Val
	return a() + fv() + fp() + me(t) + glob()
}

func main() {
	F()
	tr := &Tree[int]{}
	tr.Insert(1)
	ts := &Tree[string]{}
	ts.Insert("a")
	fmt.Fprint(os.Stderr, Map([]int{1}, func(i int) string { return fmt.Sprint(i) }))
	var i interface{ Val() int } = &T{}
	i.Val()
	useMore()
	var set lib.Set[string]
	set.Add("x")
	fmt.Println(lib.Sorted([]int{2, 1}))
}

package main

import "fmt"

type Outer struct{ Inner }
type Inner struct{}

func (Inner) Hello() string { return "hi" }

type V[T any] struct{ x T }

func (v V[T]) Get() T { return v.x }

func Nested() int {
	n := 0
	for i := range seq() {
		for j := range seq() {
			n += i * j
			f := func() int { return j }
			n += f()
		}
	}
	g := func() int {
		s := 0
		for k := range seq() {
			s += k
			h := func() int { return k }
			s += h()
		}
		return s
	}
	return n + g()
}

func useMore() {
	var h interface{ Hello() string } = &Outer{}
	fmt.Println(h.Hello(), Nested(), V[int]{1}.Get())
	gv := V[string]{"a"}.Get
	fmt.Println(gv())
}

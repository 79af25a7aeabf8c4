package bitset

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSetOperations(t *testing.T) {
	a := New(130)
	for _, i := range []int{0, 1, 63, 64, 129} {
		a.Add(i)
	}
	b := New(130)
	for _, i := range []int{1, 64, 100} {
		b.Add(i)
	}
	m := New(130)
	for _, i := range []int{0, 1, 63, 100, 129} {
		m.Add(i)
	}

	assert.Equal(t, 5, a.Len())
	assert.True(t, a.Has(129))
	assert.False(t, a.Has(128))
	assert.Equal(t, 2, a.IntersectionLen(b))
	// a ∩ m \ b = {0, 63, 129}
	assert.Equal(t, 3, a.AndNotLen(m, b))
	assert.Equal(t, []int{0, 1, 63, 64, 129}, a.Elems())

	c := a.Clone()
	c.AndNot(b)
	assert.Equal(t, []int{0, 63, 129}, c.Elems())
	assert.Equal(t, 5, a.Len(), "Clone must not share storage")

	c.Or(b)
	assert.Equal(t, []int{0, 1, 63, 64, 100, 129}, c.Elems())
	c.And(m)
	assert.Equal(t, []int{0, 1, 63, 100, 129}, c.Elems())
	c.Remove(63)
	assert.Equal(t, []int{0, 1, 100, 129}, c.Elems())
}

func TestSizeMismatchPanics(t *testing.T) {
	assert.PanicsWithValue(t, "bitset: sets of different sizes (1 and 2 words)", func() {
		New(10).Or(New(100))
	})
}

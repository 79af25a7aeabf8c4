package bitset_test

import (
	"fmt"

	"github.com/mbopt/mbopt/internal/bitset"
)

// Coverage sets are bitsets over application node ids: the nodes a pick
// newly covers are its set minus what is covered already.
func ExampleSet() {
	covered := bitset.New(10)
	for _, id := range []int{1, 2, 3} {
		covered.Add(id)
	}
	pick := bitset.New(10)
	for _, id := range []int{2, 3, 7, 9} {
		pick.Add(id)
	}
	added := pick.Clone()
	added.AndNot(covered)
	fmt.Println("adds", added.Elems(), "=", added.Len(), "nodes; shared", pick.IntersectionLen(covered))
	covered.Or(pick)
	fmt.Println("covered now", covered.Elems(), covered.Has(7))
	// Output:
	// adds [7 9] = 2 nodes; shared 2
	// covered now [1 2 3 7 9] true
}

package covdata_test

import (
	"fmt"

	"github.com/mbopt/mbopt/covdata"
)

// A Set from a coverage run answers for the names a CPU profile of the
// same code gives, closures copied by inlining and compiler wrappers
// included.
func ExampleSet_Contains() {
	s := &covdata.Set{
		Packages: []string{"example.com/m/store"},
		Funcs: []covdata.Func{
			{Name: "example.com/m/store.(*Tree[...]).Insert", File: "example.com/m/store/tree.go", Line: 12},
			{Name: "example.com/m/store.small.func1", File: "example.com/m/store/small.go", Line: 4},
		},
	}
	for _, name := range []string{
		"example.com/m/store.(*Tree[...]).Insert",
		"example.com/m/store.(*Tree[...]).Insert.deferwrap1",
		"example.com/m/store.UseSmall.small.func1",
		"example.com/m/store.(*Tree[...]).Len",
		"runtime.mallocgc",
	} {
		fmt.Println(s.Contains(name), name)
	}
	// Output:
	// true example.com/m/store.(*Tree[...]).Insert
	// true example.com/m/store.(*Tree[...]).Insert.deferwrap1
	// true example.com/m/store.UseSmall.small.func1
	// false example.com/m/store.(*Tree[...]).Len
	// false runtime.mallocgc
}

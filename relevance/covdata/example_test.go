package covdata_test

import (
	"fmt"

	"github.com/mbopt/mbopt/relevance/covdata"
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

// ReadCounters decodes a coverage data directory in process: here
// testdata/mod's benchmark, run twice into one directory with
// -covermode=count, so every count is the sum of the two runs. The
// meta-data names units by the function as the cover tool sees it: the
// method (*Tree[T]).Insert and the closure inside it are both "Insert"
// (the closure's unit has Literal set); Load names them exactly.
func ExampleReadCounters() {
	c, err := covdata.ReadCounters("testdata/covdirs/count")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Mode, len(c.Units), "units")
	for _, u := range c.Units[4:7] {
		fmt.Printf("%s %s:%d.%d ran %d times\n", u.Func, u.File, u.StartLine, u.StartCol, u.Count)
	}
	// Output:
	// count 37 units
	// Insert example.com/m/store/store.go:34.55 ran 100 times
	// Insert example.com/m/store/store.go:36.42 ran 11594 times
	// Len example.com/m/store/store.go:40.29 ran 0 times
}

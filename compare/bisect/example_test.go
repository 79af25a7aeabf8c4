package bisect_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/mbopt/mbopt/compare/bisect"
)

// Run checks its options before it measures anything.
func ExampleRun() {
	_, err := bisect.Run(context.Background(), bisect.Options{Good: "v1.0.0", Bad: "HEAD"})
	fmt.Println(err)
	fmt.Println(errors.Is(err, bisect.ErrNotLocated))
	// Output:
	// bisect needs the benchmark (--bench) and the good and bad revisions (--good, --bad)
	// false
}

// Command spells the bisection of a change that a history detector found.
func ExampleCommand() {
	fmt.Println(bisect.Command("example.com/db/query.BenchmarkQuery/sum", "cpu-sec/op", "0f98b1f7ed", "e74ec615d6"))
	fmt.Println(bisect.Command("example.com/db/query.BenchmarkQuery/it's", "sec/op", "v1.0.0", "main"))
	fmt.Printf("%q\n", bisect.Command("example.com/db/query.BenchmarkQuery", "B/op", "v1.0.0", "main"))
	// Output:
	// mbopt bisect --bench BenchmarkQuery/sum --good 0f98b1f7ed --bad e74ec615d6 --metric cpu example.com/db/query
	// mbopt bisect --bench 'BenchmarkQuery/it'\''s' --good v1.0.0 --bad main --metric time example.com/db/query
	// ""
}

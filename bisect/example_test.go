package bisect_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/mbopt/mbopt/bisect"
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

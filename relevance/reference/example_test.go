package reference_test

import (
	"context"
	"fmt"
	"io"
	"log"

	"github.com/mbopt/mbopt/relevance/reference"
)

// ProfileURL turns the address of a program serving net/http/pprof into
// the URL of a CPU profile of the given length.
func ExampleProfileURL() {
	for _, target := range []string{
		"http://127.0.0.1:6060",
		"http://127.0.0.1:6060/debug/pprof/profile",
		"http://127.0.0.1:6060/debug/pprof/profile?seconds=5",
	} {
		u, err := reference.ProfileURL(target, 30)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u)
	}
	// Output:
	// http://127.0.0.1:6060/debug/pprof/profile?seconds=30
	// http://127.0.0.1:6060/debug/pprof/profile?seconds=30
	// http://127.0.0.1:6060/debug/pprof/profile?seconds=5
}

// Cover runs an application workload with coverage instrumentation and
// returns the functions it ran: exactly, where a CPU profile samples. The
// workload here is a local main package, which Cover builds with -cover;
// its own functions (main.main) are left out of the set.
func ExampleCover() {
	set, err := reference.Cover(context.Background(), reference.CoverOptions{
		Args:   []string{"./cmd/app"},
		Dir:    "testdata/covapp",
		Output: io.Discard,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(set.Packages)
	for _, f := range set.Funcs {
		fmt.Println(f.Name)
	}
	fmt.Println(reference.CoverProfile("app.cover.json"))
	// Output:
	// [example.com/covapp/calc]
	// example.com/covapp/calc.Sum
	// app.cover.pprof
}

// Check refuses a cover run with neither a workload nor coverage data, and
// WantsProfile says whether the workload also writes the CPU profile.
func ExampleCoverOptions_Check() {
	fmt.Println(reference.CoverOptions{}.Check())
	o := reference.CoverOptions{Args: []string{"./cmd/load", "-cpuprofile", reference.Placeholder}}
	fmt.Println(o.Check(), o.WantsProfile())
	// Output:
	// cover-app needs the workload after --, e.g. mbopt cover-app -- ./cmd/load -duration 10s, or Config.CoverDir DIR
	// <nil> true
}

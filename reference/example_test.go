package reference_test

import (
	"fmt"
	"log"

	"github.com/mbopt/mbopt/reference"
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

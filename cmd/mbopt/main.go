// Command mbopt measures how relevant a Go microbenchmark suite is to an
// application workload, picks the smallest sub-suite with the same coverage
// and recommends what to benchmark next. See the README for a manual.
package main

import (
	"os"
)

func main() {
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

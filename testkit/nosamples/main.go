// Command nosamples writes testdata/profiles/bad/no-samples.pprof: a valid
// gzipped CPU profile that holds zero samples, because profiling is stopped
// right after it starts. It is test support: testdata/example/collect-profiles.sh
// runs it, and nothing in mbopt imports it.
//
// Usage, from the repository root:
//
//	go run ./testkit/nosamples testdata/profiles/bad/no-samples.pprof
package main

import (
	"log"
	"os"
	"runtime/pprof"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: go run ./testkit/nosamples OUTPUT")
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

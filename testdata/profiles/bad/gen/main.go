//go:build ignore

// Command gen writes no-samples.pprof: a valid gzipped CPU profile that
// holds zero samples, because profiling is stopped right after it starts.
//
// Usage (from testdata/profiles/bad): go run gen/main.go no-samples.pprof
package main

import (
	"log"
	"os"
	"runtime/pprof"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: go run gen/main.go OUTPUT")
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

// Command indexapp is the application of the heavysetup fixture: it builds
// an index once and then looks keys up in it, with a CPU profile.
package main

import (
	"flag"
	"log"
	"os"
	"runtime/pprof"
	"time"

	"example.com/heavysetup/index"
)

func main() {
	duration := flag.Duration("duration", 2*time.Second, "how long to look keys up")
	profile := flag.String("cpuprofile", "", "write a CPU profile to this `file`")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	idx := index.Build(1 << 18)
	if !idx.Check() {
		log.Fatal("index not sorted")
	}
	var sum uint64
	for start := time.Now(); time.Since(start) < *duration; {
		for i := range 1 << 16 {
			k := idx.At(i * 7)
			v, _ := idx.Lookup(k)
			sum += uint64(v) + uint64(idx.Rank(k)) + idx.Min() + uint64(idx.Len())
		}
	}
	if sum == 0 {
		log.Fatal("nothing looked up")
	}
}

// Command app runs the application of package app for a while, with a CPU
// profile: the application workload of the timed fixture. It calls the
// three functions itself, so that nothing of the module (package main is
// not) sits above them in the profile.
package main

import (
	"flag"
	"log"
	"os"
	"runtime/pprof"
	"time"

	"example.com/timed/app"
)

func main() {
	duration := flag.Duration("duration", 3*time.Second, "how long to run")
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
	for start := time.Now(); time.Since(start) < *duration; {
		data := app.SetupOnly(1 << 16)
		var sum uint32
		for range 4 {
			sum += app.Hot(data)
		}
		if !app.ValidateOnly(data, sum) {
			log.Fatal("a check failed")
		}
	}
}

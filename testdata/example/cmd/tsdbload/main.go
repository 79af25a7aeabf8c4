// Command tsdbload is a second application workload for tinytsdb: a driver
// that embeds the library directly, its code in package load (see there)
// rather than in package main, as real projects' benchmark commands often
// are. mbopt's tests use its profile (testdata/profiles/driver/app.pprof)
// to show that a driver inside the module is recommended by the paper's
// Algorithm 3 and how --targets callable and --exclude deal with it.
//
// Usage:
//
//	tsdbload [-duration 5s] [-rounds N] [-workers 4] [-seed 1] [-cpuprofile FILE]
package main

import (
	"flag"
	"log"
	"os"
	"runtime/pprof"
	"time"

	"example.com/tinytsdb/cmd/tsdbload/load"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("tsdbload: ")
	cfg := load.Config{}
	flag.DurationVar(&cfg.Duration, "duration", 5*time.Second, "how long to drive the workload")
	flag.IntVar(&cfg.Rounds, "rounds", 1000000, "rounds per worker at most")
	flag.IntVar(&cfg.Workers, "workers", 4, "concurrent workers")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `file`")
	flag.Parse()
	if cfg.Workers < 1 || cfg.Duration <= 0 || cfg.Rounds < 1 {
		log.Print("-workers, -duration and -rounds must be positive")
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	st, err := load.Command(cfg)()
	if err != nil {
		log.Print(err)
		os.Exit(1)
	}
	log.Printf("%d rows, %d queries, %d reports", st.Rows, st.Queries, st.Reports)
}

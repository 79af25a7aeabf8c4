// Command corpus writes the synthetic corpus of 'make bench'
// (synth.CorpusConfig: a 20,000-function application profile and 1,000
// benchmark profiles, about 50 MB) under the temporary directory, once, and
// prints the directory holding app.pprof and micro/, so that anyone can
// rerun the figures:
//
//	dir=$(go run ./testkit/corpus)
//	go run ./testkit/floor "$dir/app.pprof" "$dir/micro"
//	mbopt analyze --app "$dir/app.pprof" --micro "$dir/micro" --module example.com/synth
//
// A later run reuses the directory (it is named after the configuration and
// the generator's version).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mbopt/mbopt/testkit/synth"
)

func main() {
	fs, err := synth.Cached(os.TempDir(), synth.CorpusConfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
	fmt.Println(filepath.Dir(fs.App))
}

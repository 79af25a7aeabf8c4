// Command loopmodule writes the hashing-loop module that
// scripts/bench-instructions.sh ('make bench') times: in DIR, a go.mod of
// module example.com/fixture and its package work, cmpfixture's Hash and
// Map (cmpfixture.LoopGo, the code of cmpfixture.LoopRepo and of package
// measure's fixture) with one benchmark per NAME=ROUNDS argument, which
// runs Hash of ROUNDS rounds per operation (cmpfixture.HashBenchmarks).
// Existing files are replaced, so that a second call writes the next
// commit. It is test support: nothing in mbopt imports it.
//
// Usage, from the repository root:
//
//	go run ./testkit/loopmodule DIR BenchmarkA=1000000 BenchmarkB=1200000
package main

import (
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

const usage = "usage: go run ./testkit/loopmodule DIR NAME=ROUNDS..."

func main() {
	log.SetFlags(0)
	log.SetPrefix("loopmodule: ")
	if len(os.Args) < 3 {
		log.Fatal(usage)
	}
	dir := os.Args[1]
	var names []string
	var rounds []int
	for _, arg := range os.Args[2:] {
		name, count, ok := strings.Cut(arg, "=")
		n, err := strconv.Atoi(count)
		if !ok || !strings.HasPrefix(name, "Benchmark") || err != nil || n < 0 {
			log.Fatalf("%q: want NAME=ROUNDS, a benchmark name and a whole number of rounds (%s)", arg, usage)
		}
		names = append(names, name)
		rounds = append(rounds, n)
	}
	files := []struct{ name, content string }{
		{"go.mod", cmpfixture.GoMod},
		{"work/work.go", cmpfixture.LoopGo("Hash mixes n rounds.")},
		{"work/work_test.go", cmpfixture.HashBenchmarks(names, rounds)},
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

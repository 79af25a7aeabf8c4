package opprof_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/internal/opprof"
)

// Two Cachegrind runs of a benchmark at 2 and 10 iterations: setup runs
// the same number of times in both and cancels out; the loop's function
// grows by 400 instructions a run, 50 per operation.
func ExampleInstructions() {
	dir, err := os.MkdirTemp("", "opprof-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	run := func(name string, hot int) string {
		file := filepath.Join(dir, name)
		out := fmt.Sprintf("events: Ir\nfl=/m/p.go\nfn=m.setup\n3 900\nfn=m.hot\n9 %d\nsummary: %d\n", hot, 900+hot)
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			panic(err)
		}
		return file
	}
	low, high := run("low.out", 100), run("high.out", 500)
	p, err := opprof.Instructions(opprof.NewResolver(), low, high, 2, 10)
	if err != nil {
		panic(err)
	}
	timed := p.PerFunction(0.5)
	var buf bytes.Buffer
	if err := timed.WritePprof(&buf); err != nil {
		panic(err)
	}
	pp, err := profile.Parse(&buf)
	if err != nil {
		panic(err)
	}
	for _, s := range pp.Sample {
		fmt.Printf("%s %d %s/op\n", s.Location[0].Line[0].Function.Name, s.Value[0], pp.SampleType[0].Unit)
	}
	// Output:
	// m.hot 50 instructions/op
}

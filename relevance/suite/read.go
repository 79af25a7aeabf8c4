package suite

import (
	"encoding/json"
	"fmt"
	"io"
)

// ReadJSON reads a suite that [Write] wrote in [FormatJSON] and returns its
// invocations. It fails when the input is not such a document or an
// invocation has no package or no benchmarks.
func ReadJSON(r io.Reader) ([]Invocation, error) {
	var doc struct {
		Invocations *[]Invocation `json:"invocations"`
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a suite written by mbopt suite --format json: %w", err)
	}
	if doc.Invocations == nil {
		return nil, fmt.Errorf(`not a suite written by mbopt suite --format json: no "invocations" list`)
	}
	for i, inv := range *doc.Invocations {
		if inv.Package == "" {
			return nil, fmt.Errorf("invocation %d has no package", i)
		}
		if len(inv.Benchmarks) == 0 {
			return nil, fmt.Errorf("invocation %d (%s) lists no benchmarks", i, inv.Package)
		}
	}
	return *doc.Invocations, nil
}

// Benchmarks returns the benchmarks of invs, in order, each with its
// invocation's package and directory.
func Benchmarks(invs []Invocation) []Benchmark {
	var out []Benchmark
	for _, inv := range invs {
		for _, name := range inv.Benchmarks {
			out = append(out, Benchmark{Package: inv.Package, Dir: inv.Dir, Name: name})
		}
	}
	return out
}

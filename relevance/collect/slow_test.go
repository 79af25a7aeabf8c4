package collect_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// TestSlowParents checks which parents are said to make their
// sub-benchmarks' processes slow.
func TestSlowParents(t *testing.T) {
	leaf := func(name string, wall, nsPerOp float64, n int64) manifest.Entry {
		return manifest.Entry{ID: "m/p." + name, Package: "m/p", Name: name, Status: manifest.StatusOK,
			WallSeconds: wall, NsPerOp: nsPerOp, Iterations: n, BenchTime: "1s"}
	}
	for _, tc := range []struct {
		name    string
		entries []manifest.Entry
		want    []collect.SlowParent
	}{
		{"setup repeated in every process", []manifest.Entry{
			leaf("BenchmarkA/x", 12, 1e6, 1000), leaf("BenchmarkA/y", 30, 1e6, 1000), leaf("BenchmarkA/z", 4, 1e6, 1000),
		}, []collect.SlowParent{{ID: "m/p.BenchmarkA", Name: "BenchmarkA", Leaves: 3, MinWall: 4, MaxWall: 30, Outside: 43, BenchTime: "1s"}}},
		{"the ramp to 1s only", []manifest.Entry{
			leaf("BenchmarkA/x", 2.1, 1e6, 1000), leaf("BenchmarkA/y", 1.9, 1e6, 1000), leaf("BenchmarkA/z", 2.4, 1e6, 1000),
		}, nil},
		{"one slow leaf of three", []manifest.Entry{
			leaf("BenchmarkA/x", 40, 1e6, 1000), leaf("BenchmarkA/y", 1.9, 1e6, 1000), leaf("BenchmarkA/z", 2.4, 1e6, 1000),
		}, nil},
		{"slow but short in all", []manifest.Entry{
			leaf("BenchmarkA/x", 4, 1e6, 1000), leaf("BenchmarkA/y", 4.5, 1e6, 1000),
		}, nil},
		{"a single leaf", []manifest.Entry{leaf("BenchmarkA/x", 40, 1e6, 1000)}, nil},
		{"top-level benchmarks", []manifest.Entry{leaf("BenchmarkA", 40, 1e6, 1000), leaf("BenchmarkB", 40, 1e6, 1000)}, nil},
		{"failures do not count", []manifest.Entry{
			leaf("BenchmarkA/x", 40, 1e6, 1000), {ID: "m/p.BenchmarkA/y", Package: "m/p", Name: "BenchmarkA/y", Status: manifest.StatusFailed, WallSeconds: 40},
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, collect.SlowParents(&manifest.Manifest{Benchmarks: tc.entries}))
		})
	}
	// Under Valgrind, a process takes 30 to 100 times its native time and
	// reports no ns/op: an instruction collection has no slow parent.
	underValgrind := &manifest.Manifest{Source: manifest.SourceInstructions, Benchmarks: []manifest.Entry{
		leaf("BenchmarkA/x", 23, 0, 0), leaf("BenchmarkA/y", 24, 0, 0)}}
	assert.Empty(t, collect.SlowParents(underValgrind))
	underValgrind.Source = ""
	assert.Len(t, collect.SlowParents(underValgrind), 1, "the same entries of a profile collection")
	sp := collect.SlowParent{ID: "m/p.BenchmarkA", Name: "BenchmarkA", Leaves: 24, MinWall: 3, MaxWall: 76, Outside: 600, BenchTime: "1s"}
	assert.Equal(t, "the 24 sub-benchmark processes of m/p.BenchmarkA took 3.0-76.0 s each for a benchtime of 1s, 600 s in all outside their timed loops: each runs again what BenchmarkA does before b.Run; collect it as one unit (--sub=false) or leave it out (--skip '^BenchmarkA$')", sp.String())
}

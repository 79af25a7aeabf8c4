package callgraph_test

import (
	"errors"
	"math"
	"testing"

	"github.com/mbopt/mbopt/callgraph"
)

// fuzzLimits keeps the fuzzer's memory bounded; the limits themselves are
// tested in load_test.go.
var fuzzLimits = callgraph.Limits{MaxFileBytes: 1 << 20, MaxDecodedBytes: 16 << 20}

// sentinels are the errors New may fail with for a single profile.
var sentinels = []error{
	callgraph.ErrNotCPU, callgraph.ErrEmpty, callgraph.ErrInvalid, callgraph.ErrNoLocations,
	callgraph.ErrUnsymbolized, callgraph.ErrNegative, callgraph.ErrZero,
}

// FuzzGraph feeds profile bytes through ParseProfile and New. Whatever the
// bytes, nothing panics, a parse error is a *FileError, a New error wraps
// one of the documented sentinel errors, and a graph satisfies its
// invariants: names sorted and unique, Lookup agrees with the ids, flat
// values plus Unattributed add up to Total, so do attributed values plus
// OutsideProject, 0 ≤ Flat ≤ Cum ≤ Total, 0 ≤ Attributed ≤ Cum, external
// nodes have no Attributed time, and Out and In are sorted, in range and
// mirror each other.
//
// The seed corpus in testdata/fuzz/FuzzGraph holds small committed profiles
// (gzipped as Go writes them, and uncompressed so mutations reach the
// protobuf), the bad-input fixtures of testdata/profiles/bad and profiles
// built by hand with unnamed frames, inlining and recursion. flags selects
// the options: 1 AllowNonCPU, 2 AllowEmpty, 4 NoEdges, 8 no project
// modules (else packages runtime and main are the project, which every Go
// profile has, so attributed time is exercised).
func FuzzGraph(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		p, err := fuzzLimits.ParseProfile("fuzz.pprof", data)
		if err != nil {
			var fe *callgraph.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseProfile error %v (%T) is not a *FileError", err, err)
			}
			return
		}
		opts := callgraph.Options{AllowNonCPU: flags&1 != 0, AllowEmpty: flags&2 != 0, NoEdges: flags&4 != 0}
		if flags&8 == 0 {
			opts.Modules = []string{"runtime", "main"}
		}
		g, err := callgraph.New(p, opts)
		if err != nil {
			for _, s := range sentinels {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("New error %q wraps none of the documented errors", err)
		}
		checkGraph(t, g)
	})
}

// checkGraph fails t unless g satisfies the invariants FuzzGraph lists.
func checkGraph(t *testing.T, g *callgraph.Graph) {
	t.Helper()
	tol := 1e-9 * max(1, math.Abs(g.Total))
	if g.Total < 0 || g.Unattributed < -tol || g.Unattributed > g.Total+tol || g.OutsideProject < -tol || g.OutsideProject > g.Total+tol || g.Samples < 0 || g.UnnamedFrames < 0 {
		t.Fatalf("Total %g, Unattributed %g, OutsideProject %g, Samples %d, UnnamedFrames %d: want 0 ≤ Unattributed, OutsideProject ≤ Total, counts ≥ 0",
			g.Total, g.Unattributed, g.OutsideProject, g.Samples, g.UnnamedFrames)
	}
	if len(g.Out) != len(g.Nodes) || len(g.In) != len(g.Nodes) {
		t.Fatalf("%d nodes but %d Out and %d In lists", len(g.Nodes), len(g.Out), len(g.In))
	}
	flat, attributed := g.Unattributed, g.OutsideProject
	edges := 0
	for i, n := range g.Nodes {
		if i > 0 && g.Nodes[i-1].Name >= n.Name {
			t.Fatalf("nodes %d and %d: names %q, %q not sorted and unique", i-1, i, g.Nodes[i-1].Name, n.Name)
		}
		if id, ok := g.Lookup(n.Name); !ok || id != i {
			t.Fatalf("Lookup(%q) = %d, %v; want %d, true", n.Name, id, ok, i)
		}
		if n.Flat < 0 || n.Flat > n.Cum+tol || n.Cum > g.Total+tol {
			t.Fatalf("node %q: Flat %g, Cum %g, Total %g: want 0 ≤ Flat ≤ Cum ≤ Total", n.Name, n.Flat, n.Cum, g.Total)
		}
		if n.Attributed < 0 || n.Attributed > n.Cum+tol || (!n.Project && n.Attributed != 0) {
			t.Fatalf("node %q (project %v): Attributed %g, Cum %g: want 0 ≤ Attributed ≤ Cum, and 0 for an external node", n.Name, n.Project, n.Attributed, n.Cum)
		}
		flat += n.Flat
		attributed += n.Attributed
		for j, to := range g.Out[i] {
			if to < 0 || int(to) >= len(g.Nodes) || (j > 0 && g.Out[i][j-1] >= to) {
				t.Fatalf("Out[%d] = %v: not sorted, unique and in range", i, g.Out[i])
			}
			if !containsID(g.In[to], int32(i)) {
				t.Fatalf("edge %d→%d is in Out but not in In", i, to)
			}
		}
		edges += len(g.Out[i])
		edges -= len(g.In[i])
	}
	if edges != 0 {
		t.Fatalf("Out and In hold different numbers of edges")
	}
	if math.Abs(flat-g.Total) > tol {
		t.Fatalf("flat values + Unattributed = %g, Total = %g", flat, g.Total)
	}
	if math.Abs(attributed-g.Total) > tol {
		t.Fatalf("attributed values + OutsideProject = %g, Total = %g", attributed, g.Total)
	}
}

func containsID(s []int32, id int32) bool {
	for _, x := range s {
		if x == id {
			return true
		}
	}
	return false
}

package callgraph_test

import (
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/callgraph"
)

// FlatCallers splits a leaf's flat time by the frame right above it, an
// inlined frame included; a one-frame stack and recursion are in no entry.
func TestFlatCallers(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name}
	}
	helper, enc1, enc2, main := fn(1, "m/p.helper"), fn(2, "m/p.Encode1"), fn(3, "m/p.Encode2"), fn(4, "main.main")
	loc := func(id uint64, fs ...*profile.Function) *profile.Location {
		l := &profile.Location{ID: id}
		for _, f := range fs { // innermost first, as pprof orders inlined lines
			l.Line = append(l.Line, profile.Line{Function: f})
		}
		return l
	}
	inlined := loc(1, helper, enc1) // helper inlined into Encode1
	called := loc(2, helper)        // helper called from Encode2
	l2, lm := loc(3, enc2), loc(4, main)
	l1 := loc(5, enc1)
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Function:   []*profile.Function{helper, enc1, enc2, main},
		Location:   []*profile.Location{inlined, called, l2, lm, l1},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{inlined, lm}, Value: []int64{300}},
			{Location: []*profile.Location{called, l2, lm}, Value: []int64{100}},
			{Location: []*profile.Location{called, called, l2, lm}, Value: []int64{50}}, // recursion
			{Location: []*profile.Location{lm}, Value: []int64{40}},                     // one frame
			{Location: []*profile.Location{l1, lm}, Value: []int64{10}},
		},
	}
	g, err := callgraph.New(p, callgraph.Options{Modules: []string{"m"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{
		"m/p.helper":  {"m/p.Encode1": 300e-9, "m/p.Encode2": 100e-9},
		"m/p.Encode1": {"main.main": 10e-9},
	}
	assert.Equal(t, len(want), len(g.FlatCallers), "%v", g.FlatCallers)
	for leaf, callers := range want {
		for c, v := range callers {
			assert.InDelta(t, v, g.FlatCallers[leaf][c], 1e-15, "%s from %s", leaf, c)
		}
		assert.Len(t, g.FlatCallers[leaf], len(callers))
	}
	if g, err := callgraph.New(p, callgraph.Options{Modules: []string{"m"}, NoEdges: true}); err != nil || g.FlatCallers != nil {
		t.Errorf("NoEdges: FlatCallers %v, err %v; want nil", g.FlatCallers, err)
	}
}

// FlatOwners splits an external leaf's flat time by the innermost project
// frame on its stacks, however many external frames lie between, an
// inlined project frame included; a project leaf and a stack without a
// project frame are in no entry.
func TestFlatOwners(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name}
	}
	memclr, malloc, enc, dec, helper, gc := fn(1, "runtime.memclrNoHeapPointers"), fn(2, "runtime.mallocgc"),
		fn(3, "m/p.Encode"), fn(4, "m/p.Decode"), fn(5, "m/p.grow"), fn(6, "runtime.gcBgMarkWorker")
	loc := func(id uint64, fs ...*profile.Function) *profile.Location {
		l := &profile.Location{ID: id}
		for _, f := range fs { // innermost first, as pprof orders inlined lines
			l.Line = append(l.Line, profile.Line{Function: f})
		}
		return l
	}
	lclr, lmalloc, lenc, ldec, lgc := loc(1, memclr), loc(2, malloc), loc(3, enc), loc(4, dec), loc(5, gc)
	lgrow := loc(6, helper, dec) // grow inlined into Decode
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Function:   []*profile.Function{memclr, malloc, enc, dec, helper, gc},
		Location:   []*profile.Location{lclr, lmalloc, lenc, ldec, lgc, lgrow},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lclr, lmalloc, lenc}, Value: []int64{100}},
			{Location: []*profile.Location{lclr, lmalloc, lgrow}, Value: []int64{300}}, // the inlined grow is the owner
			{Location: []*profile.Location{lmalloc, ldec}, Value: []int64{20}},
			{Location: []*profile.Location{lclr, lgc}, Value: []int64{50}}, // no project frame
			{Location: []*profile.Location{lenc}, Value: []int64{70}},      // a project leaf
		},
	}
	g, err := callgraph.New(p, callgraph.Options{Modules: []string{"m"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{
		"runtime.memclrNoHeapPointers": {"m/p.Encode": 100e-9, "m/p.grow": 300e-9},
		"runtime.mallocgc":             {"m/p.Decode": 20e-9},
	}
	assert.Equal(t, len(want), len(g.FlatOwners), "%v", g.FlatOwners)
	for leaf, owners := range want {
		for c, v := range owners {
			assert.InDelta(t, v, g.FlatOwners[leaf][c], 1e-15, "%s under %s", leaf, c)
		}
		assert.Len(t, g.FlatOwners[leaf], len(owners))
	}
	if g, err := callgraph.New(p, callgraph.Options{Modules: []string{"m"}, NoEdges: true}); err != nil || g.FlatOwners != nil {
		t.Errorf("NoEdges: FlatOwners %v, err %v; want nil", g.FlatOwners, err)
	}
}

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

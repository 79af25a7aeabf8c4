package opprof_test

import (
	"testing"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/internal/opprof"
)

// A CPU profile's samples are credited per operation to their innermost
// frame, inlined frames included; a sample that landed in asynchronous
// preemption goes to the function it interrupted.
func TestFromCPUProfile(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name, Filename: "/w/" + name + ".go"}
	}
	work, helper, preempt := fn(1, "p.Work"), fn(2, "p.helper"), fn(3, "runtime.asyncPreempt")
	// helper is inlined into Work: one location, innermost line first.
	inlined := &profile.Location{ID: 1, Line: []profile.Line{{Function: helper, Line: 7}, {Function: work, Line: 20}}}
	plain := &profile.Location{ID: 2, Line: []profile.Line{{Function: work, Line: 21}}}
	pre := &profile.Location{ID: 3, Line: []profile.Line{{Function: preempt, Line: 1}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{inlined}, Value: []int64{1, 400}},
			{Location: []*profile.Location{plain}, Value: []int64{1, 100}},
			{Location: []*profile.Location{pre, plain}, Value: []int64{1, 300}},
			{Location: []*profile.Location{pre, inlined}, Value: []int64{1, 200}},
		},
	}
	got, err := opprof.FromCPUProfile(p, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"p.helper": 6, "p.Work": 4}
	funcs := got.Funcs()
	if len(funcs) != len(want) {
		t.Fatalf("functions %v, want %v", funcs, want)
	}
	for name, v := range want {
		if funcs[name] != v {
			t.Errorf("%s: %v ns/op, want %v (all: %v)", name, funcs[name], v, funcs)
		}
	}
	if _, err := opprof.FromCPUProfile(&profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}}, 1); err == nil {
		t.Error("a profile without sample type cpu: no error")
	}
}

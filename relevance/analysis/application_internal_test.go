package analysis

import (
	"testing"

	"github.com/mbopt/mbopt/callgraph"
)

// The application's shares credit the runtime's asynchronous preemption
// to the functions it interrupted, and give a function without flat time
// the floor of half a sample; an external function's share splits by the
// project function it runs under.
func TestApplicationOf(t *testing.T) {
	g := &callgraph.Graph{
		Nodes: []callgraph.Node{
			{Name: "m/p.find", Flat: 50}, {Name: "m/p.get", Flat: 20}, {Name: "m/p.main"},
			{Name: "runtime.memclrNoHeapPointers", Flat: 10},
			{Name: "runtime.asyncPreempt", Flat: 20},
		},
		Total: 100, SamplesTaken: 100,
		FlatCallers: map[string]map[string]float64{
			"m/p.find":             {"m/p.get": 50},
			"m/p.get":              {"m/p.main": 20},
			"runtime.asyncPreempt": {"m/p.find": 15, "m/p.main": 5},
		},
		FlatOwners: map[string]map[string]float64{
			"runtime.memclrNoHeapPointers": {"m/p.find": 6, "m/p.get": 4},
			"runtime.asyncPreempt":         {"m/p.find": 15, "m/p.main": 5},
		},
	}
	a := applicationOf(g)
	want := map[string]float64{"m/p.find": 0.65, "m/p.get": 0.2, "m/p.main": 0.05, "runtime.memclrNoHeapPointers": 0.1}
	if len(a.Shares) != len(want) {
		t.Fatalf("shares %v, want %v", a.Shares, want)
	}
	for f, s := range want {
		if d := a.Shares[f] - s; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: share %v, want %v", f, a.Shares[f], s)
		}
	}
	if a.Floored["m/p.main"] {
		t.Error("main, which preemption interrupted, has time of its own: not floored")
	}
	if _, ok := a.Callers["runtime.asyncPreempt"]; ok {
		t.Error("preemption keeps its callers")
	}
	if o := a.Owners["runtime.memclrNoHeapPointers"]; len(a.Owners) != 1 || o["m/p.find"] != 0.06 || o["m/p.get"] != 0.04 {
		t.Errorf("owners %v, want memclrNoHeapPointers under find 0.06 and get 0.04 only (preemption's are the interrupted functions')", a.Owners)
	}
	if a.Floor != 0.005 || a.Samples != 100 {
		t.Errorf("floor %v samples %v, want 0.005 and 100", a.Floor, a.Samples)
	}
}

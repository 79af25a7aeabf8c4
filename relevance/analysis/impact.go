package analysis

import (
	"slices"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/opprof"
)

// Impacts returns what each analysed benchmark means for the application,
// as the [callgraph.Impact] package compare attaches to its results: by
// benchmark id, the benchmark's attributed impact and the paper's (flat) reference
// impact as shares of the application's CPU time (the figures of the
// "Benchmarks by attributed impact" table, coverage.Set's
// AttributedImpactShare and ImpactShare), or of its instructions (Unit,
// callgraph.Graph.WeightUnit) for an instruction profile of the
// application read with Config.AllowNonCPU, and the project functions it
// covers, sorted by name. Functions outside the project are left out:
// they are the runtime, the standard library and dependencies, which
// every benchmark shares and none is written for; their time is in Flat.
//
// A benchmark is keyed by the id compare uses, its package's import path,
// a dot and its full name (see package benchname): the one its collection
// manifest entry gives when rep has one (rep.Entries), else its analysis
// id, which is that id already for profiles named
// "<import path>.<BenchmarkName>.pprof". Benchmarks of hand-named profiles
// ("storage__BenchmarkX") keep their analysis id and match no compare
// result. Skipped benchmarks have no entry. The map is empty, not nil,
// when there are no benchmarks.
func Impacts(rep *Report) map[string]callgraph.Impact {
	out := map[string]callgraph.Impact{}
	cov := rep.Coverage
	if cov == nil {
		return out
	}
	for _, s := range cov.Sets {
		var fns []string
		s.Nodes.Each(func(i int) {
			if n := &cov.App.Nodes[i]; n.Project {
				fns = append(fns, n.Name)
			}
		})
		slices.Sort(fns)
		id := rep.compareID(s.ID)
		if id == "" {
			id = s.ID
		}
		out[id] = callgraph.Impact{Attributed: s.AttributedImpactShare, Flat: s.ImpactShare, Functions: fns, Unit: cov.App.WeightUnit()}
	}
	return out
}

// Application returns the application's reference profile of rep as the
// comparison weighs a change by (see [callgraph.Application]): each
// function's flat share of the application graph's CPU time, its split by
// caller and (for an external function) by the project function it runs
// under, and for the functions the graph holds without flat time (a
// function the application's function set says ran, Config.AppFunctions,
// or one the profile saw only above other frames) the floor of half a
// sample, marked. The time of the runtime's asynchronous preemption
// (opprof.Preemption) is the interrupted functions'. It returns nil when rep has no application graph or its
// total is not positive.
func Application(rep *Report) *callgraph.Application {
	if rep == nil || rep.Coverage == nil || rep.Coverage.App == nil {
		return nil
	}
	return applicationOf(rep.Coverage.App)
}

// applicationOf is [Application] of the graph g.
func applicationOf(g *callgraph.Graph) *callgraph.Application {
	if !(g.Total > 0) {
		return nil
	}
	a := &callgraph.Application{Shares: map[string]float64{}, Floored: map[string]bool{}, Callers: map[string]map[string]float64{}, Owners: map[string]map[string]float64{}, Samples: g.SamplesTaken}
	if g.SamplesTaken > 0 {
		a.Floor = 0.5 / float64(g.SamplesTaken)
	}
	for _, n := range g.Nodes {
		if n.Flat > 0 {
			a.Shares[n.Name] = n.Flat / g.Total
			continue
		}
		a.Shares[n.Name], a.Floored[n.Name] = a.Floor, true
	}
	for _, split := range []struct{ from, to map[string]map[string]float64 }{{g.FlatCallers, a.Callers}, {g.FlatOwners, a.Owners}} {
		for leaf, others := range split.from {
			m := make(map[string]float64, len(others))
			for c, v := range others {
				m[c] = v / g.Total
			}
			split.to[leaf] = m
		}
	}
	// A sample that landed in asynchronous preemption is the interrupted
	// function's time (as opprof credits the benchmarks' profiles): on a
	// loaded machine the runtime's preemption takes a tenth of the
	// samples, and the functions it interrupted would look that much
	// smaller to the application than to the benchmarks.
	for name, callers := range a.Callers {
		if !opprof.Preemption(name) {
			continue
		}
		for c, v := range callers {
			if a.Floored[c] {
				a.Shares[c], a.Floored[c] = 0, false
			}
			a.Shares[c] += v
			a.Shares[name] -= v
		}
		delete(a.Callers, name)
		// Which external function it interrupted under which project
		// function is not kept: its time leaves the owners' split.
		delete(a.Owners, name)
		if a.Shares[name] <= 1e-15 {
			delete(a.Shares, name)
		}
	}
	return a
}

package sensitivity

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
)

// A Relation is "b catches f" at one slowdown, in the form the minimal
// suite's selection takes: benchmark b catches application function f at a
// slowdown s when E_b / share_b(f) <= s (see the package documentation),
// and f has a share of the application. optimize.Select with the
// optimize.Caught objective over it ([Relation.Select]) chooses a suite
// that keeps the whole suite's caught set, optimize.Certify bounds it
// ([Relation.Certify]), and a budget bounds it as it bounds a coverage
// selection.
type Relation struct {
	// Slowdown is the slowdown the relation is taken at.
	Slowdown float64
	// Catches is the relation as a coverage.Result over the application
	// graph: one set per benchmark, sorted by id, holding the functions
	// it catches at Slowdown. Its Covered is what the whole suite
	// catches.
	Catches *coverage.Result
	// Weights are the application functions' shares, by node id: what
	// catching each is worth.
	Weights []float64
	// MDEs are the benchmarks' effective detectable effects E_b =
	// threshold + MDE_b, by id: the selection's tie-break.
	MDEs map[string]float64
}

// NewRelation returns the relation "b catches f" of benches on app's
// functions at slowdown (0 means DefaultRecommendSlowdown), with
// opt.DefaultMDE, opt.Threshold and opt.AppShares as [Compute] takes them
// (the other options are not used). A benchmark whose profile is empty, or
// an application profile without samples, is an error naming it.
func NewRelation(app *callgraph.Graph, benches []Benchmark, opt Options, slowdown float64) (*Relation, error) {
	if app == nil || app.Total <= 0 {
		return nil, fmt.Errorf("sensitivity: the application profile has no samples")
	}
	r := &Relation{Slowdown: cmp.Or(slowdown, DefaultRecommendSlowdown), MDEs: map[string]float64{}, Weights: make([]float64, len(app.Nodes))}
	for i, n := range app.Nodes {
		r.Weights[i] = max(n.Flat, 0) / app.Total
		if opt.AppShares != nil {
			r.Weights[i] = opt.AppShares[n.Name]
		}
	}
	defaultMDE := typicalMDE(benches, opt.DefaultMDE)
	threshold := cmp.Or(opt.Threshold, DefaultThreshold)
	ids := make([]string, len(benches))
	catches := make([][]int, len(benches))
	for i, b := range benches {
		if b.Profile == nil || b.Profile.Total <= 0 {
			return nil, fmt.Errorf("sensitivity: benchmark %s: its profile has no samples", b.ID)
		}
		ids[i] = b.ID
		e := b.effect(defaultMDE, threshold)
		r.MDEs[b.ID] = e
		for name, share := range b.shares() {
			if id, ok := app.Lookup(name); ok && share > 0 && r.Weights[id] > 0 && e/share <= r.Slowdown {
				catches[i] = append(catches[i], id)
			}
		}
		slices.Sort(catches[i])
	}
	r.Catches = coverage.Relation(app, ids, catches)
	return r, nil
}

// Plan returns plan made to keep what r's benchmarks catch: the
// optimize.Caught objective counting every application function (the
// caught curve counts the whole application), weighed by r.Weights, ties
// broken by r.MDEs (the more precise benchmark first), then by
// plan.Costs (the cheaper first), then by id. plan's Budget, Costs,
// DefaultCost, Top, MinGain and Exclude are kept.
func (r *Relation) Plan(plan optimize.Plan) optimize.Plan {
	plan.Objective, plan.Nodes, plan.Weights, plan.MDEs = optimize.Caught, optimize.AllNodes, r.Weights, r.MDEs
	return plan
}

// Select chooses a suite from r's benchmarks that keeps the whole suite's
// caught set at r.Slowdown: optimize.Select over r.Catches with
// [Relation.Plan] (Algorithm 2's greedy over "b catches f" instead of "b
// runs f", each function weighed by its application share; see
// optimize.Caught for the ties). Without plan.Top, MinGain or Budget every
// function some benchmark catches, some pick catches, so dropping the
// others loses no function's detectability at that slowdown. Its
// TotalGain is the application share the picks catch; Steps record the
// relation (AddedNodes are the newly caught functions), not coverage:
// optimize.Trace gives the picks' coverage.
func (r *Relation) Select(plan optimize.Plan) (*optimize.Selection, error) {
	return optimize.Select(r.Catches, r.Plan(plan))
}

// Certify bounds from below the size of the smallest suite that catches
// what the whole suite catches at r.Slowdown, certifying a selection of
// size picks (optimize.Certify over r.Catches with CertifyOptions.Suite);
// maxCells is CertifyOptions.MaxCells.
func (r *Relation) Certify(picks, maxCells int) (*optimize.Certificate, error) {
	return optimize.Certify(r.Catches, optimize.CertifyOptions{Nodes: optimize.AllNodes, Suite: picks, MaxCells: maxCells})
}

// Caught returns the application share the whole suite catches at
// r.Slowdown: the caught curve at that slowdown.
func (r *Relation) Caught() float64 {
	total := 0.0
	for _, id := range r.Catches.Covered.Elems() {
		total += r.Weights[id]
	}
	return total
}

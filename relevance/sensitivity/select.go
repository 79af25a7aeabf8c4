package sensitivity

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mbopt/mbopt/callgraph"
)

// A Pick is one benchmark of a suite chosen to keep what is caught.
type Pick struct {
	// ID is the benchmark's id.
	ID string `json:"id"`
	// Gain is the application share (flat) of the functions it catches
	// at the slowdown that no earlier pick caught.
	Gain float64 `json:"gain"`
	// Caught is the application share caught by the picks so far.
	Caught float64 `json:"caught"`
	// MDE is its minimum detectable effect used.
	MDE float64 `json:"mde"`
}

// A Selection is a suite that catches, at Slowdown, every function the
// whole suite catches.
type Selection struct {
	// Slowdown is the slowdown whose caught set the suite keeps.
	Slowdown float64 `json:"slowdown"`
	// Picks are the benchmarks in pick order.
	Picks []Pick `json:"picks"`
	// Caught is the application share the whole suite (and so the picks)
	// catch at Slowdown.
	Caught float64 `json:"caught"`
}

// IDs returns the picked benchmark ids in pick order.
func (s *Selection) IDs() []string {
	ids := make([]string, len(s.Picks))
	for i, p := range s.Picks {
		ids[i] = p.ID
	}
	return ids
}

// Select chooses a suite from benches that keeps the whole suite's caught
// set at slowdown (0 means DefaultRecommendSlowdown): every application
// function that some benchmark would catch slowed down by slowdown, some
// picked benchmark catches, so dropping the others loses no function's
// detectability at that slowdown. It is Algorithm 2's greedy set cover
// over "b catches f" (E_b / share_b(f) <= slowdown, see the package documentation) instead of "b runs
// f", each function weighed by its application share: each step picks the
// benchmark that catches the largest share not yet caught; ties go to the
// more precise benchmark (the smaller MDE), then to the cheaper (cost,
// when given, by id; a missing cost counts as unknown and loses to a known
// one), then to the smaller id. Benchmarks' MDEs default as in [Compute]
// (defaultMDE; 0 means by the profiles' unit), and no MDE counts below
// threshold (0 means DefaultThreshold). appShares, when not nil, are the
// application's shares (as Options.AppShares).
func Select(app *callgraph.Graph, appShares map[string]float64, benches []Benchmark, slowdown, defaultMDE, threshold float64, cost map[string]float64) (*Selection, error) {
	if app == nil || app.Total <= 0 {
		return nil, fmt.Errorf("sensitivity: the application profile has no samples")
	}
	slowdown = cmp.Or(slowdown, DefaultRecommendSlowdown)
	if defaultMDE == 0 {
		defaultMDE = InstructionsMDE
		for _, b := range benches {
			if b.Profile != nil && b.Profile.Unit != "instructions" {
				defaultMDE = CPUMDE
			}
		}
	}
	appShare := func(id int) float64 {
		if appShares != nil {
			return appShares[app.Nodes[id].Name]
		}
		return app.Nodes[id].Flat / app.Total
	}
	catches := make([][]int, len(benches))
	mdes := make([]float64, len(benches))
	for i, b := range benches {
		if b.Profile == nil || b.Profile.Total <= 0 {
			return nil, fmt.Errorf("sensitivity: benchmark %s: its profile has no samples", b.ID)
		}
		mdes[i] = max(cmp.Or(b.MDE, defaultMDE), cmp.Or(threshold, DefaultThreshold))
		for name, share := range b.shares() {
			if id, ok := app.Lookup(name); ok && share > 0 && appShare(id) > 0 && mdes[i]/share <= slowdown {
				catches[i] = append(catches[i], id)
			}
		}
		slices.Sort(catches[i])
	}
	caught := make([]bool, len(app.Nodes))
	sel := &Selection{Slowdown: slowdown}
	used := make([]bool, len(benches))
	for {
		best, bestGain := -1, 0.0
		for i := range benches {
			if used[i] {
				continue
			}
			gain := 0.0
			for _, id := range catches[i] {
				if !caught[id] {
					gain += appShare(id)
				}
			}
			if gain > 0 && (best < 0 || better(gain, bestGain, benches[i].ID, benches[best].ID, mdes[i], mdes[best], cost)) {
				best, bestGain = i, gain
			}
		}
		if best < 0 {
			return sel, nil
		}
		used[best] = true
		for _, id := range catches[best] {
			caught[id] = true
		}
		sel.Caught += bestGain
		sel.Picks = append(sel.Picks, Pick{ID: benches[best].ID, Gain: bestGain, Caught: sel.Caught, MDE: mdes[best]})
	}
}

// better reports whether a benchmark with gain g, id a and MDE ma ranks
// before one with gain h, id b and MDE mb (see [Select]'s tie rule). Gains
// within 1e-12 of each other are ties.
func better(g, h float64, a, b string, ma, mb float64, cost map[string]float64) bool {
	if math.Abs(g-h) > 1e-12 {
		return g > h
	}
	if ma != mb {
		return ma < mb
	}
	ca, oka := cost[a]
	cb, okb := cost[b]
	switch {
	case oka && okb && ca != cb:
		return ca < cb
	case oka != okb:
		return oka
	}
	return a < b
}

package optimize

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"

	"github.com/mbopt/mbopt/internal/enum"
	"github.com/mbopt/mbopt/internal/textutil"
)

// Objective says what a pick of [Select] gains.
type Objective int

const (
	// NodeCount gains one per newly covered counted node: the paper's
	// Algorithm 2.
	NodeCount Objective = iota
	// Impact gains the application time of the newly covered counted
	// nodes (attributed or flat, [Plan.Impact]), so the greedy maximises
	// covered application CPU time.
	Impact
	// Cost keeps Algorithm 2's coverage (the same counted nodes) at the
	// smallest summed benchmark cost [Select] can find: a cost-weighted
	// greedy set cover, a reverse-delete pass and a safeguard; see
	// [Select]'s "Cost objective". A pick gains its newly covered counted
	// nodes, as in Algorithm 2.
	Cost
	// Caught keeps what the suite would catch: Select runs over the
	// relation "b catches f" instead of "b runs f" (package
	// relevance/sensitivity builds it as a coverage.Result whose sets
	// hold, for each benchmark, the application functions whose
	// slowdown it would report), and a pick gains the application share
	// of the functions it newly catches (Plan.Weights; without them the
	// application time of Plan.Impact, as for [Impact]). Ties on the gain
	// go to the more precise benchmark (the smaller of Plan.MDEs; one
	// without an MDE is the least precise), then to the cheaper (the
	// smaller of Plan.Costs; one without a cost after every one with a
	// cost), then to the smaller id. With the picks catching everything
	// the suite catches (no Top, MinGain or Budget), dropping the other
	// benchmarks loses no function's detectability.
	Caught
)

// String returns "nodes", "impact", "cost" or "caught".
func (o Objective) String() string {
	return enum.Name("Objective", o, "nodes", "impact", "cost", "caught")
}

// ParseObjective parses "nodes", "impact", "cost" or "caught".
func ParseObjective(s string) (Objective, error) {
	return enum.Parse("invalid objective", s, NodeCount, Impact, Cost, Caught)
}

// Plan configures [Select]. The zero value is Algorithm 2 on project nodes:
// Select then picks exactly what [Greedy] picks.
type Plan struct {
	// Nodes selects the counted nodes, as in [Options].
	Nodes Nodes
	// Objective selects the gain of a pick.
	Objective Objective
	// Impact selects the application time a node is worth for the
	// [Impact] objective, for per-node Weights derived from it by the
	// caller, and for the tie-break "larger added impact" of
	// [NodeCount]: the attributed impact (the zero value) or the paper's
	// flat reference impact (see coverage.ImpactKind).
	Impact coverage.ImpactKind
	// Weights, when not nil, replaces the objective's per-node gain:
	// Weights[i] is what covering application node i is worth (for
	// example the summed weights of the scenarios that contain it). Only
	// counted nodes gain. Its length must be the application's node count
	// and every weight finite and non-negative (a negative weight would
	// let a gain grow as coverage grows, which the lazy greedy cannot
	// handle), with a finite sum.
	Weights []float64
	// Budget, when positive (it must be finite), bounds the summed cost
	// of the picks (in the unit of Costs, seconds by convention) and turns
	// the greedy into the cost-effectiveness greedy with the
	// single-best-set safeguard; see [Select].
	Budget float64
	// Costs maps benchmark ids to their cost (seconds of running time).
	// Costs must be positive and finite. Only needed with a Budget or
	// the [Cost] objective; otherwise they are recorded in the steps.
	Costs map[string]float64
	// DefaultCost is the cost of a benchmark missing from Costs, positive
	// and finite, or 0 for none: then a Budget with a benchmark missing
	// from Costs, or the Cost objective with a benchmark missing from
	// Costs that covers a counted node, is an error that names the
	// benchmark.
	DefaultCost float64
	// Top, when positive, stops after that many picks.
	Top int
	// MinGain, when positive, stops at the first pick that would add fewer
	// than MinGain counted nodes (that pick is not taken).
	MinGain int
	// Exclude lists benchmark ids that may not be picked (as
	// [Options.Exclude]); the selection then covers at most what the
	// other benchmarks cover, and StopComplete means that.
	Exclude []string
	// MDEs maps benchmark ids to their minimum detectable effects, for
	// the [Caught] objective's tie-break (the smaller first; a benchmark
	// missing from it after every one in it). Each must be finite and
	// non-negative. Other objectives ignore it.
	MDEs map[string]float64
}

// Stop says why [Select] ended.
type Stop string

// The reasons a selection ends.
const (
	// StopComplete: no benchmark adds a counted node any more, so the
	// picks cover everything the suite covers.
	StopComplete Stop = "complete"
	// StopTop: Plan.Top picks were made.
	StopTop Stop = "top"
	// StopMinGain: the next pick would have added fewer than Plan.MinGain
	// counted nodes.
	StopMinGain Stop = "min-gain"
	// StopBudget: benchmarks would still add nodes but none fits in the
	// remaining budget.
	StopBudget Stop = "budget"
)

// SelectedStep is one pick of [Select]: the [Step] fields plus what the
// objective and the budget saw.
type SelectedStep struct {
	// Step is the pick as [Greedy] records it.
	Step
	// Gain is the objective's gain of the pick (counted nodes, their
	// impact of Plan.Impact, or their summed Weights).
	Gain float64
	// Cost is the benchmark's cost (0 without Costs and DefaultCost);
	// CumulativeCost sums it over the picks so far.
	Cost, CumulativeCost float64
	// CumulativeGain sums Gain over the picks so far.
	CumulativeGain float64
}

// Selection is the outcome of [Select]: the picks in order, so Steps[:k]
// trace the objective's coverage curve.
type Selection struct {
	// Objective is Plan.Objective, what a pick gains.
	Objective Objective
	// Nodes is the counted nodes (Plan's Options.Nodes).
	Nodes Nodes
	// Impact is Plan.Impact, the application time the Impact objective
	// and the tie-break weighed.
	Impact coverage.ImpactKind
	// Weighted reports whether Plan.Weights was given.
	Weighted bool
	// Budget is Plan.Budget (0: none).
	Budget float64
	// Steps are the picks in order.
	Steps []SelectedStep
	// Covered holds the application nodes covered by all picks.
	Covered bitset.Set
	// TotalCost and TotalGain sum the picks' costs and gains.
	TotalCost, TotalGain float64
	// Stop says why the selection ended.
	Stop Stop
	// Safeguard reports that the fallback of the plan won. Under a
	// Budget: the best single benchmark gained more than the
	// cost-effectiveness greedy and was returned instead. Under the Cost
	// objective: Algorithm 2's suite, after the reverse-delete pass, was
	// strictly cheaper than the cost-weighted greedy's and was returned
	// instead.
	Safeguard bool
	// GreedyGain is what the budgeted greedy had reached when Safeguard
	// replaced its picks; 0 otherwise.
	GreedyGain float64
	// GreedyCost is, under the Cost objective, what the cost-weighted
	// greedy's suite (after its own reverse-delete pass) cost, whether or
	// not Safeguard replaced it; 0 otherwise.
	GreedyCost float64
	// Dropped lists, under the Cost objective, the picks of the returned
	// suite's greedy that the reverse-delete pass removed because the
	// other picks cover their counted nodes, in the order they were
	// removed; nil otherwise.
	Dropped []string
}

// IDs returns the picked benchmark ids in pick order.
func (s *Selection) IDs() []string {
	ids := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		ids[i] = st.ID
	}
	return ids
}

// Result returns the picks as a plain [Result], for code that renders
// Algorithm 2's output.
func (s *Selection) Result() *Result {
	r := &Result{Nodes: s.Nodes, Covered: s.Covered}
	for _, st := range s.Steps {
		r.Steps = append(r.Steps, st.Step)
	}
	return r
}

// Select runs the greedy described by plan on cov. With the zero Plan it
// returns the same picks as [Greedy]: Select generalises Algorithm 2
// beyond the paper.
//
// # Objectives
//
// With [NodeCount] a pick gains the number of counted nodes it newly
// covers (the paper). With [Impact] it gains their application time —
// attributed (the default) or flat, as Plan.Impact says — so the picks
// maximise covered application CPU time: a benchmark that
// covers one hot function beats one that covers three cold ones. With
// Plan.Weights it gains the summed weights of those nodes (package
// coverage derives per-scenario weights). Every variant keeps going, after
// the gains of the objective are exhausted, while a pick still adds a
// counted node, so without Top, MinGain or Budget the picks always reach
// the suite's full coverage. With [Caught], cov is the relation "b catches
// f" and a pick gains the weights (application shares) of the functions it
// newly catches; the budget, Top, MinGain, Exclude and [Certify] (with
// CertifyOptions.Suite) work over that relation as over coverage.
//
// # Budget
//
// With a Budget, Select solves budgeted maximum coverage: pick benchmarks
// whose summed cost fits the budget and whose gain is largest. It runs the
// cost-effectiveness greedy of Khuller, Moss and Naor ("The budgeted
// maximum coverage problem", IPL 70(1), 1999): repeatedly take the
// benchmark with the largest gain per cost among those that still fit the
// remaining budget (a benchmark that does not fit is dropped for good, as
// the remaining budget only shrinks). That greedy alone can be arbitrarily
// bad (a cheap benchmark with a slightly better ratio can use up the room
// of a large one), so Select also takes the single benchmark with the
// largest gain that fits and returns it instead when it gains strictly
// more ([Selection.Safeguard]). The better of the two gains at least
// (1 − 1/e)/2 ≈ 0.316 of the best gain any selection within the budget
// achieves; that is the guarantee. It is not a guarantee on the suite's
// running time beyond the budget itself, and costs are what was measured
// once (noisy). The 1 − 1/e algorithm that enumerates all triples first
// costs O(B³) and is not used.
//
// # Cost objective
//
// With [Cost], Select returns a suite with exactly Algorithm 2's coverage
// of the counted nodes (every counted node some benchmark covers) whose
// summed cost is as small as it can find; minimum-cost set cover is
// NP-hard, so it is not always the cheapest possible. It takes three
// steps:
//
//  1. The cost-weighted greedy for set cover (Chvátal, "A greedy
//     heuristic for the set-covering problem", Math. Oper. Res. 4(3),
//     1979): repeatedly take the benchmark with the most newly covered
//     counted nodes per cost, until no benchmark adds one. Its cost is
//     within H(k) ≤ 1 + ln k of the cheapest cover, k being the largest
//     coverage set.
//  2. Reverse delete: visit the picks from the most expensive to the
//     cheapest (equal costs: the later pick first, as the greedy valued
//     it less) and drop each one whose counted nodes the picks still kept
//     all cover. The result is irredundant and never costlier.
//  3. The safeguard: Algorithm 2's own suite goes through the same
//     reverse-delete pass, and when it is strictly cheaper it is returned
//     instead ([Selection.Safeguard]). So the suite is never costlier
//     than Algorithm 2's, whatever the costs.
//
// The returned steps are the kept benchmarks in the order the
// cost-weighted greedy takes them when only they are candidates, so
// Steps[:k] trace coverage against cost. With equal costs for every
// benchmark, step 1 picks exactly Algorithm 2's suite. [CertifyCost]
// bounds the cheapest cover's cost from below.
//
// # Top and MinGain
//
// Top stops after Top picks: Steps[:Top] is exactly the prefix the
// unbounded greedy would take. MinGain stops at the first pick that adds
// fewer than MinGain counted nodes (the TCC study dropped picks adding
// three or fewer: MinGain 4). Under Impact the picks are ordered by time,
// so a later pick could add more nodes again; Select still stops there.
//
// # Ties
//
// Every plan orders the candidates by one rule, the package
// documentation's "Ties": gain per cost (under a budget and for Cost),
// gain, a second criterion that depends on the objective, then the smaller
// benchmark graph and the smaller id; for [Caught], after the gain (per
// cost), the smaller MDE, the cheaper and the smaller id.
//
// # Errors
//
// Select checks the plan before it starts and fails, naming the Plan field
// and the offending benchmark or node, when Weights has the wrong length
// or holds a negative, NaN or infinite weight (or weights whose sum
// overflows); when MDEs holds a negative, NaN or infinite MDE; when Impact is not a known coverage.ImpactKind; when
// Budget, DefaultCost or a cost in Costs is negative, NaN or infinite, or a
// cost is 0; when a Budget is set and a benchmark has no cost and there is
// no DefaultCost; when Top or MinGain is negative; and under the [Cost]
// objective, when a benchmark that covers a counted node has no cost and
// there is no DefaultCost, or when Budget, Top, MinGain or Weights is set
// (the Cost objective keeps the full coverage, so none of them applies).
//
// Cost: like [Greedy], a lazy greedy — a few set scans per pick.
func Select(cov *coverage.Result, plan Plan) (*Selection, error) {
	if plan.Budget < 0 || math.IsNaN(plan.Budget) || math.IsInf(plan.Budget, 0) {
		return nil, fmt.Errorf("Plan.Budget must be positive and finite (or 0 for none), not %g", plan.Budget)
	}
	if plan.Impact != coverage.AttributedImpact && plan.Impact != coverage.FlatImpact {
		return nil, fmt.Errorf("Plan.Impact must be coverage.AttributedImpact or coverage.FlatImpact, not %d", int(plan.Impact))
	}
	if plan.Top < 0 {
		return nil, fmt.Errorf("Plan.Top must be positive (or 0 for no limit), not %d", plan.Top)
	}
	if plan.MinGain < 0 {
		return nil, fmt.Errorf("Plan.MinGain must be positive (or 0 for none), not %d", plan.MinGain)
	}
	if err := checkWeights(cov, plan.Weights); err != nil {
		return nil, err
	}
	if err := checkMDEs(plan.MDEs); err != nil {
		return nil, err
	}
	if plan.Objective == Cost {
		if err := checkCostPlan(plan); err != nil {
			return nil, err
		}
	}
	costs, err := benchmarkCosts(cov, plan)
	if err != nil {
		return nil, err
	}
	e := newEngine(cov, plan, costs)
	if plan.Objective == Cost {
		return e.cheapest(), nil
	}
	sel := e.run()
	if plan.Budget > 0 {
		e.safeguard(sel)
	}
	return sel, nil
}

// checkWeights reports Plan.Weights that the lazy greedy cannot use: a
// length other than the application's node count, or weights that are
// negative, NaN or infinite (listing up to five nodes by name), or whose
// sum overflows. nil weights are valid.
func checkWeights(cov *coverage.Result, w []float64) error {
	if w == nil {
		return nil
	}
	if len(w) != cov.App.Len() {
		return fmt.Errorf("Plan.Weights has %d entries for %d application nodes; give one weight per node of the application graph", len(w), cov.App.Len())
	}
	var bad []string
	sum := 0.0
	for i, x := range w {
		if !(x >= 0) || math.IsInf(x, 0) {
			bad = append(bad, fmt.Sprintf("[%d] %s (%g)", i, cov.App.Nodes[i].Name, x))
			continue
		}
		sum += x
	}
	if len(bad) > 0 {
		return fmt.Errorf("Plan.Weights: %s %s not finite and non-negative: %s", textutil.Plural(len(bad), "weight"), isAre(len(bad)), list(bad))
	}
	if math.IsInf(sum, 0) {
		return fmt.Errorf("Plan.Weights sum to %g; scale them down", sum)
	}
	return nil
}

// checkMDEs reports Plan.MDEs that are negative, NaN or infinite,
// listing up to five benchmarks by id in id order.
func checkMDEs(mdes map[string]float64) error {
	var bad []string
	for id, m := range mdes {
		if !(m >= 0) || math.IsInf(m, 0) {
			bad = append(bad, fmt.Sprintf("%s (%g)", id, m))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return fmt.Errorf("Plan.MDEs: %s %s not a finite fraction >= 0: %s", textutil.Plural(len(bad), "MDE"), isAre(len(bad)), list(bad))
}

// benchmarkCosts returns the cost of every set of cov (by index); nil when
// there are neither costs nor a budget.
func benchmarkCosts(cov *coverage.Result, plan Plan) ([]float64, error) {
	if plan.Costs == nil && plan.DefaultCost == 0 && plan.Budget == 0 && plan.Objective != Cost {
		return nil, nil
	}
	mask := cov.ProjectMask
	if plan.Nodes == AllNodes {
		mask = cov.AllMask
	}
	if plan.DefaultCost < 0 || math.IsNaN(plan.DefaultCost) || math.IsInf(plan.DefaultCost, 0) {
		return nil, fmt.Errorf("Plan.DefaultCost must be positive and finite (or 0 for none), not %g", plan.DefaultCost)
	}
	costs := make([]float64, len(cov.Sets))
	var missing, bad []string
	for i, s := range cov.Sets {
		c, ok := plan.Costs[s.ID]
		switch {
		case !ok:
			c = plan.DefaultCost
			if c == 0 && (plan.Budget > 0 || plan.Objective == Cost && s.Nodes.IntersectionLen(mask) > 0) {
				missing = append(missing, s.ID)
			}
		case !(c > 0) || math.IsInf(c, 0):
			bad = append(bad, fmt.Sprintf("%s (%g)", s.ID, c))
		}
		costs[i] = c
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("Plan.Costs: %s %s not positive finite seconds: %s", textutil.Plural(len(bad), "benchmark cost"), isAre(len(bad)), list(bad))
	}
	if len(missing) > 0 {
		need := "a budget"
		if plan.Budget == 0 {
			need = "the cost objective"
		}
		have := "have"
		if len(missing) == 1 {
			have = "has"
		}
		return nil, fmt.Errorf("Plan.Costs: %s %s no cost, which %s needs: %s; give their cost in Costs or set DefaultCost", textutil.Plural(len(missing), "benchmark"), have, need, list(missing))
	}
	return costs, nil
}

// isAre is the verb "to be" agreeing with a count of n.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// list joins up to five items and says how many more there are.
func list(items []string) string {
	if len(items) <= 5 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:5], ", "), len(items)-5)
}

// checkCostPlan reports the Plan fields that the [Cost] objective cannot
// honour: it keeps Algorithm 2's full coverage, so a budget, a pick limit,
// a minimum gain or node weights would contradict it.
func checkCostPlan(plan Plan) error {
	var set []string
	if plan.Budget != 0 {
		set = append(set, "Budget")
	}
	if plan.Top != 0 {
		set = append(set, "Top")
	}
	if plan.MinGain != 0 {
		set = append(set, "MinGain")
	}
	if plan.Weights != nil {
		set = append(set, "Weights")
	}
	if len(set) == 0 {
		return nil
	}
	fields := "Plan." + strings.Join(set, ", Plan.")
	return fmt.Errorf("%s cannot be combined with Objective cost, which keeps Algorithm 2's full coverage at the smallest cost; leave %s unset", fields, strings.Join(set, ", "))
}

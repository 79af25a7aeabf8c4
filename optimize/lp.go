package optimize

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
)

// DefaultMaxLPCells is the default [CertifyOptions.MaxCells]: the largest
// reduced instance, rows × (columns + rows), whose LP relaxation [Certify]
// solves. gonum's simplex is dense, so time grows with the cube of the
// rows: a reduced instance of 120 rows × 187 columns (36,840 cells)
// takes about 1.1 s on one core (BenchmarkCertifyLP).
const DefaultMaxLPCells = 40_000

// CertifyOptions configures [Certify]. The zero value counts project nodes
// and uses [DefaultMaxLPCells].
type CertifyOptions struct {
	// Nodes selects the counted nodes, as in [Options].
	Nodes Nodes
	// Impact is Algorithm 2's tie-break impact, as in [Options], so the
	// suite certified is the one [Greedy] returns with the same options.
	Impact coverage.ImpactKind
	// MaxCells bounds the reduced LP's rows × (columns + rows); above
	// it the LP is skipped and only the combinatorial bound is given.
	// 0 means DefaultMaxLPCells; negative means no limit.
	MaxCells int
	// Costs gives the benchmarks' costs to [CertifyCost], as
	// Plan.Costs; [Certify] ignores it.
	Costs map[string]float64
	// DefaultCost is the cost of a benchmark missing from Costs, as
	// Plan.DefaultCost; [Certify] ignores it.
	DefaultCost float64
	// Suite, when positive, is the size of the suite [Certify] bounds in
	// place of [Greedy]'s: a [Select] suite that covers every counted node
	// the benchmarks cover, such as the [Caught] objective's over its
	// relation. 0 means Greedy's suite with Nodes and Impact.
	Suite int
}

// Certificate says how far Algorithm 2's minimal suite can be from the
// smallest suite with the same coverage (minimum set cover over the
// counted nodes the suite covers).
type Certificate struct {
	// Nodes is the counted nodes (CertifyOptions.Nodes).
	Nodes Nodes
	// Greedy is the size of [Greedy]'s suite, or CertifyOptions.Suite.
	Greedy int
	// Essential counts the benchmarks that are the only one to cover some
	// counted node: every full cover contains them, so it is a lower
	// bound that needs no LP.
	Essential int
	// Rows and Cols are the LP's size after removing duplicate and
	// dominated nodes (rows) and benchmarks (columns); Elements and Sets
	// the size before.
	Rows, Cols, Elements, Sets int
	// Solved reports whether the LP was solved; when false, LP and
	// LowerBound fall back to Essential.
	Solved bool
	// Skipped says why the LP was not solved; empty when Solved.
	Skipped string
	// LP is the optimum of the LP relaxation: minimise Σ x_b subject to
	// Σ_{b ∋ v} x_b ≥ 1 for every counted coverable node v, x ≥ 0.
	LP float64
	// LowerBound is the best lower bound on the optimum cover size:
	// max(⌈LP⌉, Essential).
	LowerBound int
}

// Gap returns Greedy − LowerBound: the greedy suite has at most that many
// benchmarks more than the smallest one.
func (c *Certificate) Gap() int { return c.Greedy - c.LowerBound }

// Certify runs [Greedy] (unless opts.Suite gives the size of the suite to
// certify) and bounds the size of the smallest suite with the
// same coverage from below by the LP relaxation of set cover, solved with
// gonum's simplex (package gonum.org/v1/gonum/optimize/convex/lp) when the
// instance is small enough, and by the count of essential benchmarks
// always.
//
// Before solving, identical rows and columns are merged and dominated ones
// removed, which keeps the LP value: a benchmark whose counted nodes are a
// subset of another's can hand its share to that one, and a node covered by
// a superset of another node's benchmarks is covered whenever that one is.
// The upper bounds x ≤ 1 are left out: with unit costs an optimum never
// needs them. The standard form for lp.Simplex adds one surplus variable
// per row: [M −I]·[x s] = 1, x, s ≥ 0.
//
// Cost: the reduction is O(R·C·(R+C)/64) word operations on the deduped
// instance, skipped (leaving duplicates only merged) when R·C·(R+C) is over
// 10¹¹; the simplex is dense, so it only runs while rows × (cols + rows) ≤
// MaxCells. An error is returned only if the simplex fails numerically.
func Certify(cov *coverage.Result, opts CertifyOptions) (*Certificate, error) {
	size := opts.Suite
	if size <= 0 {
		size = len(Greedy(cov, Options{Nodes: opts.Nodes, Impact: opts.Impact}).Steps)
	}
	c := &Certificate{Nodes: opts.Nodes, Greedy: size}
	in := newCover(cov, opts.Nodes, nil)
	c.Elements, c.Sets, c.Essential = in.elements, in.sets, in.essential
	c.LowerBound = c.Essential
	c.LP = float64(c.Essential)
	if in.elements == 0 {
		c.Solved = true
		return c, nil
	}
	var value float64
	var err error
	c.Rows, c.Cols, c.Skipped, value, err = in.bound(opts.MaxCells)
	if c.Skipped != "" || err != nil {
		return c, err
	}
	c.Solved = true
	c.LP = value
	c.LowerBound = max(c.Essential, int(math.Ceil(value-1e-7)))
	return c, nil
}

// CostCertificate says how far the [Cost] objective's suite can be from
// the cheapest suite with the same coverage (minimum-cost set cover over
// the counted nodes the suite covers).
type CostCertificate struct {
	// Nodes is the criterion of the counted nodes.
	Nodes Nodes
	// Cost is the summed cost of [Select]'s suite under the Cost
	// objective; Greedy that of Algorithm 2's suite ([Greedy]), for
	// comparison.
	Cost, Greedy float64
	// Essential sums the costs of the benchmarks that are the only one to
	// cover some counted node (of the cheapest among identical ones):
	// every full cover pays at least that, so it is a lower bound that
	// needs no LP.
	Essential float64
	// Rows, Cols, Elements and Sets are as in [Certificate]; a column is
	// dropped only for one that covers as much at a cost no higher.
	Rows, Cols, Elements, Sets int
	// Solved reports whether the LP was solved; when false, LP and
	// LowerBound fall back to Essential.
	Solved bool
	// Skipped says why the LP was not solved; "" when it was.
	Skipped string
	// LP is the optimum of the LP relaxation: minimise Σ c_b x_b subject
	// to Σ_{b ∋ v} x_b ≥ 1 for every counted coverable node v, x ≥ 0.
	LP float64
	// LowerBound is the best lower bound on the cheapest cover's cost:
	// max(LP, Essential). Costs are not integers, so there is no
	// rounding up.
	LowerBound float64
}

// Ratio returns Cost / LowerBound: the Cost objective's suite costs at most
// that many times the cheapest one. It is 1 when there is nothing to
// cover, and +Inf when the bound is 0 but the cost is not.
func (c *CostCertificate) Ratio() float64 {
	if c.Cost == c.LowerBound {
		return 1
	}
	return c.Cost / c.LowerBound
}

// CertifyCost runs [Select] with the [Cost] objective and bounds the cost of
// the cheapest suite with the same coverage from below, like [Certify]
// bounds the size of the smallest: by the weighted LP relaxation of set
// cover, min Σ c_b x_b subject to every counted coverable node being
// covered at least once, and by the summed cost of the essential
// benchmarks always. The reductions are Certify's with costs: of identical
// benchmarks the cheapest stands for all, and a benchmark is dominated
// only by one that covers a superset of its nodes at a cost no higher. The
// cell limit is Certify's (opts.MaxCells) and so is the running time.
//
// The errors are Select's for Plan{Nodes, Impact, Objective: Cost, Costs,
// DefaultCost} taken from opts (a benchmark covering a counted node without
// a cost, a cost that is not positive and finite); an error is also
// returned if the simplex fails numerically.
func CertifyCost(cov *coverage.Result, opts CertifyOptions) (*CostCertificate, error) {
	plan := Plan{Nodes: opts.Nodes, Impact: opts.Impact, Objective: Cost, Costs: opts.Costs, DefaultCost: opts.DefaultCost}
	sel, err := Select(cov, plan)
	if err != nil {
		return nil, err
	}
	// Select validated the costs; benchmarkCosts only fails where it did.
	costs, err := benchmarkCosts(cov, plan)
	if err != nil {
		return nil, err
	}
	c := &CostCertificate{Nodes: plan.Nodes, Cost: sel.TotalCost}
	for _, st := range Greedy(cov, Options{Nodes: plan.Nodes, Impact: plan.Impact}).Steps {
		c.Greedy += costs[st.Index]
	}
	in := newCover(cov, plan.Nodes, costs)
	c.Elements, c.Sets, c.Essential = in.elements, in.sets, in.essentialCost
	c.LowerBound, c.LP = c.Essential, c.Essential
	if in.elements == 0 {
		c.Solved = true
		return c, nil
	}
	var value float64
	c.Rows, c.Cols, c.Skipped, value, err = in.bound(opts.MaxCells)
	if c.Skipped != "" || err != nil {
		return c, err
	}
	c.Solved = true
	c.LP = value
	c.LowerBound = max(c.Essential, value)
	return c, nil
}

// bound reduces the instance and solves its LP relaxation unless the
// reduced instance is over maxCells: the reduced rows and columns, why the
// LP was skipped ("" when it was solved), and its optimum.
func (in *cover) bound(maxCells int) (rows, cols int, skipped string, value float64, err error) {
	in.reduce()
	rows, cols = len(in.rows), in.ncols
	if skipped = in.skip(maxCells); skipped != "" {
		return rows, cols, skipped, 0, nil
	}
	value, err = in.solve()
	return rows, cols, "", value, err
}

// cover is a set cover instance for the LP: rows are the counted nodes the
// suite covers, each a bitset of the columns (benchmarks) that cover it.
type cover struct {
	rows  []bitset.Set
	ncols int
	// costs[j] is column j's cost; nil means 1 each.
	costs []float64
	// elements and sets count the rows and the benchmarks covering one
	// before any merging; essential counts the columns that alone cover
	// some row, essentialCost sums their costs.
	elements, sets int
	essential      int
	essentialCost  float64
	seed           maphash.Seed
}

// newCover builds the instance of cov's counted nodes. costs (by set
// index, nil for unit costs) must be positive for every set that covers a
// counted node. Identical columns are merged, keeping the smallest cost,
// and identical rows too.
func newCover(cov *coverage.Result, nodes Nodes, costs []float64) *cover {
	mask := cov.ProjectMask
	if nodes == AllNodes {
		mask = cov.AllMask
	}
	universe := cov.Covered.Clone()
	universe.And(mask)
	in := &cover{seed: maphash.MakeSeed()}
	elems := universe.Elems()
	in.elements = len(elems)
	if len(elems) == 0 {
		return in
	}
	// Columns: the benchmarks' sets restricted to the universe, deduped.
	var cols []bitset.Set
	seen := map[uint64][]int{}
	for i, s := range cov.Sets {
		col := s.Nodes.Clone()
		col.And(universe)
		if col.Len() == 0 {
			continue
		}
		in.sets++
		h := hashWords(in.seed, col)
		if j := slices.IndexFunc(seen[h], func(j int) bool { return slices.Equal(cols[j], col) }); j >= 0 {
			if costs != nil {
				j = seen[h][j]
				in.costs[j] = min(in.costs[j], costs[i])
			}
			continue
		}
		seen[h] = append(seen[h], len(cols))
		cols = append(cols, col)
		if costs != nil {
			in.costs = append(in.costs, costs[i])
		}
	}
	in.ncols = len(cols)
	// Rows: for each element, the columns covering it.
	rows := make([]bitset.Set, len(elems))
	for r, v := range elems {
		rows[r] = bitset.New(len(cols))
		for j, col := range cols {
			if col.Has(v) {
				rows[r].Add(j)
			}
		}
	}
	essential := bitset.New(len(cols))
	for _, row := range rows {
		if row.Len() == 1 {
			essential.Add(row.Elems()[0])
		}
	}
	in.essential = essential.Len()
	essential.Each(func(j int) { in.essentialCost += in.cost(j) })
	in.rows = dedupe(in.seed, rows)
	return in
}

func (in *cover) cost(j int) float64 {
	if in.costs == nil {
		return 1
	}
	return in.costs[j]
}

// reduce removes dominated rows and columns (see [reduce]) unless the
// instance is too large for the quadratic scan: R·C·(R+C) over 10¹¹.
func (in *cover) reduce() {
	if float64(len(in.rows))*float64(in.ncols)*float64(len(in.rows)+in.ncols) <= 1e11 {
		in.rows, in.ncols, in.costs = reduce(in.rows, in.ncols, in.costs)
	}
}

// skip returns why the LP is not solved under the cell limit maxCells (0:
// [DefaultMaxLPCells], negative: none), or "".
func (in *cover) skip(maxCells int) string {
	limit := maxCells
	if limit == 0 {
		limit = DefaultMaxLPCells
	}
	if cells := len(in.rows) * (in.ncols + len(in.rows)); limit > 0 && cells > limit {
		return fmt.Sprintf("LP of %d rows × %d columns (%d cells with surplus variables) is over the limit of %d cells", len(in.rows), in.ncols, cells, limit)
	}
	return ""
}

func (in *cover) solve() (float64, error) {
	value, err := solveCover(in.rows, in.ncols, in.costs)
	if err != nil {
		return 0, fmt.Errorf("optimize: LP relaxation of %d × %d: %w", len(in.rows), in.ncols, err)
	}
	return value, nil
}

func hashWords(seed maphash.Seed, s bitset.Set) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, w := range s {
		var b [8]byte
		for i := range b {
			b[i] = byte(w >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// dedupe returns sets without repeats, first occurrences kept in order.
func dedupe(seed maphash.Seed, sets []bitset.Set) []bitset.Set {
	seen := map[uint64][]int{}
	var out []bitset.Set
	for _, s := range sets {
		h := hashWords(seed, s)
		if slices.ContainsFunc(seen[h], func(j int) bool { return slices.Equal(out[j], s) }) {
			continue
		}
		seen[h] = append(seen[h], len(out))
		out = append(out, s)
	}
	return out
}

// reduce removes dominated rows (a row whose columns include another
// row's: covering the smaller row covers it) and dominated columns (a
// column whose rows are a subset of another column's at a cost no
// higher), until neither changes, and renumbers the columns. Rows are
// bitsets over ncols columns; costs (nil: 1 each) are the columns' costs.
// It returns the reduced rows, the number of columns left and their costs.
//
// Column a is dropped for b when rows(a) ⊆ rows(b), cost(b) ≤ cost(a) and
// b is strictly better by (more rows, lower cost, smaller index): that
// order is strict, so no two columns drop each other.
func reduce(rows []bitset.Set, ncols int, costs []float64) ([]bitset.Set, int, []float64) {
	cost := func(j int) float64 {
		if costs == nil {
			return 1
		}
		return costs[j]
	}
	for {
		changed := false
		// Rows: drop row i if some other row j ⊆ row i (rows are distinct).
		var keep []bitset.Set
		for i, ri := range rows {
			dominated := false
			for j, rj := range rows {
				if i != j && rj.AndNotLen(rj, ri) == 0 && rj.Len() <= ri.Len() && !(rj.Len() == ri.Len() && j > i) {
					dominated = true
					break
				}
			}
			if dominated {
				changed = true
				continue
			}
			keep = append(keep, ri)
		}
		rows = keep
		// Columns: transpose, drop column a if a ⊆ b for another b
		// no costlier (equal columns of equal cost: keep the first).
		colRows := make([]bitset.Set, ncols)
		for j := range colRows {
			colRows[j] = bitset.New(len(rows))
		}
		for r, row := range rows {
			row.Each(func(j int) { colRows[j].Add(r) })
		}
		var kept []int
		for a, ca := range colRows {
			if ca.Len() == 0 {
				continue
			}
			dominated := false
			for b, cb := range colRows {
				if a == b || ca.AndNotLen(ca, cb) != 0 || cost(b) > cost(a) {
					continue
				}
				if ca.Len() < cb.Len() || cost(b) < cost(a) || b < a {
					dominated = true
					break
				}
			}
			if !dominated {
				kept = append(kept, a)
			}
		}
		if len(kept) != ncols {
			changed = true
		}
		var newCosts []float64
		if costs != nil {
			newCosts = make([]float64, len(kept))
			for nj, j := range kept {
				newCosts[nj] = costs[j]
			}
		}
		costs = newCosts
		newRows := make([]bitset.Set, len(rows))
		for r := range rows {
			newRows[r] = bitset.New(len(kept))
			for nj, j := range kept {
				if rows[r].Has(j) {
					newRows[r].Add(nj)
				}
			}
		}
		rows, ncols = newRows, len(kept)
		if !changed {
			return rows, ncols, costs
		}
	}
}

// solveCover solves min Σ c_j x_j s.t. rows·x ≥ 1, x ≥ 0 in standard form;
// costs nil means c_j = 1.
func solveCover(rows []bitset.Set, ncols int, costs []float64) (float64, error) {
	m := len(rows)
	n := ncols + m
	a := mat.NewDense(m, n, nil)
	b := make([]float64, m)
	c := make([]float64, n)
	for j := 0; j < ncols; j++ {
		c[j] = 1
		if costs != nil {
			c[j] = costs[j]
		}
	}
	for r, row := range rows {
		row.Each(func(j int) { a.Set(r, j, 1) })
		a.Set(r, ncols+r, -1)
		b[r] = 1
	}
	// Only an optimum is a lower bound: any error (including the rare
	// numeric ones, which come with a merely feasible point) means none.
	value, _, err := lp.Simplex(c, a, b, 1e-10, nil)
	if err != nil {
		return 0, err
	}
	return value, nil
}

package optimize

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/mbopt/mbopt/bitset"
	"github.com/mbopt/mbopt/coverage"
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
	// MaxCells bounds the reduced LP's rows × (columns + rows); above
	// it the LP is skipped and only the combinatorial bound is given.
	// 0 means DefaultMaxLPCells; negative means no limit.
	MaxCells int
}

// Certificate says how far Algorithm 2's minimal suite can be from the
// smallest suite with the same coverage (minimum set cover over the
// counted nodes the suite covers).
type Certificate struct {
	// Nodes is the counted nodes (CertifyOptions.Nodes).
	Nodes Nodes
	// Greedy is the size of [Greedy]'s suite.
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

// Certify runs [Greedy] and bounds the size of the smallest suite with the
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
	g := Greedy(cov, Options{Nodes: opts.Nodes})
	mask := cov.ProjectMask
	if opts.Nodes == AllNodes {
		mask = cov.AllMask
	}
	universe := cov.Covered.Clone()
	universe.And(mask)
	c := &Certificate{Nodes: opts.Nodes, Greedy: len(g.Steps)}
	elems := universe.Elems()
	c.Elements = len(elems)
	if len(elems) == 0 {
		c.Solved = true
		return c, nil
	}

	// Columns: the benchmarks' sets restricted to the universe, deduped.
	var cols []bitset.Set
	seen := map[uint64][]int{}
	var seed = maphash.MakeSeed()
	for _, s := range cov.Sets {
		col := s.Nodes.Clone()
		col.And(universe)
		if col.Len() == 0 {
			continue
		}
		c.Sets++
		h := hashWords(seed, col)
		if slices.ContainsFunc(seen[h], func(j int) bool { return slices.Equal(cols[j], col) }) {
			continue
		}
		seen[h] = append(seen[h], len(cols))
		cols = append(cols, col)
	}
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
	essential := map[int]bool{}
	for _, row := range rows {
		if row.Len() == 1 {
			essential[row.Elems()[0]] = true
		}
	}
	c.Essential = len(essential)
	c.LowerBound = c.Essential
	c.LP = float64(c.Essential)

	rows = dedupe(seed, rows)
	ncols := len(cols)
	if float64(len(rows))*float64(ncols)*float64(len(rows)+ncols) <= 1e11 {
		rows, ncols = reduce(rows, ncols)
	}
	c.Rows, c.Cols = len(rows), ncols
	limit := opts.MaxCells
	if limit == 0 {
		limit = DefaultMaxLPCells
	}
	if cells := len(rows) * (c.Cols + len(rows)); limit > 0 && cells > limit {
		c.Skipped = fmt.Sprintf("LP of %d rows × %d columns (%d cells with surplus variables) is over the limit of %d cells", len(rows), c.Cols, cells, limit)
		return c, nil
	}
	value, err := solveCover(rows, c.Cols)
	if err != nil {
		return c, fmt.Errorf("optimize: LP relaxation of %d × %d: %w", len(rows), c.Cols, err)
	}
	c.Solved = true
	c.LP = value
	c.LowerBound = max(c.Essential, int(math.Ceil(value-1e-7)))
	return c, nil
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
// column whose rows are a subset of another column's), until neither
// changes, and renumbers the columns. Rows are bitsets over ncols columns;
// it returns the reduced rows and the number of columns left.
func reduce(rows []bitset.Set, ncols int) ([]bitset.Set, int) {
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
		// (equal columns: keep the first).
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
				if a != b && ca.AndNotLen(ca, cb) == 0 && (ca.Len() < cb.Len() || b < a) {
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
			return rows, ncols
		}
	}
}

// solveCover solves min Σx s.t. rows·x ≥ 1, x ≥ 0 in standard form.
func solveCover(rows []bitset.Set, ncols int) (float64, error) {
	m := len(rows)
	n := ncols + m
	a := mat.NewDense(m, n, nil)
	b := make([]float64, m)
	c := make([]float64, n)
	for j := 0; j < ncols; j++ {
		c[j] = 1
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

package shard

import (
	"cmp"
	"container/heap"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Spec names shard Index of Count. The zero value means "not sharded".
type Spec struct {
	// Index is the shard's number, from 0 to Count-1.
	Index int
	// Count is the number of shards, N; 0 means not sharded.
	Count int
}

// IndexEnv is the environment variable [Resolve] reads the shard index
// from: the index Kubernetes gives each pod of an Indexed Job.
const IndexEnv = "JOB_COMPLETION_INDEX"

// SpecEnv is the environment variable [Resolve] reads a whole K/N (or /N)
// from when no value is given.
const SpecEnv = "MBOPT_SHARD"

// MaxCount bounds the number of shards.
const MaxCount = 100000

// Parse parses "K/N": shard K of N, 0 ≤ K < N ≤ [MaxCount]. Errors say what
// is wrong with s and what is wanted.
func Parse(s string) (Spec, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Spec{}, fmt.Errorf("shard %q: want K/N, shard K of N counting from 0, such as 0/3", s)
	}
	count, err := strconv.Atoi(n)
	if err != nil || count < 1 || count > MaxCount {
		return Spec{}, fmt.Errorf("shard %q: N must be a whole number from 1 to %d", s, MaxCount)
	}
	index, err := strconv.Atoi(k)
	if err != nil {
		return Spec{}, fmt.Errorf("shard %q: K must be a whole number from 0 to %d", s, count-1)
	}
	if index < 0 || index >= count {
		return Spec{}, fmt.Errorf("shard %q: K must be from 0 to %d (shards count from 0, like %s)", s, count-1, IndexEnv)
	}
	return Spec{Index: index, Count: count}, nil
}

// Resolve returns the shard a command should take, from value (a flag's
// value) and the environment (getenv, such as os.Getenv):
//
//   - "K/N" is shard K of N;
//   - "/N" is shard $JOB_COMPLETION_INDEX of N (a Kubernetes Indexed Job,
//     whose pods know their index but not the completions count);
//   - "" uses $MBOPT_SHARD in either form, and is the zero Spec (not
//     sharded) when that is unset or empty.
//
// It fails when the value is malformed, or "/N" is given without
// JOB_COMPLETION_INDEX; the error names the variable.
func Resolve(value string, getenv func(string) string) (Spec, error) {
	from := ""
	if value == "" {
		value = getenv(SpecEnv)
		if value == "" {
			return Spec{}, nil
		}
		from = " (from " + SpecEnv + ")"
	}
	if strings.HasPrefix(strings.TrimSpace(value), "/") {
		idx := getenv(IndexEnv)
		if idx == "" {
			return Spec{}, fmt.Errorf("shard %q%s: the index comes from %s, which is not set; give K/N instead", value, from, IndexEnv)
		}
		value = idx + strings.TrimSpace(value)
	}
	s, err := Parse(value)
	if err != nil {
		return Spec{}, fmt.Errorf("%w%s", err, from)
	}
	return s, nil
}

// String returns "K/N", or "" for the zero Spec.
func (s Spec) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Enabled reports whether s names a shard (Count > 0).
func (s Spec) Enabled() bool { return s.Count > 0 }

// An Item is one benchmark to place on a shard.
type Item struct {
	// ID is the benchmark's unique ID; it breaks ties between equal costs.
	ID string
	// Cost is the expected cost, in seconds; it must be finite and not
	// negative.
	Cost float64
}

// ErrItems is wrapped by the errors of [Assign] for unusable items.
var ErrItems = errors.New("invalid shard items")

// Assign places items on n shards by longest-processing-time-first (see the
// package documentation) and returns each item's shard, indexed like
// items. It fails, wrapping [ErrItems], when n < 1, an ID repeats or is
// empty, or a cost is negative, infinite or NaN. Items are not modified.
// Its cost is O(m log m + m log n) for m items.
func Assign(items []Item, n int) ([]int, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: %d shards; want at least 1", ErrItems, n)
	}
	order := make([]int, len(items))
	for i, it := range items {
		if it.ID == "" {
			return nil, fmt.Errorf("%w: item %d has no ID", ErrItems, i)
		}
		if !(it.Cost >= 0) || it.Cost > maxCost {
			return nil, fmt.Errorf("%w: %s: cost %v; want a finite cost of at least 0", ErrItems, it.ID, it.Cost)
		}
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(items[b].Cost, items[a].Cost), strings.Compare(items[a].ID, items[b].ID))
	})
	if err := checkUnique(items); err != nil {
		return nil, err
	}
	h := make(loads, n)
	for i := range h {
		h[i] = load{index: i}
	}
	out := make([]int, len(items))
	for _, i := range order {
		out[i] = h[0].index
		h[0].sum += items[i].Cost
		heap.Fix(&h, 0)
	}
	return out, nil
}

// maxCost bounds an item's cost (about 31,700 years), far from overflow.
const maxCost = 1e12

func checkUnique(items []Item) error {
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		if seen[it.ID] {
			return fmt.Errorf("%w: %s appears twice", ErrItems, it.ID)
		}
		seen[it.ID] = true
	}
	return nil
}

// load is one shard's load in the heap of [Assign].
type load struct {
	sum   float64
	index int
}

// loads is a min-heap of shard loads, ties by shard index.
type loads []load

func (h loads) Len() int { return len(h) }
func (h loads) Less(i, j int) bool {
	return h[i].sum < h[j].sum || h[i].sum == h[j].sum && h[i].index < h[j].index
}
func (h loads) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *loads) Push(x any)   { *h = append(*h, x.(load)) }
func (h *loads) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Share returns the IDs [Assign] places on shard s.Index of s.Count, sorted.
// It fails like Assign, and when s is not a valid shard.
func Share(items []Item, s Spec) ([]string, error) {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return nil, fmt.Errorf("%w: shard %d of %d", ErrItems, s.Index, s.Count)
	}
	a, err := Assign(items, s.Count)
	if err != nil {
		return nil, err
	}
	var ids []string
	for i, k := range a {
		if k == s.Index {
			ids = append(ids, items[i].ID)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Items returns one item per ID, in the order of ids, with its cost from
// costs (seconds, keyed by ID, as manifest.Manifest.Costs returns them).
// An ID without a cost gets the mean cost of the IDs that have one, the
// best guess for a benchmark nothing is known about (summed in ID order,
// so the order of ids does not change it). When no ID has a
// cost, every item costs 1, so [Assign] balances the counts; byCount
// reports that case.
func Items(ids []string, costs map[string]float64) (items []Item, byCount bool) {
	sum, known := 0.0, 0
	for _, id := range slices.Sorted(slices.Values(ids)) { // a sum in a fixed order

		if c, ok := costs[id]; ok && c > 0 {
			sum += c
			known++
		}
	}
	mean := 1.0
	if known > 0 {
		mean = sum / float64(known)
	}
	items = make([]Item, len(ids))
	for i, id := range ids {
		c, ok := costs[id]
		if !ok || !(c > 0) || known == 0 {
			c = mean
		}
		items[i] = Item{ID: id, Cost: c}
	}
	return items, known == 0
}

// A Summary describes how balanced a partition is.
type Summary struct {
	// Loads is each shard's total cost, indexed by shard.
	Loads []float64
	// Counts is each shard's number of items, indexed by shard.
	Counts []int
	// Ideal is the total cost divided by the number of shards.
	Ideal float64
	// MaxItem is the largest single item's cost.
	MaxItem float64
	// Max is the largest load: the time the slowest shard takes.
	Max float64
}

// Balance summarizes the partition assign (as returned by [Assign]) of
// items over n shards.
func Balance(items []Item, assign []int, n int) Summary {
	s := Summary{Loads: make([]float64, n), Counts: make([]int, n)}
	total := 0.0
	for i, it := range items {
		s.Loads[assign[i]] += it.Cost
		s.Counts[assign[i]]++
		total += it.Cost
		s.MaxItem = max(s.MaxItem, it.Cost)
	}
	s.Ideal = total / float64(n)
	s.Max = slices.Max(append([]float64{0}, s.Loads...))
	return s
}

// Digest returns "sha256:" and the hex SHA-256 of the items sorted by ID,
// one "ID<TAB>cost" line each (cost in Go's shortest float formatting), so
// two machines that partitioned the same items get the same digest.
func Digest(items []Item) string {
	sorted := slices.Clone(items)
	slices.SortFunc(sorted, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
	h := sha256.New()
	var b []byte
	for _, it := range sorted {
		b = append(b[:0], it.ID...)
		b = append(b, '\t')
		b = strconv.AppendFloat(b, it.Cost, 'g', -1, 64)
		b = append(b, '\n')
		h.Write(b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

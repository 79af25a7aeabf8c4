package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/internal/textutil"
)

// ExclusionNote says which benchmarks [SelectConfig].ExcludeBenchmarks kept
// out of the suite and what coverage that costs: the coverage the other
// benchmarks reach together, which is all the suite can keep, against the
// whole suite's. It is a [Note].
type ExclusionNote struct {
	// Excluded are the benchmarks left out, by their ids in the analysis,
	// sorted.
	Excluded []string
	// Unmatched are the given ids that name no analysed benchmark, in
	// the order given.
	Unmatched []string
	// Project and Overall are the coverage of the benchmarks not left out.
	Project, Overall coverage.Ratio
	// FullProject and FullOverall are the whole suite's coverage.
	FullProject, FullOverall coverage.Ratio
	// Lost are the application's project functions that only excluded
	// benchmarks cover, sorted by name.
	Lost []string
}

// Error returns the note with the field named as Go code names it.
func (n *ExclusionNote) Error() string { return n.Text(mbopt.Field.String) }

// Note marks ExclusionNote as information.
func (n *ExclusionNote) Note() {}

// Text returns the note with the ExcludeBenchmarks field named by name.
func (n *ExclusionNote) Text(name func(mbopt.Field) string) string {
	var b strings.Builder
	if len(n.Excluded) == 0 {
		return fmt.Sprintf("%s: %s name no analysed benchmark, so none was left out", name(FieldSelectExcludeBenchmarks), strings.Join(n.Unmatched, ", "))
	}
	fmt.Fprintf(&b, "%s left out %d of the benchmarks (%s): the suite can cover %s project and %s overall instead of %s and %s",
		name(FieldSelectExcludeBenchmarks), len(n.Excluded), strings.Join(n.Excluded, ", "),
		ratioWords(n.Project), ratioWords(n.Overall), ratioWords(n.FullProject), ratioWords(n.FullOverall))
	if len(n.Lost) > 0 {
		fmt.Fprintf(&b, "; no other benchmark covers %s", textutil.List(n.Lost, 5))
	}
	if len(n.Unmatched) > 0 {
		fmt.Fprintf(&b, "; %s name no analysed benchmark", strings.Join(n.Unmatched, ", "))
	}
	return b.String()
}

func newRatio(covered, total int) coverage.Ratio {
	r := coverage.Ratio{Covered: covered, Total: total}
	if total > 0 {
		r.Ratio = float64(covered) / float64(total)
	}
	return r
}

func ratioWords(r coverage.Ratio) string {
	return fmt.Sprintf("%d/%d (%.1f%%)", r.Covered, r.Total, 100*r.Ratio)
}

// excludedSets resolves SelectConfig.ExcludeBenchmarks to the ids of
// rep.Coverage's sets: a given id matches a benchmark's id in the analysis
// or the id mbopt compare and the history use (rep.compareID). It returns
// nil when nothing is given.
func excludedSets(given []string, rep *Report) *ExclusionNote {
	if len(given) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, id := range given {
		want[id] = true
	}
	matched := map[string]bool{}
	n := &ExclusionNote{}
	cov := rep.Coverage
	keep := bitset.New(cov.App.Len())
	for _, s := range cov.Sets {
		names := []string{s.ID}
		if id := rep.compareID(s.ID); id != "" && id != s.ID {
			names = append(names, id)
		}
		out := false
		for _, id := range names {
			if want[id] {
				matched[id], out = true, true
			}
		}
		if out {
			n.Excluded = append(n.Excluded, s.ID)
			continue
		}
		keep.Or(s.Nodes)
	}
	for _, id := range given {
		if !matched[id] && !slices.Contains(n.Unmatched, id) {
			n.Unmatched = append(n.Unmatched, id)
		}
	}
	slices.Sort(n.Excluded)
	n.FullProject, n.FullOverall = cov.Project, cov.Overall
	n.Project = newRatio(keep.IntersectionLen(cov.ProjectMask), cov.Project.Total)
	n.Overall = newRatio(keep.IntersectionLen(cov.AllMask), cov.Overall.Total)
	for i, node := range cov.App.Nodes {
		if node.Project && cov.Covered.Has(i) && !keep.Has(i) {
			n.Lost = append(n.Lost, node.Name)
		}
	}
	slices.Sort(n.Lost)
	return n
}

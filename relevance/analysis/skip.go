package analysis

import (
	"cmp"
	"fmt"

	"github.com/mbopt/mbopt/internal/textutil"
)

// Skip records a benchmark profile that was left out and why. As an error
// (with [Config.Strict], the first skip fails the analysis) it reads
// "File: Reason".
type Skip struct {
	// File is the profile, or the manifest or log file that records why
	// there is none.
	File string
	// Reason says why the profile was left out.
	Reason string
	// ID is the benchmark's id when known (from a manifest).
	ID string
}

// Error returns "File: Reason".
func (s *Skip) Error() string { return s.File + ": " + s.Reason }

// SkipGroup is the benchmark profiles skipped for one reason.
type SkipGroup struct {
	// Reason is the reason they share.
	Reason string
	// Skips are the skipped profiles, in the report's order.
	Skips []Skip
}

// String words g as a warning: a profile skipped alone for its reason is
// named with its file, several with the first three names (the report
// lists each with its file).
func (g SkipGroup) String() string {
	if len(g.Skips) > 1 {
		names := make([]string, len(g.Skips))
		for i, s := range g.Skips {
			names[i] = cmp.Or(s.ID, s.File)
		}
		return fmt.Sprintf("skipping %d benchmarks (%s; the report lists each with its file): %s", len(names), textutil.List(names, 3), g.Reason)
	}
	if s := g.Skips[0]; s.ID != "" {
		return fmt.Sprintf("skipping %s (%s): %s", s.ID, s.File, s.Reason)
	}
	return fmt.Sprintf("skipping %s: %s", g.Skips[0].File, g.Reason)
}

// SkipGroups groups skips by reason, in the order each reason first
// appears: a module whose benchmarks skip themselves for want of test data
// gives one group, not a line per benchmark.
func SkipGroups(skips []Skip) []SkipGroup {
	var groups []SkipGroup
	at := map[string]int{}
	for _, s := range skips {
		i, ok := at[s.Reason]
		if !ok {
			i = len(groups)
			at[s.Reason] = i
			groups = append(groups, SkipGroup{Reason: s.Reason})
		}
		groups[i].Skips = append(groups[i].Skips, s)
	}
	return groups
}

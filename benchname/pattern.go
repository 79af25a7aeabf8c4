package benchname

import (
	"regexp"
	"slices"
	"strings"
)

// Pattern returns a -bench pattern that selects exactly the benchmarks with
// the given full names (taken as printed; see [Rewrite]) in one package.
// Names that share all elements but the last are grouped into one
// alternative, like ^BenchmarkA$/^(x|y)$; alternatives are sorted, so the
// result does not depend on the order of names. Pattern of no names is
// "^$", which matches nothing.
func Pattern(names []string) string {
	groups := make(map[string][]string) // parent pattern -> quoted last elements
	for _, n := range names {
		elems := strings.Split(n, "/")
		parent := make([]string, len(elems)-1)
		for i, e := range elems[:len(elems)-1] {
			parent[i] = "^" + regexp.QuoteMeta(e) + "$"
		}
		p := strings.Join(parent, "/")
		last := regexp.QuoteMeta(elems[len(elems)-1])
		if !slices.Contains(groups[p], last) {
			groups[p] = append(groups[p], last)
		}
	}
	if len(groups) == 0 {
		return "^$"
	}
	alts := make([]string, 0, len(groups))
	for p, lasts := range groups {
		slices.Sort(lasts)
		leaf := "^" + lasts[0] + "$"
		if len(lasts) > 1 {
			leaf = "^(" + strings.Join(lasts, "|") + ")$"
		}
		if p != "" {
			leaf = p + "/" + leaf
		}
		alts = append(alts, leaf)
	}
	slices.Sort(alts)
	return strings.Join(alts, "|")
}

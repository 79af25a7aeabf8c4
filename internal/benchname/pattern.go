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
//
// A name that descends from another given name (BenchmarkA/x/y when
// BenchmarkA/x is given) is left out: go test runs every sub-benchmark of a
// benchmark it selects, so the ancestor's alternative selects it already,
// and go test takes the first alternative that matches a name, so a deeper
// alternative placed first would match the ancestor only as a parent and
// hide it.
func Pattern(names []string) string {
	given := make(map[string]bool, len(names))
	for _, n := range names {
		given[n] = true
	}
	groups := make(map[string][]string) // parent pattern -> quoted last elements
	for _, n := range names {
		if hasGivenAncestor(n, given) {
			continue
		}
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

// hasGivenAncestor reports whether a proper ancestor of name (name cut at one
// of its "/") is in given.
func hasGivenAncestor(name string, given map[string]bool) bool {
	for i := range len(name) {
		if name[i] == '/' && given[name[:i]] {
			return true
		}
	}
	return false
}

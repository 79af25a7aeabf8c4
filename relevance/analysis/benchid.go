package analysis

import "github.com/mbopt/mbopt/internal/benchname"

// benchmarkOf translates the analysis id of a benchmark (its profile's
// name, or its collection manifest entry's id) into the benchmark's
// package import path and full name, the one rule every caller that runs
// or matches a benchmark by package uses: the manifest entry's Package and
// Name when rep has an entry for id (rep.Entries), else the parts of an id
// of the form "<import path>.<BenchmarkName>[/<sub>...]"
// ([benchname.SplitID]). ok is false for ids of neither kind, such as
// hand-named "storage__BenchmarkX" profiles; pkg and name are then empty.
func (rep *Report) benchmarkOf(id string) (pkg, name string, ok bool) {
	if e, found := rep.Entries[id]; found {
		return e.Package, e.Name, true
	}
	return benchname.SplitID(id)
}

// compareID returns the id package compare gives the benchmark with
// analysis id id ([benchname.ID] of its package and full name, see
// benchmarkOf), or "" when id does not say its package and name.
func (rep *Report) compareID(id string) string {
	pkg, name, ok := rep.benchmarkOf(id)
	if !ok || pkg == "" || name == "" {
		return ""
	}
	return benchname.ID(pkg, name)
}

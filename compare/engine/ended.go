package engine

import (
	"slices"
	"strings"
)

// An endedRun is a process of a unit that ended in one of its
// sub-benchmarks (a panic, an os.Exit), so the benchmarks after it did
// not run in it.
type endedRun struct {
	in      string   // the sub-benchmark it ended in
	started []string // the benchmarks it started, in order
}

// noteStarts records what outcome o of a process of u in a version shows
// of the order u's benchmarks run in (outcome.started), and, when the
// process ended in a sub-benchmark, where, each once.
func (u *unit) noteStarts(side Side, o outcome) {
	if len(o.started) > 0 && !slices.ContainsFunc(u.starts[side], func(s []string) bool { return slices.Equal(s, o.started) }) {
		u.starts[side] = append(u.starts[side], o.started)
	}
	if o.ended != "" && !slices.ContainsFunc(u.endedRuns[side], func(e endedRun) bool { return e.in == o.ended && slices.Equal(e.started, o.started) }) {
		u.endedRuns[side] = append(u.endedRuns[side], endedRun{in: o.ended, started: o.started})
	}
}

// notRun returns the sub-benchmarks of u that did not run in a version
// because one of its processes there ended before them, by full name,
// with the sub-benchmark that process ended in (the first process's);
// nil when none is known. A process of either version that started them
// tells their names and order: one did not run in a process that ended
// when another process started it after the last benchmark the one that
// ended started. So a benchmark only the other version has is not
// counted when it comes before (it was added or removed, not kept from
// running). Parents are left out: their sub-benchmarks are named.
func (u *unit) notRun(side Side) map[string]string {
	orders := slices.Concat(u.starts[Base], u.starts[Head])
	parent := map[string]bool{}
	for _, order := range orders {
		for _, name := range order {
			for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
				parent[name[:i]] = true
			}
		}
	}
	var out map[string]string
	for _, e := range u.endedRuns[side] {
		for _, order := range orders {
			last := -1
			for i, name := range order {
				if slices.Contains(e.started, name) {
					last = i
				}
			}
			if last < 0 {
				continue
			}
			for _, name := range order[last+1:] {
				if parent[name] || !strings.HasPrefix(name, u.name+"/") || out[name] != "" {
					continue
				}
				if out == nil {
					out = map[string]string{}
				}
				out[name] = e.in
			}
		}
	}
	return out
}

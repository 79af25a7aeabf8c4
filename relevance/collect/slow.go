package collect

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// A SlowParent is a top-level benchmark whose sub-benchmarks, each
// collected in a process of its own, spent far longer in their processes
// than in their timed loops: each process runs again what the parent does
// before b.Run, its setup, which one process per top-level benchmark
// (Config.TopLevelOnly) would run once.
type SlowParent struct {
	// ID is the top-level benchmark's ID, and Name its name.
	ID, Name string
	// Leaves is the number of its sub-benchmarks collected.
	Leaves int
	// MinWall and MaxWall bound the wall times of their processes, in
	// seconds.
	MinWall, MaxWall float64
	// Outside is the time the processes spent outside the timed loops, in
	// seconds, summed over them.
	Outside float64
	// BenchTime is the benchtime of the sub-benchmarks.
	BenchTime string
}

// Thresholds of SlowParents: a leaf's process is slow when the time it
// spent outside its timed loop is at least slowFactor times the loop's
// time and at least slowMinSeconds; a parent is reported when the median
// of its leaves is, and its leaves spent slowTotalSeconds or more outside
// their loops in all.
const (
	slowFactor       = 2
	slowMinSeconds   = 2
	slowTotalSeconds = 10
)

// SlowParents returns the top-level benchmarks of m whose sub-benchmarks'
// processes spent far longer than their timed loops, sorted by ID. A
// leaf's timed loop lasted its ns/op times its iterations; the rest of its
// process's wall time is outside it: process start, go test's shorter runs
// before the last (about as long again for a duration benchtime), and the
// setup before the timer, the parent's before b.Run included. A parent is
// reported when the median of its (at least two, status ok) leaves spent
// at least twice its loop's time and 2 s outside it, and all of them 10 s
// or more. An instruction collection (manifest.SourceInstructions) has
// none: its processes ran under Valgrind, 30 to 100 times slower than
// natively, and recorded no ns/op to tell the loop's time.
func SlowParents(m *manifest.Manifest) []SlowParent {
	if m.IsInstructions() {
		return nil
	}
	type leaf struct{ wall, outside float64 }
	byTop := map[string][]leaf{}
	bench, name := map[string]string{}, map[string]string{}
	for _, e := range m.Benchmarks {
		top := benchname.Top(e.Name)
		if e.Status != manifest.StatusOK || top == e.Name {
			continue
		}
		id := benchname.ID(e.Package, top)
		timed := e.NsPerOp * float64(e.Iterations) / 1e9
		byTop[id] = append(byTop[id], leaf{e.WallSeconds, max(e.WallSeconds-timed, 0)})
		bench[id], name[id] = e.BenchTime, top
	}
	var out []SlowParent
	for id, ls := range byTop {
		if len(ls) < 2 {
			continue
		}
		slices.SortFunc(ls, func(a, b leaf) int { return cmp.Compare(a.outside, b.outside) })
		med := ls[len(ls)/2]
		timed := med.wall - med.outside
		sp := SlowParent{ID: id, Name: name[id], Leaves: len(ls), MinWall: ls[0].wall, MaxWall: ls[0].wall, BenchTime: bench[id]}
		for _, l := range ls {
			sp.MinWall, sp.MaxWall = min(sp.MinWall, l.wall), max(sp.MaxWall, l.wall)
			sp.Outside += l.outside
		}
		if med.outside >= slowFactor*timed && med.outside >= slowMinSeconds && sp.Outside >= slowTotalSeconds {
			out = append(out, sp)
		}
	}
	slices.SortFunc(out, func(a, b SlowParent) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// String says what happened and what to do, naming the command line's
// flags.
func (s SlowParent) String() string {
	top := s.Name
	return fmt.Sprintf("the %d sub-benchmark processes of %s took %.1f-%.1f s each for a benchtime of %s, %.0f s in all outside their timed loops: each runs again what %s does before b.Run; collect it as one unit (--sub=false) or leave it out (--skip '^%s$')",
		s.Leaves, s.ID, s.MinWall, s.MaxWall, s.BenchTime, s.Outside, top, top)
}

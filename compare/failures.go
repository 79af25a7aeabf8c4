package compare

// This file marks the results of the benchmarks that failed, did not
// build, skipped themselves or measured nothing, and those the change
// left untouched.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
)

// failures marks the results of the benchmarks that skipped themselves,
// failed or did not build in a version (the engine's Raw.Packages and
// Raw.Units), and adds results for those that measured nothing. A failure
// is marked after a skip, and wins.
func (c *comparison) failures(rs []Result) []Result {
	rs = c.skips(rs)
	rs = c.buildFailures(rs)
	rs = c.unitFailures(rs)
	rs = c.subFailures(rs)
	// A requested benchmark measured in neither version and not failed:
	// it exists in neither.
	for _, u := range c.raw.Units {
		if errs := c.raw.Packages[u.Package]; u.Requested && !u.On[Base] && !u.On[Head] && len(u.IDs) == 0 && errs[Base] == "" && errs[Head] == "" {
			c.note(fmt.Sprintf("%s exists in neither revision", benchname.ID(u.Package, u.Name)))
		}
	}
	return rs
}

// markFailed makes rs[i] a result of status st in a version, with why. A
// result that already failed so in the other version failed in both
// ([SideBoth]), with both versions' reasons ([bothErrors]).
func markFailed(rs []Result, i int, st Status, side Side, msg string) {
	if rs[i].Status == st && rs[i].Side != "" && rs[i].Side != side.String() {
		rs[i].Side, rs[i].Error = SideBoth, bothErrors(rs[i].Error, msg)
		return
	}
	rs[i].Status, rs[i].Side, rs[i].Error = st, side.String(), msg
	rs[i].Estimate, rs[i].Instability, rs[i].Verdict, rs[i].PValue = nil, 0, benchstats.Unchanged, 0
}

// addFailure appends r, a result that failed in one version, to rs, or
// makes the result of rs with its id and status, failed in the other
// version, one that failed in both.
func addFailure(rs []Result, r Result) []Result {
	for i := range rs {
		if rs[i].ID == r.ID && rs[i].Status == r.Status && rs[i].Side != "" && rs[i].Side != r.Side {
			rs[i].Side, rs[i].Error = SideBoth, bothErrors(rs[i].Error, r.Error)
			return rs
		}
	}
	return append(rs, r)
}

// bothErrors is the error of a result that failed in both versions: the
// one reason when they are the same, else the base's then the head's, each
// named. failures visits the base before the head.
func bothErrors(base, head string) string {
	if base == head {
		return base
	}
	return "base: " + base + "\nhead: " + head
}

// buildFailures marks every result of a package that did not build in a
// version, measured only in the other version, BuildFailed; when none
// was, it adds a result for each requested benchmark of it, or else for
// the package.
func (c *comparison) buildFailures(rs []Result) []Result {
	byPkg := map[string][]int{}
	for i, res := range rs {
		byPkg[res.Package] = append(byPkg[res.Package], i)
	}
	for _, p := range c.raw.PackageNames() {
		for side, msg := range c.raw.Packages[p] {
			if msg == "" {
				continue
			}
			only := Added
			if side == int(Head) {
				only = Removed
			}
			marked := false
			for _, i := range byPkg[p] {
				if rs[i].Status == only || (rs[i].Status == Compared && c.raw.Same) {
					markFailed(rs, i, BuildFailed, Side(side), msg)
					marked = true
				}
			}
			if marked {
				continue
			}
			// Nothing measured: name the requested benchmarks, or the
			// package.
			added := false
			for _, u := range c.raw.Units {
				if u.Package == p && u.Requested {
					rs = addFailure(rs, Result{ID: benchname.ID(p, u.Name), Package: p, Name: u.Name, Status: BuildFailed, Side: Side(side).String(), Error: msg})
					added = true
				}
			}
			if !added {
				rs = addFailure(rs, Result{ID: p, Package: p, Status: BuildFailed, Side: Side(side).String(), Error: msg})
			}
		}
	}
	return rs
}

// unitFailures marks the results of a unit that failed as a whole in a
// version Failed, or adds one when it measured nothing.
func (c *comparison) unitFailures(rs []Result) []Result {
	for _, u := range c.raw.Units {
		for side, msg := range u.Failed {
			if msg == "" {
				continue
			}
			if len(u.IDs) == 0 {
				rs = addFailure(rs, Result{ID: benchname.ID(u.Package, u.Name), Package: u.Package, Name: u.Name, Status: Failed, Side: Side(side).String(), Error: msg})
				continue
			}
			for i := range rs {
				if slices.Contains(u.IDs, rs[i].ID) && rs[i].Status != BuildFailed {
					markFailed(rs, i, Failed, Side(side), msg)
				}
			}
		}
	}
	return rs
}

// subFailures marks the sub-benchmarks that failed while the others went
// on, and those that did not run because one ended the process (the
// engine's Unit.NotRun), Failed. When no process showed the names of the
// benchmarks after the one that ended it, that one's failure says they
// did not run.
func (c *comparison) subFailures(rs []Result) []Result {
	for _, u := range c.raw.Units {
		for side := range 2 {
			if u.Failed[side] != "" {
				continue
			}
			ended := u.Ended[side]
			for _, name := range slices.Sorted(maps.Keys(u.SubFailed[side])) {
				msg := u.SubFailed[side][name]
				if name == ended && len(u.NotRun[side]) == 0 {
					first, rest, _ := strings.Cut(msg, "\n")
					msg = fmt.Sprintf("%s; it ended the process: the benchmarks of %s after it, if any, did not run (no process showed their names)", first, u.Name)
					if rest != "" {
						msg += "\n" + rest
					}
				}
				rs = markBench(rs, u.Package, name, Failed, Side(side), msg)
			}
			for _, name := range slices.Sorted(maps.Keys(u.NotRun[side])) {
				in := u.NotRun[side][name]
				rs = markBench(rs, u.Package, name, Failed, Side(side), fmt.Sprintf("did not run: the process ended in %s before it (%s)", in, textutil.FirstLine(u.SubFailed[side][in])))
			}
		}
	}
	return rs
}

// markBench marks the results of benchmark name of package pkg and of
// the sub-benchmarks under it status st in a version, with why (see
// [markFailed]), but those that did not build; when it has none, it adds
// one ([addFailure]).
func markBench(rs []Result, pkg, name string, st Status, side Side, msg string) []Result {
	id := benchname.ID(pkg, name)
	found := false
	for i := range rs {
		if rs[i].Package == pkg && (rs[i].ID == id || strings.HasPrefix(rs[i].ID, id+"/")) && rs[i].Status != BuildFailed {
			markFailed(rs, i, st, side, msg)
			found = true
		}
	}
	if !found {
		rs = addFailure(rs, Result{ID: id, Package: pkg, Name: name, Status: st, Side: side.String(), Error: msg})
	}
	return rs
}

// skips marks the results of the benchmarks that skipped themselves in a
// version (the engine's Unit.Skipped) Skipped there, or adds one for
// those that measured nothing: a benchmark that skipped in both versions
// is one result, [SideBoth]. A benchmark measured in the base that skips
// itself in the head is no longer compared, which fails no gate: a note
// says so.
func (c *comparison) skips(rs []Result) []Result {
	for _, u := range c.raw.Units {
		for side := range 2 {
			for _, name := range slices.Sorted(maps.Keys(u.Skipped[side])) {
				msg := u.Skipped[side][name]
				if Side(side) == Head && u.Skipped[Base][name] == "" && measuredOnly(rs, u.Package, name, Removed) {
					c.note(fmt.Sprintf("%s ran in the base and skipped itself in the head (%s): it is not compared, and no gate fails on it",
						benchname.ID(u.Package, name), textutil.FirstLine(msg)))
				}
				rs = markBench(rs, u.Package, name, Skipped, Side(side), msg)
			}
		}
	}
	return rs
}

// measuredOnly reports whether benchmark name of package pkg, or a
// sub-benchmark under it, has a result of status st (Added or Removed:
// measured in one version only).
func measuredOnly(rs []Result, pkg, name string, st Status) bool {
	id := benchname.ID(pkg, name)
	for _, r := range rs {
		if r.Package == pkg && (r.ID == id || strings.HasPrefix(r.ID, id+"/")) && r.Status == st {
			return true
		}
	}
	return false
}

// markUntouched marks the results of the benchmarks that affected (nil:
// unknown) does not list, and returns how many of them are detections.
func markUntouched(rs []Result, affected map[string]bool) int {
	if affected == nil {
		return 0
	}
	n := 0
	for i := range rs {
		if affected[benchname.ID(rs[i].Package, benchname.Top(rs[i].Name))] {
			continue
		}
		rs[i].Untouched = true
		if rs[i].Verdict != benchstats.Unchanged {
			n++
		}
	}
	return n
}

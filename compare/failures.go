package compare

// This file marks the results of the benchmarks that failed, did not
// build or measured nothing, and those the change left untouched.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
)

// failures marks the results of the benchmarks that failed or did not
// build in a version, and adds results for those that measured nothing.
func (r *runner) failures(rs []Result) []Result {
	byPkg := map[string][]int{}
	for i, res := range rs {
		byPkg[res.Package] = append(byPkg[res.Package], i)
	}
	mark := func(i int, st Status, side Side, msg string) {
		rs[i].Status, rs[i].Side, rs[i].Error = st, side.String(), msg
		rs[i].Estimate, rs[i].Instability, rs[i].Verdict, rs[i].PValue = nil, 0, benchstats.Unchanged, 0
	}
	// Build failures: every result of the package measured only in the
	// other version.
	pkgs := make([]string, 0, len(r.builds))
	for p := range r.builds {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		pb := r.builds[p]
		for side := range 2 {
			msg := pb[side].err
			if msg == "" {
				continue
			}
			only := Added
			if side == int(Head) {
				only = Removed
			}
			marked := false
			for _, i := range byPkg[p] {
				if rs[i].Status == only || (rs[i].Status == Compared && r.same) {
					mark(i, BuildFailed, Side(side), msg)
					marked = true
				}
			}
			if marked {
				continue
			}
			// Nothing measured: name the requested benchmarks, or the
			// package.
			added := false
			for _, u := range r.units {
				if u.pkg == p && u.requested {
					rs = append(rs, Result{ID: benchname.ID(p, u.name), Package: p, Name: u.name, Status: BuildFailed, Side: Side(side).String(), Error: msg})
					added = true
				}
			}
			if !added {
				rs = append(rs, Result{ID: p, Package: p, Status: BuildFailed, Side: Side(side).String(), Error: msg})
			}
		}
	}
	for _, u := range r.units {
		for side := range 2 {
			msg := u.failed[side]
			if msg == "" {
				continue
			}
			ids := r.ids(u)
			if len(ids) == 0 {
				rs = append(rs, Result{ID: benchname.ID(u.pkg, u.name), Package: u.pkg, Name: u.name, Status: Failed, Side: Side(side).String(), Error: msg})
				continue
			}
			for i := range rs {
				if slices.Contains(ids, rs[i].ID) && rs[i].Status != BuildFailed {
					mark(i, Failed, Side(side), msg)
				}
			}
		}
	}
	// Sub-benchmarks that failed while the others went on, and those that
	// did not run because one ended the process.
	for _, u := range r.units {
		for side := range 2 {
			if u.failed[side] != "" {
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(u.subFailed[side])) {
				msg := u.subFailed[side][name]
				id := benchname.ID(u.pkg, name)
				found := false
				for i := range rs {
					if rs[i].Package == u.pkg && (rs[i].ID == id || strings.HasPrefix(rs[i].ID, id+"/")) && rs[i].Status != BuildFailed {
						mark(i, Failed, Side(side), msg)
						found = true
					}
				}
				if !found {
					rs = append(rs, Result{ID: id, Package: u.pkg, Name: name, Status: Failed, Side: Side(side).String(), Error: msg})
				}
			}
			ended := u.ended[side]
			if ended == "" {
				continue
			}
			// Measured only in the other version: not added or removed,
			// but never reached here.
			only := Added
			if Side(side) == Head {
				only = Removed
			}
			ids := r.ids(u)
			for i := range rs {
				if rs[i].Status == only && slices.Contains(ids, rs[i].ID) {
					mark(i, Failed, Side(side), fmt.Sprintf("did not run: the process ended in %s before it (%s)", ended, textutil.FirstLine(u.subFailed[side][ended])))
				}
			}
		}
	}
	// A requested benchmark measured in neither version and not failed:
	// it exists in neither.
	for _, u := range r.units {
		if u.requested && !u.on[Base] && !u.on[Head] && len(r.ids(u)) == 0 && r.builds[u.pkg][Base].err == "" && r.builds[u.pkg][Head].err == "" {
			r.note(fmt.Sprintf("%s exists in neither revision", benchname.ID(u.pkg, u.name)))
		}
	}
	return rs
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

// ignored notes, once per unit and version, the lines of its output that
// looked like results of benchmarks it was not asked to run.
func (r *runner) ignored(u *unit, side Side, names []string) {
	key := side.String() + "\x00" + u.id()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.noisy[key] {
		return
	}
	r.noisy[key] = true
	r.note(fmt.Sprintf("%s (%s): its output has lines that look like benchmark results but are not results of the benchmarks it ran (named %s; printed by a benchmark itself?): ignored",
		u.id(), side, strings.Join(names, ", ")))
}

package engine

import (
	"fmt"
	"sync"

	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/relevance/measure"
)

// funcProfiles holds, with the instructions metric, the per-function
// profile of every measurement of every benchmark and version, in the
// measurements' hierarchy (trial → run → measurement, as the raw files
// give the benchmark's own estimate), and the last measurement's profile
// per source line, which the culprits' pprof files are written from.
type funcProfiles struct {
	mu        sync.Mutex
	sides     map[string]*funcSide // side + "\x00" + id
	resolvers [2]*culprit.Resolver
	resolving [2]sync.Mutex     // a version's resolver is used by one measurement at a time
	failed    map[string]string // side + "\x00" + id → why a profile could not be read
}

// A funcSide is one benchmark's profiles in one version.
type funcSide struct {
	h    culprit.Measurements
	last *culprit.Profile
}

// keepFuncs reads the Valgrind files of measurement v of benchmark id in
// a version (run run of trial trial, from 1) into its per-function
// profile. A file that cannot be read costs the benchmark its culprits,
// which say why, not the comparison.
func (r *runner) keepFuncs(side Side, id string, trial, run int, v measure.Value) {
	f := &r.cnt.funcs
	key := side.String() + "\x00" + id
	f.mu.Lock()
	rs := f.resolvers[side]
	if rs == nil {
		// A cached test binary names the files of the worktree it was
		// built in, which may be gone: the same commit is checked out
		// under this version's root. Measurements that run at the same
		// time (Schedule.Jobs) take turns with it.
		rs = culprit.NewResolver()
		rs.Roots = []string{r.vers[side].dir}
		f.resolvers[side] = rs
	}
	f.mu.Unlock()
	var p *culprit.Profile
	err := fmt.Errorf("valgrind kept %d output files, not 2", len(v.Files))
	if len(v.Files) == 2 {
		f.resolving[side].Lock()
		p, err = culprit.Instructions(rs, v.Files[0], v.Files[1], v.N1, v.N2)
		f.resolving[side].Unlock()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		if f.failed == nil {
			f.failed = map[string]string{}
		}
		f.failed[key] = err.Error()
		return
	}
	if f.sides == nil {
		f.sides = map[string]*funcSide{}
	}
	s := f.sides[key]
	if s == nil {
		s = &funcSide{}
		f.sides[key] = s
	}
	s.h = addAt(s.h, trial, run, significant(p.Funcs()))
	s.last = p
}

// negligible is the per-operation value below which a function is left
// out of a kept profile: a tenth of the half instruction below which
// culprit.Explain tests no change, so a suite of hundreds of benchmarks
// keeps only what can matter.
const negligible = 0.05

// significant returns funcs without the functions whose value is
// negligible, in place.
func significant(funcs map[string]float64) map[string]float64 {
	for f, v := range funcs {
		if v < negligible && v > -negligible {
			delete(funcs, f)
		}
	}
	return funcs
}

// kept returns the profiles of benchmark id in a version, without empty
// trials and runs (the shape of its estimate's hierarchy), and an error
// saying why there are none.
func (f *funcProfiles) kept(side Side, id string) (culprit.Measurements, *culprit.Profile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := side.String() + "\x00" + id
	if why := f.failed[key]; why != "" {
		return nil, nil, fmt.Errorf("a %s measurement's Valgrind files could not be read: %s", side, why)
	}
	s := f.sides[key]
	if s == nil {
		return nil, nil, fmt.Errorf("no per-function profile of the %s was kept", side)
	}
	var c culprit.Measurements
	for _, t := range s.h {
		var ct [][]map[string]float64
		for _, r := range t {
			if len(r) > 0 {
				ct = append(ct, r)
			}
		}
		if len(ct) > 0 {
			c = append(c, ct)
		}
	}
	return c, s.last, nil
}

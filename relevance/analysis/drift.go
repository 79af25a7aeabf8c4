package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/relevance/suite"
)

// A DriftKind names one way a saved suite no longer fits its repository.
type DriftKind string

// The kinds of drift, in the order [CheckDrift] lists them.
const (
	// DriftMissing: a benchmark of the suite whose top-level function is
	// no longer declared in its package (removed or renamed), or whose
	// package is gone.
	DriftMissing DriftKind = "missing"
	// DriftUnprofiled: a top-level benchmark declared in the repository
	// that the profiles do not include (new since they were collected).
	DriftUnprofiled DriftKind = "unprofiled"
	// DriftNoProfile: a benchmark of the suite without a profile among
	// the profiles, so its coverage is unknown.
	DriftNoProfile DriftKind = "no_profile"
	// DriftNoCoverage: a benchmark of the suite that covers no function
	// of the application.
	DriftNoCoverage DriftKind = "no_coverage"
	// DriftLowCoverage: the suite's project-only coverage of the
	// application is below DriftConfig.MinCoverage.
	DriftLowCoverage DriftKind = "low_coverage"
)

var driftOrder = []DriftKind{DriftMissing, DriftUnprofiled, DriftNoProfile, DriftNoCoverage, DriftLowCoverage}

// DriftConfig says what [CheckDrift] compares.
type DriftConfig struct {
	// Suite is the saved suite's benchmarks (see suite.ReadJSON and
	// suite.Benchmarks).
	Suite []suite.Benchmark
	// Declared maps each package's import path to the top-level
	// benchmark functions its test files declare now (package collect's
	// Discover finds them). Packages without benchmarks may be left out.
	Declared map[string][]string
	// Report is an analysis of the application and the benchmark
	// profiles; nil skips the checks that need profiles (unprofiled,
	// no_profile, no_coverage, low_coverage).
	Report *Report
	// MinCoverage is the lowest acceptable project-only coverage of the
	// application by the suite, as a fraction in [0, 1]; 0 disables the
	// check. It needs Report.
	MinCoverage float64
}

// A DriftFinding is one difference between the saved suite and the
// repository or the profiles.
type DriftFinding struct {
	// Kind says what drifted.
	Kind DriftKind `json:"kind"`
	// Package is the benchmark's import path; empty for low_coverage.
	Package string `json:"package,omitempty"`
	// Benchmark is the benchmark's name: the suite's full name, or the
	// top-level function for unprofiled; empty for low_coverage.
	Benchmark string `json:"benchmark,omitempty"`
	// Candidates are, for missing, the top-level benchmarks of the same
	// package that neither the suite nor the profiles know: the new names
	// a renamed benchmark may have. Sorted; empty without a Report.
	Candidates []string `json:"candidates,omitempty"`
	// Message says what drifted and what to do, in one sentence.
	Message string `json:"message"`
}

// Drift is the outcome of [CheckDrift].
type Drift struct {
	// Benchmarks is the number of benchmarks in the saved suite.
	Benchmarks int `json:"benchmarks"`
	// Coverage is the saved suite's project-only coverage of the
	// application, counted over the suite benchmarks that have profiles;
	// nil without a Report.
	Coverage *coverage.Ratio `json:"coverage,omitempty"`
	// FullCoverage is the project-only coverage by all the profiled
	// benchmarks, what a suite rebuilt from the profiles would keep; nil
	// without a Report.
	FullCoverage *coverage.Ratio `json:"full_coverage,omitempty"`
	// Findings are the differences, by kind (in the order of the DriftKind
	// constants), then package, then benchmark.
	Findings []DriftFinding `json:"findings"`
}

// CheckDrift compares a saved suite with the benchmarks declared in the
// repository now and, with a Report, with the profiles and the application:
// see the DriftKind constants for what it finds. Top-level names are
// compared, so a suite benchmark "BenchmarkX/n=1" is declared when
// BenchmarkX is. It fails when MinCoverage is outside [0, 1] or is set
// without a Report.
func CheckDrift(cfg DriftConfig) (*Drift, error) {
	if !(cfg.MinCoverage >= 0 && cfg.MinCoverage <= 1) {
		return nil, mbopt.Errorf("%s must be a fraction in [0, 1], not %g", FieldMinCoverage, cfg.MinCoverage)
	}
	if cfg.MinCoverage > 0 && cfg.Report == nil {
		return nil, mbopt.Errorf("%s needs the profiles: set %s", FieldMinCoverage, FieldReport)
	}
	d := &Drift{Benchmarks: len(cfg.Suite), Findings: []DriftFinding{}}
	declared := map[[2]string]bool{}
	for pkg, names := range cfg.Declared {
		for _, n := range names {
			declared[[2]string{pkg, n}] = true
		}
	}
	inSuite := map[[2]string]bool{}
	for _, b := range cfg.Suite {
		inSuite[[2]string{b.Package, benchname.Top(b.Name)}] = true
	}
	profiled := map[[2]string]bool{}
	if rep := cfg.Report; rep != nil {
		for _, e := range rep.Entries {
			profiled[[2]string{e.Package, benchname.Top(e.Name)}] = true
		}
		for id := range rep.Profiles {
			if pkg, name, ok := rep.benchmarkOf(id); ok {
				profiled[[2]string{pkg, benchname.Top(name)}] = true
			}
		}
	}
	// New top-level benchmarks, by package: not in the suite and not
	// profiled. Without profiles a benchmark outside the suite may be old,
	// so none is named.
	fresh := map[string][]string{}
	for k := range declared {
		if cfg.Report != nil && !inSuite[k] && !profiled[k] {
			fresh[k[0]] = append(fresh[k[0]], k[1])
		}
	}
	for _, names := range fresh {
		slices.Sort(names)
	}

	seen := map[[2]string]bool{}
	for _, b := range cfg.Suite {
		k := [2]string{b.Package, benchname.Top(b.Name)}
		if declared[k] || seen[k] {
			continue
		}
		seen[k] = true
		f := DriftFinding{Kind: DriftMissing, Package: b.Package, Benchmark: b.Name, Candidates: fresh[b.Package]}
		switch {
		case len(cfg.Declared[b.Package]) == 0:
			f.Message = fmt.Sprintf("%s %s: package %s declares no benchmarks now (removed, moved or renamed); rebuild the suite", b.Package, b.Name, b.Package)
		case len(f.Candidates) > 0:
			f.Message = fmt.Sprintf("%s %s: %s is no longer declared (removed, or renamed to %s?); rebuild the suite", b.Package, b.Name, k[1], strings.Join(f.Candidates, " or "))
		default:
			f.Message = fmt.Sprintf("%s %s: %s is no longer declared (removed or renamed); rebuild the suite", b.Package, b.Name, k[1])
		}
		d.Findings = append(d.Findings, f)
	}
	if cfg.Report != nil {
		d.profileFindings(cfg, declared, profiled)
	}
	slices.SortFunc(d.Findings, func(a, b DriftFinding) int {
		return cmp.Or(
			cmp.Compare(slices.Index(driftOrder, a.Kind), slices.Index(driftOrder, b.Kind)),
			strings.Compare(a.Package, b.Package),
			strings.Compare(a.Benchmark, b.Benchmark))
	})
	return d, nil
}

// profileFindings adds the findings that need the profiles.
func (d *Drift) profileFindings(cfg DriftConfig, declared, profiled map[[2]string]bool) {
	rep := cfg.Report
	for k := range declared {
		if !profiled[k] {
			d.Findings = append(d.Findings, DriftFinding{Kind: DriftUnprofiled, Package: k[0], Benchmark: k[1],
				Message: fmt.Sprintf("%s %s: declared but not in the profiles; profile it (mbopt profile) and rebuild the suite", k[0], k[1])})
		}
	}
	cov := rep.Coverage
	union := bitset.New(cov.App.Len())
	for _, b := range cfg.Suite {
		k := [2]string{b.Package, benchname.Top(b.Name)}
		if !declared[k] {
			continue // reported as missing
		}
		sets := suiteSets(rep, b)
		if len(sets) == 0 {
			d.Findings = append(d.Findings, DriftFinding{Kind: DriftNoProfile, Package: b.Package, Benchmark: b.Name,
				Message: fmt.Sprintf("%s %s: in the suite but without a profile; profile it (mbopt profile)", b.Package, b.Name)})
			continue
		}
		covered := bitset.New(cov.App.Len())
		for _, i := range sets {
			covered.Or(cov.Sets[i].Nodes)
		}
		if covered.Len() == 0 {
			d.Findings = append(d.Findings, DriftFinding{Kind: DriftNoCoverage, Package: b.Package, Benchmark: b.Name,
				Message: fmt.Sprintf("%s %s: covers no function of the application any more; rebuild the suite", b.Package, b.Name)})
		}
		union.Or(covered)
	}
	project, _ := cov.Ratios(union)
	d.Coverage = &project
	full := cov.Project
	d.FullCoverage = &full
	if cfg.MinCoverage > 0 && project.Ratio < cfg.MinCoverage {
		d.Findings = append(d.Findings, DriftFinding{Kind: DriftLowCoverage,
			Message: fmt.Sprintf("the suite covers %d of %d project functions of the application (%.1f%%), below the minimum %.1f%%; all profiled benchmarks cover %.1f%%: rebuild the suite",
				project.Covered, project.Total, 100*project.Ratio, 100*cfg.MinCoverage, 100*full.Ratio)})
	}
}

// suiteSets returns the indexes of the coverage sets of suite benchmark b:
// the profile with b's package and full name (by manifest entry or id),
// else the profiles of its sub-benchmarks.
func suiteSets(rep *Report, b suite.Benchmark) []int {
	name := benchname.Rewrite(b.Name)
	var out []int
	for i, s := range rep.Coverage.Sets {
		pkg, full, ok := rep.benchmarkOf(s.ID)
		if !ok || pkg != b.Package {
			continue
		}
		full = benchname.Rewrite(full)
		if full == name {
			return []int{i}
		}
		if strings.HasPrefix(full, name+"/") {
			out = append(out, i)
		}
	}
	return out
}

package report

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// A Shortfall says why fewer recommendations came out than were asked
// for (recommend.Shortfall): every project function no benchmark covers
// after the picks is Withheld or NotTarget, and with neither the picks
// cover all the application's project functions.
type Shortfall struct {
	// Asked is the number of recommendations asked for.
	Asked int `json:"asked"`
	// Given is the number that came out, fewer than Asked.
	Given int `json:"given"`
	// Withheld counts the uncovered project functions withheld because a
	// thin benchmark profile (ThinBenchmarks) may have run them unseen.
	Withheld int `json:"withheld"`
	// LongerBenchTime, with Withheld, is the benchtime that gives the
	// thinnest profile about 100 samples (its ThinBenchmark's).
	LongerBenchTime string `json:"longer_benchtime,omitempty"`
	// NotTarget counts the other uncovered project functions: those no
	// candidate reaches (with callable targets, such as the functions of
	// packages under cmd/).
	NotTarget int `json:"not_target"`
	// Why says it in one sentence, with what to run for more, as every
	// format prints it.
	Why string `json:"why"`
}

// shortfallOf returns the Document's shortfall of rep's recommendations,
// nil when there is none.
func shortfallOf(rep *analysis.Report) *Shortfall {
	if rep.Recommendations == nil || rep.Recommendations.Shortfall == nil {
		return nil
	}
	r := rep.Recommendations.Shortfall
	s := &Shortfall{Asked: r.Asked, Given: r.Given, Withheld: r.Withheld, NotTarget: r.NotTarget}
	var why []string
	if s.Withheld > 0 {
		fix := "profile longer"
		if thin := analysis.ByThinness(rep.Thin); len(thin) > 0 {
			s.LongerBenchTime = thin[0].Longer
			fix += " (mbopt profile --benchtime " + s.LongerBenchTime + ")"
		}
		why = append(why, fmt.Sprintf("%s withheld as possibly run unseen by thin benchmark profiles: %s or record exact coverage (mbopt profile --source cover), then analyze again",
			textutil.Plural(s.Withheld, "project function"), fix))
	}
	if s.NotTarget > 0 {
		what := "no function a benchmark can call reaches (such as those of packages under cmd/; --targets any recommends any function)"
		if rep.Targets != recommend.Callable {
			what = "lie in packages left out of the recommendations"
		}
		why = append(why, fmt.Sprintf("%s %s", textutil.Plural(s.NotTarget, "uncovered project function"), what))
	}
	if len(why) == 0 {
		why = append(why, "with them the suite covers every project function of the application profile, so there is nothing more to recommend")
	}
	s.Why = fmt.Sprintf("%d of the %d recommendations asked for came out: %s.", s.Given, s.Asked, strings.Join(why, "; "))
	return s
}

// describe fills d's developer details from the recommendation r of rep.
func describe(d *Recommendation, r *recommend.Recommendation, rep *analysis.Report) {
	app := rep.Coverage.App
	for _, v := range r.Closures {
		d.Closures = append(d.Closures, app.Nodes[v].Name)
	}
	d.Dir = packageDir(r.Package, rep)
	d.File, d.Line = r.File, r.Line
	if d.Dir != "" && d.File != "" {
		// Profiles record the build machine's path, with '/' or '':
		// relative to the module root it means the same on every machine.
		d.File = path.Join(d.Dir, d.File[strings.LastIndexAny(d.File, `/\`)+1:])
	}
	exported := r.Exported
	d.Exported = &exported
	for _, v := range r.Callers {
		n := app.Nodes[v]
		d.Callers = append(d.Callers, Caller{Function: n.Name, Package: n.Package, Project: n.Project, CumSeconds: ns(n.Cum)})
	}
	for _, v := range r.Hottest {
		n := app.Nodes[v]
		d.Hottest = append(d.Hottest, Function{Function: n.Name, Package: n.Package, Project: n.Project, FlatSeconds: ns(n.Flat)})
	}
}

// packageDir returns pkg's directory relative to its module's root: the
// Dir a collection manifest records for it, else pkg's path below the
// longest project module it lies in; "" when it lies in none.
func packageDir(pkg string, rep *analysis.Report) string {
	for _, e := range rep.Entries {
		if e.Package == pkg && e.Dir != "" {
			return e.Dir
		}
	}
	best := ""
	for _, m := range rep.Modules {
		m = strings.TrimSuffix(m, "/")
		if callgraph.IsBelow(pkg, m) && len(m) > len(best) {
			best = m
		}
	}
	switch {
	case best == "":
		return ""
	case pkg == best:
		return "."
	}
	return pkg[len(best)+1:]
}

// source returns where r's function is declared, for people: File and
// Line ("httpapi/server.go:42"); "" when the profile records no file.
func (r Recommendation) source() string {
	if r.File == "" {
		return ""
	}
	f := r.File
	if r.Line > 0 {
		f += fmt.Sprintf(":%d", r.Line)
	}
	return f
}

// testKind says which test package can hold r's benchmark.
func (r Recommendation) testKind() string {
	if r.Exported == nil {
		return ""
	}
	pkg := packageName(r.Package)
	if *r.Exported {
		return "external test (package " + pkg + "_test)"
	}
	return "internal test (package " + pkg + ")"
}

// detailLines returns the lines the text report prints under a callable
// recommendation, its callers' and hottest functions' times written by
// weight ([Document.weight]).
func (r Recommendation) detailLines(weight func(float64) string) []string {
	var lines []string
	where := r.source()
	if where == "" {
		where = "source unknown"
	}
	lines = append(lines, fmt.Sprintf("      at %s; benchmark it in an %s", where, r.testKind()))
	if len(r.Closures) > 0 {
		lines = append(lines, fmt.Sprintf("      calls what it returns or starts: %s", strings.Join(r.Closures, ", ")))
	}
	if len(r.Callers) > 0 {
		var cs []string
		for _, c := range r.Callers {
			cs = append(cs, fmt.Sprintf("%s (%s cum)", c.Function, weight(c.CumSeconds)))
		}
		lines = append(lines, "      called by "+strings.Join(cs, ", "))
	}
	if len(r.Hottest) > 0 {
		var hs []string
		for _, h := range r.Hottest {
			hs = append(hs, fmt.Sprintf("%s (%s)", h.Function, weight(h.FlatSeconds)))
		}
		lines = append(lines, "      hottest beneath: "+strings.Join(hs, ", "))
	}
	return lines
}

// exported reports Exported, false when unknown.
func (r Recommendation) exported() bool { return r.Exported != nil && *r.Exported }

// majorVersion matches the /vN element of a major-version import path.
var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// packageName guesses the name a package with import path pkg declares:
// its last element, skipping a major-version suffix ("example.com/m/v2" is
// package m) and dropping a gopkg.in-style ".vN" ("gopkg.in/yaml.v3" is
// package yaml). Profiles record import paths only, so a package whose
// name differs from its directory in other ways is named by its directory.
func packageName(pkg string) string {
	elems := strings.Split(pkg, "/")
	name := elems[len(elems)-1]
	if majorVersion.MatchString(name) && len(elems) > 1 {
		name = elems[len(elems)-2]
	}
	if i := strings.LastIndex(name, ".v"); i > 0 && majorVersion.MatchString(name[i+1:]) {
		name = name[:i]
	}
	return name
}

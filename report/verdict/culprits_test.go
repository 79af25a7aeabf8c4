package verdict_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/report/verdict"
)

// culpritReport has two changes with culprits: BenchmarkLow (six
// culprits, a small application impact) before BenchmarkHigh (one
// culprit, a large one) in the report's order, and BenchmarkNone, a
// change outside the application.
func culpritReport(app bool) *compare.Report {
	m := fixtureModule
	r := &compare.Report{Schema: compare.SchemaVersion, Module: m, Base: baseRev, Head: headRev, Settings: settings()}
	var cs []culprit.Culprit
	for i, f := range []string{"a", "b", "c", "d", "e", "f"} {
		rel := float64(60-10*i) / 1000
		cs = append(cs, culprit.Culprit{Function: m + "/p." + f, Base: 1000, Head: 1000 + float64(60-10*i), Delta: float64(60 - 10*i), Relative: &rel, Kind: culprit.KindChanged, Share: float64(6-i) / 21, InApp: true})
	}
	low := result(m+"/p", "BenchmarkLow", "instructions/op", 0.21, 0.2, 0.22, benchstats.DefiniteRegression, nil)
	low.Culprits, low.Profiles = cs, &compare.Profiles{Base: "/out/culprits/low.base.pprof", Head: "/out/culprits/low.head.pprof"}
	high := result(m+"/p", "BenchmarkHigh", "instructions/op", 0.10, 0.09, 0.11, benchstats.DefiniteRegression, nil)
	high.Culprits, high.Profiles = cs[:1], &compare.Profiles{Base: "/out/culprits/high.base.pprof", Head: "/out/culprits/high.head.pprof"}
	none := result(m+"/p", "BenchmarkNone", "instructions/op", 0.05, 0.04, 0.06, benchstats.PotentialRegression, nil)
	none.Culprits = []culprit.Culprit{{Function: m + "/p.check", Base: 100, Head: 105, Delta: 5, Kind: culprit.KindChanged, Share: 1}}
	none.Profiles = &compare.Profiles{Base: "/out/culprits/none.base.pprof", Head: "/out/culprits/none.head.pprof"}
	if app {
		low.AppImpact = &culprit.AppImpact{Estimate: 0.01, Low: 0.009, High: 0.011, RelevantShare: 1, Basis: culprit.BasisFunctions}
		high.AppImpact = &culprit.AppImpact{Estimate: 0.08, Low: 0.07, High: 0.09, RelevantShare: 1, Basis: culprit.BasisFunctions}
		none.AppImpact = &culprit.AppImpact{RelevantShare: 0, NoImpact: true, Basis: culprit.BasisFunctions}
	}
	// An A/A benchmark explained on request: the runtime moved, within
	// its noise.
	aa := result(m+"/p", "BenchmarkSame", "instructions/op", 0.0001, -0.001, 0.001, benchstats.Unchanged, nil)
	aa.Explained = &compare.Explained{Measurements: [2]int{9, 9}, Tested: 4, Noise: 4}
	if app {
		aa.AppImpact = &culprit.AppImpact{Basis: culprit.BasisNone, NoImpact: true}
		r.AppMeasured = &compare.AppMeasurement{Source: "benchmark " + m + "/p.BenchmarkServe", Unit: "instructions/op",
			Estimate: benchstats.Estimate{Change: 0.069, CI: benchstats.Interval{Low: 0.062, High: 0.077}}}
	}
	r.Results = []compare.Result{low, high, none, aa}
	return r
}

// checkContains reports each of has that doc (named what) lacks and each
// of hasNot that it has.
func checkContains(t *testing.T, what, doc string, has, hasNot []string) {
	t.Helper()
	for _, s := range has {
		if !strings.Contains(doc, s) {
			t.Errorf("%s lacks %q", what, s)
		}
	}
	for _, s := range hasNot {
		if strings.Contains(doc, s) {
			t.Errorf("%s has %q", what, s)
		}
	}
}

// TestCulpritOutput: text shows the top 3 culprits under each change, in
// the table Markdown shows (culpritTable);
// Markdown a table of the changes by estimated application impact (the
// report's order without one), the top 5 culprits of each in a collapsed
// block with the pprof command, and "likely none" for a change outside
// the application.
func TestCulpritOutput(t *testing.T) {
	for _, tc := range []struct {
		name       string
		app        bool
		textHas    []string
		textHasNot []string
		mdOrder    []string // in this order
		mdHas      []string
		mdHasNot   []string
	}{
		{
			name: "with the application's profile",
			app:  true,
			textHas: []string{"Application: estimated +8.0% [+7.0% … +9.0%] (p.BenchmarkHigh, from its changed functions); measured +6.9% [+6.2% … +7.7%] (benchmark example.com/tinytsdb/p.BenchmarkServe, instructions/op).", "example.com/tinytsdb/p.c  1000 instructions  1040 instructions  +40.0 instructions, +4.0%  19.0%                 yes\n", "estimated application impact +8.0% [+7.0% … +9.0%] from the changed functions", "go tool pprof -top -diff_base /out/culprits/low.base.pprof /out/culprits/low.head.pprof", "likely no application impact",
				"no function changed beyond its noise: 4 functions moved within it (9 and 9 per-function profiles)", "estimated application impact 0: no function and not the benchmark changed beyond its noise"},
			textHasNot: []string{"tinytsdb/p.d "}, // a 4th culprit: text shows 3
			mdOrder:    []string{"| 1 | +8.0% |", "| 2 | +1.0% |", "| 3 | likely none |", "<details><summary>1. instructions/op +10.0%", "<details><summary>2. instructions/op +21.0%"},
			mdHas:      []string{"**Application: estimated +8.0% [+7.0% … +9.0%] (`p.BenchmarkHigh`, from its changed functions); measured +6.9% [+6.2% … +7.7%] (`benchmark example.com/tinytsdb/p.BenchmarkServe`, `instructions/op`).**", "`example.com/tinytsdb/p.e`", "Reproduce: `go tool pprof -top -diff_base /out/culprits/high.base.pprof /out/culprits/high.head.pprof`", "likely no application impact</summary>"},
			mdHasNot:   []string{"`example.com/tinytsdb/p.f`"},
		},
		{
			name:     "without",
			textHas:  []string{"1060 instructions  +60.0 instructions, +6.0%  28.6%\n", "no function changed beyond its noise: 4 functions moved"},
			mdOrder:  []string{"| 1 | +21.0% |", "| 2 | +10.0% |", "| 3 | +5.0% |", "| 4 | +0.0% |", "none beyond noise"},
			mdHasNot: []string{"application impact", "likely", "Application:"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := culpritReport(tc.app)
			var text, md bytes.Buffer
			if err := verdict.WriteText(&text, r); err != nil {
				t.Fatal(err)
			}
			if err := verdict.WriteMarkdown(&md, r); err != nil {
				t.Fatal(err)
			}
			checkContains(t, "text", text.String(), tc.textHas, tc.textHasNot)
			at := 0
			for _, s := range tc.mdOrder {
				i := strings.Index(md.String()[at:], s)
				if i < 0 {
					t.Errorf("Markdown lacks %q after offset %d", s, at)
					continue
				}
				at += i
			}
			checkContains(t, "Markdown", md.String(), tc.mdHas, tc.mdHasNot)
			if t.Failed() {
				t.Logf("text:\n%s\nMarkdown:\n%s", text.String(), md.String())
			}
		})
	}
}

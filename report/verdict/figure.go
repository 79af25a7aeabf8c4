package verdict

import (
	"fmt"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/report/plot"
)

// Figure returns the interval figure of r's compared results, in r's
// order: one row per benchmark and unit, labelled with the benchmark
// relative to the module, in at most two lines of 48 characters (long
// names keep their start and end, see [plot.FitLabel]), and the unit
// unless it is sec/op; against r's threshold. Results that were not
// compared are left out. It returns nil when no result was compared.
func Figure(r *compare.Report) *plot.IntervalFigure {
	f := &plot.IntervalFigure{
		Title:     fmt.Sprintf("%s: change of each benchmark, %g%% CI", r.Module, 100*r.Settings.Confidence),
		XLabel:    fmt.Sprintf("change of the median, head vs base (%%); shaded: ±%s, unchanged", thresholdText(r.Settings.Threshold)),
		Threshold: r.Settings.Threshold,
	}
	for i := range r.Results {
		res := &r.Results[i]
		if res.Status != compare.Compared || res.Estimate == nil {
			continue
		}
		label := plot.FitLabel(displayName(r.Module, res), 48, 2)
		if res.Unit != "sec/op" {
			label += " (" + res.Unit + ")"
		}
		f.Rows = append(f.Rows, plot.IntervalRow{Label: label, Estimate: *res.Estimate, Verdict: res.Verdict})
	}
	if len(f.Rows) == 0 {
		return nil
	}
	return f
}

package plot_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/plot"
	"github.com/mbopt/mbopt/testkit/golden"
)

// classificationExamples are the rows of docs/compare-classification.svg,
// the paper's Figure 3 for mbopt's rule: each row names the verdict it
// illustrates, and the test checks that benchstats.Classify agrees.
var classificationExamples = []struct {
	label             string
	change, low, high float64
	want              benchstats.Verdict
}{
	{"definite regression\nthe whole CI beyond +1%", 0.06, 0.035, 0.085, benchstats.DefiniteRegression},
	{"potential regression\nmedian beyond +1%, CI reaches into the band", 0.04, -0.002, 0.09, benchstats.PotentialRegression},
	{"potential regression\nthe CI ends on +1% (bounds are strict)", 0.03, 0.01, 0.05, benchstats.PotentialRegression},
	{"unchanged\nmedian inside the band", 0.004, -0.006, 0.012, benchstats.Unchanged},
	{"unchanged, unstable\nmedian inside the band, wide CI", -0.005, -0.05, 0.04, benchstats.Unchanged},
	{"potential improvement\nmedian beyond −1%, CI reaches into the band", -0.035, -0.07, 0.004, benchstats.PotentialImprovement},
	{"definite improvement\nthe whole CI beyond −1%", -0.055, -0.075, -0.03, benchstats.DefiniteImprovement},
}

// TestClassificationFigureGolden regenerates the classification figure of
// docs/compare.md (make golden rewrites it).
func TestClassificationFigureGolden(t *testing.T) {
	const threshold = 0.01
	f := &plot.IntervalFigure{
		Title:     "Classifying a change: its 99% confidence interval against the ±1% band",
		XLabel:    "relative change of the median, head vs base (%); shaded: the threshold band",
		Threshold: threshold,
	}
	for _, ex := range classificationExamples {
		e := benchstats.Estimate{Change: ex.change, CI: benchstats.Interval{Low: ex.low, High: ex.high}}
		v := benchstats.Classify(e, threshold, false)
		require.Equal(t, ex.want, v, "%s: Classify disagrees with the figure's label", ex.label)
		f.Rows = append(f.Rows, plot.IntervalRow{Label: ex.label, Estimate: e, Verdict: v})
	}
	svg, err := f.SVG()
	require.NoError(t, err)
	golden.Check(t, filepath.Join("..", "..", "docs", "compare-classification.svg"), svg)
	again, err := f.SVG()
	require.NoError(t, err)
	assert.Equal(t, svg, again, "deterministic")
}

func TestIntervalFigureRejectsBadRows(t *testing.T) {
	_, err := (&plot.IntervalFigure{Title: "x"}).SVG()
	assert.ErrorContains(t, err, "no rows")
	bad := &plot.IntervalFigure{Title: "x", Rows: []plot.IntervalRow{{Label: "nan", Estimate: benchstats.Estimate{Change: nan()}}}}
	_, err = bad.PNG()
	assert.ErrorContains(t, err, fmt.Sprintf("row %q", "nan"))
}

func nan() float64 { return math.NaN() }

func TestChangeTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     []string
	}{
		{-8.4, 9.2, []string{"-8%", "-6%", "-4%", "-2%", "0", "+2%", "+4%", "+6%", "+8%"}},
		{-3, 3, []string{"-3%", "-2%", "-1%", "0", "+1%", "+2%", "+3%"}},
		{-35, 16, []string{"-30%", "-20%", "-10%", "0", "+10%"}},
		{0.5, 0.9, []string{"+0.50%", "+0.55%", "+0.60%", "+0.65%", "+0.70%", "+0.75%", "+0.80%", "+0.85%", "+0.90%"}},
		{1, 1, nil},
	} {
		var got []string
		for _, tk := range plot.ChangeTicks(tc.min, tc.max) {
			got = append(got, tk.Label)
		}
		assert.Equal(t, tc.want, got, "ticks(%v, %v)", tc.min, tc.max)
	}
}

package trend_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/trend"
)

// TestHistoryEDivisive renders a series judged by E-divisive alone: the
// text marks the change point "E" and names it in the legend, and the
// figure draws.
func TestHistoryEDivisive(t *testing.T) {
	s := history.Series{ID: "example.com/m.BenchmarkQuery", Package: "example.com/m", Name: "BenchmarkQuery", Unit: "sec/op"}
	for i := range 14 {
		v := 0.0
		if i >= 7 {
			v = 0.05
		}
		v += 0.001 * float64(i%3-1)
		s.Points = append(s.Points, history.Point{
			Head:  compare.Revision{Commit: fmt.Sprintf("%040d", i+1), Time: time.Unix(int64(i)*3600, 0).UTC()},
			Point: detect.Point{Change: v, CI: benchstats.Interval{Low: v - 0.004, High: v + 0.004}},
		})
	}
	set := &history.Set{Baseline: compare.Revision{Commit: strings.Repeat("0", 40)}, Series: []history.Series{s}}
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.01
	opt.Detectors = []detect.Kind{detect.EDivisive}
	detected, err := set.Detect(opt, nil)
	require.NoError(t, err)
	doc := trend.NewDocument(set.Baseline, opt, detected)
	require.Len(t, doc.Series[0].Detections, 1)
	assert.Equal(t, detect.EDivisive, doc.Series[0].Detections[0].Kind)
	assert.Equal(t, 7, doc.Series[0].Detections[0].Index)
	var buf bytes.Buffer
	require.NoError(t, trend.WriteText(&buf, doc))
	assert.Contains(t, buf.String(), "E E-divisive change point")
	assert.Contains(t, buf.String(), "definite edivisive up +5.")
	svg, err := trend.SeriesSVG(doc.Series[0], doc.Baseline.Commit)
	require.NoError(t, err)
	assert.Contains(t, string(svg), "definite edivisive up")
}
